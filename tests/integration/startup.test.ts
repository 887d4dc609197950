import { afterEach, describe, expect, test } from 'vitest';
import { chmodSync, existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../src/server/platform/config.js';
import { prepareDatabase } from '../../src/server/platform/startup.js';
import { DEMO_ACCOUNTS } from '../../src/server/seed/accounts.js';
import { verifyPassword } from '../../src/server/auth/password.js';
import type { DB } from '../../src/server/db/index.js';

// SQLite files under a temp DATA_DIR, as `npm start` uses them (the PostgreSQL path is the
// same function with DATABASE_URL; the seed and migration suites cover PostgreSQL).
const dirs: string[] = [];
const dbs: DB[] = [];
afterEach(async () => {
  for (const db of dbs.splice(0)) await db.destroy();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

async function start(env: Record<string, string>) {
  const dir = mkdtempSync(join(tmpdir(), 'startup-'));
  dirs.push(dir);
  const config = loadConfig({ DATA_DIR: dir, ...env });
  const db = await prepareDatabase(config, () => {});
  dbs.push(db);
  return { db, dir, config };
}

test.skipIf(process.env.TEST_DB === 'pg')('DEMO_DATA=false: reference data only, no demo accounts and no persons at all', async () => {
  const { db } = await start({ DEMO_DATA: 'false' });
  expect(await db.selectFrom('persons').select('id').execute()).toHaveLength(0);
  expect((await db.selectFrom('roles').select('id').execute()).length).toBe(7); // the six staff roles and the customer administrators' AdminRole
  expect((await db.selectFrom('countries').select('id').execute()).length).toBeGreaterThan(200);
});

test.skipIf(process.env.TEST_DB === 'pg')(
  'first start with demo data: every demo account signs in with DEMO_PASSWORD; a restart does not generate again',
  async () => {
    const { db, dir } = await start({ SCALE: '0.01', SEED: '3', DEMO_PASSWORD: 'Another-Passw0rd' });
    for (const a of DEMO_ACCOUNTS) {
      const p = await db.selectFrom('persons').select(['id', 'passwordHash']).where('email', '=', a.email).executeTakeFirst();
      expect(p, a.email).toBeTruthy();
      expect(await verifyPassword(p!.passwordHash, 'Another-Passw0rd')).toBe(true);
    }
    const before = (await db.selectFrom('persons').select('id').execute()).length;
    await db.destroy();
    dbs.splice(dbs.indexOf(db), 1);
    const again = await prepareDatabase(loadConfig({ DATA_DIR: dir, SCALE: '0.01', SEED: '3' }), () => {});
    dbs.push(again);
    expect((await again.selectFrom('persons').select('id').execute()).length).toBe(before);
  },
);

describe.skipIf(process.env.TEST_DB === 'pg')('files under DATA_DIR are owner-only', () => {
  const mode = (f: string) => (statSync(f).mode & 0o777).toString(8);
  const files = (dir: string) => ['workspace.sqlite', 'workspace.sqlite-wal', 'workspace.sqlite-shm', 'signing-key.json'].map((f) => join(dir, f));

  test('a first start creates DATA_DIR 0700 and the database, its WAL and SHM files and the signing key 0600', async () => {
    const parent = mkdtempSync(join(tmpdir(), 'startup-'));
    dirs.push(parent);
    const dir = join(parent, 'data');
    const db = await prepareDatabase(loadConfig({ DATA_DIR: dir, DEMO_DATA: 'false' }), () => {});
    dbs.push(db);
    expect(mode(dir)).toBe('700');
    for (const f of files(dir)) {
      expect(existsSync(f), f).toBe(true);
      expect(mode(f), f).toBe('600');
    }
  });

  test('files an older version left 0644 are tightened on the next start', async () => {
    const { db, dir } = await start({ DEMO_DATA: 'false' });
    await db.destroy();
    dbs.splice(dbs.indexOf(db), 1);
    for (const f of [...files(dir)].filter(existsSync)) chmodSync(f, 0o644);
    const again = await prepareDatabase(loadConfig({ DATA_DIR: dir, DEMO_DATA: 'false' }), () => {});
    dbs.push(again);
    for (const f of files(dir)) if (existsSync(f)) expect(mode(f), f).toBe('600');
  });
});
