// Which demo devices the simulator drives: deterministic for a database (ordered by serial),
// half stock devices that can be configured (a box being prepared for shipping), half devices in
// customer accounts (people out in the field), every one with an identity (IMEI).
import type { DB } from '../db/index.js';
import { CAPABILITY, DEVICE_CAPABILITIES } from '../../shared/codes.js';
import type { SimDeviceSpec } from './simulator.js';

const alarmTypes = Object.entries(DEVICE_CAPABILITIES)
  .filter(([, c]) => c & CAPABILITY.RaiseAlarm)
  .map(([t]) => Number(t));
const configurable = alarmTypes.filter((t) => (DEVICE_CAPABILITIES[t] ?? 0) & CAPABILITY.ChangeConfiguration);

export async function simulatedDevices(db: DB, n: number): Promise<SimDeviceSpec[]> {
  if (n <= 0) return [];
  const pick = (statuses: number[], types: number[], limit: number) =>
    db
      .selectFrom('devices')
      .select(['serialNumber', 'imei', 'type', 'firmwareVersion'])
      .where('imei', 'is not', null)
      .where('status', 'in', statuses)
      .where('type', 'in', types)
      .orderBy('serialNumber')
      .limit(limit)
      .execute();
  const stock = await pick([1, 2], configurable, Math.ceil(n / 2));
  const field = await pick([3], alarmTypes, n - stock.length);
  return [...stock, ...field].map((d) => ({ identity: d.imei!, serial: d.serialNumber, type: d.type, firmware: d.firmwareVersion }));
}
