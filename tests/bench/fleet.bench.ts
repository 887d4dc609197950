// Fleet Health at a provider's volume (`npm run bench -- fleet`), on SQLite and on PostgreSQL:
//   - GET /ps-admin/fleet-health (every category's count over every allocated device, by customer):
//     wall and CPU p50 / p95 (goal p95 < 100 ms);
//   - each category's drill-down, POST /api/v1/device/get-list with the fleetHealth filter: page 1,
//     Next (after the last row of page 1) and the last page, wall and CPU p50 / p95 (goal p95 < 50 ms);
//   - the monthly usage-report schedule of every customer with allocated devices (the scheduler's
//     runs: the report, its .xlsx through the export pool, the e-mails to a local SMTP server): how
//     long the whole run takes;
//   - FLEET_BENCH_PARTS (default 'counts,lists,schedule') chooses among the three; FLEET_BENCH_RUNS
//     (default 20) is the number of timed count requests (a quarter of it, at least 5, per list page);
//   - with FLEET_BENCH_PLANS=1, the plan of the counting statement and of one drill-down page
//     (EXPLAIN QUERY PLAN; PostgreSQL EXPLAIN ANALYZE).
//
// The data (FLEET_BENCH_DEVICES, default 1,000,000): every tenth device is active (allocated, with
// a last message and 30 London days of daily usage), one in 300 more is allocated and never sent a
// message; the rest are in stock, reserved, returned or in quarantine. Among the active devices
// about 3 % stopped sending 2–9 days ago, 2.5 % last sent "Power off", 4.5 % send heartbeats but
// never check in, 3 % report a low battery with no charge for 6 days, 3 % have a configuration
// change queued 30 hours ago (2 % more 2 hours ago, 10 % applied), and 4 % of the allocated devices
// run the older firmware. Customers (one per 2,000 devices) are of very different sizes: the
// largest holds about an eighth of the allocated devices, the smallest a handful; three override
// the provider's thresholds. Built with INSERT … SELECT over a recursive CTE (SQLite) or
// generate_series (PostgreSQL), in chunks, into the schema the migrations make (indexes and
// triggers in place), and kept (harness/kept-data.ts): `.tmp/bench-fleet-<N>.sqlite` and the
// PostgreSQL database `bench_fleet_<N>`. The raw message stream is not loaded: Fleet Health and the
// usage report read the last messages and the daily usage only.
import { join } from 'node:path';
import { CompiledQuery, Kysely, PostgresDialect, SqliteDialect, type LogEvent } from 'kysely';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import { sql, type DB } from '../../src/server/db/index.js';
import { createApp } from '../../src/server/app.js';
import { testConfig } from '../../src/server/platform/config.js';
import { createOutbox } from '../../src/server/mail/outbox.js';
import { createReportScheduler } from '../../src/server/modules/schedules/scheduler.js';
import { fleetHealth } from '../../src/server/modules/fleet/repo.js';
import { listDevices } from '../../src/server/modules/devices/repo.js';
import { ALL_TENANTS } from '../../src/server/auth/tenant-scope.js';
import { deviceListBody } from '../../src/shared/schemas/devices.js';
import { FLEET_CATEGORIES, type FleetCategory, type FleetHealthDto } from '../../src/shared/schemas/fleet.js';
import { DEVICE_MESSAGE } from '../../src/shared/schemas/live.js';
import { CUSTOMER_FLAGS } from '../helpers/customer-rows.js';
import { signedIn, tokenFor } from '../helpers/auth.js';
import { startMailbox } from '../helpers/mailbox.js';
import { ROOT } from './browser.js';
import { percentileOf } from './stats.js';
import * as v from 'valibot';
import {
  benchApp,
  keptPgDb,
  load,
  log,
  newPostgres,
  newSqlite,
  onKeptData,
  pgUrl,
  postgresLoaded,
  r1,
  runAlone,
  sizeLabel,
  sqliteLoaded,
  type Dialect,
  type Figures,
  type KeptData,
} from './harness/kept-data.js';

