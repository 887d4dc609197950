// Demo data generation at scale 1 (2,000 customers, 100,000 devices, 20,000 persons, 50,000 alarm
// reports) into a fresh SQLite file in a temp dir, the way the first `npm start` does it; then,
// when PostgreSQL answers at TEST_PG_URL, into a fresh PostgreSQL database (dropped afterwards).
// Goals: well under 60 s on SQLite, under 3 minutes on PostgreSQL, on 2 cores. Run with
// `npm run bench -- seed` (BENCH_SEED_SCALE to resize).
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { openPostgres, openSqlite, type DB } from '../../src/server/db/index.js';
import { migrateToLatest } from '../../src/server/db/migrations.js';
import { seedReferenceData } from '../../src/server/seed/reference.js';
import { seedDemoData } from '../../src/server/seed/demo.js';

export async function benchSeed(): Promise<Record<string, number | string>> {
  const scale = Number(process.env.BENCH_SEED_SCALE ?? 1);
  const dir = mkdtempSync(join(tmpdir(), 'seed-bench-'));
  const file = join(dir, 'workspace.sqlite');
  const db = openSqlite(file);
  try {
    await migrateToLatest(db);
    await seedReferenceData(db);
    const cpu0 = process.cpuUsage();
    const log = (e: Record<string, unknown>) => {
      if (e.msg === 'demo data') console.log(`  ${String(e.phase).padEnd(14)} ${String(e.ms).padStart(6)} ms`);
    };
    const r = await seedDemoData(db, { seed: 1, scale, password: 'bench-password', log, now: new Date() });
    const cpu = process.cpuUsage(cpu0);
    const figures: Record<string, number> = {
      scale,
      seconds: Math.round(r.ms / 100) / 10,
      cpuSeconds: Math.round((cpu.user + cpu.system) / 100_000) / 10,
      goalSeconds: 60,
      dbMegabytes: Math.round(statSync(file).size / 1e6),
      ...r.counts,
    };
    console.log(`  scale ${scale}: ${figures.seconds} s wall, ${figures.cpuSeconds} s CPU (goal: well under 60 s)`);
    for (const [k, v] of Object.entries(r.counts)) console.log(`  ${k.padEnd(22)} ${v.toLocaleString('en-GB')}`);
    return { ...figures, ...(await benchSeedPostgres(scale)) };
  } finally {
    await db.destroy();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The same on a fresh PostgreSQL database: the bulk load of seed/pg-bulk.ts. Skipped when PostgreSQL does not answer. */
async function benchSeedPostgres(scale: number): Promise<Record<string, number | string>> {
  const adminUrl = process.env.TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
  const name = `bench_seed_${Date.now().toString(36)}`;
  const admin = new pg.Client({ connectionString: adminUrl, connectionTimeoutMillis: 3000 });
  try {
    await admin.connect();
  } catch {
    console.log('  PostgreSQL: not reachable, skipped');
    return {};
  }
  await admin.query(`create database ${name}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  let db: DB | undefined;
  try {
    db = openPostgres(url.toString(), 2);
    await migrateToLatest(db);
    await seedReferenceData(db);
    const load = loadavg();
    const cpu0 = process.cpuUsage();
    const log = (e: Record<string, unknown>) => {
      if (e.msg === 'demo data') console.log(`  pg ${String(e.phase).padEnd(18)} ${String(e.ms).padStart(6)} ms`);
    };
    const r = await seedDemoData(db, { seed: 1, scale, password: 'bench-password', log, now: new Date() });
    const cpu = process.cpuUsage(cpu0);
    const figures = {
      pgSeconds: Math.round(r.ms / 100) / 10,
      pgNodeCpuSeconds: Math.round((cpu.user + cpu.system) / 100_000) / 10,
      pgGoalSeconds: 180,
      pgLoadAverage: `${load.map((x) => x.toFixed(1)).join(' ')} → ${loadavg()
        .map((x) => x.toFixed(1))
        .join(' ')}`,
    };
    console.log(
      `  PostgreSQL, scale ${scale}: ${figures.pgSeconds} s wall, ${figures.pgNodeCpuSeconds} s CPU in Node (goal: under 180 s), load average ${figures.pgLoadAverage}`,
    );
    return figures;
  } finally {
    await db?.destroy();
    await admin.query(`drop database if exists ${name} with (force)`);
    await admin.end();
  }
}

if (import.meta.url === `file://${process.argv[1]}`)
  benchSeed().then(
    () => process.exit(0),
    (e) => {
      console.error(e);
      process.exit(1);
    },
  );
