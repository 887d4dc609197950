import { join } from 'node:path';
import type { Config } from './config.js';
import { checkpointInBackground, openDatabase, type DB } from './db/index.js';
import { seedReferenceData } from './seed/reference.js';
import { seedDemoData, hasData } from './seed/demo.js';
import { seedSsoDemo } from './auth/sso/demo-identities.js';

/**
 * Opens (and migrates) the configured database, adds the reference data every database needs,
 * and on first start the demo data — only when demo data is on, so a database created with
 * DEMO_DATA=false never holds the demo accounts. Then SQLite's WAL checkpoints move to a thread of
 * their own (db/checkpointer.ts).
 */
export async function prepareDatabase(config: Config, log: (e: Record<string, unknown>) => void): Promise<DB> {
  const db = await openDatabase({ databaseUrl: config.databaseUrl, sqliteFile: join(config.dataDir, 'workspace.sqlite'), sqlite: config.sqlite });
  await seedReferenceData(db);
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
