// Device exports (spec §9: xlsx named by a label and a timestamp): the asset list's columns, the
// filtered devices in serial-number order (keyset pages), or the devices of a list of ids in the
// order given. Run only inside the export pool (src/server/exports).
import type { DeviceDto, DeviceListBody } from '../../../shared/schemas/devices.js';
import { withZone } from '../../../shared/export-format.js';
import { keysetPages, type ExportColumn, type ExportDefinition } from '../../exports/definition.js';
import { countFilteredDevices, deviceExportPage, listDevicesByIds } from './repo.js';
import type { TenantScope } from '../../auth/tenant-scope.js';

/** The asset list's columns (spec §2 "Assets device list"), SIM Serial included. */
const COLUMNS: ExportColumn<DeviceDto>[] = [
  { header: 'Serial Number', value: (d) => d.serialNumber, width: 22 },
  { header: 'IMEI', value: (d) => d.imei, width: 18 },
  { header: 'SIM Serial', value: (d) => d.simSerial, width: 24 },
  { header: 'Device Type', value: (d) => d.type.name, width: 18 },
  { header: 'Status', value: (d) => d.status.name, width: 18 },
  { header: 'Customer Account', value: (d) => d.customerName, width: 28 },
  { header: 'Order Number', value: (d) => d.orderNumber, width: 16 },
  { header: 'Phone Number', value: (d) => d.phoneNumber, width: 16 },
  { header: 'Assigned', value: (d) => (d.isUserAssigned ? 'Yes' : 'No'), width: 10 },
  { header: 'Firmware', value: (d) => d.firmwareVersion, width: 12 },
  { header: withZone('Last Config'), value: (d) => d.lastConfigurationDate, width: 24, date: true },
  { header: withZone('Added To System'), value: (d) => d.addedToSystem, width: 24, date: true },
];

export type DeviceExportFilter = Omit<DeviceListBody, 'page' | 'pageSize'>;

/** The filtered devices within the scope (one customer's when customerId is given). */
export function deviceExport(scope: TenantScope, f: DeviceExportFilter, now: Date, customerId?: string): ExportDefinition<DeviceDto> {
  return {
    sheet: 'Devices',
    columns: COLUMNS,
    count: (db) => countFilteredDevices(db, scope, f, now, customerId),
    pages: (db) =>
      keysetPages(
        (after: string | null, size) => deviceExportPage(db, scope, f, now, customerId, after, size),
        (d) => d.serialNumber,
      ),
  };
}

/** The known devices (within the scope) of a list of ids, in the order given, each once. */
export function deviceIdsExport(scope: TenantScope, ids: string[]): ExportDefinition<DeviceDto> {
  const unique = [...new Set(ids)];
  const PAGE = 2000;
  return {
    sheet: 'Devices',
    columns: COLUMNS,
    count: async (db) => {
      let n = 0;
      for (let i = 0; i < unique.length; i += PAGE) n += (await listDevicesByIds(db, scope, unique.slice(i, i + PAGE))).length;
      return n;
    },
    pages: async function* (db) {
      for (let i = 0; i < unique.length; i += PAGE) yield await listDevicesByIds(db, scope, unique.slice(i, i + PAGE));
    },
  };
}
