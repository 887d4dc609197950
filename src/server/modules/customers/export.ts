// Customer list export as a real .xlsx (spec §9: xlsx named by a label and a timestamp), written
// with write-excel-file like the device exports (modules/devices/export.ts).
import writeXlsxFile, { type Column } from 'write-excel-file/node';
import type { CustomerListItem } from '../../../shared/schemas/customers.js';

/** The customer list's columns, in its order (spec §2 "Customer list"). */
const COLUMNS: Column<CustomerListItem>[] = [
  { header: 'Reference', cell: (c) => ({ value: c.reference ?? '' }), width: 14 },
  { header: 'Name', cell: (c) => ({ value: c.name }), width: 40 },
  { header: 'Tier', cell: (c) => ({ value: c.tier?.name ?? '' }), width: 12 },
  { header: 'Migrated', cell: (c) => ({ value: c.migrated ? 'Yes' : 'No' }), width: 10 },
  { header: 'Status', cell: (c) => ({ value: c.status?.name ?? '' }), width: 14 },
];

export async function customersWorkbook(customers: CustomerListItem[]): Promise<Buffer> {
  return writeXlsxFile(customers, { columns: COLUMNS, sheet: 'Customers', stickyRowsCount: 1 }).toBuffer();
}
