// The fleet area's export, registered with the export pool (exports/registry.ts): the usage report of a customer.
import { registerExport } from '../../exports/registry.js';
import { usageReportExport } from './usage-export.js';

declare module '../../exports/registry.js' {
  interface ExportKinds {
    /** `now` is an ISO instant; `month` 'YYYY-MM' */
    usageReport: { customerId: string; month: string; now: string };
  }
}

registerExport('usageReport', (job) => usageReportExport(job.scope, { customerId: job.customerId, month: job.month, now: new Date(job.now) }));
