// Alarm report queries at 1,000,000 reports on SQLite and PostgreSQL, through app.request() with a
// super-admin token: the alarm list over mixed ranges, sorts, searches and deep pages (goal p95
// < 100 ms), the Verification Started / Completed charts for every range (< 50 ms), Type of Alarms
// over time (< 50 ms), the response targets (< 50 ms) and the detail load (~3 ms); each with wall
// and CPU time (this process; PostgreSQL's own CPU is in its server) beside the machine's load.
// Also the write cost of the statistics: single-report insert p95 with and without the alarmStats
// triggers (each measured inside a transaction that is rolled back).
//
// The data set is generated once and kept: .tmp/bench-alarms/alarms-<n>.sqlite and the PostgreSQL
// database bench_alarms_<n> (a ready marker says it is complete). Rows go in through the real
// schema; the per-row insert triggers (statistics, trigram tables) are set aside during the bulk
// load and their work done set-based afterwards, then put back. Closed dates spread over 13 months
// weighted to recent, 2,000 person names, 400 accounts and 40 controllers.
// Imported by tests/bench/run.ts (`npm run bench -- alarm-reports`); ALARM_BENCH_ROWS overrides the
// size, ALARM_BENCH_PG=0 skips PostgreSQL.
import { sql } from 'kysely';
import { join } from 'node:path';
import type { DB } from '../../src/server/db/index.js';
import { countingTriggerNames } from '../../src/server/db/counting-triggers.js';
import { rebuildSql, STATS_TRIGGERS } from '../../src/server/modules/alarm-reports/aggregates.js';
import { rebuildTopsSql } from '../../src/server/modules/alarm-reports/month-tops.js';
import { ROOT } from './browser.js';
import { percentileOf, pick, rng } from './stats.js';
import * as kept from './harness/kept-data.js';

const { log, load, r1 } = kept;
type Figures = kept.Figures;

const N = Number(process.env.ALARM_BENCH_ROWS ?? 1_000_000);
/** The kept alarm report data set of n reports (shared with management-report.bench.ts). */
export const keptAlarms = (n: number): kept.KeptData => ({
  what: 'alarm reports',
  size: n,
  sqliteFile: join(ROOT, `.tmp/bench-alarms/alarms-${kept.sizeLabel(n)}.sqlite`),
  pgDb: kept.keptPgDb(`bench_alarms_${kept.sizeLabel(n)}`),
  readyColumn: 'rows',
});
const KEPT = keptAlarms(N);

const NOW = new Date('2026-11-22T12:00:00.000Z');
const DAY = 86_400_000;
const GOAL = { list: 100, charts: 50, type: 50, targets: 50, details: 3 };
const FIRST = [
  'Oliver',
  'Amelia',
  'George',
  'Isla',
  'Harry',
  'Ava',
  'Noah',
  'Mia',
  'Jack',
  'Ivy',
  'Leo',
  'Freya',
  'Oscar',
  'Grace',
  'Arthur',
  'Lily',
  'Muhammad',
  'Sophia',
  'Alfie',
  'Evie',
];
const LAST = [
  'Smith',
  'Jones',
  'Taylor',
  'Brown',
  'Wilson',
  'Patel',
  'Khan',
  'Evans',
  'Walker',
  'Green',
  'Wright',
  'Hughes',
  'Edwards',
  'Hall',
  'Wood',
  'Clarke',
  'Turner',
  'Hill',
  'Cooper',
  'Ward',
];
const NAMES = Array.from(
  { length: 2000 },
  (_, i) => `${FIRST[i % 20]} ${LAST[Math.floor(i / 20) % 20]}${i >= 400 ? ` ${String.fromCharCode(65 + (i % 26))}.` : ''}`,
);
const ACCOUNT_WORDS = ['Acme Care', 'Northern Housing', 'City Council', 'Green Energy', 'Metro Rail', 'St Mary Hospital', 'Parcel Express', 'Water Board'];
export const ACCOUNTS = Array.from({ length: 400 }, (_, i) => `${ACCOUNT_WORDS[i % 8]} ${Math.floor(i / 8) + 1} Ltd`);
const DEVICES = [3, 620, 640, 740, 10, 804];
const COLUMNS = [
  'id',
  'alarmId',
  'customerAccountFullName',
  'tier',
  'alarmType',
  'verificationType',
  'verificationCategory',
  'personId',
  'personFullName',
  'deviceType',
  'deviceSerial',
  'arcControllerId',
  'arcControllerFullName',
  'alarmStarted',
  'alarmClosed',
  'verificationStartedSeconds',
  'verificationCompletedSeconds',
] as const;
const PG_TYPES = ['text', 'text', 'text', 'int', 'int', 'int', 'int', 'text', 'text', 'int', 'text', 'text', 'text', 'text', 'text', 'int', 'int'];

