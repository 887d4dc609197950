// The monthly management report (goal: the report of the largest customer, and of all customers,
// opens in < 1 s at 1,000,000 alarm reports), over the kept alarm report data set of
// alarm-reports.bench.ts (harness/kept-data.ts: `.tmp/bench-alarms/alarms-<n>.sqlite` and the
// PostgreSQL database bench_alarms_<n>, loaded by that bench's loaders when missing). That data set
// names 400 accounts but links no customer: the first run here adds the 400 customers (alarm
// report intelligence on), links every report to its account's customer and stores an analysis
// for about a quarter of the reports — once, set-based, with the per-row triggers set aside and
// the monthly tops rebuilt after (a `bench_mgmt_ready` table marks it done). Then POST
// /alarm-report/get-management-report through app.request() for last month, for the largest
// customer and for all customers: wall p50 / p95 and CPU p50 / p95 (this process; PostgreSQL's own
// CPU is in its server) with the machine's load; each statement of the all-customers report timed
// alone beside the raw per-month queries the monthly tops replaced; and the plan of every
// statement of the all-customers report (EXPLAIN QUERY PLAN / EXPLAIN).
// The usage report of the largest customer (goal: < 1 s) is measured on the same database: the
// first run gives that customer USAGE_BENCH_DEVICES allocated devices (default 5,000) with a
// year of daily usage (a row on about 70 % of the days, as a fleet in use sends; a
// `bench_usage_ready` table marks it done), then GET /ps-admin/customers/usage-report for last
// month: wall p50 / p95, CPU p50 / p95, and the plan of each of its statements.
// Imported by tests/bench/run.ts (`npm run bench -- management-report`); MGMT_BENCH_ROWS (default
// ALARM_BENCH_ROWS, else 1,000,000) picks the data set, MGMT_BENCH_RUNS the requests per case,
// MGMT_BENCH_PG=0 skips PostgreSQL. Run alone: `node --import tsx tests/bench/management-report.bench.ts`.
import { CompiledQuery, sql } from 'kysely';
import { isPostgres, type DB } from '../../src/server/db/index.js';
import { defaultMonth, monthRange } from '../../src/shared/management-report.js';
import { managementReport } from '../../src/server/modules/alarm-reports/management-report.js';
import { ANALYSIS_TRIGGERS, rebuildTopsSql } from '../../src/server/modules/alarm-reports/month-tops.js';
import { countingTriggerNames } from '../../src/server/db/counting-triggers.js';
import { customerRow, deviceRow } from '../helpers/customer-rows.js';
import { usageReport } from '../../src/server/modules/fleet/usage-report.js';
import { ALL_TENANTS } from '../../src/server/auth/tenant-scope.js';
import { londonDayOf } from '../../src/server/modules/alarm-reports/time.js';
import { percentileOf, rng } from './stats.js';
import * as kept from './harness/kept-data.js';
import { ACCOUNTS, insertReport, keptAlarms, loadAlarmsPostgres, loadAlarmsSqlite, rowStream } from './alarm-reports.bench.js';

const { log, load, r1 } = kept;
type Figures = kept.Figures;

const N = Number(process.env.MGMT_BENCH_ROWS ?? process.env.ALARM_BENCH_ROWS ?? 1_000_000);
const RUNS = Number(process.env.MGMT_BENCH_RUNS ?? 10);
const NOW = new Date('2026-11-22T12:00:00.000Z');
const GOAL_MS = 1000;
const FEATURES = ['ExportManagementReportPDF', 'EnableAlarmReportIntelligence'];
const USAGE_DEVICES = Number(process.env.USAGE_BENCH_DEVICES ?? 5_000);
const USAGE_DAYS = 366;

/** Triggers that fire per row on the preparation's writes (set aside, their work redone set-based), by table. */
const topsTriggers = (pg: boolean) => ({ alarmReports: ['alarmMonthTops_au'], alarmReportAnalyses: [countingTriggerNames(ANALYSIS_TRIGGERS, pg)[0]!] });

