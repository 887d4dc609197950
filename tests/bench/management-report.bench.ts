// The monthly management report (goal: the largest customer's report opens in < 1 s at 1,000,000
// alarm reports): MGMT_BENCH_ROWS reports (default 100,000) written into a temporary SQLite file
// through the statistics triggers, spread over 2,000 customers with a long tail (the largest holds
// about 9 %) and the last twelve months, a quarter of them with a stored analysis; then POST
// /alarm-report/get-management-report through app.request() for last month, for the largest
// customer and for all customers: wall p50 / p95 and CPU p95, with the load, and the query plans.
// Imported by tests/bench/run.ts (`npm run bench -- management-report`).
import SQLite from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import { randomBytes, randomUUID } from 'node:crypto';
import { rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createApp } from '../../src/server/app.js';
import { testConfig } from '../../src/server/config.js';
import { createOutbox } from '../../src/server/outbox.js';
import type { DB } from '../../src/server/db/index.js';
import type { Database } from '../../src/server/db/schema.js';
import { migrateToLatest } from '../../src/server/db/migrations.js';
import { seedReferenceData } from '../../src/server/seed/reference.js';
import { issueAccessToken } from '../../src/server/auth/tokens.js';
import { PROVIDER_TENANT_ID } from '../../src/shared/tenants.js';
import { defaultMonth, monthRange } from '../../src/shared/management-report.js';
import { customerRow } from '../helpers/customer-rows.js';
import { percentileOf } from './stats.js';
import { managementReport } from '../../src/server/modules/alarm-reports/management-report.js';

const NOW = new Date('2026-11-22T12:00:00.000Z');
const cpuMs = (u: NodeJS.CpuUsage) => (u.user + u.system) / 1000;
const DAY = 86_400_000;