const N = Number(process.env.FLEET_BENCH_DEVICES ?? 1_000_000);
const LABEL = sizeLabel(N);
const CUSTOMERS = Math.max(10, Math.round(N / 2000));
const KEPT: KeptData = {
  what: 'devices (fleet health)',
  size: N,
  sqliteFile: join(ROOT, `.tmp/bench-fleet-${LABEL}.sqlite`),
  pgDb: keptPgDb(`bench_fleet_${LABEL}`),
  readyColumn: 'devices',
};
const GOAL_COUNTS_P95 = 100;
const GOAL_PAGE_P95 = 50;
const RUNS = Number(process.env.FLEET_BENCH_RUNS ?? 20);
/** What to measure (FLEET_BENCH_PARTS, comma-separated): counts, lists, schedule; default all. */
const PARTS = new Set((process.env.FLEET_BENCH_PARTS ?? 'counts,lists,schedule').split(',').map((x) => x.trim()));

/** The bench's now: a Friday in November (London time is UTC), the data relative to it. */
const NOW = new Date('2026-11-20T10:00:00.000Z');
const NOW_ISO = NOW.toISOString();
const DAYS = 30;
const TYPES = [3, 10, 15, 20, 21];
const NEWEST = '1.2.3';
const OLDER = '1.2.2';
const OVERRIDES = [5, 6, 7];

/** The London days of the daily usage, today first (d = days back). */
const dayList = () => Array.from({ length: DAYS }, (_, d) => new Date(NOW.getTime() - d * 86_400_000).toISOString().slice(0, 10));

// ---------------------------------------------------------------- the SQL of the load, both dialects

type Sql = {
  pg: boolean;
  /** zero-padded decimal of an integer expression */
  pad: (e: string, n: number) => string;
  /** 8 hex digits of an integer expression */
  hex8: (e: string) => string;
  /** floor of a non-negative real expression, as an integer */
  floor: (e: string) => string;
  /** the ISO instant NOW less `minutes` (an integer expression) */
  minutesBefore: (minutes: string) => string;
  /** the integers from..to (inclusive) as `s(i)`: a CTE head and the FROM item */
  series: (from: number, to: number) => { with: string; from: string };
};

const SQLITE: Sql = {
  pg: false,
  pad: (e, n) => `printf('%0${n}d', ${e})`,
  hex8: (e) => `printf('%08x', ${e})`,
  floor: (e) => `cast(${e} as integer)`,
  minutesBefore: (m) => `strftime('%Y-%m-%dT%H:%M:%fZ', '${NOW_ISO}', '-' || (${m}) || ' minutes')`,
  series: (a, b) => ({ with: `with recursive s(i) as (select ${a} union all select i + 1 from s where i < ${b})`, from: 's' }),
};
const PG: Sql = {
  pg: true,
  pad: (e, n) => `lpad((${e})::text, ${n}, '0')`,
  hex8: (e) => `lpad(to_hex(${e}), 8, '0')`,
  floor: (e) => `floor(${e})::int`,
  minutesBefore: (m) => `to_char((timestamptz '${NOW_ISO}' - (${m}) * interval '1 minute') at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`,
  series: (a, b) => ({ with: '', from: `generate_series(${a}::bigint, ${b}::bigint) as s(i)` }),
};

const deviceId = (q: Sql, i: string) => `${q.hex8(i)} || '-f1ee-4000-8000-000000000000'`;
const customerIdOf = (q: Sql, c: string) => `${q.hex8(c)} || '-c057-4000-8000-000000000000'`;
/** A scrambled integer in 0..1,000,002 of `e` (integer arithmetic, the same on both databases). */
const hash = (e: string, mul: number) => `((${e}) * ${mul} % 1000003)`;

const ALLOCATED = `(i % 10 = 0 or i % 300 = 5)`;
/** Customer of device i: skewed, the first customers hold most devices. */
const customerIndex = (q: Sql) => `${q.floor(`${CUSTOMERS} * power_u * power_u * power_u`)}`;

