// Throwaway databases for integration tests: a migrated in-memory SQLite by default, or a fresh
// PostgreSQL database (created and dropped per test file) when TEST_DB=pg. On PostgreSQL each
// database is a copy of a template that the integration project's global set-up migrated once
// (`create database … template …` copies files instead of running every migration again);
// without a template (a test run outside that set-up) it is migrated as before.
import pg from 'pg';
import { inject } from 'vitest';
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

/** Drops a test database once the pool that used it has let its connections go. */
export async function dropPgDatabase(name: string) {
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
}

/** `file`: SQLite in a temporary file (not in memory), so worker threads can open it too. */
export async function createTestDb(opts: { reference?: boolean; file?: boolean } = {}): Promise<TestDb> {
  let t: TestDb;
  if (pgSelected()) {
    const name = `t_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
    const template = pgTemplate(opts.reference !== false);
    const admin = new pg.Client({ connectionString: PG_ADMIN_URL });
    await admin.connect();
    await admin.query(template ? `create database ${name} template ${template}` : `create database ${name}`);
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
        await dropPgDatabase(name);
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
  if (t.dialect === 'pg' && pgTemplate(opts.reference !== false)) return t;
  await migrateToLatest(t.db);
  if (opts.reference !== false) await seedReferenceData(t.db);
  return t;
}

/** The template database the global set-up made for this run (with or without reference data), if any. */
function pgTemplate(reference: boolean): string | undefined {
  try {
    const names = inject('pgTemplates') as { reference: string; bare: string } | undefined;
    return names && (reference ? names.reference : names.bare);
  } catch {
    return undefined; // not under vitest's integration project
  }
}

/**
 * Makes the two template databases of a run (migrated, and migrated with the reference data) and
 * returns their names and a function that drops them. Names carry the process id and a random
 * part: several runs may share one PostgreSQL server.
 */
export async function createPgTemplates(): Promise<{ names: { reference: string; bare: string }; drop: () => Promise<void> }> {
  const stamp = `${process.pid}_${randomBytes(3).toString('hex')}`;
  const names = { reference: `tmpl_ref_${stamp}`, bare: `tmpl_bare_${stamp}` };
  const admin = new pg.Client({ connectionString: PG_ADMIN_URL });
  await admin.connect();
  try {
    for (const [kind, name] of Object.entries(names)) {
      await admin.query(`create database ${name}`);
      const url = new URL(PG_ADMIN_URL);
      url.pathname = `/${name}`;
      const db = openPostgres(url.toString(), 2);
      try {
        await migrateToLatest(db);
        if (kind === 'reference') await seedReferenceData(db);
      } finally {
        await db.destroy();
      }
      // nobody may stay connected to a template while it is copied
      for (let i = 0; i < 100; i++) {
        const r = await admin.query('select count(*)::int as n from pg_stat_activity where datname = $1', [name]);
        if (r.rows[0].n === 0) break;
        await new Promise((res) => setTimeout(res, 20));
      }
    }
  } finally {
    await admin.end();
  }
  return {
    names,
    drop: async () => {
      const a = new pg.Client({ connectionString: PG_ADMIN_URL });
      await a.connect();
      for (const name of Object.values(names)) await a.query(`drop database if exists ${name} with (force)`);
      await a.end();
    },
  };
}
