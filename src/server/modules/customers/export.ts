// Customer list export (spec §9: xlsx named by a label and a timestamp): the list's columns, the
// filtered customers in name order (keyset pages). Run only inside the export pool (src/server/exports).
import type { CustomerListBody, CustomerListItem } from '../../../shared/schemas/customers.js';
import { keysetPages, type ExportColumn, type ExportDefinition } from '../../exports/definition.js';
import { countFilteredCustomers, customerExportPage } from './repo.js';
import type { TenantScope } from '../../auth/tenant-scope.js';

/** The customer list's columns, in its order (spec §2 "Customer list"). */
const COLUMNS: ExportColumn<CustomerListItem>[] = [
  { header: 'Reference', value: (c) => c.reference, width: 14 },
  { header: 'Name', value: (c) => c.name, width: 40 },
  { header: 'Tier', value: (c) => c.tier?.name, width: 12 },
  { header: 'Migrated', value: (c) => (c.migrated ? 'Yes' : 'No'), width: 10 },
  { header: 'Status', value: (c) => c.status?.name, width: 14 },
];

/** The filtered customers within the scope. */
export function customerExport(scope: TenantScope, f: CustomerListBody): ExportDefinition<CustomerListItem> {
  return {
    sheet: 'Customers',
    columns: COLUMNS,
    count: (db) => countFilteredCustomers(db, scope, f),
    pages: (db) =>
      keysetPages(
        (after: { name: string; id: string } | null, size) => customerExportPage(db, scope, f, after, size),
        (c) => ({ name: c.name, id: c.id }),
      ),
  };
}
