// Throwaway databases for integration tests: a migrated in-memory SQLite by default, or a fresh
// PostgreSQL database (created and dropped per test file) when TEST_DB=pg.
import pg from 'pg';
import { randomBytes } from 'node:crypto';
import { rmSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openSqlite, openPostgres, type DB, type DbSource } from '../../src/server/db/index.js';
import { migrateToLatest } from '../../src/server/db/migrations.js';
import { seedReferenceData } from '../../src/server/seed/reference.js';

export const PG_ADMIN_URL = process.env.TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
export const pgSelected = () => process.env.TEST_DB === 'pg';

/** `source`: where other threads (the export pool) can open the database; an in-memory SQLite one has none. */
export type TestDb = { db: DB; dialect: 'sqlite' | 'pg'; source?: DbSource; close: () => Promise<void> };

/** `file`: SQLite in a temporary file (not in memory), so worker threads can open it too. */
export async function createTestDb(opts: { reference?: boolean; file?: boolean } = {}): Promise<TestDb> {
  let t: TestDb;
  if (pgSelected()) {
    const name = `t_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
    const admin = new pg.Client({ connectionString: PG_ADMIN_URL });
    await admin.connect();
    await admin.query(`create database ${name}`);
    await admin.end();
    const url = new URL(PG_ADMIN_URL);
    url.pathname = `/${name}`;
    const db = openPostgres(url.toString(), 20);
    t = {
      db,
      dialect: 'pg',
      source: { kind: 'pg', url: url.toString() },
      close: async () => {
        await db.destroy();
        const a = new pg.Client({ connectionString: PG_ADMIN_URL });
        await a.connect();
        // pool.end() resolves before its connections have gone; dropping "with (force)" while they
        // are still closing kills them with FATAL 57P01, which surfaces as an unhandled error.
        for (let i = 0; i < 50; i++) {
          const r = await a.query('select count(*)::int as n from pg_stat_activity where datname = $1', [name]);
          if (r.rows[0].n === 0) break;
          await new Promise((res) => setTimeout(res, 20));
        }
        await a.query(`drop database if exists ${name} with (force)`);
        await a.end();
      },
    };
  } else if (opts.file) {
    const dir = mkdtempSync(join(tmpdir(), 'sw-test-'));
    const file = join(dir, 'workspace.sqlite');
    const db = openSqlite(file);
    t = {
      db,
      dialect: 'sqlite',
      source: { kind: 'sqlite', file },
      close: async () => {
        await db.destroy();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  } else {
    const db = openSqlite(':memory:');
    t = { db, dialect: 'sqlite', close: () => db.destroy() };
  }
  await migrateToLatest(t.db);
  if (opts.reference !== false) await seedReferenceData(t.db);
  return t;
}