function devicesInsert(q: Sql, a: number, b: number) {
  const s = q.series(a, b);
  const u = `(${hash('i', 2654435761)} / 1000003.0)`;
  const cust = customerIndex(q).replaceAll('power_u', u);
  const status = `case when ${ALLOCATED} then 3 else (case ${hash('i', 7919)} % 16 when 0 then 2 when 1 then 4 when 2 then 5 when 3 then 5 when 4 then 6 when 5 then 7 when 6 then 8 when 7 then 10 else 1 end) end`;
  const inAccount = `(${ALLOCATED} or ${hash('i', 7919)} % 16 in (1, 7))`;
  return `${s.with}
    insert into devices (id, "serialNumber", type, status, "customerId", "isUserAssigned", "firmwareVersion", "lastUpdated", "addedToSystem", etag)
    select ${deviceId(q, 'i')}, 'F' || ${q.pad(`(i * 7368787) % 10000000`, 7)},
      case i % 5 ${TYPES.map((t, k) => `when ${k} then ${t}`).join(' ')} end,
      ${status},
      case when ${inAccount} then ${customerIdOf(q, cust)} else null end,
      case when ${ALLOCATED} and i % 3 <> 0 then 1 else 0 end,
      case when ${hash('i', 40503)} % 100 < 4 then '${OLDER}' else '${NEWEST}' end,
      '${NOW_ISO}', '${NOW_ISO}', '"e"'
    from ${s.from}`;
}

/** Active device k (device i = 10 k): its profile p in 0..999 decides its categories. */
const profile = (k = 'k') => `(${hash(k, 2246822519)} % 1000)`;

function lastMessagesInsert(q: Sql, a: number, b: number) {
  const s = q.series(a, b);
  const p = profile('i');
  const ago = `case when ${p} < 30 then (2 + i % 8) * 1440 + i % 600 when ${p} < 55 then i % 600 else i % 120 end`;
  const message = `case when ${p} >= 30 and ${p} < 55 then '${DEVICE_MESSAGE.powerOff}' when ${p} < 100 then '${DEVICE_MESSAGE.heartbeat}' else (case i % 3 when 0 then '${DEVICE_MESSAGE.checkIn}' when 1 then '${DEVICE_MESSAGE.heartbeat}' else '${DEVICE_MESSAGE.location}' end) end`;
  const battery = `case when ${p} >= 100 and ${p} < 130 then 5 + i % 15 else 25 + i % 75 end`;
  return `${s.with}
    insert into "deviceLastMessages" ("deviceId", "deviceIdentity", "messageId", date, message, battery, signal, "isConnected", "receivedAt")
    select ${deviceId(q, 'i * 10')}, 'imei' || i, 'm' || i, ${q.minutesBefore(ago)}, ${message}, ${battery}, 3,
      case when ${p} < 55 then 0 else 1 end, ${q.minutesBefore(ago)}
    from ${s.from}`;
}

function usageInsert(q: Sql, a: number, b: number) {
  const s = q.series(a, b);
  const days = dayList()
    .map((day, d) => `(${d}, '${day}')`)
    .join(', ');
  const p = profile('i');
  const unused = `(${p} >= 55 and ${p} < 100)`;
  const flat = `(${p} >= 100 and ${p} < 130 and d < 6)`;
  const cols = {
    heartbeats: '48',
    locations: `case when ${p} >= 100 then 20 else 0 end`,
    checkIns: `case when ${unused} then 0 when (i + d) % 5 = 0 then 0 else 1 + (i + d) % 3 end`,
    powerOns: `case when ${unused} then 0 when (i + d) % 11 = 0 then 1 else 0 end`,
    powerOffs: `case when ${p} >= 30 and ${p} < 55 and d = 0 then 1 else 0 end`,
    chargings: `case when ${flat} then 0 when (i + d) % 2 = 0 then 1 else 0 end`,
    lowBatteries: `case when ${flat} then 1 else 0 end`,
    sosAlarms: `case when (i * 7 + d) % 500 = 0 then 1 else 0 end`,
    falls: `case when (i * 13 + d) % 997 = 0 then 1 else 0 end`,
  };
  const names = Object.keys(cols);
  return `${s.with}${s.with ? ',' : 'with'} days(d, day) as (values ${days})
    insert into "deviceDailyUsage" ("deviceId", day, "firstMessageAt", "lastMessageAt", messages, ${names.map((n) => `"${n}"`).join(', ')}, "minBattery", "configPending")
    select ${deviceId(q, 'i * 10')}, day, day || 'T06:' || ${q.pad('i % 60', 2)} || ':00.000Z', day || 'T21:00:00.000Z',
      ${Object.values(cols)
        .map((c) => `(${c})`)
        .join(' + ')},
      ${Object.values(cols).join(', ')},
      case when ${flat} then 5 + i % 15 else 30 + (i + d) % 60 end, 0
    from ${s.from} cross join days
    where not (${p} < 30 and d < 2 + i % 8)
    order by 1, 2`;
}