function uuidOf(r: () => number) {
  const h = Array.from({ length: 32 }, () => Math.floor(r() * 16).toString(16)).join('');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-8${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

/** An analysis as the rules store it, enough for the compliance (followed / ticked vary by the report's id). */
function analysisSql() {
  const bit = (k: number) => `(substr(r."id", ${k}, 1) in ('0', '2', '4', '6', '8', 'a', 'c', 'e'))`;
  const followed = `case when ${bit(1)} then 'true' else 'false' end`;
  const verdict = `case when ${bit(1)} = ${bit(2)} then 'Agrees' else 'Questions' end`;
  const json = `'{"Timeline":[],"PlanCheck":{"Followed":' || ${followed} || ',"Ticked":true,"Verdict":"' || ${verdict} || '"},"Anomalies":[],"Summary":""}'`;
  // about a quarter of the reports: those whose id ends in 0–3
  return `insert into "alarmReportAnalyses" ("alarmReportId", "analysis", "generatedAt", "generatedBy")
    select r."id", ${json}, '${NOW.toISOString()}', null from "alarmReports" r where substr(r."id", 36, 1) in ('0', '1', '2', '3')`;
}

/** Once per data set: customers for the accounts, every report linked, analyses for a quarter, the tops rebuilt. */
async function prepare(dialect: kept.Dialect, db: DB) {
  const ready = await sql`select 1 as x from bench_mgmt_ready`.execute(db).then(
    () => true,
    () => false,
  );
  await db.updateTable('features').set({ isEnabled: 1 }).where('name', 'in', FEATURES).execute();
  if (ready) return;
  const t0 = performance.now();
  log(`${dialect}: first run on this data set: adding ${ACCOUNTS.length} customers, linking the reports, storing analyses…`);
  const r = rng(400);
  const customers = ACCOUNTS.map((name) => customerRow({ id: uuidOf(r), name, enableAlarmReportIntelligence: 1 }));
  await db.deleteFrom('customers').where('name', 'in', ACCOUNTS).execute();
  for (let i = 0; i < customers.length; i += 100)
    await db
      .insertInto('customers')
      .values(customers.slice(i, i + 100))
      .execute();
  const pg = isPostgres(db);
  const run = (text: string) => sql.raw(text).execute(db);
  await db.transaction().execute(async (trx) => {
    const exec = (text: string) => sql.raw(text).execute(trx);
    await kept.withTriggersAside(trx, topsTriggers(pg), async () => {
      if (pg) await exec(`update "alarmReports" r set "customerId" = c."id" from "customers" c where c."name" = r."customerAccountFullName"`);
      else {
        await exec(`create index "bench_customers_name" on "customers" ("name")`);
        await exec(`update "alarmReports" set "customerId" = (select c."id" from "customers" c where c."name" = "alarmReports"."customerAccountFullName")`);
        await exec(`drop index "bench_customers_name"`);
      }
      await exec(`delete from "alarmReportAnalyses"`);
      await exec(analysisSql());
      for (const q of rebuildTopsSql(pg)) await exec(q);
    });
    await exec(`create table bench_mgmt_ready (at text not null)`);
    await exec(`insert into bench_mgmt_ready values ('${new Date().toISOString()}')`);
  });
  // PostgreSQL: linking every report to its customer left a dead copy of each row, and until a
  // vacuum marks the pages all-visible again the alarm list's index-only scans visit the heap (the
  // alarm-reports bench on the same database measured 5–10 times slower). Vacuum before measuring.
  await run(pg ? 'vacuum analyze' : 'analyze');
  log(`${dialect}: prepared in ${r1((performance.now() - t0) / 1000)} s`);
}

/** The plan of every statement the report runs (compiled as the app compiles them, then EXPLAINed). */
async function printPlans(dialect: kept.Dialect, db: DB, month: string, customerId: string | null) {
  const seen: CompiledQuery[] = [];
  const executor = db.getExecutor();
  const traced = db.withPlugin({
    transformQuery: (a) => {
      seen.push(executor.compileQuery(a.node, a.queryId));
      return a.node;
    },
    transformResult: async (a) => a.result,
  }) as DB;
  await managementReport(traced, { month, customerId, targets: { within10: 80, within40: 98.5 } });
  const pg = dialect === 'pg';
  for (const q of seen) {
    if (!/^\s*select/i.test(q.sql)) continue;
    const plan = await db.executeQuery<Record<string, unknown>>(CompiledQuery.raw(`${pg ? 'explain' : 'explain query plan'} ${q.sql}`, [...q.parameters]));
    const lines = plan.rows.map((r) => String(pg ? r['QUERY PLAN'] : r.detail));
    log(`${dialect} plan: ${q.sql.replace(/\s+/g, ' ').slice(0, 110)}…\n      ${lines.join('\n      ')}`);
  }
}

/**
 * Where the time goes: the statements of the all-customers report timed alone (wall and CPU
 * median of three), beside the raw per-month queries the monthly tops replaced (busiest users and
 * devices, compliance read from the month's rows).
 */
async function statementTimings(dialect: kept.Dialect, db: DB, month: string, f: Figures) {
  const { from, to } = monthRange(month);
  const pg = dialect === 'pg';
  const json = (path: string) =>
    pg ? sql.raw(`(a."analysis"::jsonb #>> '{PlanCheck,${path}}')`) : sql.raw(`json_extract(a."analysis", '$.PlanCheck.${path}')`);
  const statements: [string, () => Promise<unknown>][] = [
    [
      'raw.busiest_users',
      () =>
        sql`select "personId", max("personFullName"), count(*) from "alarmReports" where "alarmClosed" >= ${from} and "alarmClosed" < ${to}
          and "personId" is not null group by "personId" order by count(*) desc, max("personFullName") limit 10`.execute(db),
    ],
    [
      'raw.busiest_devices',
      () =>
        sql`select "deviceSerial", max("deviceType"), count(*) from "alarmReports" where "alarmClosed" >= ${from} and "alarmClosed" < ${to}
          and "deviceSerial" is not null group by "deviceSerial" order by count(*) desc, "deviceSerial" limit 10`.execute(db),
    ],
    [
      'raw.compliance',
      () =>
        sql`select ${json('Verdict')} as v, ${json('Followed')} as f, count(*) from "alarmReports" r
          inner join "alarmReportAnalyses" a on a."alarmReportId" = r."id" inner join "customers" c on c."id" = r."customerId"
          where r."alarmClosed" >= ${from} and r."alarmClosed" < ${to} and c."enableAlarmReportIntelligence" = 1 group by 1, 2`.execute(db),
    ],
    [
      'raw.missed_list',
      () =>
        sql`select "id" from "alarmReports" where "alarmClosed" >= ${from} and "alarmClosed" < ${to} and "verificationStartedSeconds" >= 10
          order by "verificationStartedSeconds" desc, "alarmClosed" desc, "id" limit 50`.execute(db),
    ],
    ['report.all_customers', () => managementReport(db, { month, customerId: null, targets: { within10: 80, within40: 98.5 } })],
  ];
  for (const [name, run] of statements) {
    await run();
    const wall: number[] = [];
    const cpu: number[] = [];
    for (let i = 0; i < 3; i++) {
      const c0 = process.cpuUsage();
      const t0 = performance.now();
      await run();
      wall.push(performance.now() - t0);
      const c = process.cpuUsage(c0);
      cpu.push((c.user + c.system) / 1000);
    }
    f[`${dialect}.stmt.${name}.ms`] = r1(percentileOf(wall, 50));
    f[`${dialect}.stmt.${name}.cpu_ms`] = r1(percentileOf(cpu, 50));
    log(`${dialect} ${name}: ${f[`${dialect}.stmt.${name}.ms`]} ms wall, CPU ${f[`${dialect}.stmt.${name}.cpu_ms`]} ms (median of 3; load ${load()})`);
  }
}

/**
 * What the monthly tops add to a write: single-report inserts (p95 wall, mean CPU) with the tops
 * trigger and without it (dropped inside the same kind of transaction, rolled back).
 */
async function insertCost(dialect: kept.Dialect, db: DB, f: Figures) {
  const next = rowStream(2027); // other ids than the loaded reports
  const rows = Array.from({ length: 300 }, () => next());
  const { without, with: withTops } = await kept.writeCost(db, 'alarmReports', ['alarmMonthTops_ai'], rows, insertReport);
  f[`${dialect}.insert.p95_ms_without_tops`] = without.p95;
  f[`${dialect}.insert.p95_ms_with_tops`] = withTops.p95;
  f[`${dialect}.insert.cpu_mean_ms_without_tops`] = without.cpu;
  f[`${dialect}.insert.cpu_mean_ms_with_tops`] = withTops.cpu;
  log(
    `${dialect} alarm report insert: p95 ${without.p95} ms without the monthly tops trigger, ${withTops.p95} ms with it; CPU mean ${without.cpu} / ${withTops.cpu} ms (load ${load()})`,
  );
}

/**
 * Once per data set: the largest customer's fleet for the usage report — USAGE_DEVICES allocated
 * devices and a year of daily usage (a row on about 70 % of the days: check-ins, now and then a
 * low-battery warning), inserted in batches.
 */
async function prepareUsage(dialect: kept.Dialect, db: DB, customerId: string) {
  const ready = await sql`select 1 as x from bench_usage_ready`.execute(db).then(
    () => true,
    () => false,
  );
  if (ready) return;
  const t0 = performance.now();
  log(`${dialect}: first run: ${USAGE_DEVICES.toLocaleString('en-GB')} devices of the largest customer with ${USAGE_DAYS} days of daily usage…`);
  const r = rng(32);
  const days = Array.from({ length: USAGE_DAYS }, (_, i) => londonDayOf(NOW.getTime() - i * 86_400_000));
  for (let i = 0; i < USAGE_DEVICES; i += 500) {
    const devices = Array.from({ length: Math.min(500, USAGE_DEVICES - i) }, (_, k) =>
      deviceRow({ id: uuidOf(r), serialNumber: `BENCH-U-${String(i + k).padStart(6, '0')}`, type: 640, status: 3, customerId, etag: '"b"' }),
    );
    await db.insertInto('devices').values(devices).execute();
    const usage = devices.flatMap((d) =>
      days
        .filter(() => r() < 0.7)
        .map((day) => {
          const checkIns = r() < 0.9 ? 1 + Math.floor(r() * 3) : 0;
          return {
            deviceId: d.id,
            day,
            firstMessageAt: `${day}T07:00:00.000Z`,
            lastMessageAt: `${day}T18:00:00.000Z`,
            messages: checkIns + 20,
            heartbeats: 20,
            locations: 0,
            checkIns,
            lowBatteries: r() < 0.05 ? 1 : 0,
            powerOns: 0,
            powerOffs: 0,
            chargings: 0,
            sosAlarms: 0,
            falls: 0,
            configurationAcks: 0,
            minBattery: 40,
            configPending: 0,
          };
        }),
    );
    for (let j = 0; j < usage.length; j += 1000)
      await db
        .insertInto('deviceDailyUsage')
        .values(usage.slice(j, j + 1000))
        .execute();
  }
  await sql.raw(`create table bench_usage_ready (at text not null)`).execute(db);
  await sql.raw(`insert into bench_usage_ready values ('${new Date().toISOString()}')`).execute(db);
  await sql.raw(isPostgres(db) ? 'vacuum analyze' : 'analyze').execute(db);
  log(`${dialect}: usage data prepared in ${r1((performance.now() - t0) / 1000)} s`);
}

/** The usage report of the largest customer for last month, through the app; then the plan of each statement. */
async function measureUsage(dialect: kept.Dialect, db: DB, send: (path: string) => Promise<Response>, customerId: string, month: string, f: Figures) {
  await prepareUsage(dialect, db, customerId);
  const path = `/ps-admin/customers/usage-report?customerId=${customerId}&month=${month}`;
  for (let i = 0; i < 2; i++) await (await send(path)).arrayBuffer(); // warm-up
  const wall: number[] = [];
  const cpu: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    await (await send(path)).arrayBuffer();
    wall.push(performance.now() - t0);
    const c = process.cpuUsage(c0);
    cpu.push((c.user + c.system) / 1000);
  }
  const key = `${dialect}.usage.largest`;
  f[`${key}.p50_ms`] = r1(percentileOf(wall, 50));
  f[`${key}.p95_ms`] = r1(percentileOf(wall, 95));
  f[`${key}.cpu_p50_ms`] = r1(percentileOf(cpu, 50));
  f[`${key}.cpu_p95_ms`] = r1(percentileOf(cpu, 95));
  log(
    `${dialect} usage report of the largest customer (${USAGE_DEVICES.toLocaleString('en-GB')} devices): p50 ${f[`${key}.p50_ms`]} ms, p95 ${f[`${key}.p95_ms`]} ms wall, CPU p50 ${f[`${key}.cpu_p50_ms`]} / p95 ${f[`${key}.cpu_p95_ms`]} ms (goal < ${GOAL_MS} ms; load ${load()})`,
  );
  const seen: CompiledQuery[] = [];
  const executor = db.getExecutor();
  const traced = db.withPlugin({
    transformQuery: (a) => {
      seen.push(executor.compileQuery(a.node, a.queryId));
      return a.node;
    },
    transformResult: async (a) => a.result,
  }) as DB;
  await usageReport(traced, ALL_TENANTS, { customerId, month, now: NOW });
  const pg = dialect === 'pg';
  for (const q of seen) {
    if (!/^\s*select/i.test(q.sql)) continue;
    const plan = await db.executeQuery<Record<string, unknown>>(CompiledQuery.raw(`${pg ? 'explain' : 'explain query plan'} ${q.sql}`, [...q.parameters]));
    log(
      `${dialect} usage plan: ${q.sql.replace(/\s+/g, ' ').slice(0, 110)}…\n      ${plan.rows.map((x) => String(pg ? x['QUERY PLAN'] : x.detail)).join('\n      ')}`,
    );
  }
}

async function measureDialect(dialect: kept.Dialect, db: DB): Promise<Figures> {
  const f: Figures = {};
  await prepare(dialect, db);
  const month = defaultMonth(NOW);
  const range = monthRange(month);
  const largest = await db
    .selectFrom('alarmReports')
    .select(['customerId', (eb) => eb.fn.countAll<string>().as('n')])
    .where('customerId', 'is not', null)
    .where('alarmClosed', '>=', range.from)
    .where('alarmClosed', '<', range.to)
    .groupBy('customerId')
    .orderBy(sql`count(*)`, 'desc')
    .limit(1)
    .executeTakeFirstOrThrow();
  const monthRows = await db
    .selectFrom('alarmReports')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('alarmClosed', '>=', range.from)
    .where('alarmClosed', '<', range.to)
    .executeTakeFirstOrThrow();
  f[`${dialect}.mgmt.month_reports`] = Number(monthRows.n);
  f[`${dialect}.mgmt.largest_customer_month_reports`] = Number(largest.n);
  log(`${dialect}: ${month}: ${Number(monthRows.n).toLocaleString('en-GB')} reports, the largest customer ${Number(largest.n).toLocaleString('en-GB')}`);
  const { send, close } = await kept.benchApp(db, NOW);
  try {
    for (const [name, customerId] of [
      ['largest', largest.customerId],
      ['all', null],
    ] as const) {
      const body = { month, customerId };
      for (let i = 0; i < 2; i++) await (await send('/alarm-report/get-management-report', body)).arrayBuffer(); // warm-up
      const wall: number[] = [];
      const cpu: number[] = [];
      for (let i = 0; i < RUNS; i++) {
        const c0 = process.cpuUsage();
        const t0 = performance.now();
        await (await send('/alarm-report/get-management-report', body)).arrayBuffer();
        wall.push(performance.now() - t0);
        const c = process.cpuUsage(c0);
        cpu.push((c.user + c.system) / 1000);
      }
      const key = `${dialect}.mgmt.${name}`;
      f[`${key}.p50_ms`] = r1(percentileOf(wall, 50));
      f[`${key}.p95_ms`] = r1(percentileOf(wall, 95));
      f[`${key}.cpu_p50_ms`] = r1(percentileOf(cpu, 50));
      f[`${key}.cpu_p95_ms`] = r1(percentileOf(cpu, 95));
      log(
        `${dialect} management report, ${name === 'all' ? 'all customers' : 'the largest customer'}: p50 ${f[`${key}.p50_ms`]} ms, p95 ${f[`${key}.p95_ms`]} ms wall, CPU p50 ${f[`${key}.cpu_p50_ms`]} / p95 ${f[`${key}.cpu_p95_ms`]} ms (goal < ${GOAL_MS} ms; load ${load()})`,
      );
    }
    await measureUsage(dialect, db, send, largest.customerId!, month, f);
  } finally {
    await close();
  }
  await statementTimings(dialect, db, month, f);
  await insertCost(dialect, db, f);
  await printPlans(dialect, db, month, null);
  f[`${dialect}.load`] = load();
  return f;
}

export async function benchManagementReport(): Promise<Figures> {
  const k = keptAlarms(N);
  return kept.onKeptData(
    k,
    { rows: N },
    { loadSqlite: () => loadAlarmsSqlite(k), loadPostgres: () => loadAlarmsPostgres(k), measure: measureDialect, skipPg: process.env.MGMT_BENCH_PG === '0' },
  );
}

kept.runAlone(import.meta.url, benchManagementReport);
