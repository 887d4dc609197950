// Who may watch which device live. A device is watched by its identity (IMEI, else serial). The
// caller needs a device permission (list or view); provider staff (the provider tenant) may watch
// every device, anyone else only the devices of the customer whose tenant they belong to — a
// supervisor of one tenant never receives another tenant's device events. The rule is the
// repositories' tenant scope (tenant-scope.ts).
import type { DB } from '../db/index.js';
import type { AuthUser } from '../http.js';
import { P } from '../../shared/permissions.js';
import { byCustomer, tenantScope } from '../tenant-scope.js';

export type Watcher = Pick<AuthUser, 'tenantId' | 'permissions'>;

const CHUNK = 500;

export const mayWatchDevices = (u: Watcher) => u.permissions.includes(P.DeviceView) || u.permissions.includes(P.DeviceListView);

/** Splits identities into those the caller may watch (known devices in scope) and the refused rest, each once, in the order given. */
export async function scopeIdentities(db: DB, user: Watcher, identities: readonly string[]): Promise<{ Subscribed: string[]; Refused: string[] }> {
  const wanted = [...new Set(identities.map((s) => s.trim()).filter(Boolean))];
  if (!mayWatchDevices(user)) return { Subscribed: [], Refused: wanted };
  const scope = tenantScope(user);
  const ok = new Set<string>();
  for (let i = 0; i < wanted.length; i += CHUNK) {
    const part = wanted.slice(i, i + CHUNK);
    const rows = await byCustomer(
      db
        .selectFrom('devices as d')
        .select(['d.imei', 'd.serialNumber'])
        .where((eb) => eb.or([eb('d.imei', 'in', part), eb('d.serialNumber', 'in', part)])),
      scope,
      'd.customerId',
    ).execute();
    for (const r of rows) {
      if (r.imei && part.includes(r.imei)) ok.add(r.imei);
      if (part.includes(r.serialNumber) && !r.imei) ok.add(r.serialNumber);
    }
  }
  return { Subscribed: wanted.filter((x) => ok.has(x)), Refused: wanted.filter((x) => !ok.has(x)) };
}
