// The devices' exports (a filtered list, or devices by ids) and their CSV import, registered with
// the export pool (exports/registry.ts).
import { registerExport, registerImport } from '../../exports/registry.js';
import { deviceExport, deviceIdsExport, type DeviceExportFilter } from './export.js';
import { parseDeviceImport } from './import-csv.js';
import { planDeviceImport, writeDeviceImport, type NewDevice } from './repo.js';

declare module '../../exports/registry.js' {
  interface ExportKinds {
    /** `now` is an ISO instant; with `customerId`, that customer's devices only */
    devices: { filter: DeviceExportFilter; customerId?: string; now: string };
    deviceIds: { ids: string[] };
  }
  interface ImportKinds {
    devices: NewDevice;
  }
}

registerExport('devices', (job) => deviceExport(job.scope, job.filter, new Date(job.now), job.customerId));
registerExport('deviceIds', (job) => deviceIdsExport(job.scope, job.ids));
registerImport('devices', parseDeviceImport, { audit: { action: 'device.import', entity: 'device' }, plan: planDeviceImport, write: writeDeviceImport });
