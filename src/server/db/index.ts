import { Kysely, SqliteDialect, PostgresDialect, sql } from 'kysely';
import SQLite from 'better-sqlite3';
import type pg from 'pg';
import { chmodSync, closeSync, existsSync, openSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Database } from './schema.js';
import { migrateToLatest } from './migrations.js';
import { fence, isPostgres } from './dialect.js';
import { errorEvents, registerPool } from '../platform/metrics.js';
import { log as processLog, type Log } from '../platform/logger.js';
import { SQLITE_SIZING_DEFAULT, type SqliteSizing } from '../platform/config.js';
import { startCheckpointer, type Checkpointer } from './checkpointer.js';
import { setBounded } from '../platform/util.js';

export type { DB } from './types.js';
import type { DB } from './types.js';
export { fence, isPostgres, sql };

const require = createRequire(import.meta.url);
let pgLoaded: typeof pg | undefined;
/**
 * The PostgreSQL driver, loaded with the first PostgreSQL connection: a server on SQLite, and each
 * of its export and import threads, never loads it (2.5 MB of heap each).
 */
function pgDriver(): typeof pg {
  if (!pgLoaded) {
    pgLoaded = require('pg') as typeof pg;
    // int8 (count(*), sums) arrive as strings from pg; our counts fit in a JS number.
    pgLoaded.types.setTypeParser(20, (v) => parseInt(v, 10));
    pgLoaded.types.setTypeParser(1700, (v) => parseFloat(v));
  }
  return pgLoaded;
}

/**
 * The database holds password hashes and personal data: owner-only (0600). SQLite gives the WAL
 * and shared-memory files the main file's mode, so creating that one 0600 first covers them;
 * files an older version created 0644 are tightened.
 */
function ownerOnly(file: string) {
  if (!file || file === ':memory:' || file.startsWith('file:')) return;
  closeSync(openSync(file, 'a', 0o600));
  for (const f of [file, `${file}-wal`, `${file}-shm`, `${file}-journal`]) if (existsSync(f)) chmodSync(f, 0o600);
}

/**
 * The page cache (a negative cache_size is KiB) and memory-mapped reads, from configuration
 * (config.ts SqliteSizing). Memory-mapped pages are the operating system's page cache, shared by
 * every connection to the file.
 */
export function openSqlite(file: string, sizing: SqliteSizing = SQLITE_SIZING_DEFAULT): DB {
  ownerOnly(file);
  const raw = new SQLite(file);
  raw.pragma('journal_mode = WAL');
  raw.pragma('foreign_keys = ON');
  // A commit returns once its WAL frames are on the disk (the WAL is synced at every commit), so an
  // answer the server gave (a stored ingestion batch, a saved form) survives a killed process and
  // also an operating-system crash, a power cut or a stopped virtual machine. With NORMAL the WAL
  // was synced only at checkpoints: the commits since the last one were in the page cache only.
  raw.pragma('synchronous = FULL');
  raw.pragma('busy_timeout = 5000');
  raw.pragma(`cache_size = ${-Math.round(sizing.cacheMb * 1024)}`);
  raw.pragma(`mmap_size = ${Math.round(sizing.mmapMb * 1024 * 1024)}`);
  const state: SqliteState = { raw, file };
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: cachedStatements(raw, () => state.checkpointer?.stop()) }) });
  sqliteStates.set(db, state);
  return db;
}

type SqliteState = { raw: SQLite.Database; file: string; checkpointer?: Checkpointer };
const sqliteStates = new WeakMap<DB, SqliteState>();

/**
 * Moves the SQLite connection's WAL checkpoints to a thread of their own (checkpointer.ts): the
 * server does this once its start-up writes are done (the demo data's bulk load leaves WAL mode,
 * which needs the file to itself). A no-op on PostgreSQL and for in-memory databases.
 */
export function checkpointInBackground(db: DB) {
  const s = sqliteStates.get(db);
  if (!s || s.checkpointer || !s.file || s.file === ':memory:' || s.file.startsWith('file:')) return;
  s.checkpointer = startCheckpointer(s.raw, s.file);
}

/** How many prepared statements a connection keeps (least recently used go first). */
const STATEMENT_CACHE = 500;

/**
 * The connection as Kysely's SQLite dialect sees it, with its prepared statements kept: Kysely
 * prepares every query it runs, and preparing costs as much as running a short query (a 400-row
 * insert of an ingestion batch: several ms). A statement still being iterated (a streamed read)
 * is busy, so a query with the same text gets a fresh one.
 */
function cachedStatements(raw: SQLite.Database, onClose: () => unknown) {
  const cache = new Map<string, SQLite.Statement>();
  return {
    prepare(text: string): SQLite.Statement {
      const hit = cache.get(text);
      if (hit) {
        if (hit.busy) return raw.prepare(text);
        cache.delete(text);
        cache.set(text, hit);
        return hit;
      }
      return setBounded(cache, text, raw.prepare(text), STATEMENT_CACHE);
    },
    close() {
      cache.clear();
      void onClose();
      raw.close();
    },
  };
}

