// The server's SQLite connection: every commit is synced before it returns, WAL checkpoints run on a
// thread of their own once start-up is done, and prepared statements are kept and reused, also after a
// streamed read left early.
import { afterEach, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { checkpointInBackground, openSourceForWrites, openSqlite, sql, type DB } from '../../src/server/db/index.js';
import { sqliteSizingOf } from '../../src/server/platform/config.js';

let dir = '';
let db: DB | undefined;
afterEach(async () => {
  await db?.destroy();
  db = undefined;
  rmSync(dir, { recursive: true, force: true });
});

function open() {
  dir = mkdtempSync(join(tmpdir(), 'sw-conn-'));
  const file = join(dir, 'db.sqlite');
  db = openSqlite(file);
  return { db, file };
}

/** Writes ~8 MB (about 2,000 pages, twice SQLite's automatic checkpoint) in small transactions. */
async function write(d: DB) {
  await sql`create table t (id integer primary key, v text not null)`.execute(d);
  const v = 'x'.repeat(4000);
  for (let k = 0; k < 100; k++)
    await d.transaction().execute(async (trx) => {
      for (let i = 0; i < 20; i++) await sql`insert into t (v) values (${v})`.execute(trx);
    });
}

const until = async (ok: () => boolean, ms = 10_000) => {
  const end = Date.now() + ms;
  while (!ok() && Date.now() < end) await new Promise((r) => setTimeout(r, 50));
  return ok();
};

describe('SQLite WAL checkpoints', () => {
  it('after start-up the connection no longer checkpoints in its commits; the thread copies the WAL into the file', async () => {
    const { db: d, file } = open();
    checkpointInBackground(d);
    const auto = await sql<{ wal_autocheckpoint: number }>`pragma wal_autocheckpoint`.execute(d);
    expect(auto.rows[0]?.wal_autocheckpoint).toBe(0);
    const before = statSync(file).size;
    await write(d);
    // the rows reach the database file itself, which only a checkpoint writes
    expect(await until(() => statSync(file).size > before + 7_000_000)).toBe(true);
    const n = await sql<{ n: number }>`select count(*) as n from t`.execute(d);
    expect(n.rows[0]?.n).toBe(2000);
  });

  it('without it (tests, tools) the connection keeps SQLite’s automatic checkpoint', async () => {
    const { db: d } = open();
    const auto = await sql<{ wal_autocheckpoint: number }>`pragma wal_autocheckpoint`.execute(d);
    expect(auto.rows[0]?.wal_autocheckpoint).toBe(1000);
  });
});

describe('durable commits', () => {
  it('a commit returns once the WAL is synced (WAL, synchronous FULL), also on a connection of a worker that writes', async () => {
    const { db: d } = open();
    checkpointInBackground(d);
    expect((await sql<{ journal_mode: string }>`pragma journal_mode`.execute(d)).rows[0]?.journal_mode).toBe('wal');
    expect((await sql<{ synchronous: number }>`pragma synchronous`.execute(d)).rows[0]?.synchronous).toBe(2); // 2 = FULL
    const worker = openSourceForWrites({ kind: 'sqlite', file: join(dir, 'db.sqlite') });
    try {
      expect((await sql<{ synchronous: number }>`pragma synchronous`.execute(worker)).rows[0]?.synchronous).toBe(2);
    } finally {
      await worker.destroy();
    }
  });
});

describe('kept prepared statements', () => {
  it('a query streamed and left after its first row runs again in full', async () => {
    const { db: d } = open();
    await sql`create table t (id integer primary key, v text not null)`.execute(d);
    for (let i = 1; i <= 5; i++) await sql`insert into t (v) values (${`v${i}`})`.execute(d);
    const q = () => d.selectFrom('t' as never).select(sql<string>`v`.as('v'));
    for await (const row of q().stream()) {
      expect((row as { v: string }).v).toBe('v1');
      break;
    }
    expect((await q().execute()).map((r) => (r as { v: string }).v)).toEqual(['v1', 'v2', 'v3', 'v4', 'v5']);
    const seen: string[] = [];
    for await (const row of q().stream()) seen.push((row as { v: string }).v);
    expect(seen).toEqual(['v1', 'v2', 'v3', 'v4', 'v5']);
  });
});

describe('SQLite sizing', () => {
  it('by default a connection keeps a 16 MB page cache and maps nothing into memory: the pages past the cache are read from the file cache of the operating system, not held by the server', async () => {
    const { db: d } = open();
    const cache = await sql<{ cache_size: number }>`pragma cache_size`.execute(d);
    const map = await sql<{ mmap_size: number }>`pragma mmap_size`.execute(d);
    expect(cache.rows[0]?.cache_size).toBe(-16 * 1024);
    expect(map.rows[0]?.mmap_size).toBe(0);
  });

  it('SQLITE_CACHE_MB and SQLITE_MMAP_MB size it otherwise', async () => {
    dir = mkdtempSync(join(tmpdir(), 'sw-conn-'));
    db = openSqlite(join(dir, 'db.sqlite'), sqliteSizingOf({ SQLITE_CACHE_MB: '64', SQLITE_MMAP_MB: '256' }));
    const cache = await sql<{ cache_size: number }>`pragma cache_size`.execute(db);
    const map = await sql<{ mmap_size: number }>`pragma mmap_size`.execute(db);
    expect(cache.rows[0]?.cache_size).toBe(-64 * 1024);
    expect(map.rows[0]?.mmap_size).toBe(256 * 1024 * 1024);
  });
});
