// The customers' export and the serial-number import of an allocation, registered with the export
// pool (exports/registry.ts).
import { registerExport, registerImport } from '../../exports/registry.js';
import type { CustomerListBody } from '../../../shared/schemas/customers.js';
import { customerExport } from './export.js';
import { parseSerialsImport } from './import-csv.js';

declare module '../../exports/registry.js' {
  interface ExportKinds {
    customers: { filter: CustomerListBody };
  }
  interface ImportKinds {
    serials: string;
  }
}

registerExport('customers', (job) => customerExport(job.scope, job.filter));
registerImport('serials', parseSerialsImport);
