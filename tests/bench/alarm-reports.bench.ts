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
import SQLite from 'better-sqlite3';
import pg from 'pg';
import { sql } from 'kysely';
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { createApp } from '../../src/server/app.js';
import { testConfig } from '../../src/server/config.js';
import { createOutbox } from '../../src/server/outbox.js';
import { openPostgres, openSqlite, type DB } from '../../src/server/db/index.js';
import { migrateToLatest } from '../../src/server/db/migrations.js';
import { seedReferenceData } from '../../src/server/seed/reference.js';
import { issueAccessToken } from '../../src/server/auth/tokens.js';
import { PROVIDER_TENANT_ID } from '../../src/shared/tenants.js';
import { rebuildSql } from '../../src/server/modules/alarm-reports/aggregates.js';
import { ROOT } from './browser.js';
import { percentileOf, pick, rng } from './stats.js';

const N = Number(process.env.ALARM_BENCH_ROWS ?? 1_000_000);
const LABEL = N >= 1_000_000 ? `${N / 1_000_000}m` : `${N / 1000}k`;
const DIR = join(ROOT, '.tmp/bench-alarms');
const SQLITE_FILE = join(DIR, `alarms-${LABEL}.sqlite`);
const SQLITE_READY = `${SQLITE_FILE}.ready`;
const PG_ADMIN_URL = process.env.TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const PG_DB = `bench_alarms_${LABEL}`;

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
const ACCOUNTS = Array.from({ length: 400 }, (_, i) => `${ACCOUNT_WORDS[i % 8]} ${Math.floor(i / 8) + 1} Ltd`);
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

type Figures = Record<string, number | string>;
const r1 = (x: number) => Math.round(x * 10) / 10;
const log = (s: string) => console.log(`  ${s}`);
const load = () =>
  loadavg()
    .map((x) => x.toFixed(1))
    .join(' ');

