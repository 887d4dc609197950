// What the benchmarks over a large kept data set share (devices.bench.ts, alarm-reports.bench.ts):
// a data set is loaded once into a SQLite file (complete when its `.ready` marker exists) and a
// PostgreSQL database (complete when its bench_ready row holds the size), both through the real
// migrations and reference data; each run migrates them to the latest schema and measures the
// endpoints through app.request() with a super-admin token, on SQLite always and on PostgreSQL
// when a server answers at TEST_PG_URL (default the tests' server). BENCH_LOAD_ONLY=1 loads what is
// missing and measures nothing, so the long loads can run beside other work and the measuring alone;
// BENCH_SKIP_SQLITE=1 measures PostgreSQL only. Also what the loads and the write-cost figures
// share: per-row triggers set aside around a bulk load and secondary indexes built after it,
// single-row writes timed with and without triggers.
import SQLite from 'better-sqlite3';
import pg from 'pg';
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { loadavg } from 'node:os';
import { createApp } from '../../../src/server/app.js';
import { sqliteSizingOf, testConfig } from '../../../src/server/platform/config.js';
import { createOutbox } from '../../../src/server/mail/outbox.js';
import { type Kysely, sql } from 'kysely';
import { isPostgres, openPostgres, openSqlite, type DB } from '../../../src/server/db/index.js';
import { migrateToLatest } from '../../../src/server/db/migrations.js';
import { seedReferenceData } from '../../../src/server/seed/reference.js';
import { issueAccessToken } from '../../../src/server/auth/tokens.js';
import { PROVIDER_TENANT_ID } from '../../../src/shared/tenants.js';
import { percentileOf } from '../stats.js';

export type Figures = Record<string, number | string>;
export type Dialect = 'sqlite' | 'pg';

export const r1 = (x: number) => Math.round(x * 10) / 10;
export const log = (s: string) => console.log(`  ${s}`);
/** The machine's load averages (1, 5, 15 minutes), printed beside every figure. */
export const load = () =>
  loadavg()
    .map((x) => x.toFixed(1))
    .join(' ');

/** A data set's size in its file and database names: 1m, 20k. */
export const sizeLabel = (n: number) => (n >= 1_000_000 ? `${n / 1_000_000}m` : `${n / 1000}k`);

const PG_ADMIN_URL = process.env.TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

/**
 * The PostgreSQL database name of a kept data set: BENCH_PG_PREFIX (default none) before `name`, so
 * a copy (`create database h4_bench_alarms_1m template bench_alarms_1m`) can be measured instead.
 */
export const keptPgDb = (name: string) => `${process.env.BENCH_PG_PREFIX ?? ''}${name}`;

/**
 * One kept data set: `sqliteFile` and the PostgreSQL database `pgDb`, of `size` rows (`what`
 * names them in the log). `readyColumn` is the bench_ready column that holds the size.
 */
export type KeptData = { what: string; size: number; sqliteFile: string; pgDb: string; readyColumn: string };

const readyFile = (k: KeptData) => `${k.sqliteFile}.ready`;

export function pgUrl(name: string) {
  const u = new URL(PG_ADMIN_URL);
  u.pathname = `/${name}`;
  return u.toString();
}

async function pgAvailable(): Promise<boolean> {
  const c = new pg.Client({ connectionString: PG_ADMIN_URL, connectionTimeoutMillis: 2000 });
  try {
    await c.connect();
    await c.end();
    return true;
  } catch {
    return false;
  }
}

/** True when the database holds a complete data set (the bench_ready row written after loading). */
async function pgReady(k: KeptData): Promise<boolean> {
  const c = new pg.Client({ connectionString: pgUrl(k.pgDb) });
  try {
    await c.connect();
  } catch {
    return false;
  }
  try {
    const r = await c.query(`select "${k.readyColumn}" as n from bench_ready`);
    return Number(r.rows[0]?.n) === k.size;
  } catch {
    return false;
  } finally {
    await c.end();
  }
}