function configurationsInsert(q: Sql, a: number, b: number) {
  const s = q.series(a, b);
  const c = `(${hash('i', 3266489917)} % 100)`;
  return `${s.with}
    insert into "desiredConfigurations" (id, "deviceId", payload, "requestedBy", "requestedAt", "appliedAt", kind)
    select ${q.hex8('i')} || '-c0f1-4000-8000-000000000000', ${deviceId(q, 'i * 10')}, '{}', null,
      case when ${c} < 3 then ${q.minutesBefore('30 * 60')} when ${c} < 5 then ${q.minutesBefore('120')} else ${q.minutesBefore('5 * 1440')} end,
      case when ${c} < 5 then null else ${q.minutesBefore('4 * 1440')} end,
      'configuration'
    from ${s.from}
    where ${c} < 15`;
}

function customerRows(): string {
  const at = NOW_ISO;
  const rows = Array.from(
    { length: CUSTOMERS },
    (_, c) =>
      `('${c.toString(16).padStart(8, '0')}-c057-4000-8000-000000000000', '${c.toString(16).padStart(8, '0')}-7e57-4000-8000-000000000000', 'Fleet Customer ${String(c).padStart(5, '0')} Ltd', '${200000 + c}', ${1 + (c % 4)}, ${1 + (c % 4)}, ${CUSTOMER_FLAGS.map(() => '0').join(', ')}, 15, '"e"', '"e"', '"e"', '${at}', '${at}')`,
  );
  return `insert into customers (id, "tenantId", name, "portalId", tier, status, ${CUSTOMER_FLAGS.map((f) => `"${f}"`).join(', ')}, "trackingInterval", etag, "deviceSubscriptionsEtag", "appSubscriptionsEtag", "createdAt", "updatedAt")
    values ${rows.join(',\n')}`;
}

/** Every statement of the load, in order, with what it did for the log. */
function loadStatements(q: Sql): [string, string][] {
  const out: [string, string][] = [[customerRows(), `${CUSTOMERS} customers`]];
  const CHUNK = 100_000;
  for (let a = 1; a <= N; a += CHUNK) out.push([devicesInsert(q, a, Math.min(N, a + CHUNK - 1)), `devices to ${Math.min(N, a + CHUNK - 1)}`]);
  const active = Math.floor(N / 10);
  out.push([lastMessagesInsert(q, 1, active), `${active} last messages`]);
  const UCHUNK = 10_000;
  for (let a = 1; a <= active; a += UCHUNK)
    out.push([usageInsert(q, a, Math.min(active, a + UCHUNK - 1)), `daily usage of active devices to ${Math.min(active, a + UCHUNK - 1)}`]);
  out.push([configurationsInsert(q, 1, active), 'configuration changes']);
  out.push([`insert into "deviceTypeFirmware" (type, "newestVersion") values ${TYPES.map((t) => `(${t}, '${NEWEST}')`).join(', ')}`, 'newest firmware']);
  out.push([
    `insert into "fleetThresholds" (scope, "silentHours", "lowBattery", "notChargedDays", "unusedDays", "configHours", "updatedAt") values ${OVERRIDES.map(
      (c) => `('${c.toString(16).padStart(8, '0')}-c057-4000-8000-000000000000', 48, null, null, 14, null, '${NOW_ISO}')`,
    ).join(', ')}`,
    'thresholds of three customers',
  ]);
  return out;
}

async function runLoad(dialect: Dialect, exec: (text: string) => Promise<unknown>) {
  const q = dialect === 'pg' ? PG : SQLITE;
  const t0 = performance.now();
  let last = t0;
  for (const [text, what] of loadStatements(q)) {
    await exec(text);
    const t = performance.now();
    if (t - last > 10_000 || /last messages|configuration|customers/.test(what)) {
      log(`${dialect}: ${what} (${r1((t - t0) / 1000)} s)`);
      last = t;
    }
  }
}