function uuid(r: () => number) {
  const h = Array.from({ length: 32 }, () => Math.floor(r() * 16).toString(16)).join('');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-8${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

const controllersOf = () => {
  const r = rng(7);
  return Array.from({ length: 40 }, () => uuid(r));
};

/** Row i's values in COLUMNS order (deterministic in i's position in the stream). */
function rowStream(seed = 9) {
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
const SQLITE_INSERT_TRIGGERS = ['alarmStats_ai', 'alarmReports_fts_ai', 'alarmReports_serial_fts_ai'];

const INSERT_HEAD = `insert into "alarmReports" (${COLUMNS.map((c) => `"${c}"`).join(', ')}, "customerId", "escalationPlanFollowed", "incomingCallPhoneNumber", "location", "profileSnapshot", "etag")`;

async function loadSqlite(): Promise<number> {
  const t0 = performance.now();
  mkdirSync(DIR, { recursive: true });
  for (const f of [SQLITE_FILE, `${SQLITE_FILE}-wal`, `${SQLITE_FILE}-shm`, SQLITE_READY]) rmSync(f, { force: true });
  const db = openSqlite(SQLITE_FILE);
  await migrateToLatest(db);
  await seedReferenceData(db);
  await db.destroy();
  const raw = new SQLite(SQLITE_FILE);
  raw.pragma('journal_mode = WAL');
  raw.pragma('synchronous = OFF');
  raw.pragma('cache_size = -262144');
  // Insert triggers are set aside for the load and their work done set-based afterwards (the
  // statistics rebuilt, the trigram tables filled), then the same triggers are put back.
  const triggers = raw
    .prepare(`select name, sql from sqlite_master where type = 'trigger' and name in (${SQLITE_INSERT_TRIGGERS.map(() => '?').join(', ')})`)
    .all(...SQLITE_INSERT_TRIGGERS) as { name: string; sql: string }[];
  for (const t of triggers) raw.exec(`drop trigger "${t.name}"`);
  const insert = raw.prepare(`${INSERT_HEAD} values (${COLUMNS.map(() => '?').join(',')}, null, 0, null, '{}', '{}', '"e"')`);
  const next = rowStream();
  const batch = raw.transaction((n: number) => {
    for (let i = 0; i < n; i++) insert.run(...next());
  });
  for (let done = 0; done < N; done += 50_000) {
    batch(Math.min(50_000, N - done));
    if (done % 200_000 === 150_000) log(`sqlite: ${(done + 50_000).toLocaleString('en-GB')} reports (${r1((performance.now() - t0) / 1000)} s)`);
  }
  log(`sqlite: rows in (${r1((performance.now() - t0) / 1000)} s); filling the statistics and trigram tables`);
  raw.exec(
    `insert into "alarmReports_fts" (rowid, alarmId, person, account) select rowid, "alarmId", "personFullName", "customerAccountFullName" from "alarmReports"`,
  );
  raw.exec(`insert into "alarmReports_serial_fts" (rowid, serial) select rowid, "deviceSerial" from "alarmReports" where "deviceSerial" is not null`);
  for (const q of rebuildSql(false)) raw.exec(q);
  for (const t of triggers) raw.exec(t.sql);
  for (const t of ['alarmReports_fts', 'alarmReports_serial_fts']) raw.exec(`insert into "${t}" ("${t}") values ('optimize')`);
  raw.exec('analyze');
  raw.close();
  writeFileSync(SQLITE_READY, JSON.stringify({ rows: N, at: new Date().toISOString() }) + '\n');
  return (performance.now() - t0) / 1000;
}

const pgUrl = (name: string) => {
  const u = new URL(PG_ADMIN_URL);
  u.pathname = `/${name}`;
  return u.toString();
};

async function pgAvailable(): Promise<boolean> {
  const c = new pg.Client({ connectionString: PG_ADMIN_URL, connectionTimeoutMillis: 2000 });
  try {
    await c.connect();
    await c.end();
    return true;
  } catch {
    return false;
  }
}

async function pgReady(): Promise<boolean> {
  const c = new pg.Client({ connectionString: pgUrl(PG_DB) });
  try {
    await c.connect();
  } catch {
    return false;
  }
  try {
    const r = await c.query(`select "rows" from bench_ready`);
    return Number(r.rows[0]?.rows) === N;
  } catch {
    return false;
  } finally {
    await c.end();
  }
}

async function loadPostgres(): Promise<number> {
  const t0 = performance.now();
  const admin = new pg.Client({ connectionString: PG_ADMIN_URL });
  await admin.connect();
  await admin.query(`drop database if exists ${PG_DB} with (force)`);
  await admin.query(`create database ${PG_DB}`);
  await admin.end();
  const db = openPostgres(pgUrl(PG_DB), 2);
  await migrateToLatest(db);
  await seedReferenceData(db);
  await db.destroy();
  const c = new pg.Client({ connectionString: pgUrl(PG_DB) });
  await c.connect();
  await c.query('set synchronous_commit = off');
  // The statistics trigger is set aside for the load and the statistics rebuilt set-based after.
  await c.query(`alter table "alarmReports" disable trigger "alarmStats_aiud"`);
  const insert = `${INSERT_HEAD} select *, null, 0, null, '{}', '{}', '"e"' from unnest(${PG_TYPES.map((t, i) => `$${i + 1}::${t}[]`).join(', ')})`;
  const next = rowStream();
  const BATCH = 10_000;
  for (let i = 0; i < N; i += BATCH) {
    const rows: (string | number)[][] = [];
    for (let j = i; j < Math.min(N, i + BATCH); j++) rows.push(next());
    await c.query(
      insert,
      COLUMNS.map((_, k) => rows.map((row) => row[k])),
    );
    if ((i / BATCH) % 20 === 19) log(`postgres: ${(i + BATCH).toLocaleString('en-GB')} reports (${r1((performance.now() - t0) / 1000)} s)`);
  }
  for (const q of rebuildSql(true)) await c.query(q);
  await c.query(`alter table "alarmReports" enable trigger "alarmStats_aiud"`);
  await c.query('vacuum analyze');
  await c.query(`create table bench_ready ("rows" int not null)`);
  await c.query(`insert into bench_ready values ($1)`, [N]);
  await c.end();
  return (performance.now() - t0) / 1000;
}

/**
 * Insert p95 of single reports, with the statistics triggers and without them (dropped inside the
 * same kind of rolled-back transaction), so the figure is what the statistics add to a write.
 */
async function insertCost(db: DB, dialect: 'sqlite' | 'pg', f: Figures) {
  const next = rowStream(1009); // other ids than the loaded reports
  const rows = Array.from({ length: 400 }, () => next());
  const triggers = dialect === 'pg' ? ['alarmStats_aiud', 'alarmStats_au'] : ['alarmStats_ai', 'alarmStats_ad', 'alarmStats_au'];
  const measure = async (withStats: boolean) => {
    const ms: number[] = [];
    let cpu = 0;
    await db
      .transaction()
      .execute(async (trx) => {
        if (!withStats) for (const t of triggers) await sql.raw(`drop trigger "${t}"${dialect === 'pg' ? ' on "alarmReports"' : ''}`).execute(trx);
        for (const row of rows) {
          const c0 = process.cpuUsage();
          const t = performance.now();
          await sql`${sql.raw(INSERT_HEAD)} values (${sql.join(row)}, null, 0, null, '{}', '{}', '"e"')`.execute(trx);
          ms.push(performance.now() - t);
          const c = process.cpuUsage(c0);
          cpu += (c.user + c.system) / 1000;
        }
        throw new Error('rollback');
      })
      .catch((e: Error) => {
        if (e.message !== 'rollback') throw e;
      });
    return { p95: Math.round(percentileOf(ms, 95) * 100) / 100, cpu: Math.round((cpu / rows.length) * 1000) / 1000 };
  };
  await measure(true); // warm-up
  const without = await measure(false);
  const withStats = await measure(true);
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

async function measureDialect(dialect: 'sqlite' | 'pg', db: DB): Promise<Figures> {
  const f: Figures = {};
  const config = testConfig({ now: () => NOW });
  const outbox = createOutbox({ smtpUrl: config.smtpUrl, log: () => {}, now: () => NOW });
  const { app } = createApp({ db, config, outbox, log: () => {} });
  const token = await issueAccessToken(config, { id: 'bench', tenantId: PROVIDER_TENANT_ID, email: 'bench@bench.test', roles: ['SuperAdminRole'] });
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  const call = async (path: string, body?: unknown) => {
    const res = await app.request(path, body === undefined ? { headers } : { method: 'POST', headers, body: JSON.stringify(body) });
    if (res.status !== 200) throw new Error(`${path}: ${res.status} ${await res.text()}`);
    return res.json();
  };
  const time = async (name: string, goal: number, path: string, bodies: unknown[], rounds = 3) => {
    for (const b of bodies.slice(0, 3)) await call(path, b); // warm-up
    const wall: number[] = [];
    const cpu: number[] = [];
    for (let k = 0; k < rounds; k++)
      for (const body of bodies) {
        const c0 = process.cpuUsage();
        const t = performance.now();
        await call(path, body);
        wall.push(performance.now() - t);
        const c = process.cpuUsage(c0);
        cpu.push((c.user + c.system) / 1000);
      }
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
  await outbox.close();
  return f;
}

export async function benchAlarmReports(): Promise<Figures> {
  const figures: Figures = { rows: N };
  if (!existsSync(SQLITE_READY)) {
    log(`sqlite: loading ${N.toLocaleString('en-GB')} alarm reports into ${SQLITE_FILE} (first run; kept for the next)…`);
    figures.sqlite_load_s = r1(await loadSqlite());
    log(`sqlite: loaded in ${figures.sqlite_load_s} s`);
  } else log(`sqlite: reusing ${SQLITE_FILE}`);
  {
    const db = openSqlite(SQLITE_FILE);
    try {
      await migrateToLatest(db);
      Object.assign(figures, await measureDialect('sqlite', db));
    } finally {
      await db.destroy();
    }
  }
  if (process.env.ALARM_BENCH_PG === '0') return figures;
  if (!(await pgAvailable())) {
    log(`postgres: no server at ${PG_ADMIN_URL}; skipped`);
    return figures;
  }
  if (!(await pgReady())) {
    log(`postgres: loading ${N.toLocaleString('en-GB')} alarm reports into the database ${PG_DB} (first run; kept for the next)…`);
    figures.pg_load_s = r1(await loadPostgres());
    log(`postgres: loaded in ${figures.pg_load_s} s`);
  } else log(`postgres: reusing the database ${PG_DB}`);
  const db = openPostgres(pgUrl(PG_DB), 10);
  try {
    await migrateToLatest(db);
    Object.assign(figures, await measureDialect('pg', db));
  } finally {
    await db.destroy();
  }
  return figures;
}

if (import.meta.url === `file://${process.argv[1]}`)
  benchAlarmReports().then(
    (f) => {
      for (const [k, v] of Object.entries(f)) console.log(`  ${k}: ${v}`);
      process.exit(0);
    },
    (e) => {
      console.error(e);
      process.exit(1);
    },
  );
