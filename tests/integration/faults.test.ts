// Faults say what they are: a full disk answers 503 with the error shape and a
// log line naming it (not 500 "cannot rollback"); /health reports the database and Redis; a
// DATA_DIR that cannot be created or written stops start-up at once with one line naming it.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { tokenFor } from '../helpers/auth.js';
import { first, last } from '../helpers/lists.js';
import { openRedis } from '../../src/server/platform/redis.js';
import { CODE, MSG } from '../../src/shared/messages.js';
import { ROLE_IDS } from '../../src/shared/permissions.js';

let t: TestApp;
let admin: string;
beforeAll(async () => {
  t = await createTestApp();
  admin = await tokenFor(t.config, ['SuperAdminRole']);
});
afterAll(async () => {
  await t.close();
});

const addPerson = (email: string) =>
  t.request('/api/v1/person', {
    token: admin,
    json: { person: { firstName: 'Disk', lastName: 'Filler', emailAddress: email, roleIds: [ROLE_IDS.ArcManagerRole] } },
  });

/** Makes the database refuse to grow: SQLite stops at its current page count; PostgreSQL raises disk_full on insert. */
async function fillDisk() {
  if (t.dialect === 'sqlite') {
    const { rows } = await sql<{ page_count: number }>`pragma page_count`.execute(t.db);
    await sql.raw(`pragma max_page_count = ${first(rows).page_count}`).execute(t.db);
  } else {
    await sql
      .raw(
        `create or replace function disk_full() returns trigger language plpgsql as $$
      begin raise exception 'could not extend file "base/1/2": No space left on device' using errcode = 'disk_full'; end $$`,
      )
      .execute(t.db);
    await sql.raw(`create trigger disk_full before insert on "auditLog" for each row execute function disk_full()`).execute(t.db);
  }
}
async function freeDisk() {
  if (t.dialect === 'sqlite') await sql.raw('pragma max_page_count = 1073741823').execute(t.db);
  else await sql.raw('drop trigger disk_full on "auditLog"').execute(t.db);
}

describe('a full disk', () => {
  test('writes answer 503 with the error shape and a log line naming it; nothing half-written; /health says so', async () => {
    await fillDisk();
    let res: Response | undefined;
    const tried: string[] = [];
    // SQLite may still fit a few rows in pages it has: write until a new page is needed.
    for (let i = 0; i < 500; i++) {
      const email = `filler-${i}@faults.test`;
      tried.push(email);
      res = await addPerson(email);
      if (res.status !== 201) break;
    }
    expect(res!.status).toBe(503);
    expect(await res!.json()).toEqual({ Content: { Message: MSG.cosmosConflict, Code: CODE.unavailable } });
    expect(res!.headers.get('retry-after')).toBe('30');
    const line = t.logs.find((e) => String(e.msg).startsWith('storage full'));
    expect(line).toMatchObject({ code: t.dialect === 'sqlite' ? 'SQLITE_FULL' : '53100', path: '/api/v1/person' });
    expect(t.logs.filter((e) => e.msg === 'unhandled error')).toEqual([]);

    const h = await t.request('/health');
    expect(h.status).toBe(503);
    expect(await h.json()).toEqual({ status: 'unavailable', database: 'full', redis: 'not configured' });

    await freeDisk();
    const failed = last(tried);
    // The refused person was not stored (the transaction rolled back whole): adding it now works.
    expect(await t.db.selectFrom('persons').select('id').where('email', '=', failed).execute()).toEqual([]);
    expect((await addPerson(failed)).status).toBe(201);
  });
});

describe('/health', () => {
  test('reports the database and Redis: not configured, answering, not answering', async () => {
    const fresh = await createTestApp();
    try {
      const ok = await fresh.request('/health');
      expect(ok.status).toBe(200);
      expect(await ok.json()).toEqual({ status: 'ok', database: 'ok', redis: 'not configured' });
    } finally {
      await fresh.close();
    }

    const dead = openRedis('redis://127.0.0.1:1', { connectTimeoutMs: 300, commandTimeoutMs: 300 });
    const withDead = await createTestApp({}, { redis: dead });
    try {
      const res = await withDead.request('/health');
      expect(res.status).toBe(200); // still serving: rate limits count on this node
      expect(await res.json()).toEqual({ status: 'degraded', database: 'ok', redis: 'unavailable' });
    } finally {
      await withDead.close();
      await dead.close();
    }

    const url = process.env.TEST_REDIS_URL;
    if (url) {
      const live = openRedis(url);
      await new Promise<void>((resolve) => (live.status === 'ready' ? resolve() : live.once('ready', () => resolve())));
      const withLive = await createTestApp({}, { redis: live });
      try {
        expect(await (await withLive.request('/health')).json()).toEqual({ status: 'ok', database: 'ok', redis: 'ok' });
      } finally {
        await withLive.close();
        await live.close();
      }
    }
  });

  test('a database that does not answer: 503 unavailable', async () => {
    const gone = await createTestApp();
    await gone.close();
    const res = await gone.request('/health');
    expect(res.status).toBe(503);
    expect(await res.json()).toMatchObject({ status: 'unavailable', database: 'unavailable' });
  });
});

describe.skipIf(process.env.TEST_DB === 'pg')('DATA_DIR that cannot be used stops start-up with one line', () => {
  /** Runs `npm start`'s entry with the DATA_DIR; its exit code, output and how long it took. */
  function start(dataDir: string): Promise<{ code: number | null; out: string; ms: number }> {
    const began = Date.now();
    return new Promise((resolve) => {
      const child = spawn(process.execPath, ['bin/start.mjs'], {
        env: { ...process.env, DATA_DIR: dataDir, PORT: '0', SKIP_CLIENT_BUILD: '1', DEMO_DATA: 'false', DATABASE_URL: '', REDIS_URL: '', JWT_SECRET: '' },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let out = '';
      child.stdout.on('data', (d) => (out += d));
      child.stderr.on('data', (d) => (out += d));
      const killer = setTimeout(() => child.kill('SIGKILL'), 30_000);
      child.on('exit', (code) => {
        clearTimeout(killer);
        resolve({ code, out, ms: Date.now() - began });
      });
    });
  }
  const scratch = mkdtempSync(join(tmpdir(), 'faults-'));
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));
  const aFile = join(scratch, 'a-file');
  writeFileSync(aFile, 'not a directory');

  test.each([
    ['under /proc (cannot be created; Node’s recursive mkdir never returns there)', '/proc/workspace-data', 'cannot be created'],
    ['an existing directory this user cannot write (/sys)', '/sys', 'is not writable'],
    ['below a regular file', join(aFile, 'data'), 'cannot be created'],
    ['a regular file', aFile, 'is not a directory'],
  ])('%s', async (_what, dir, problem) => {
    const r = await start(dir);
    expect(r.code, r.out).toBe(1);
    const lines = r.out.trim().split('\n');
    expect(lines, r.out).toHaveLength(1);
    const line = JSON.parse(first(lines));
    expect(line.msg).toBe('fatal');
    expect(line.error).toContain(`DATA_DIR ${dir} ${problem}`);
    expect(line.error).not.toMatch(/\n\s+at /); // no stack trace
    expect(r.ms).toBeLessThan(20_000);
  });
});
