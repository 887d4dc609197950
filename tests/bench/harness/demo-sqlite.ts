// A throw-away SQLite file with the demo data at a scale, for benches that measure one edge on a
// small realistic data set (alarm-import.bench.ts, alarm-intelligence.bench.ts). The file is
// opened as the server's default would journal it (WAL, synchronous FULL, foreign keys) but
// without the server's checkpoint thread, so a bench times only the work it drives.
import SQLite from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DB } from '../../../src/server/db/index.js';
import type { Database } from '../../../src/server/db/schema.js';
import { migrateToLatest } from '../../../src/server/db/migrations.js';
import { seedReferenceData } from '../../../src/server/seed/reference.js';
import { seedDemoData } from '../../../src/server/seed/demo.js';

export type DemoSqlite = {
  db: DB;
  /** Wall-clock and CPU milliseconds the demo seed took. */
  seedMs: number;
  seedCpuMs: number;
  /** Closes the database and removes its files. */
  close: () => Promise<void>;
};

const cpuMs = (u: NodeJS.CpuUsage) => (u.user + u.system) / 1000;

/** Migrates a new temporary file, adds the reference data and the demo data (seed 11) at `scale`, as of `now`. */
export async function demoSqlite(name: string, scale: number, now: Date): Promise<DemoSqlite> {
  const file = join(tmpdir(), `${name}-${randomBytes(4).toString('hex')}.db`);
  const raw = new SQLite(file);
  raw.pragma('journal_mode = WAL');
  raw.pragma('synchronous = FULL');
  raw.pragma('foreign_keys = ON');
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: raw }) }) as DB;
  const close = async () => {
    await db.destroy();
    for (const f of [file, `${file}-wal`, `${file}-shm`]) rmSync(f, { force: true });
  };
  try {
    await migrateToLatest(db);
    await seedReferenceData(db);
    const cpu = process.cpuUsage();
    const t0 = performance.now();
    await seedDemoData(db, { seed: 11, scale, password: 'Bench-Passw0rd!', log: () => {}, now });
    return { db, seedMs: Math.round(performance.now() - t0), seedCpuMs: Math.round(cpuMs(process.cpuUsage(cpu))), close };
  } catch (e) {
    await close();
    throw e;
  }
}