/**
 * A new SQLite file with the schema and reference data (any earlier file and its marker removed),
 * opened raw for a bulk load: WAL, no syncs.
 */
export async function newSqlite(k: KeptData): Promise<SQLite.Database> {
  mkdirSync(dirname(k.sqliteFile), { recursive: true });
  for (const f of [readyFile(k), k.sqliteFile, `${k.sqliteFile}-wal`, `${k.sqliteFile}-shm`]) rmSync(f, { force: true });
  const db = openSqlite(k.sqliteFile);
  await migrateToLatest(db);
  await seedReferenceData(db);
  await db.destroy();
  const raw = new SQLite(k.sqliteFile);
  raw.pragma('journal_mode = WAL');
  raw.pragma('synchronous = OFF');
  return raw;
}

/** After the load: statistics, the WAL folded in, the file closed and marked complete. */
export function sqliteLoaded(k: KeptData, raw: SQLite.Database) {
  raw.exec('analyze');
  raw.pragma('wal_checkpoint(TRUNCATE)');
  raw.close();
  writeFileSync(readyFile(k), JSON.stringify({ [k.readyColumn]: k.size, at: new Date().toISOString() }) + '\n');
}

/** A new PostgreSQL database with the schema and reference data, and a client on it for the load. */
export async function newPostgres(k: KeptData): Promise<pg.Client> {
  const admin = new pg.Client({ connectionString: PG_ADMIN_URL });
  await admin.connect();
  await admin.query(`drop database if exists ${k.pgDb} with (force)`);
  await admin.query(`create database ${k.pgDb}`);
  await admin.end();
  const db = openPostgres(pgUrl(k.pgDb), 2);
  await migrateToLatest(db);
  await seedReferenceData(db);
  await db.destroy();
  const c = new pg.Client({ connectionString: pgUrl(k.pgDb) });
  await c.connect();
  await c.query('set synchronous_commit = off');
  return c;
}

/** After the load: statistics, then the bench_ready row; the client is closed. */
export async function postgresLoaded(k: KeptData, c: pg.Client) {
  await c.query('vacuum analyze');
  await c.query(`create table bench_ready ("${k.readyColumn}" int not null)`);
  await c.query(`insert into bench_ready values ($1)`, [k.size]);
  await c.end();
}

/** Where a bulk load writes: a raw SQLite handle, a pg client, or a Kysely database or transaction. */
export type Loading = SQLite.Database | pg.Client | Kysely<any>;

function statementsOn(on: Loading): { pg: boolean; run: (text: string) => Promise<unknown>; rows: <R>(text: string) => Promise<R[]> } {
  if (on instanceof SQLite) return { pg: false, run: async (text) => on.exec(text), rows: async <R>(text: string) => on.prepare(text).all() as R[] };
  if (on instanceof pg.Client) return { pg: true, run: (text) => on.query(text), rows: async <R>(text: string) => (await on.query(text)).rows as R[] };
  return { pg: isPostgres(on), run: (text) => sql.raw(text).execute(on), rows: async <R>(text: string) => (await sql.raw<R>(text).execute(on)).rows };
}

/**
 * Runs `load` with per-row triggers set aside (`triggers`: their names by table), `load` doing
 * their work set-based itself: on SQLite they are dropped and created again after from their
 * stored text, on PostgreSQL disabled and enabled again.
 */
export async function withTriggersAside(on: Loading, triggers: Record<string, readonly string[]>, load: () => Promise<void>) {
  const db = statementsOn(on);
  let restore: string[] = [];
  if (db.pg) {
    for (const [table, names] of Object.entries(triggers)) for (const t of names) await db.run(`alter table "${table}" disable trigger "${t}"`);
  } else {
    const names = Object.values(triggers).flat();
    const rows = await db.rows<{ name: string; sql: string }>(
      `select name, sql from sqlite_master where type = 'trigger' and name in (${names.map((n) => `'${n.replaceAll("'", "''")}'`).join(', ')})`,
    );
    for (const t of rows) await db.run(`drop trigger "${t.name}"`);
    restore = rows.map((t) => t.sql);
  }
  await load();
  if (db.pg) {
    for (const [table, names] of Object.entries(triggers)) for (const t of names) await db.run(`alter table "${table}" enable trigger "${t}"`);
  } else for (const s of restore) await db.run(s);
}

