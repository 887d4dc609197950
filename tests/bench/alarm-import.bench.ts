// Importing closed alarm reports (POST /alarm-report/import): demo data in a temporary SQLite file
// (IMPORT_BENCH_SCALE, default 0.1 = 5,000 reports), intelligence and auto-generation on for every
// customer, then batches of IMPORT_MAX (25) reports built from the stored reports' own detail documents under
// new AlarmIds (real-sized snapshots, calls, journals and notes), posted through app.request().
// Per batch: body size, wall-clock and CPU time (process.cpuUsage) of parsing, validation, the
// writes, the triggers and the Analyses in one transaction; then the same batches re-sent
// (every report already present). With the load average beside the figures.
// Imported by tests/bench/run.ts (`npm run bench -- alarm-import`).
import { randomUUID } from 'node:crypto';
import { loadavg } from 'node:os';
import { createApp } from '../../src/server/app.js';
import { testConfig } from '../../src/server/platform/config.js';
import { createOutbox } from '../../src/server/mail/outbox.js';
import { issueAccessToken } from '../../src/server/auth/tokens.js';
import { alarmReportDetails } from '../../src/server/modules/alarm-reports/repo.js';
import { PROVIDER_TENANT_ID } from '../../src/shared/tenants.js';
import { IMPORT_MAX, type ImportAlarmReportsResponse } from '../../src/shared/schemas/alarm-report-import.js';
import { ALL_TENANTS } from '../../src/server/auth/tenant-scope.js';
import { percentileOf } from './stats.js';
import { demoSqlite } from './harness/demo-sqlite.js';
import { analyseAlarmReport } from '../../src/shared/alarm-intelligence.js';

const NOW = new Date('2026-11-22T12:00:00.000Z');
const cpuMs = (u: NodeJS.CpuUsage) => (u.user + u.system) / 1000;

export async function benchAlarmImport(scale = Number(process.env.IMPORT_BENCH_SCALE ?? 0.1), batches = Number(process.env.IMPORT_BENCH_BATCHES ?? 20)) {
  const demo = await demoSqlite('import-bench', scale, NOW);
  const { db } = demo;
  const figures: Record<string, number | string> = {};
  try {
    await db.updateTable('customers').set({ enableAlarmReportIntelligence: 1, autoGenerateAlarmIntelligence: 1 }).execute();
    await db
      .updateTable('features')
      .set({ isEnabled: 1 })
      .where('name', 'in', ['EnableAlarmReportIntelligence', 'AutoGenerateAlarmReportIntelligence'])
      .execute();

    const config = testConfig({ now: () => NOW });
    const outbox = createOutbox({ smtpUrl: config.smtpUrl, log: () => {}, now: () => NOW });
    const { app } = createApp({ db, config, outbox, log: () => {} });
    const token = await issueAccessToken(config, { id: randomUUID(), tenantId: PROVIDER_TENANT_ID, email: 'bench@bench.test', roles: ['SuperAdminRole'] });
    const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };

    const source = await db
      .selectFrom('alarmReports')
      .select(['alarmId', 'customerId'])
      .orderBy('id')
      .limit(IMPORT_MAX * batches)
      .execute();
    const bodies: string[] = [];
    for (let b = 0; b < batches; b++) {
      const reports = [];
      for (const r of source.slice(b * IMPORT_MAX, (b + 1) * IMPORT_MAX)) {
        const d = (await alarmReportDetails(db, ALL_TENANTS, r.alarmId))!;
        reports.push({ ...d, AlarmId: randomUUID(), CustomerId: r.customerId });
      }
      bodies.push(JSON.stringify({ AlarmReports: reports }));
    }
    figures.batchReports = IMPORT_MAX;
    figures.batchBodyKb = Math.round(
      percentileOf(
        bodies.map((b) => Buffer.byteLength(b) / 1024),
        50,
      ),
    );

    const post = async (body: string) => {
      const c0 = process.cpuUsage();
      const w0 = performance.now();
      const res = await app.request('/alarm-report/import', { method: 'POST', headers, body });
      const out = (await res.json()) as ImportAlarmReportsResponse;
      if (res.status !== 200) throw new Error(`import: ${res.status} ${JSON.stringify(out).slice(0, 500)}`);
      return { wall: performance.now() - w0, cpu: cpuMs(process.cpuUsage(c0)), out };
    };
    const round = (x: number) => Math.round(x * 10) / 10;
    /** Posts every batch once, in order; the figures of that pass under `name` (wall p50 and max, CPU p50 a batch and a report). */
    const pass = async (name: 'create' | 'resend') => {
      const runs = [];
      for (const b of bodies) runs.push(await post(b));
      const cpuP50 = percentileOf(
        runs.map((r) => r.cpu),
        50,
      );
      figures[`${name}WallP50Ms`] = round(
        percentileOf(
          runs.map((r) => r.wall),
          50,
        ),
      );
      figures[`${name}WallMaxMs`] = round(Math.max(...runs.map((r) => r.wall)));
      figures[`${name}CpuP50Ms`] = round(cpuP50);
      figures[`${name}CpuPerReportMs`] = round(cpuP50 / IMPORT_MAX);
      return runs.map((r) => r.out);
    };
    const created = await pass('create');
    if (created.some((r) => r.Created.length !== IMPORT_MAX || r.Analysed.length !== IMPORT_MAX))
      throw new Error('import: not every report created and analysed');
    // The Analyses made from the documents as written equal those made from the stored rows.
    let differ = 0;
    for (const x of created.flatMap((r) => r.Created).slice(0, 200)) {
      const stored = await db.selectFrom('alarmReportAnalyses').select('analysis').where('alarmReportId', '=', x.AlarmReportId).executeTakeFirstOrThrow();
      if (stored.analysis !== JSON.stringify(analyseAlarmReport((await alarmReportDetails(db, ALL_TENANTS, x.AlarmId))!))) differ++;
    }
    if (differ) throw new Error(`import: ${differ} of 200 Analyses differ from those of the stored rows`);
    const again = await pass('resend');
    if (again.some((r) => r.AlreadyPresent.length !== IMPORT_MAX)) throw new Error('import: a re-sent report was created again');
    figures.batches = batches;
    figures.loadavg = loadavg()
      .map((x) => x.toFixed(2))
      .join(' ');
    for (const [k, v] of Object.entries(figures)) console.log(`  ${k}: ${v}`);
    return figures;
  } finally {
    await demo.close();
  }
}