/**
 * A read-only connection to the SQLite file, for a worker thread that only reads (exports): WAL
 * lets it read while the server writes, and it can never take the write lock.
 */
export function openSqliteReadOnly(file: string): DB {
  const raw = new SQLite(file, { readonly: true, fileMustExist: true });
  raw.pragma('busy_timeout = 5000');
  return new Kysely<Database>({ dialect: new SqliteDialect({ database: raw }) });
}

/** Where a database is, for a worker thread that opens its own connection to it. */
export type DbSource = { kind: 'sqlite'; file: string } | { kind: 'pg'; url: string };
export const openSource = (s: DbSource): DB => (s.kind === 'pg' ? openPostgres(s.url, 1) : openSqliteReadOnly(s.file));

/**
 * A read-write connection of its own, for a worker thread that writes (an import's transaction):
 * on SQLite a second connection to the file (WAL: the server's connection keeps reading while it
 * writes; busy_timeout waits for the server's short writes) with a small page cache.
 */
export const openSourceForWrites = (s: DbSource): DB => (s.kind === 'pg' ? openPostgres(s.url, 1) : openSqlite(s.file, SQLITE_SIZING_DEFAULT));

/** How long a query waits for a connection (a free one from the pool, or a new one to the server) before it fails. */
export const PG_CONNECT_TIMEOUT_MS = 5_000;

/**
 * A pool of `max` connections. When PostgreSQL goes away (restart, failover, network) nothing
 * hangs and nothing crashes: a connection the server ends is dropped from the pool (its error
 * logged once per outage, not thrown), a query waits at most PG_CONNECT_TIMEOUT_MS for a
 * connection and otherwise fails at once (ECONNREFUSED, 57P01…: answered 503 by faults.ts), and
 * the pool connects again on the next query once the server is back — no restart needed.
 * TCP keep-alive (probes after 10 s idle) notices a server that vanished without closing its
 * connections.
 */
export function openPostgres(url: string, max = 10, log: Log = processLog): DB {
  const pool = new (pgDriver().Pool)({
    connectionString: url,
    max,
    connectionTimeoutMillis: PG_CONNECT_TIMEOUT_MS,
    keepAlive: true,
    keepAliveInitialDelayMillis: 10_000,
  });
  let down = false;
  // An idle connection's error reaches both its own listener and the pool's: counted once.
  const seen = new WeakSet<Error>();
  const lost = (e: Error & { code?: string }) => {
    if (seen.has(e)) return;
    seen.add(e);
    errorEvents.inc({ source: 'database' });
    if (!down) log({ msg: 'database connection lost; reconnecting on the next query', level: 'warn', code: e.code, error: e.message });
    down = true;
  };
  // The pool listens to its idle connections only: a connection held between two queries (in a
  // transaction) that the server ends would otherwise throw its 'error' event and end the process.
  // Its next query fails instead (answered 503) and the pool drops it when it is released.
  pool.on('error', lost);
  pool.on('connect', (client) => {
    client.on('error', lost);
    if (down) log({ msg: 'database connection made again' });
    down = false;
  });
  registerPool(pool); // its use on /metrics
  return new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
}

export async function openDatabase(opts: { databaseUrl?: string; sqliteFile: string; sqlite?: SqliteSizing }): Promise<DB> {
  const db = opts.databaseUrl ? openPostgres(opts.databaseUrl) : openSqlite(opts.sqliteFile, opts.sqlite);
  await migrateToLatest(db);
  return db;
}

/** Runs fn in a transaction. SQLite serialises writers anyway; on PostgreSQL this is READ COMMITTED. */
export async function tx<T>(db: DB, fn: (trx: DB) => Promise<T>): Promise<T> {
  let failure: { error: unknown } | undefined;
  try {
    return await db.transaction().execute(async (trx) => {
      try {
        return await fn(trx as DB);
      } catch (error) {
        failure = { error };
        throw error;
      }
    });
  } catch (e) {
    // After SQLITE_FULL (or an I/O error) SQLite has already rolled back, so Kysely's ROLLBACK fails
    // with 'cannot rollback - no transaction is active': report what went wrong, not that.
    throw failure ? failure.error : e;
  }
}

/**
 * A write transaction that, on SQLite, takes the write lock when it begins (BEGIN IMMEDIATE), for a
 * connection other than the server's: a deferred transaction that reads first could not take the
 * lock once the server's connection has written since its read (SQLITE_BUSY at once, not waited
 * for). On PostgreSQL this is tx().
 */
export async function writeTx<T>(db: DB, fn: (trx: DB) => Promise<T>): Promise<T> {
  if (isPostgres(db)) return tx(db, fn);
  return db.connection().execute(async (conn) => {
    await sql`begin immediate`.execute(conn);
    let out: T;
    try {
      out = await fn(conn);
    } catch (e) {
      await sql`rollback`.execute(conn).catch(() => {}); // (already rolled back after SQLITE_FULL)
      throw e;
    }
    await sql`commit`.execute(conn);
    return out;
  });
}