/**
 * Runs `load` with the secondary indexes of `tables` set aside and builds them again after, each
 * from its own stored definition (SQLite: sqlite_master's text; PostgreSQL: pg_indexes' indexdef),
 * so the schema after the load is the migrated one. Rows inserted in no index's order cost a
 * B-tree descent per index each; one sort per index after the load is minutes faster at 1,000,000
 * rows. Indexes behind a constraint (primary keys, unique constraints) and SQLite's automatic ones
 * stay: the load's statements and triggers rely on them.
 */
export async function withIndexesAside(on: Loading, tables: readonly string[], load: () => Promise<void>) {
  const db = statementsOn(on);
  const list = tables.map((t) => `'${t.replaceAll("'", "''")}'`).join(', ');
  const defs = db.pg
    ? await db.rows<{ name: string; sql: string }>(
        `select i.indexname as name, i.indexdef as sql from pg_indexes i
         where i.schemaname = current_schema() and i.tablename in (${list})
           and not exists (select 1 from pg_constraint c where c.conindid = format('%I.%I', i.schemaname, i.indexname)::regclass)`,
      )
    : await db.rows<{ name: string; sql: string }>(`select name, sql from sqlite_master where type = 'index' and sql is not null and tbl_name in (${list})`);
  for (const d of defs) await db.run(`drop index "${d.name}"`);
  await load();
  if (db.pg) await db.run(`set maintenance_work_mem = '512MB'`);
  for (const d of defs) await db.run(d.sql);
}

/** One write's cost in ms: p95 wall and mean CPU (this process's). */
export type WriteCost = { p95: number; cpu: number };

/**
 * What triggers add to single-row writes: `write` once per row of `rows`, each timed, inside a
 * transaction that is rolled back; after a warm-up, once with the `triggers` on `table` dropped
 * inside the transaction and once with them.
 */
export async function writeCost<R>(
  db: DB,
  table: string,
  triggers: readonly string[],
  rows: readonly R[],
  write: (trx: DB, row: R) => Promise<unknown>,
): Promise<{ without: WriteCost; with: WriteCost }> {
  const pg = isPostgres(db);
  const measure = async (withTriggers: boolean): Promise<WriteCost> => {
    const ms: number[] = [];
    let cpu = 0;
    await db
      .transaction()
      .execute(async (trx) => {
        if (!withTriggers) for (const t of triggers) await sql.raw(`drop trigger "${t}"${pg ? ` on "${table}"` : ''}`).execute(trx);
        for (const row of rows) {
          const c0 = process.cpuUsage();
          const t = performance.now();
          await write(trx, row);
          ms.push(performance.now() - t);
          const c = process.cpuUsage(c0);
          cpu += (c.user + c.system) / 1000;
        }
        throw new Error('rollback');
      })
      .catch((e: Error) => {
        if (e.message !== 'rollback') throw e;
      });
    return { p95: Math.round(percentileOf(ms, 95) * 100) / 100, cpu: Math.round((cpu / rows.length) * 1000) / 1000 };
  };
  await measure(true); // warm-up
  const without = await measure(false);
  return { without, with: await measure(true) };
}