async function loadSqlite() {
  const raw = await newSqlite(KEPT);
  raw.pragma('cache_size = -200000');
  await runLoad('sqlite', async (text) => raw.exec(text));
  sqliteLoaded(KEPT, raw);
}

async function loadPostgres() {
  const c = await newPostgres(KEPT);
  await runLoad('pg', (text) => c.query(text));
  await postgresLoaded(KEPT, c);
}

// ---------------------------------------------------------------- measuring

type Timed = { wall: number[]; cpu: number[] };
const timed = (): Timed => ({ wall: [], cpu: [] });
async function time<T>(t: Timed, fn: () => Promise<T>): Promise<T> {
  const c0 = process.cpuUsage();
  const w0 = performance.now();
  const out = await fn();
  t.wall.push(performance.now() - w0);
  const c = process.cpuUsage(c0);
  t.cpu.push((c.user + c.system) / 1000);
  return out;
}
const p = (xs: number[], q: number) => r1(percentileOf(xs, q));
const fig = (t: Timed) => `p50 ${p(t.wall, 50)} / p95 ${p(t.wall, 95)} ms wall, CPU p50 ${p(t.cpu, 50)} / p95 ${p(t.cpu, 95)} ms`;

async function measure(dialect: Dialect, db: DB): Promise<Figures> {
  const f: Figures = {};
  const { send, close } = await benchApp(db, NOW);
  try {
    if (PARTS.has('counts')) await counts(dialect, send, f);
    if (PARTS.has('lists')) await lists(dialect, send, f);
  } finally {
    await close();
  }
  if (process.env.FLEET_BENCH_PLANS === '1') await plans(dialect);
  if (PARTS.has('schedule')) Object.assign(f, await scheduleRun(dialect, db));
  return f;
}

type Send = Awaited<ReturnType<typeof benchApp>>['send'];

/** The counts, as the Fleet Health page asks for them. */
async function counts(dialect: Dialect, send: Send, f: Figures) {
  let health: FleetHealthDto | undefined;
  for (let i = 0; i < 2; i++) health = (await (await send('/ps-admin/fleet-health')).json()) as FleetHealthDto; // warm-up
  const counts = timed();
  for (let i = 0; i < RUNS; i++) await time(counts, async () => (await send('/ps-admin/fleet-health')).json());
  const h = health!;
  const sizes = h.Customers.map((c) => c.Devices).sort((a, b) => b - a);
  log(
    `${dialect} data: ${h.Devices.toLocaleString('en-GB')} allocated devices, ${h.Affected.toLocaleString('en-GB')} need attention (${FLEET_CATEGORIES.map((c) => `${c} ${h.Counts[c].toLocaleString('en-GB')}`).join(', ')}); ${h.Customers.length} customers with one, sizes ${sizes[0]} … ${sizes[sizes.length - 1]}`,
  );
  f[`${dialect}.counts.p50_ms`] = p(counts.wall, 50);
  f[`${dialect}.counts.p95_ms`] = p(counts.wall, 95);
  f[`${dialect}.counts.cpu_p95_ms`] = p(counts.cpu, 95);
  log(`${dialect} Fleet Health counts (${RUNS} runs): ${fig(counts)} (goal p95 < ${GOAL_COUNTS_P95} ms; load ${load()})`);
}

