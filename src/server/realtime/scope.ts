// Who may watch which device live. A device is watched by its identity (IMEI, else serial). The
// caller needs a device permission (list or view); provider staff (the provider tenant) may watch
// every device, anyone else only the devices of the customer whose tenant they belong to — a
// supervisor of one tenant never receives another tenant's device events. The rule is the
// repositories' tenant scope (tenant-scope.ts).
import { CompiledQuery } from 'kysely';
import { isPostgres, type DB } from '../db/index.js';
import type { AuthUser } from '../http/api.js';
import { P } from '../../shared/permissions.js';
import { byCustomer, tenantScope, type TenantScope } from '../auth/tenant-scope.js';
import { setBounded } from '../platform/util.js';

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
    const rows = await knownInScope(db, scope, part);
    for (const r of rows) {
      if (r.imei && part.includes(r.imei)) ok.add(r.imei);
      if (part.includes(r.serialNumber) && !r.imei) ok.add(r.serialNumber);
    }
  }
  return { Subscribed: wanted.filter((x) => ok.has(x)), Refused: wanted.filter((x) => !ok.has(x)) };
}

type Known = { imei: string | null; serialNumber: string };
/** SQL texts of the look-up by dialect, scope kind and list length (a few shapes: a join names one device, or a screen's list). */
const TEXTS = 64;
const texts = new Map<string, string>();

/**
 * The devices of the scope among the identities. Every join of every connection runs it (a
 * reconnect storm: thousands a second), so the builder compiles it once per shape — the tenant
 * rule stays byCustomer's — and later look-ups bind their values to that text. A text is kept
 * only when its parameters are exactly the ones bound here, in this order.
 */
async function knownInScope(db: DB, scope: TenantScope, part: string[]): Promise<Known[]> {
  const query = (s: TenantScope, ids: string[]) =>
    byCustomer(
      db
        .selectFrom('devices as d')
        .select(['d.imei', 'd.serialNumber'])
        .where((eb) => eb.or([eb('d.imei', 'in', ids), eb('d.serialNumber', 'in', ids)])),
      s,
      'd.customerId',
    ).compile();
  const bind = (s: TenantScope, ids: string[]): unknown[] => (s.all ? [...ids, ...ids] : [...ids, ...ids, s.tenantId]);
  const key = `${isPostgres(db) ? 'pg' : 'sqlite'}:${scope.all ? 'all' : 'tenant'}:${part.length}`;
  let text = texts.get(key);
  if (text === undefined) {
    // compiled with marker values, so the check below sees where each value goes
    const markers = part.map((_, i) => `\u0000identity-${i}`);
    const markerScope: TenantScope = scope.all ? scope : { all: false, tenantId: '\u0000tenant' };
    const compiled = query(markerScope, markers);
    const expected = bind(markerScope, markers);
    if (compiled.parameters.length !== expected.length || !compiled.parameters.every((p, i) => p === expected[i]))
      return (await db.executeQuery(query(scope, part))).rows;
    text = setBounded(texts, key, compiled.sql, TEXTS);
  }
  return (await db.executeQuery(CompiledQuery.raw(text, bind(scope, part)))).rows as Known[];
}
