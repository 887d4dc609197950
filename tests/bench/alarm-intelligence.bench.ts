// Alarm report intelligence (goal: Analysis generation p95 < 20 ms per report): demo data in a
// temporary SQLite file, intelligence switched on for every customer, then POST
// /alarm-report/generate-analysis through app.request() for a sample of reports (reading the
// report's detail document, the rules, storing the result), and the rules alone on the same
// documents. Per report: wall-clock p50 / p95 and CPU time (process.cpuUsage), with the load.
// Imported by tests/bench/run.ts (`npm run bench -- alarm-intelligence`); INTEL_BENCH_SCALE and
// INTEL_BENCH_SAMPLE override the demo scale (0.1 = 5,000 reports) and the sample size.
import { loadavg } from 'node:os';
import { createApp } from '../../src/server/app.js';
import { testConfig } from '../../src/server/platform/config.js';
import { createOutbox } from '../../src/server/mail/outbox.js';
import { issueAccessToken } from '../../src/server/auth/tokens.js';
import { alarmReportDetails } from '../../src/server/modules/alarm-reports/repo.js';
import { analyseAlarmReport } from '../../src/shared/alarm-intelligence.js';
import { PROVIDER_TENANT_ID } from '../../src/shared/tenants.js';
import { percentileOf } from './stats.js';
import { demoSqlite } from './harness/demo-sqlite.js';
import { ALL_TENANTS } from '../../src/server/auth/tenant-scope.js';

const NOW = new Date('2026-11-22T12:00:00.000Z');
const cpuMs = (u: NodeJS.CpuUsage) => (u.user + u.system) / 1000;

export async function benchAlarmIntelligence(scale = Number(process.env.INTEL_BENCH_SCALE ?? 0.1), sample = Number(process.env.INTEL_BENCH_SAMPLE ?? 500)) {
  const demo = await demoSqlite('intel-bench', scale, NOW);
  const { db } = demo;
  const figures: Record<string, number | string> = {};
  try {
    figures.seedMs = demo.seedMs;
    figures.seedCpuMs = demo.seedCpuMs;
    figures.reports = Number(
      (
        await db
          .selectFrom('alarmReports')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
    figures.seededAnalyses = Number(
      (
        await db
          .selectFrom('alarmReportAnalyses')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
    await db.updateTable('customers').set({ enableAlarmReportIntelligence: 1 }).execute();

    const config = testConfig({ now: () => NOW });
    const outbox = createOutbox({ smtpUrl: config.smtpUrl, log: () => {}, now: () => NOW });
    const { app } = createApp({ db, config, outbox, log: () => {} });
    const token = await issueAccessToken(config, { id: 'bench', tenantId: PROVIDER_TENANT_ID, email: 'bench@bench.test', roles: ['SuperAdminRole'] });
    const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    const ids = await db.selectFrom('alarmReports').select(['id', 'alarmId']).orderBy('id').limit(sample).execute();

    const wall: number[] = [];
    const cpu: number[] = [];
    for (const r of ids) {
      const c0 = process.cpuUsage();
      const w0 = performance.now();
      const res = await app.request('/alarm-report/generate-analysis', { method: 'POST', headers, body: JSON.stringify({ alarmReportId: r.id }) });
      if (res.status !== 200) throw new Error(`generate-analysis: ${res.status} ${await res.text()}`);
      await res.arrayBuffer();
      wall.push(performance.now() - w0);
      cpu.push(cpuMs(process.cpuUsage(c0)));
    }
    const round = (x: number) => Math.round(x * 100) / 100;
    figures.generateP50Ms = round(percentileOf(wall, 50));
    figures.generateP95Ms = round(percentileOf(wall, 95));
    figures.generateCpuP95Ms = round(percentileOf(cpu, 95));
    figures.generateGoal = 'p95 < 20 ms per report';

    const docs = [];
    for (const r of ids) docs.push((await alarmReportDetails(db, ALL_TENANTS, r.alarmId))!);
    const rules: number[] = [];
    for (const d of docs) {
      const c0 = process.cpuUsage();
      analyseAlarmReport(d);
      rules.push(cpuMs(process.cpuUsage(c0)));
    }
    figures.rulesCpuP95Ms = round(percentileOf(rules, 95));
    figures.sample = ids.length;
    figures.loadavg = loadavg()
      .map((x) => x.toFixed(2))
      .join(' ');
    for (const [k, v] of Object.entries(figures)) console.log(`  ${k}: ${v}`);
    return figures;
  } finally {
    await demo.close();
  }
}