/** Loads (timed into figures as `<dialect>_load_s`) unless complete, then opens, migrates and measures. */
async function onDatabase(
  k: KeptData,
  dialect: Dialect,
  figures: Figures,
  ready: boolean,
  loadData: () => Promise<void>,
  open: () => DB,
  measure: (db: DB) => Promise<Figures>,
) {
  const where = dialect === 'pg' ? `the database ${k.pgDb}` : k.sqliteFile;
  if (!ready) {
    log(`${dialect}: loading ${k.size.toLocaleString('en-GB')} ${k.what} into ${where} (first run; kept for the next)…`);
    const t0 = performance.now();
    await loadData();
    figures[`${dialect}_load_s`] = r1((performance.now() - t0) / 1000);
    log(`${dialect}: loaded in ${figures[`${dialect}_load_s`]} s`);
  } else log(`${dialect}: reusing ${where}`);
  if (process.env.BENCH_LOAD_ONLY === '1') return;
  const db = open();
  try {
    const t0 = performance.now();
    await migrateToLatest(db);
    const s = (performance.now() - t0) / 1000;
    if (s > 1) log(`${dialect}: migrations since the load took ${r1(s)} s`);
    Object.assign(figures, await measure(db));
  } finally {
    await db.destroy();
  }
}

/**
 * The kept data set on SQLite, then on PostgreSQL unless `skipPg` or no server answers: each
 * loaded when incomplete, migrated to the latest schema, measured.
 */
export async function onKeptData(
  k: KeptData,
  figures: Figures,
  o: {
    loadSqlite: () => Promise<void>;
    loadPostgres: () => Promise<void>;
    measure: (dialect: Dialect, db: DB) => Promise<Figures>;
    /** After SQLite is loaded, before it is measured (e.g. samples read from the file). */
    beforeSqlite?: () => void;
    skipPg: boolean;
  },
): Promise<Figures> {
  const sqliteReady = existsSync(readyFile(k));
  if (process.env.BENCH_SKIP_SQLITE !== '1')
    await onDatabase(
      k,
      'sqlite',
      figures,
      sqliteReady,
      o.loadSqlite,
      () => {
        o.beforeSqlite?.();
        return openSqlite(k.sqliteFile, sqliteSizingOf(process.env));
      },
      (db) => o.measure('sqlite', db),
    );
  else if (sqliteReady) o.beforeSqlite?.();
  if (o.skipPg) return figures;
  if (!(await pgAvailable())) {
    log(`pg: no server at ${PG_ADMIN_URL}; skipped`);
    return figures;
  }
  await onDatabase(
    k,
    'pg',
    figures,
    await pgReady(k),
    o.loadPostgres,
    () => openPostgres(pgUrl(k.pgDb), 10),
    (db) => o.measure('pg', db),
  );
  return figures;
}

/**
 * The app on `db` with the clock at `now`, and `send(path, body?)`: a POST with a JSON body (a GET
 * without one) carrying a super-admin token; anything but 200 throws with the answer's start.
 */
export async function benchApp(db: DB, now: Date) {
  const config = testConfig({ now: () => now });
  const quiet = () => {};
  const outbox = createOutbox({ smtpUrl: config.smtpUrl, log: quiet, now: () => config.now() });
  const { app } = createApp({ db, config, outbox, log: quiet });
  const token = await issueAccessToken(config, { id: 'bench', tenantId: PROVIDER_TENANT_ID, email: 'bench@bench.test', roles: ['SuperAdminRole'] });
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  const send = async (path: string, body?: unknown) => {
    const res = await app.request(path, body === undefined ? { headers } : { method: 'POST', headers, body: JSON.stringify(body) });
    if (res.status !== 200) throw new Error(`${path} ${JSON.stringify(body ?? null).slice(0, 200)}: ${res.status} ${(await res.text()).slice(0, 300)}`);
    return res;
  };
  return { send, close: () => outbox.close() };
}

/** Runs a benchmark module on its own (`node --import tsx tests/bench/<part>.bench.ts`) and prints its figures. */
export function runAlone(moduleUrl: string, bench: () => Promise<Figures>) {
  if (moduleUrl !== `file://${process.argv[1]}`) return;
  bench().then(
    (f) => {
      for (const [k, v] of Object.entries(f)) console.log(`  ${k}: ${v}`);
      process.exit(0);
    },
    (e) => {
      console.error(e);
      process.exit(1);
    },
  );
}
