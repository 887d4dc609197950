// kill -9 during ingestion, against the real server process (what `npm start` runs): 4 gateways
// post device-message batches to /api/v1/device-messages/ingest, the process is killed at a random
// moment, started again on the same database, and every message answered 2xx is looked up.
// A run "after a fresh first start" starts on an empty database (a new DATA_DIR, or a new
// PostgreSQL database), so that start generates the demo data, and the senders begin the moment
// it is ready. Used by tests/integration/ingest-crash.test.ts (a few runs) and the `crash`
// benchmark (tests/bench/crash.bench.ts: many runs).
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import SQLite from 'better-sqlite3';
import { onFreePort } from './ports.js';

export const CRASH_GATEWAY_KEY = 'crash-test-gateway-key-0123456789';
const SENDERS = 4;
const BATCH = 100;

/** Where the server keeps its data: a SQLite file in a fresh DATA_DIR, or a PostgreSQL database of its own. */
export type CrashStore = {
  dialect: 'sqlite' | 'pg';
  dataDir: string;
  databaseUrl?: string;
  /** ids among `ids` that are stored */
  storedOf(ids: string[]): Promise<Set<string>>;
  /** device identities and types to send for */
  devices(): Promise<{ identity: string; type: number }[]>;
  /** removes the data directory (and drops the database) */
  drop(): Promise<void>;
};

export async function createCrashStore(dialect: 'sqlite' | 'pg', pgAdminUrl: string): Promise<CrashStore> {
  const dataDir = mkdtempSync(join(tmpdir(), 'ingest-crash-'));
  const file = join(dataDir, 'workspace.sqlite');
  let databaseUrl: string | undefined;
  let name = '';
  if (dialect === 'pg') {
    name = `crash_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
    const admin = new pg.Client({ connectionString: pgAdminUrl });
    await admin.connect();
    await admin.query(`create database ${name}`);
    await admin.end();
    const url = new URL(pgAdminUrl);
    url.pathname = `/${name}`;
    databaseUrl = url.toString();
  }
  const query = async <R>(text: string, params: unknown[]): Promise<R[]> => {
    if (databaseUrl) {
      const c = new pg.Client({ connectionString: databaseUrl });
      await c.connect();
      try {
        let n = 0;
        return (
          await c.query(
            text.replace(/\?/g, () => `$${++n}`),
            params,
          )
        ).rows as R[];
      } finally {
        await c.end();
      }
    }
    // a read-only connection of this process: the server's WAL is read, never written or checkpointed
    const db = new SQLite(file, { readonly: true, fileMustExist: true });
    try {
      return db.prepare(text).all(...params) as R[];
    } finally {
      db.close();
    }
  };
  return {
    dialect,
    dataDir,
    databaseUrl,
    async storedOf(ids) {
      const out = new Set<string>();
      for (let i = 0; i < ids.length; i += 500) {
        const part = ids.slice(i, i + 500);
        const rows = await query<{ id: string }>(`select "id" from "deviceMessages" where "id" in (${part.map(() => '?').join(', ')})`, part);
        for (const r of rows) out.add(r.id);
      }
      return out;
    },
    async devices() {
      const rows = await query<{ imei: string | null; serialNumber: string; type: number }>(
        `select "imei", "serialNumber", "type" from "devices" order by "serialNumber" limit 200`,
        [],
      );
      return rows.map((r) => ({ identity: r.imei ?? r.serialNumber, type: Number(r.type) }));
    },
    async drop() {
      rmSync(dataDir, { recursive: true, force: true });
      if (!name) return;
      const admin = new pg.Client({ connectionString: pgAdminUrl });
      await admin.connect();
      await admin.query(`drop database if exists ${name} with (force)`);
      await admin.end();
    },
  };
}

type Started = { child: ChildProcess; port: number; output: () => string; readyAt: number };

/**
 * Starts the server as `npm start` starts it (the compiled build; demo data on) on a free port and
 * waits until /ready answers 200; started again on another port when the first was taken.
 */
function startServer(store: CrashStore, scale: number, extra: Record<string, string> = {}): Promise<Started> {
  return onFreePort((port) => startServerOn(store, scale, extra, port));
}

async function startServerOn(store: CrashStore, scale: number, extra: Record<string, string>, port: number): Promise<Started> {
  const env: Record<string, string> = {
    DATA_DIR: store.dataDir,
    DEMO_DATA: 'true',
    SCALE: String(scale),
    SIMULATOR: 'off',
    SSO_EMBEDDED: 'false',
    GATEWAY_KEYS: CRASH_GATEWAY_KEY,
    GATEWAY_BATCHES_PER_10S: '1000000',
    JWT_SECRET: 'ingest-crash-secret-0123456789abcdef0123456789',
    LOG_REQUESTS: 'false',
    SKIP_CLIENT_BUILD: '1',
    HOST: '127.0.0.1',
    PORT: String(port),
    ...(store.databaseUrl ? { DATABASE_URL: store.databaseUrl } : {}),
    ...extra,
  };
  const { DATABASE_URL: _inherited, ...parentEnv } = process.env;
  const child = spawn(process.execPath, ['bin/start.mjs'], { env: { ...parentEnv, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  for (let i = 0; i < 6000; i++) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}:\n${out}`);
    try {
      if ((await fetch(`http://127.0.0.1:${port}/ready`)).ok) return { child, port, output: () => out, readyAt: performance.now() };
    } catch {}
    await new Promise((r) => setTimeout(r, 50));
  }
  child.kill('SIGKILL');
  throw new Error(`server did not start:\n${out}`);
}

const killed = (child: ChildProcess) =>
  new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGKILL');
  });

