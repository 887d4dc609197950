// Database functions of fleet health: the counts over every allocated device (all categories and
// customers in one statement, one snapshot), and the thresholds — the provider's (scope '') and a
// customer's override (scope = the customer id) in fleetThresholds.
import { sql } from 'kysely';
import { isPostgres, type DB } from '../../db/index.js';
import {
  FLEET_CATEGORIES,
  FLEET_DEFAULTS,
  THRESHOLD_KEYS,
  type FleetCounts,
  type FleetHealthDto,
  type FleetOverride,
  type FleetThresholds,
} from '../../../shared/schemas/fleet.js';
import { categoryDevices } from './conditions.js';

const PROVIDER = '';

const zero = (): FleetCounts => ({ silent: 0, notCharged: 0, unused: 0, switchedOff: 0, configPending: 0, firmwareBehind: 0 });

/** Fleet health now: per customer (worst first) and in all, over every allocated device. */
export async function fleetHealth(db: DB, now: Date): Promise<FleetHealthDto> {
  const pg = isPostgres(db);
  // Each category's devices are read from its index of the fleet state (conditions.ts), a device
  // once per category it is in; the allocated devices per customer from the state's customer index.
  const hits = sql.join(
    FLEET_CATEGORIES.map((c) => sql`select "customerId", "deviceId", ${sql.lit(c)} as "category" from (${categoryDevices(pg, c, now)}) ${sql.ref(`in_${c}`)}`),
    sql` union all `,
  );
  const rows = await sql<Record<string, string | number | null>>`
    with "hits" as (${hits})
    select n."customerId", n."devices", ${sql.join(FLEET_CATEGORIES.map((c) => sql`h.${sql.ref(c)}`))}, h."affected"
    from (select "customerId", count(*) as "devices" from "deviceFleetState" group by "customerId") n
    left join (
      select "customerId",
        ${sql.join(FLEET_CATEGORIES.map((c) => sql`sum(case when "category" = ${sql.lit(c)} then 1 else 0 end) as ${sql.ref(c)}`))},
        count(distinct "deviceId") as "affected"
      from "hits"
      group by "customerId"
    ) h on h."customerId" = n."customerId"`.execute(db);
  const ids = rows.rows.map((r) => String(r.customerId));
  const names = new Map<string, string>();
  const overrides = new Set<string>();
  for (let i = 0; i < ids.length; i += 500) {
    const part = ids.slice(i, i + 500);
    for (const c of await db.selectFrom('customers').select(['id', 'name']).where('id', 'in', part).execute()) names.set(c.id, c.name);
    for (const t of await db.selectFrom('fleetThresholds').select('scope').where('scope', 'in', part).execute()) overrides.add(t.scope);
  }
  const total = zero();
  let devices = 0;
  let affected = 0;
  const customers: FleetHealthDto['Customers'] = [];
  for (const r of rows.rows) {
    const counts = zero();
    for (const c of FLEET_CATEGORIES) {
      counts[c] = Number(r[c] ?? 0);
      total[c] += counts[c];
    }
    const n = Number(r.devices);
    const a = Number(r.affected ?? 0);
    devices += n;
    affected += a;
    if (a > 0)
      customers.push({
        CustomerId: String(r.customerId),
        CustomerName: names.get(String(r.customerId)) ?? '',
        Devices: n,
        Affected: a,
        Counts: counts,
        HasOverride: overrides.has(String(r.customerId)),
      });
  }
  customers.sort((x, y) => y.Affected - x.Affected || y.Affected / y.Devices - x.Affected / x.Devices || x.CustomerName.localeCompare(y.CustomerName, 'en-GB'));
  return { Devices: devices, Affected: affected, Counts: total, Customers: customers, Thresholds: await providerThresholds(db), At: now.toISOString() };
}

type ThresholdRow = { [K in keyof FleetThresholds]: number | null };
const rowOf = (db: DB, scope: string) =>
  db
    .selectFrom('fleetThresholds')
    .select([...THRESHOLD_KEYS])
    .where('scope', '=', scope)
    .executeTakeFirst() as Promise<ThresholdRow | undefined>;

/** The provider's thresholds (the defaults where it set none). */
export async function providerThresholds(db: DB): Promise<FleetThresholds> {
  const row = await rowOf(db, PROVIDER);
  return Object.fromEntries(THRESHOLD_KEYS.map((k) => [k, row?.[k] ?? FLEET_DEFAULTS[k]])) as FleetThresholds;
}

/** A customer's override (null: the provider's value). */
export async function customerOverride(db: DB, customerId: string): Promise<FleetOverride> {
  const row = await rowOf(db, customerId);
  return Object.fromEntries(THRESHOLD_KEYS.map((k) => [k, row?.[k] ?? null])) as FleetOverride;
}

/** Writes the thresholds of a scope ('' the provider's, else a customer's); a customer's override with nothing set is removed. Returns the values before. */
async function writeThresholds(db: DB, scope: string, values: ThresholdRow, now: Date): Promise<ThresholdRow | undefined> {
  const before = await rowOf(db, scope);
  if (THRESHOLD_KEYS.every((k) => values[k] === null)) {
    await db.deleteFrom('fleetThresholds').where('scope', '=', scope).execute();
    return before;
  }
  const row = { scope, ...values, updatedAt: now.toISOString() };
  await db
    .insertInto('fleetThresholds')
    .values(row)
    .onConflict((oc) => oc.column('scope').doUpdateSet({ ...values, updatedAt: row.updatedAt }))
    .execute();
  return before;
}

export const setProviderThresholds = (db: DB, values: FleetThresholds, now: Date) => writeThresholds(db, PROVIDER, values, now);
export const setCustomerOverride = (db: DB, customerId: string, values: FleetOverride, now: Date) => writeThresholds(db, customerId, values, now);
