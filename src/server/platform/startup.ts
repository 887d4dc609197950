import { join } from 'node:path';
import type { Config } from './config.js';
import { checkpointInBackground, isPostgres, openDatabase, sql, tx, type DB } from '../db/index.js';
import { seedReferenceData } from '../seed/reference.js';
import { seedDemoData, hasData } from '../seed/demo.js';
import { seedSsoDemo } from '../auth/sso/demo-identities.js';

/** pg_advisory_xact_lock key of the start-up writes ('workspace' in ASCII). */
const STARTUP_LOCK = 0x776f726b7370;

/**
 * Runs start-up writes that read first and insert what is missing one node at a time: on
 * PostgreSQL nodes starting together on an empty database would otherwise both find a table
 * empty and both insert (a duplicate key stops the second). The lock is a transaction-level
 * advisory lock, released at the commit. SQLite serves one node: fn runs as it is.
 */
async function withStartupLock(db: DB, fn: (db: DB) => Promise<void>) {
  if (!isPostgres(db)) return fn(db);
  await tx(db, async (trx) => {
    await sql`select pg_advisory_xact_lock(${STARTUP_LOCK})`.execute(trx);
    await fn(trx);
  });
}

/**
 * Opens (and migrates) the configured database, adds the reference data every database needs,
 * and on first start the demo data — only when demo data is on, so a database created with
 * DEMO_DATA=false never holds the demo accounts. Then SQLite's WAL checkpoints move to a thread of
 * their own (db/checkpointer.ts).
 */
export async function prepareDatabase(config: Config, log: (e: Record<string, unknown>) => void): Promise<DB> {
  const db = await openDatabase({ databaseUrl: config.databaseUrl, sqliteFile: join(config.dataDir, 'workspace.sqlite'), sqlite: config.sqlite });
  await withStartupLock(db, seedReferenceData);
  if (config.demo && !(await hasData(db))) {
    log({ msg: 'generating demo data (first start)…', seed: config.seed, scale: config.scale });
    const r = await seedDemoData(db, { seed: config.seed, scale: config.scale, password: config.demoPassword, log, now: new Date() });
    log({ msg: 'demo data ready', ms: r.ms, ...r.counts });
  }
  // sso: a configured identity provider turns the SingleSignOn feature on; the embedded one
  // brings its demo persons and the company that requires single sign-on.
  if (config.sso) await db.updateTable('features').set({ isEnabled: 1 }).where('name', '=', 'SingleSignOn').execute();
  if (config.sso?.mode === 'embedded' && config.demo) await seedSsoDemo(db, config.demoPassword);
  checkpointInBackground(db);
  return db;
}