function uuid(r: () => number) {
  const h = Array.from({ length: 32 }, () => Math.floor(r() * 16).toString(16)).join('');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-8${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

const controllersOf = () => {
  const r = rng(7);
  return Array.from({ length: 40 }, () => uuid(r));
};

/** Row i's values in COLUMNS order (deterministic in i's position in the stream). */
export function rowStream(seed = 9) {
  const r = rng(seed);
  const controllers = controllersOf();
  return (): (string | number)[] => {
    const closed = NOW.getTime() - Math.floor(395 * DAY * r() ** 1.8) - 60_000;
    const vType = 1 + Math.floor(r() * 4);
    const ctrl = pick(r, controllers);
    return [
      uuid(r),
      uuid(r),
      pick(r, ACCOUNTS),
      1 + Math.floor(r() * 4),
      1 + Math.floor(r() * 6),
      vType,
      vType * 100 + 1 + Math.floor(r() * 2),
      uuid(r),
      pick(r, NAMES),
      pick(r, DEVICES),
      `SER${Math.floor(r() * 1e8)}`,
      ctrl,
      `Controller ${ctrl.slice(0, 4)}`,
      new Date(closed - 300_000).toISOString(),
      new Date(closed).toISOString(),
      Math.floor(r() * 60),
      30 + Math.floor(r() * 900),
    ];
  };
}

/** SQLite triggers that fire per inserted report: set aside during the bulk load. */
const SQLITE_INSERT_TRIGGERS = [countingTriggerNames(STATS_TRIGGERS, false)[0]!, 'alarmReports_fts_ai', 'alarmReports_serial_fts_ai', 'alarmMonthTops_ai'];
/** PostgreSQL triggers set aside during the bulk load. */
const PG_INSERT_TRIGGERS = [countingTriggerNames(STATS_TRIGGERS, true)[0]!, 'alarmMonthTops_ai'];

export const INSERT_HEAD = `insert into "alarmReports" (${COLUMNS.map((c) => `"${c}"`).join(', ')}, "customerId", "escalationPlanFollowed", "incomingCallPhoneNumber", "location", "profileSnapshot", "etag")`;

/** Inserts one report of rowStream's. */
export const insertReport = (db: DB, row: (string | number)[]) =>
  sql`${sql.raw(INSERT_HEAD)} values (${sql.join(row)}, null, 0, null, '{}', '{}', '"e"')`.execute(db);

/** Loads the data set `k` into its SQLite file (rows through the real schema, per-row triggers' work done set-based). */
export async function loadAlarmsSqlite(k: kept.KeptData = KEPT) {
  const n = k.size;
  const t0 = performance.now();
  const raw = await kept.newSqlite(k);
  raw.pragma('cache_size = -262144');
  // Insert triggers are set aside for the load and their work done set-based afterwards (the
  // statistics rebuilt, the trigram tables filled), then the same triggers are put back.
  // The reports' indexes are built after the rows, one sort each.
  await kept.withIndexesAside(raw, ['alarmReports'], () =>
    kept.withTriggersAside(raw, { alarmReports: SQLITE_INSERT_TRIGGERS }, async () => {
      const insert = raw.prepare(`${INSERT_HEAD} values (${COLUMNS.map(() => '?').join(',')}, null, 0, null, '{}', '{}', '"e"')`);
      const next = rowStream();
      const batch = raw.transaction((n: number) => {
        for (let i = 0; i < n; i++) insert.run(...next());
      });
      for (let done = 0; done < n; done += 50_000) {
        batch(Math.min(50_000, n - done));
        if (done % 200_000 === 150_000) log(`sqlite: ${(done + 50_000).toLocaleString('en-GB')} reports (${r1((performance.now() - t0) / 1000)} s)`);
      }
      log(`sqlite: rows in (${r1((performance.now() - t0) / 1000)} s); filling the statistics and trigram tables`);
      raw.exec(
        `insert into "alarmReports_fts" (rowid, alarmId, person, account) select rowid, "alarmId", "personFullName", "customerAccountFullName" from "alarmReports"`,
      );
      raw.exec(`insert into "alarmReports_serial_fts" (rowid, serial) select rowid, "deviceSerial" from "alarmReports" where "deviceSerial" is not null`);
      for (const q of [...rebuildSql(false), ...rebuildTopsSql(false)]) raw.exec(q);
    }),
  );
  log(`sqlite: indexes built (${r1((performance.now() - t0) / 1000)} s)`);
  for (const t of ['alarmReports_fts', 'alarmReports_serial_fts']) raw.exec(`insert into "${t}" ("${t}") values ('optimize')`);
  kept.sqliteLoaded(k, raw);
}

/** Loads the data set `k` into its PostgreSQL database. */
export async function loadAlarmsPostgres(k: kept.KeptData = KEPT) {
  const n = k.size;
  const t0 = performance.now();
  const c = await kept.newPostgres(k);
  // The statistics and monthly tops triggers are set aside for the load and rebuilt set-based after.
  // The reports' indexes are built after the rows, one sort each.
  await kept.withIndexesAside(c, ['alarmReports'], () =>
    kept.withTriggersAside(c, { alarmReports: PG_INSERT_TRIGGERS }, async () => {
      const insert = `${INSERT_HEAD} select *, null, 0, null, '{}', '{}', '"e"' from unnest(${PG_TYPES.map((t, i) => `$${i + 1}::${t}[]`).join(', ')})`;
      const next = rowStream();
      const BATCH = 10_000;
      for (let i = 0; i < n; i += BATCH) {
        const rows: (string | number)[][] = [];
        for (let j = i; j < Math.min(n, i + BATCH); j++) rows.push(next());
        await c.query(
          insert,
          COLUMNS.map((_, k) => rows.map((row) => row[k])),
        );
        if ((i / BATCH) % 20 === 19) log(`postgres: ${(i + BATCH).toLocaleString('en-GB')} reports (${r1((performance.now() - t0) / 1000)} s)`);
      }
      log(`postgres: rows in (${r1((performance.now() - t0) / 1000)} s); the statistics`);
      for (const q of [...rebuildSql(true), ...rebuildTopsSql(true)]) await c.query(q);
    }),
  );
  log(`postgres: indexes built (${r1((performance.now() - t0) / 1000)} s)`);
  await kept.postgresLoaded(k, c);
}

/**
 * Insert p95 of single reports, with the statistics triggers and without them (dropped inside the
 * same kind of rolled-back transaction), so the figure is what the statistics add to a write.
 */
async function insertCost(db: DB, dialect: kept.Dialect, f: Figures) {
  const next = rowStream(1009); // other ids than the loaded reports
  const rows = Array.from({ length: 400 }, () => next());
  const { without, with: withStats } = await kept.writeCost(db, 'alarmReports', countingTriggerNames(STATS_TRIGGERS, dialect === 'pg'), rows, insertReport);
  const before = without.p95;
  const after = withStats.p95;
  f[`${dialect}.insert.cpu_mean_ms_without_stats`] = without.cpu;
  f[`${dialect}.insert.cpu_mean_ms_with_stats`] = withStats.cpu;
  f[`${dialect}.insert.p95_ms_without_stats`] = before;
  f[`${dialect}.insert.p95_ms_with_stats`] = after;
  log(
    `${dialect} alarm report insert p95: ${before} ms without the statistics triggers, ${after} ms with them; CPU mean ${without.cpu} / ${withStats.cpu} ms (load ${load()})`,
  );
}

async function measureDialect(dialect: kept.Dialect, db: DB): Promise<Figures> {
  const f: Figures = {};
  const { send, close } = await kept.benchApp(db, NOW);
  const call = async (path: string, body?: unknown) => (await send(path, body)).json();
  const time = async (name: string, goal: number, path: string, bodies: unknown[], rounds = 3) => {
    for (const b of bodies.slice(0, 3)) await call(path, b); // warm-up
    const wall: number[] = [];
    const cpu: number[] = [];
    const byBody = bodies.map(() => 0);
    for (let k = 0; k < rounds; k++)
      for (const [i, body] of bodies.entries()) {
        const c0 = process.cpuUsage();
        const t = performance.now();
        await call(path, body);
        const ms = performance.now() - t;
        wall.push(ms);
        byBody[i] = Math.max(byBody[i] ?? 0, ms);
        const c = process.cpuUsage(c0);
        cpu.push((c.user + c.system) / 1000);
      }
    // BENCH_VERBOSE=1: the slowest requests, with their bodies, to see where a p95 comes from
    if (process.env.BENCH_VERBOSE === '1')
      for (const [ms, body] of bodies
        .map((b, i) => [byBody[i] ?? 0, b] as const)
        .sort((a, b) => b[0] - a[0])
        .slice(0, 5))
        log(`  ${dialect} ${name} slowest: ${r1(ms)} ms ${JSON.stringify(body)}`);
    const p95 = r1(percentileOf(wall, 95));
    const cpu95 = r1(percentileOf(cpu, 95));
    f[`${dialect}.${name}.p95_ms`] = p95;
    f[`${dialect}.${name}.cpu_p95_ms`] = cpu95;
    log(`${dialect} ${name}: p50 ${r1(percentileOf(wall, 50))} ms, p95 ${p95} ms wall, CPU p95 ${cpu95} ms (goal p95 < ${goal} ms; load ${load()})`);
  };
  const controllers = controllersOf();
  const ranges = [1, 2, 3, 4, 5, 6, 7].map((o) => ({ alarmClosedDateRangeOption: o }));
  const filters = [
    ...ranges,
    { alarmClosedDateRangeOption: 2, alarmVerificationTypes: [1] },
    { alarmClosedDateRangeOption: 3, alarmTypes: [1, 2] },
    { alarmClosedDateRangeOption: 4, deviceTypes: [620], tierTypes: [2, 3] },
    { alarmClosedDateRangeOption: 6, arcControllerIds: [controllers[0]] },
    { alarmClosedDateRangeOption: 7, alarmVerificationCategoryTypes: [101, 201] },
    { alarmClosedDateRangeOption: 5, customerAccountFullName: 'metro rail 7' },
    { alarmClosedDateRangeOption: 6, personFullName: 'Freya Hall' },
  ];
  const list = [
    { page: 1, pageSize: 10, alarmClosedDateRangeOption: 2, alarmVerificationTypes: [1], sortBy: 'AlarmClosedDate', sortDescending: true },
    ...filters.map((x) => ({ ...x, page: 1, pageSize: 25 })),
    { alarmClosedDateRangeOption: 3, sortBy: 'PersonFullName', sortDescending: false, pageSize: 50 },
    { alarmClosedDateRangeOption: 2, sortBy: 'AlarmType', sortDescending: false, pageSize: 25 },
    { alarmClosedDateRangeOption: 3, sortBy: 'AlarmVerificationCategory', sortDescending: true, pageSize: 25 },
    { alarmClosedDateRangeOption: 2, sortBy: 'DeviceType', sortDescending: false, pageSize: 25, page: 20 },
    { alarmClosedDateRangeOption: 1, sortBy: 'Tier', sortDescending: true, pageSize: 25 },
    { alarmClosedDateRangeOption: 7, page: 500, pageSize: 100 },
    { alarmClosedDateRangeOption: 6, page: 200, pageSize: 100, alarmVerificationTypes: [4] },
    { alarmClosedDateRangeOption: 3, searchValue: 'amelia' },
    { alarmClosedDateRangeOption: 7, searchValue: 'freya hall k' },
    { alarmClosedDateRangeOption: 6, searchValue: 'SER1234' },
    { alarmClosedDateRangeOption: 7, searchValue: 'parcel express 3' },
  ];
  await time('list.mixed', GOAL.list, '/alarm-report/get-list', list);
  await time('verificationStarted', GOAL.charts, '/alarm-report/get-verification-started-timeframes', filters);
  await time('verificationCompleted', GOAL.charts, '/alarm-report/get-verification-completed-timeframes', filters);
  await time(
    'verificationType',
    GOAL.type,
    '/alarm-report/get-verification-type-timeframes',
    filters.filter((x) => x.alarmClosedDateRangeOption !== 7),
  );
  await time('responseTargets', GOAL.targets, '/alarm-report/get-response-targets', filters);
  const ids = (await db.selectFrom('alarmReports').select('alarmId').orderBy('alarmClosed', 'desc').limit(30).execute()).map((r) => r.alarmId);
  const ms: number[] = [];
  for (const alarmId of ids) {
    const t = performance.now();
    await call(`/alarm-report/get-details?AlarmId=${alarmId}`);
    ms.push(performance.now() - t);
  }
  f[`${dialect}.details.p95_ms`] = r1(percentileOf(ms, 95));
  log(`${dialect} details: p95 ${f[`${dialect}.details.p95_ms`]} ms (goal ~${GOAL.details} ms)`);
  await insertCost(db, dialect, f);
  f[`${dialect}.load`] = load();
  await close();
  return f;
}

export async function benchAlarmReports(): Promise<Figures> {
  return kept.onKeptData(
    KEPT,
    { rows: N },
    {
      loadSqlite: () => loadAlarmsSqlite(KEPT),
      loadPostgres: () => loadAlarmsPostgres(KEPT),
      measure: measureDialect,
      skipPg: process.env.ALARM_BENCH_PG === '0',
    },
  );
}

kept.runAlone(import.meta.url, benchAlarmReports);