/** Each category's drill-down: page 1, Next, the last page. */
async function lists(dialect: Dialect, send: Send, f: Figures) {
  const all = { first: timed(), next: timed(), last: timed() };
  for (const cat of FLEET_CATEGORIES) {
    const per = { first: timed(), next: timed(), last: timed() };
    const get = async (body: Record<string, unknown>) =>
      (await (await send('/api/v1/device/get-list', { fleetHealth: cat, ...body })).json()) as { devices: { id: string }[]; totalCount: number };
    const first = await get({ page: 1 }); // warm-up
    const size = 10;
    const lastPage = Math.max(1, Math.ceil(first.totalCount / size));
    for (let i = 0; i < Math.max(5, RUNS / 4); i++) {
      const page1 = await time(per.first, () => get({ page: 1, pageSize: size }));
      if (page1.devices.length === size && lastPage > 1) await time(per.next, () => get({ page: 2, pageSize: size, after: page1.devices[size - 1]!.id }));
      await time(per.last, () => get({ page: lastPage, pageSize: size }));
    }
    for (const k of ['first', 'next', 'last'] as const) {
      all[k].wall.push(...per[k].wall);
      all[k].cpu.push(...per[k].cpu);
      if (per[k].wall.length) f[`${dialect}.list.${cat}.${k}.p95_ms`] = p(per[k].wall, 95);
    }
    log(
      `${dialect} list ${cat.padEnd(14)} ${String(first.totalCount).padStart(7)} devices: page 1 p95 ${p(per.first.wall, 95)} ms, Next p95 ${per.next.wall.length ? p(per.next.wall, 95) : '-'} ms, last page (${lastPage}) p95 ${p(per.last.wall, 95)} ms (CPU p95 ${p(per.first.cpu, 95)} / ${per.next.cpu.length ? p(per.next.cpu, 95) : '-'} / ${p(per.last.cpu, 95)} ms; goal p95 < ${GOAL_PAGE_P95} ms; load ${load()})`,
    );
  }
  for (const k of ['first', 'next', 'last'] as const) f[`${dialect}.list.${k}.p95_ms`] = p(all[k].wall, 95);
  log(
    `${dialect} drill-down lists, every category: page 1 ${fig(all.first)}; Next ${fig(all.next)}; last page ${fig(all.last)} (goal p95 < ${GOAL_PAGE_P95} ms; load ${load()})`,
  );
}

/** The plans of the counting statement and of page 1 and the count of the 'unused' drill-down. */
async function plans(dialect: Dialect) {
  const seen: CompiledQuery[] = [];
  const onLog = (e: LogEvent) => {
    if (e.level === 'query') seen.push(e.query);
  };
  const traced: DB =
    dialect === 'pg'
      ? new Kysely({ dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: pgUrl(KEPT.pgDb), max: 2 }) }), log: onLog })
      : new Kysely({ dialect: new SqliteDialect({ database: new SQLite(KEPT.sqliteFile, { readonly: true }) }), log: onLog });
  try {
    await fleetHealth(traced, NOW);
    const statements = seen.splice(0).slice(0, 1);
    await listDevices(traced, ALL_TENANTS, v.parse(deviceListBody, { page: 1, fleetHealth: 'unused' satisfies FleetCategory }), NOW);
    statements.push(...seen.splice(0).filter((x) => !/^select count\(\*\) as "n" from "devices"$/.test(x.sql.trim())));
    for (const s of statements) {
      const r = await traced.executeQuery<Record<string, unknown>>(
        CompiledQuery.raw(`${dialect === 'pg' ? 'explain (analyze, buffers)' : 'explain query plan'} ${s.sql}`, [...s.parameters]),
      );
      log(`${dialect} plan of ${s.sql.replace(/\s+/g, ' ').slice(0, 100)}…`);
      for (const row of r.rows) console.log(`      ${String(row['QUERY PLAN'] ?? `${row.id} ${row.parent} ${row.detail}`)}`);
    }
  } finally {
    await traced.destroy();
  }
}

/**
 * Every customer with allocated devices gets a monthly usage-report schedule (through the API),
 * the clock moves past their first due time, and the scheduler runs them all: report, .xlsx and
 * e-mails. The schedules and runs are removed afterwards, so the kept data set stays as loaded.
 */
