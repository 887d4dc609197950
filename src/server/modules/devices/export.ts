// Device exports as real .xlsx files (spec §9: file type xlsx, named by a label and a timestamp),
// written with write-excel-file (exceljs does not install from the registry here).
import writeXlsxFile, { type Column } from 'write-excel-file/node';
import type { DeviceDto } from '../../../shared/schemas/devices.js';

/** A date cell, or an empty one (a format may only go with a value). */
const when = (iso: string | null) => (iso ? { value: new Date(iso), format: 'dd/mm/yyyy hh:mm' } : { value: '' });

/** The asset list's columns, in its order (spec §2 "Assets device list"). */
const COLUMNS: Column<DeviceDto>[] = [
  { header: 'Serial Number', cell: (d) => ({ value: d.serialNumber }), width: 22 },
  { header: 'IMEI', cell: (d) => ({ value: d.imei ?? '' }), width: 18 },
  { header: 'Device Type', cell: (d) => ({ value: d.type.name }), width: 18 },
  { header: 'Status', cell: (d) => ({ value: d.status.name }), width: 18 },
  { header: 'Customer Account', cell: (d) => ({ value: d.customerName ?? '' }), width: 28 },
  { header: 'Order Number', cell: (d) => ({ value: d.orderNumber ?? '' }), width: 16 },
  { header: 'Phone Number', cell: (d) => ({ value: d.phoneNumber ?? '' }), width: 16 },
  { header: 'Assigned', cell: (d) => ({ value: d.isUserAssigned ? 'Yes' : 'No' }), width: 10 },
  { header: 'Firmware', cell: (d) => ({ value: d.firmwareVersion ?? '' }), width: 12 },
  { header: 'Last Config', cell: (d) => when(d.lastConfigurationDate), width: 18 },
  { header: 'Added To System', cell: (d) => when(d.addedToSystem), width: 18 },
];

export const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** 'Devices_20261122_203000.xlsx' */
export function exportFileName(label: string, at: Date) {
  const p = (n: number) => String(n).padStart(2, '0');
  return `${label}_${at.getUTCFullYear()}${p(at.getUTCMonth() + 1)}${p(at.getUTCDate())}_${p(at.getUTCHours())}${p(at.getUTCMinutes())}${p(at.getUTCSeconds())}.xlsx`;
}

/** The workbook of the given devices, as bytes. */
export async function devicesWorkbook(devices: DeviceDto[]): Promise<Buffer> {
  return writeXlsxFile(devices, { columns: COLUMNS, sheet: 'Devices', stickyRowsCount: 1 }).toBuffer();
}