export type CrashRun = {
  run: number;
  /** the run began on the server's first start (demo data generated by that start) */
  fresh: boolean;
  /** ms from /ready to the first batch answered */
  firstAnswerMs: number;
  /** ms from the first batch answered to the kill */
  killAfterMs: number;
  batches: number;
  acknowledged: number;
  stored: number;
  lost: number;
  /** answers other than 2xx (the kill cuts the open requests) */
  cut: number;
};

/**
 * One run: the server is up (started by the caller), 4 senders post batches of 100 messages as fast
 * as answers come, the process is killed -9 `killAfterMs` after the first batch was answered,
 * started again on the same database, and the messages answered 2xx are looked up. Returns the
 * run's figures and the restarted server (the next run's).
 */
async function oneRun(
  store: CrashStore,
  server: Started,
  o: { run: number; fresh: boolean; killAfterMs: number; scale: number; env?: Record<string, string>; devices: { identity: string; type: number }[] },
): Promise<{ figures: CrashRun; server: Started }> {
  const acked: string[] = [];
  let batches = 0;
  let cut = 0;
  let stop = false;
  const url = `http://127.0.0.1:${server.port}/api/v1/device-messages/ingest`;
  const sender = async (s: number) => {
    let seq = 0;
    while (!stop) {
      const batch = Array.from({ length: BATCH }, () => {
        const d = o.devices[Math.floor(Math.random() * o.devices.length)]!;
        seq++;
        return {
          messageId: `crash-${o.run}-${s}-${seq}-${randomBytes(3).toString('hex')}`,
          deviceIdentity: d.identity,
          deviceType: d.type,
          date: new Date(Date.now() - 2000).toISOString(),
          message: 'Heartbeat',
          battery: 80,
          signal: 60,
          rawMessage: `+RESP:GTHBD,${d.identity}$`,
          properties: { MessageType: 'GTHBD' },
        };
      });
      try {
        const res = await fetch(url, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-gateway-key': CRASH_GATEWAY_KEY },
          body: JSON.stringify(batch),
        });
        if (res.status !== 200 && res.status !== 207) {
          cut++;
          continue;
        }
        const body = (await res.json()) as { Results: { Index: number; Status: number }[] };
        const refused = new Set(body.Results.filter((r) => r.Status >= 400).map((r) => r.Index));
        batch.forEach((m, i) => {
          if (!refused.has(i)) acked.push(m.messageId);
        });
        batches++;
      } catch {
        cut++;
        return; // the server is gone
      }
    }
  };
  const senders = Array.from({ length: SENDERS }, (_, s) => sender(s));
  // the kill comes killAfterMs after the first batch was answered (so every run has answers to check)
  for (let i = 0; i < 1200 && !batches; i++) await new Promise((r) => setTimeout(r, 25));
  const firstAnswerMs = Math.round(performance.now() - server.readyAt);
  await new Promise((r) => setTimeout(r, o.killAfterMs));
  await killed(server.child);
  stop = true;
  await Promise.all(senders);
  const again = await startServer(store, o.scale, o.env);
  const stored = await store.storedOf(acked);
  return {
    figures: {
      run: o.run,
      fresh: o.fresh,
      firstAnswerMs,
      killAfterMs: o.killAfterMs,
      batches,
      acknowledged: acked.length,
      stored: stored.size,
      lost: acked.length - stored.size,
      cut,
    },
    server: again,
  };
}

/**
 * `runs` kill -9 runs in sequences: each sequence starts on an empty database (a fresh first start
 * with demo data at `scale`), then runs one after another on it, each run's restart being the next
 * run's server. `perFresh`: runs per sequence. The senders start the moment /ready answers 200;
 * the kill comes 0–1 s after the first answered batch on a fresh start's run, 0–3 s on the others.
 */
export async function crashRuns(o: {
  dialect: 'sqlite' | 'pg';
  runs: number;
  perFresh: number;
  scale: number;
  pgAdminUrl: string;
  /** more environment for the server */
  env?: Record<string, string>;
  /** the kill comes at a random moment within this many ms of the first answered batch: a fresh start's run, the others (1,000 and 3,000) */
  killWithinMs?: { fresh: number; later: number };
  onRun?: (r: CrashRun) => void;
}): Promise<CrashRun[]> {
  const out: CrashRun[] = [];
  let run = 0;
  while (run < o.runs) {
    const store = await createCrashStore(o.dialect, o.pgAdminUrl);
    let server: Started | undefined;
    try {
      server = await startServer(store, o.scale, o.env);
      const devices = (await store.devices()).filter((d) => d.identity);
      if (!devices.length) throw new Error('no demo devices to send for');
      for (let i = 0; i < o.perFresh && run < o.runs; i++) {
        const fresh = i === 0;
        const killAfterMs = Math.round(Math.random() * (fresh ? (o.killWithinMs?.fresh ?? 1000) : (o.killWithinMs?.later ?? 3000)));
        const r = await oneRun(store, server, { run: ++run, fresh, killAfterMs, scale: o.scale, env: o.env, devices });
        server = r.server;
        out.push(r.figures);
        o.onRun?.(r.figures);
      }
    } finally {
      if (server) await killed(server.child);
      await store.drop();
    }
  }
  return out;
}

export const describeRun = (r: CrashRun) =>
  `run ${String(r.run).padStart(2)}${r.fresh ? ' (fresh first start)' : '                    '}: first answer ${String(r.firstAnswerMs).padStart(5)} ms after ready, ` +
  `kill -9 ${String(r.killAfterMs).padStart(4)} ms later, ` +
  `${r.batches} batches answered 2xx, acknowledged ${r.acknowledged}, stored ${r.stored}, lost ${r.lost}`;