/** A small deterministic generator (mulberry32), so every run writes the same rows. */
function rng(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export async function benchManagementReport(rows = Number(process.env.MGMT_BENCH_ROWS ?? 100_000), runs = Number(process.env.MGMT_BENCH_RUNS ?? 20)) {
  const file = join(tmpdir(), `mgmt-bench-${randomBytes(4).toString('hex')}.db`);
  const raw = new SQLite(file);
  raw.pragma('journal_mode = WAL');
  raw.pragma('synchronous = NORMAL');
  raw.pragma('foreign_keys = ON');
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: raw }) }) as DB;
  const figures: Record<string, number | string> = {};
  try {
    await migrateToLatest(db);
    await seedReferenceData(db);
    const r = rng(7);
    const customers = Array.from({ length: 2000 }, (_, i) => ({ id: randomUUID(), name: `Bench Customer ${i}` }));
    for (let i = 0; i < customers.length; i += 200)
      await db
        .insertInto('customers')
        .values(customers.slice(i, i + 200).map((c) => customerRow({ id: c.id, name: c.name, enableAlarmReportIntelligence: 1 })))
        .execute();
    const persons = Array.from({ length: 20_000 }, (_, i) => ({ id: randomUUID(), name: `Person ${i}` }));
    const insert = raw.prepare(
      `insert into alarmReports (id, alarmId, customerId, customerAccountFullName, tier, alarmType, verificationType, verificationCategory,
        personId, personFullName, deviceType, deviceSerial, arcControllerId, arcControllerFullName, alarmStarted, alarmClosed,
        verificationStartedSeconds, verificationCompletedSeconds, escalationPlanFollowed, incomingCallPhoneNumber, location, profileSnapshot, etag)
       values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, null, '{}', '{}', ?)`,
    );
    const insertAnalysis = raw.prepare(`insert into alarmReportAnalyses (alarmReportId, analysis, generatedAt, generatedBy) values (?, ?, ?, null)`);
    const analysis = (followed: boolean, tick: boolean) =>
      JSON.stringify({
        Timeline: [],
        PlanCheck: { Followed: followed, Ticked: tick, Verdict: followed === tick ? 'Agrees' : 'Questions' },
        Anomalies: [],
        Summary: '',
      });
    const w0 = performance.now();
    const batch = raw.transaction((from: number, to: number) => {
      for (let i = from; i < to; i++) {
        // a long tail: customer k gets about 1/(k+1) of the share (the largest about 9 %)
        const k = Math.min(customers.length - 1, Math.floor(Math.exp(r() * Math.log(customers.length + 1))) - 1);
        const c = customers[k]!;
        const p = persons[Math.floor(r() * persons.length)]!;
        const closed = NOW.getTime() - Math.floor(r() * 365 * DAY);
        const started = r() < 0.8 ? Math.floor(r() * 10) : r() < 0.9 ? 10 + Math.floor(r() * 30) : 40 + Math.floor(r() * 140);
        const id = randomUUID();
        insert.run(
          id,
          randomUUID(),
          c.id,
          c.name,
          1 + Math.floor(r() * 3),
          1 + Math.floor(r() * 6),
          1 + Math.floor(r() * 4),
          [101, 102, 105, 201, 203, 301][Math.floor(r() * 6)]!,
          p.id,
          p.name,
          620,
          `SN${Math.floor(r() * 100_000)}`,
          null,
          null,
          new Date(closed - 600_000).toISOString(),
          new Date(closed).toISOString(),
          started,
          started + 30 + Math.floor(r() * 900),
          r() < 0.8 ? 1 : 0,
          `"${id}"`,
        );
        if (r() < 0.25) insertAnalysis.run(id, analysis(r() < 0.85, r() < 0.8), NOW.toISOString());
      }
    });
    for (let i = 0; i < rows; i += 10_000) batch(i, Math.min(rows, i + 10_000));
    figures.rows = rows;
    figures.insertS = Math.round((performance.now() - w0) / 100) / 10;
    raw.exec('analyze');

    const month = defaultMonth(NOW);
    const { from, to } = monthRange(month);
    const largest = raw
      .prepare(
        `select customerId as id, count(*) as n from alarmReports where alarmClosed >= ? and alarmClosed < ? group by customerId order by n desc limit 1`,
      )
      .get(from, to) as { id: string; n: number };
    figures.largestCustomerMonthReports = largest.n;

    const config = testConfig({ now: () => NOW });
    const outbox = createOutbox({ smtpUrl: config.smtpUrl, log: () => {}, now: () => NOW });
    const { app } = createApp({ db, config, outbox, log: () => {} });
    const token = await issueAccessToken(config, { id: 'bench', tenantId: PROVIDER_TENANT_ID, email: 'bench@bench.test', roles: ['SuperAdminRole'] });
    const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    const round = (x: number) => Math.round(x * 10) / 10;
    for (const [name, customerId] of [
      ['largestCustomer', largest.id],
      ['allCustomers', null],
    ] as const) {
      const wall: number[] = [];
      const cpu: number[] = [];
      for (let i = 0; i < runs; i++) {
        const c0 = process.cpuUsage();
        const t0 = performance.now();
        const res = await app.request('/alarm-report/get-management-report', { method: 'POST', headers, body: JSON.stringify({ month, customerId }) });
        if (res.status !== 200) throw new Error(`get-management-report: ${res.status} ${await res.text()}`);
        await res.arrayBuffer();
        wall.push(performance.now() - t0);
        cpu.push(cpuMs(process.cpuUsage(c0)));
      }
      figures[`${name}P50Ms`] = round(percentileOf(wall, 50));
      figures[`${name}P95Ms`] = round(percentileOf(wall, 95));
      figures[`${name}CpuP95Ms`] = round(percentileOf(cpu, 95));
    }
    figures.goal = 'largest customer < 1 s at 1,000,000 reports';

    // The query plans of the largest customer's report (every statement it runs, EXPLAIN QUERY PLAN).
    const statements: { sql: string; parameters: readonly unknown[] }[] = [];
    const logged = new Kysely<Database>({
      dialect: new SqliteDialect({ database: raw }),
      log: (e) => {
        if (e.level === 'query') statements.push({ sql: e.query.sql, parameters: e.query.parameters });
      },
    }) as DB;
    await managementReport(logged, { month, customerId: largest.id, targets: { within10: 80, within40: 98.5 } });
    for (const st of statements) {
      const plan = raw.prepare(`explain query plan ${st.sql}`).all(...(st.parameters as unknown[])) as { detail: string }[];
      console.log(`  plan: ${st.sql.replace(/\s+/g, ' ').slice(0, 90)}…\n    ${plan.map((p) => p.detail).join('\n    ')}`);
    }
    figures.loadavg = loadavg()
      .map((x) => x.toFixed(2))
      .join(' ');
    for (const [k, v] of Object.entries(figures)) console.log(`  ${k}: ${v}`);
    return figures;
  } finally {
    await db.destroy();
    for (const f of [file, `${file}-wal`, `${file}-shm`]) rmSync(f, { force: true });
  }
}