async function scheduleRun(dialect: Dialect, db: DB): Promise<Figures> {
  const f: Figures = {};
  const mailbox = await startMailbox();
  let clock = NOW;
  const config = testConfig({ now: () => clock, smtpUrl: mailbox.smtpUrl('reports@bench.test') });
  const quiet = () => {};
  const outbox = createOutbox({ smtpUrl: config.smtpUrl, log: quiet, now: () => config.now() });
  const dbSource = dialect === 'pg' ? ({ kind: 'pg', url: pgUrl(KEPT.pgDb) } as const) : ({ kind: 'sqlite', file: KEPT.sqliteFile } as const);
  const { app, services } = createApp({ db, config, outbox, log: quiet, dbSource });
  const clean = async () => {
    await sql`delete from "reportScheduleRuns" where "scheduleId" in (select id from "reportSchedules" where name like 'Fleet bench %')`.execute(db);
    await sql`delete from "reportSchedules" where name like 'Fleet bench %'`.execute(db);
  };
  try {
    await clean();
    for (const name of ['ScheduledReports', 'ScheduledUsageReport'])
      await db
        .insertInto('features')
        .values({ name, isEnabled: 1 })
        .onConflict((oc) => oc.column('name').doUpdateSet({ isEnabled: 1 }))
        .execute();
    const email = 'fleet-bench-ops@bench.test';
    const who = await db.selectFrom('persons').select('id').where('email', '=', email).executeTakeFirst();
    const admin = who ? { token: await tokenFor(config, ['SuperAdminRole'], { id: who.id, email }) } : await signedIn(db, config, ['SuperAdminRole'], email);
    const names = await db
      .selectFrom('customers as c')
      .select('c.name')
      .where((eb) => eb.exists(eb.selectFrom('devices as d').select('d.id').whereRef('d.customerId', '=', 'c.id').where('d.status', '=', 3)))
      .execute();
    const t0 = performance.now();
    for (const c of names) {
      const res = await app.request('/alarm-report/schedules', {
        method: 'POST',
        headers: { authorization: `Bearer ${admin.token}`, 'content-type': 'application/json' },
        body: JSON.stringify({
          name: `Fleet bench ${c.name}`,
          report: 'usageReport',
          frequency: 'monthly',
          dayOfMonth: 1,
          timeOfDay: '06:00',
          recipients: [email],
          format: 'xlsx',
          filters: { customerAccountFullName: c.name },
        }),
      });
      if (res.status !== 201) throw new Error(`schedule of ${c.name}: ${res.status} ${(await res.text()).slice(0, 200)}`);
    }
    log(`${dialect}: ${names.length} monthly usage-report schedules created in ${r1((performance.now() - t0) / 1000)} s`);
    clock = new Date('2026-12-01T06:00:01.000Z'); // their first due time: November's report
    const scheduler = createReportScheduler({ db, outbox, exports: services.exports, now: () => clock, log: quiet, nodeId: 'fleet-bench' });
    const c0 = process.cpuUsage();
    const w0 = performance.now();
    let built = 0;
    for (;;) {
      const n = await scheduler.tick();
      built += n;
      if (n === 0) break;
    }
    await outbox.idle();
    const wall = (performance.now() - w0) / 1000;
    const c = process.cpuUsage(c0);
    const runs = await db
      .selectFrom('reportScheduleRuns as r')
      .innerJoin('reportSchedules as s', 's.id', 'r.scheduleId')
      .select(['r.state', (eb) => eb.fn.countAll<string>().as('n')])
      .where('s.name', 'like', 'Fleet bench %')
      .groupBy('r.state')
      .execute();
    f[`${dialect}.schedule.customers`] = names.length;
    f[`${dialect}.schedule.all_s`] = r1(wall);
    f[`${dialect}.schedule.per_customer_ms`] = r1((wall * 1000) / Math.max(1, names.length));
    log(
      `${dialect} every customer's monthly usage report by schedule (${names.length} customers, ${built} runs built: ${runs.map((r) => `${r.state} ${r.n}`).join(', ')}; ${mailbox.mails.length} e-mails): ${r1(wall)} s wall, ${r1((c.user + c.system) / 1e6)} s CPU of this process (export workers are threads of it), ${f[`${dialect}.schedule.per_customer_ms`]} ms a customer (load ${load()})`,
    );
  } finally {
    await clean();
    await services.exports.close();
    await outbox.close();
    await mailbox.close();
  }
  return f;
}

export async function benchFleet(): Promise<Figures> {
  const f: Figures = { devices: N, customers: CUSTOMERS };
  log(
    `${N.toLocaleString('en-GB')} devices, ${Math.floor(N / 10).toLocaleString('en-GB')} active with ${DAYS} days of daily usage, ${CUSTOMERS} customers (load ${load()})`,
  );
  return onKeptData(KEPT, f, {
    loadSqlite,
    loadPostgres,
    measure,
    skipPg: process.env.FLEET_BENCH_PG === '0',
  });
}

runAlone(import.meta.url, benchFleet);
