// Importing closed alarm reports (POST /alarm-report/import): demo data in a temporary SQLite file
// (IMPORT_BENCH_SCALE, default 0.1 = 5,000 reports), intelligence and auto-generation on for every
// customer, then batches of IMPORT_MAX (100) reports built from the stored reports' own detail documents under
// new AlarmIds (real-sized snapshots, calls, journals and notes), posted through app.request().
// Per batch: body size, wall-clock and CPU time (process.cpuUsage) of parsing, validation, the
// writes, the triggers and the Analyses in one transaction; then the same batches re-sent
// (every report already present). With the load average beside the figures.
// Imported by tests/bench/run.ts (`npm run bench -- alarm-import`).
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
import { seedDemoData } from '../../src/server/seed/demo.js';
import { issueAccessToken } from '../../src/server/auth/tokens.js';
import { alarmReportDetails } from '../../src/server/modules/alarm-reports/repo.js';
import { PROVIDER_TENANT_ID } from '../../src/shared/tenants.js';
import { IMPORT_MAX, type ImportAlarmReportsResponse } from '../../src/shared/schemas/alarm-report-import.js';
import { ALL_TENANTS } from '../../src/server/tenant-scope.js';
import { percentileOf } from './stats.js';
import { analyseAlarmReport } from '../../src/shared/alarm-intelligence.js';

const NOW = new Date('2026-11-22T12:00:00.000Z');
const cpuMs = (u: NodeJS.CpuUsage) => (u.user + u.system) / 1000;

export async function benchAlarmImport(scale = Number(process.env.IMPORT_BENCH_SCALE ?? 0.1), batches = Number(process.env.IMPORT_BENCH_BATCHES ?? 20)) {
  const file = join(tmpdir(), `import-bench-${randomBytes(4).toString('hex')}.db`);
  const raw = new SQLite(file);
  raw.pragma('journal_mode = WAL');
  raw.pragma('synchronous = NORMAL');
  raw.pragma('foreign_keys = ON');
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: raw }) }) as DB;
  const figures: Record<string, number | string> = {};
  try {
    await migrateToLatest(db);
    await seedReferenceData(db);
    await seedDemoData(db, { seed: 11, scale, password: 'Bench-Passw0rd!', log: () => {}, now: NOW });
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
    const created = [];
    for (const b of bodies) created.push(await post(b));
    if (created.some((r) => r.out.Created.length !== IMPORT_MAX || r.out.Analysed.length !== IMPORT_MAX))
      throw new Error('import: not every report created and analysed');
    figures.createWallP50Ms = round(
      percentileOf(
        created.map((r) => r.wall),
        50,
      ),
    );
    figures.createWallMaxMs = round(Math.max(...created.map((r) => r.wall)));
    figures.createCpuP50Ms = round(
      percentileOf(
        created.map((r) => r.cpu),
        50,
      ),
    );
    figures.createCpuPerReportMs = round(
      percentileOf(
        created.map((r) => r.cpu),
        50,
      ) / IMPORT_MAX,
    );
    // The Analyses made from the documents as written equal those made from the stored rows.
    let differ = 0;
    for (const x of created.flatMap((r) => r.out.Created).slice(0, 200)) {
      const stored = await db.selectFrom('alarmReportAnalyses').select('analysis').where('alarmReportId', '=', x.AlarmReportId).executeTakeFirstOrThrow();
      if (stored.analysis !== JSON.stringify(analyseAlarmReport((await alarmReportDetails(db, ALL_TENANTS, x.AlarmId))!))) differ++;
    }
    if (differ) throw new Error(`import: ${differ} of 200 Analyses differ from those of the stored rows`);
    const again = [];
    for (const b of bodies) again.push(await post(b));
    if (again.some((r) => r.out.AlreadyPresent.length !== IMPORT_MAX)) throw new Error('import: a re-sent report was created again');
    figures.resendWallP50Ms = round(
      percentileOf(
        again.map((r) => r.wall),
        50,
      ),
    );
    figures.resendCpuP50Ms = round(
      percentileOf(
        again.map((r) => r.cpu),
        50,
      ),
    );
    figures.batches = batches;
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
