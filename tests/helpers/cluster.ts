// Several compiled server nodes on one PostgreSQL and one Redis that the test starts itself, on
// ports and data directories of its own (the shared PostgreSQL on 5432 and Redis on 6379 are never
// touched), so a test can stop and restart what the nodes depend on. Each node is the compiled
// server (`node <build>/server/main.js`, as `npm start` runs dist/server; the cluster project's
// globalSetup compiles it) with one JWT_SECRET, DATABASE_URL, REDIS_URL and GATEWAY_KEYS, and
// DEMO_DATA=false: tests make the persons and devices they need in the database (`db`) or through
// the API. Used by tests/integration/two-nodes.test.ts and restarts.test.ts.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chownSync, chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { randomBytes, randomUUID } from 'node:crypto';
import pgClient from 'pg';
import { describe, test } from 'vitest';
import { startMailbox, type Mail, type Mailbox } from './mailbox.js';
import { HttpTransportType, HubConnectionBuilder, LogLevel, type HubConnection } from '@microsoft/signalr';
import { openPostgres, sql, type DB } from '../../src/server/db/index.js';
import type { RawBuilder } from 'kysely';
import { testConfig, type Config } from '../../src/server/platform/config.js';
import { hashPassword } from '../../src/server/auth/password.js';
import type { RoleName } from '../../src/shared/permissions.js';
import { EXPORT_ID_HEADER } from '../../src/shared/schemas/exports.js';
import { CI, CLUSTER_ENTRY, clusterToolsMissing, isRoot, onPath, pgBinDir, postgresUser } from './cluster-tools.js';
import { freePort } from './ports.js';
import { serverEnv, startServerProcess, tempDataDir, type ServerProcess } from './process.js';
import { insertPerson } from './auth.js';
import { solvedCaptcha } from './captcha.js';
import { message } from './live.js';
import { deviceRow } from './customer-rows.js';

export { CI, clusterToolsMissing };

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * describe() for tests that need a cluster: skipped with the reason when the machine lacks
 * PostgreSQL's or Redis's binaries, except in CI (CI=true), where the missing tools fail the suite.
 */
export function describeCluster(name: string, fn: () => void) {
  const missing = clusterToolsMissing();
  if (missing && !CI) {
    console.warn(`${name}: skipped: ${missing}`);
    describe.skip(`${name} (skipped: ${missing})`, fn);
    return;
  }
  if (missing)
    describe(name, () => {
      test('the machine has what the cluster tests need', () => {
        throw new Error(`${missing} (required in CI: .ci/provision.sh installs them)`);
      });
    });
  else describe(name, fn);
}

/** Runs a command to its end; rejects with its output when it fails. */
function run(cmd: string, args: string[], opts: { cwd?: string } = {}): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { cwd: opts.cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    child.once('error', reject);
    child.once('exit', (code) => (code === 0 ? resolve(out) : reject(new Error(`${cmd} ${args.join(' ')} exited ${code}:\n${out}`))));
  });
}

// What is left running when a test process ends abruptly is stopped on its way out.
const onExit = new Set<() => void>();
process.once('exit', () => {
  for (const fn of onExit) fn();
});

// ------------------------------------------------------------------ PostgreSQL

export type PgServer = {
  port: number;
  /** A URL to one of its databases (the cluster's is `workspace`). */
  url(database?: string): string;
  running(): boolean;
  /** pg_ctl stop -m fast: open connections are ended (57P01), nothing committed is lost. */
  stop(): Promise<void>;
  start(): Promise<void>;
  /** Its server log (the tail shows why it failed to start). */
  log(): string;
  close(): Promise<void>;
};

/**
 * A PostgreSQL of the test's own: initdb into a new directory under /tmp (as the `postgres` user
 * when the test runs as root), trust authentication, listening on 127.0.0.1:<free port> only.
 * fsync is off: a clean stop still writes everything committed; only a machine crash could lose it.
 */
export async function startPostgres(): Promise<PgServer> {
  const bin = pgBinDir()!;
  const dir = mkdtempSync('/tmp/cluster-pg-');
  const data = join(dir, 'data');
  const logFile = join(dir, 'server.log');
  const user = isRoot() ? postgresUser() : undefined;
  if (user) chownSync(dir, user.uid, user.gid);
  chmodSync(dir, 0o755);
  const pgCmd = (tool: string, args: string[]) =>
    user ? run(onPath('runuser')!, ['-u', 'postgres', '--', join(bin, tool), ...args], { cwd: dir }) : run(join(bin, tool), args, { cwd: dir });
  await pgCmd('initdb', ['-D', data, '-A', 'trust', '-U', 'postgres', '--no-sync', '-E', 'UTF8', '--locale=C']);
  const port = await freePort();
  const options = [`-p ${port}`, '-c listen_addresses=127.0.0.1', `-k ${dir}`, '-c fsync=off', '-c full_page_writes=off', '-c max_connections=200'].join(' ');
  let up = false;
  const stopNow = () => {
    if (!up) return;
    const args = ['-D', data, '-m', 'immediate', 'stop'];
    if (user) spawnSync(onPath('runuser')!, ['-u', 'postgres', '--', join(bin, 'pg_ctl'), ...args], { cwd: dir });
    else spawnSync(join(bin, 'pg_ctl'), args, { cwd: dir });
    up = false;
  };
  onExit.add(stopNow);
  const pg: PgServer = {
    port,
    url: (database = 'workspace') => `postgres://postgres@127.0.0.1:${port}/${database}`,
    running: () => up,
    async start() {
      await pgCmd('pg_ctl', ['-D', data, '-l', logFile, '-w', '-t', '60', '-o', options, 'start']);
      up = true;
    },
    async stop() {
      await pgCmd('pg_ctl', ['-D', data, '-m', 'fast', '-w', '-t', '60', 'stop']);
      up = false;
    },
    log: () => (existsSync(logFile) ? readFileSync(logFile, 'utf8') : ''),
    async close() {
      if (up) await pg.stop().catch(() => stopNow());
      onExit.delete(stopNow);
      rmSync(dir, { recursive: true, force: true });
    },
  };
  await pg.start();
  const admin = new pgClient.Client({ connectionString: pg.url('postgres') });
  await admin.connect();
  await admin.query('create database workspace');
  await admin.end();
  return pg;
}

// ------------------------------------------------------------------ Redis

export type RedisServer = {
  port: number;
  url: string;
  running(): boolean;
  /** SIGTERM: Redis exits; with --save '' it keeps nothing, so it comes back empty. */
  stop(): Promise<void>;
  start(): Promise<void>;
  close(): Promise<void>;
};

/** A redis-server of the test's own on 127.0.0.1:<free port>, nothing saved to disk. */
export async function startRedis(): Promise<RedisServer> {
  const bin = onPath('redis-server')!;
  const dir = mkdtempSync('/tmp/cluster-redis-');
  const port = await freePort();
  let child: ChildProcess | undefined;
  let exited: Promise<void> = Promise.resolve();
  const killNow = () => child?.kill('SIGKILL');
  onExit.add(killNow);
  const redis: RedisServer = {
    port,
    url: `redis://127.0.0.1:${port}`,
    running: () => !!child,
    async start() {
      const c = spawn(bin, ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--daemonize', 'no', '--dir', dir], {
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let out = '';
      c.stdout.on('data', (d) => (out += d));
      c.stderr.on('data', (d) => (out += d));
      exited = new Promise((resolve) => c.once('exit', () => resolve()));
      for (let i = 0; !out.includes('Ready to accept connections'); i++) {
        if (c.exitCode !== null || i > 200) throw new Error(`redis-server did not start:\n${out}`);
        await sleep(25);
      }
      child = c;
    },
    async stop() {
      if (!child) return;
      child.kill('SIGTERM');
      await exited;
      child = undefined;
    },
    async close() {
      await redis.stop();
      onExit.delete(killNow);
      rmSync(dir, { recursive: true, force: true });
    },
  };
  await redis.start();
  return redis;
}

// ------------------------------------------------------------------ nodes

export type ClusterNode = ServerProcess & {
  name: string;
  dataDir: string;
  /** SIGTERM, then the exit code and how long it took (ms). */
  terminate(): Promise<{ code: number | null; ms: number }>;
};

export type Cluster = {
  pg: PgServer;
  redis: RedisServer;
  nodes: ClusterNode[];
  /** The test's own connection to the nodes' database. */
  db: DB;
  /** A config with the nodes' JWT secret (for tokenFor / signedIn). */
  config: Config;
  gatewayKey: string;
  /** Mail the nodes sent (with `smtp: true`). */
  mails: Mail[];
  /** Starts one more node (named by letter) with the cluster's environment plus `env`. */
  startNode(env?: Record<string, string>): Promise<ClusterNode>;
  close(): Promise<void>;
};

export type ClusterOptions = {
  nodes?: number;
  /** Extra environment of every node. */
  env?: Record<string, string>;
  /** Starts an SMTP server in the test process and gives the nodes its SMTP_URL. */
  smtp?: boolean;
  /** At close, each node's output is written to .tmp/cluster-logs/<name>-<node>.log (for a failure's post-mortem). */
  name?: string;
};

/** Starts PostgreSQL, Redis and the nodes (together: they migrate the empty database concurrently). */
export async function startCluster(opts: ClusterOptions = {}): Promise<Cluster> {
  if (!existsSync(CLUSTER_ENTRY))
    throw new Error(`${CLUSTER_ENTRY} is missing: run the cluster tests with --project cluster (its globalSetup compiles the server)`);
  const [pg, redis] = await Promise.all([startPostgres(), startRedis()]);
  const secret = randomBytes(32).toString('base64url');
  const gatewayKey = `cluster-gateway-${randomBytes(8).toString('hex')}`;
  let mailbox: Mailbox | undefined;
  const env: Record<string, string> = {
    DATABASE_URL: pg.url(),
    REDIS_URL: redis.url,
    JWT_SECRET: secret,
    GATEWAY_KEYS: gatewayKey,
    LOG_REQUESTS: 'false',
    ALTCHA_MAX_NUMBER: '50',
    EXPORT_WORKERS: '1',
    ...opts.env,
  };
  if (opts.smtp) {
    mailbox = await startMailbox();
    env.SMTP_URL = mailbox.smtpUrl('reports@cluster.test');
  }

  const nodes: ClusterNode[] = [];
  const dirs: string[] = [];
  const startNode = async (extra: Record<string, string> = {}) => {
    const name = String.fromCharCode(65 + dirs.length); // A, B, … in the order asked for
    const dataDir = tempDataDir(`cluster-node-${name}`);
    dirs.push(dataDir);
    const srv = await startServerProcess([CLUSTER_ENTRY], serverEnv(dataDir, { ...env, ...extra }));
    const kill = () => srv.child.kill('SIGKILL');
    onExit.add(kill);
    void srv.exited.then(() => onExit.delete(kill));
    const node: ClusterNode = {
      ...srv,
      name,
      dataDir,
      async terminate() {
        const t0 = Date.now();
        if (srv.child.exitCode === null) srv.child.kill('SIGTERM');
        const code = await srv.exited;
        return { code, ms: Date.now() - t0 };
      },
    };
    nodes.push(node);
    return node;
  };
  const db = openPostgres(pg.url(), 4);
  const close = async () => {
    for (const n of nodes) {
      if (n.child.exitCode === null) n.child.kill('SIGKILL');
      await n.exited;
    }
    if (opts.name) {
      mkdirSync('.tmp/cluster-logs', { recursive: true });
      for (const n of nodes) writeFileSync(`.tmp/cluster-logs/${opts.name}-${n.name}.log`, n.output());
      writeFileSync(`.tmp/cluster-logs/${opts.name}-postgres.log`, pg.log());
    }
    await db.destroy();
    await Promise.all([pg.close(), redis.close()]);
    await mailbox?.close();
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  };
  try {
    const count = opts.nodes ?? 2;
    // letters are given in start order; the nodes start together
    await Promise.all(Array.from({ length: count }, () => startNode()));
    nodes.sort((a, b) => a.name.localeCompare(b.name));
  } catch (e) {
    await close();
    throw e;
  }
  return {
    pg,
    redis,
    nodes,
    db,
    config: testConfig({ jwtSecret: new TextEncoder().encode(secret) }),
    gatewayKey,
    mails: mailbox?.mails ?? [],
    startNode,
    close,
  };
}

// ------------------------------------------------------------------ talking to the nodes

export type Answer<T = Record<string, unknown>> = { status: number; body: T; ms: number; headers: Headers };

/** One HTTP request to a node, bounded by `timeoutMs` (a hang is an answer of status 0). */
export async function call<T = Record<string, unknown>>(
  node: { url: string },
  path: string,
  init: { method?: string; token?: string; json?: unknown; form?: Record<string, string>; headers?: Record<string, string>; timeoutMs?: number } = {},
): Promise<Answer<T>> {
  const headers: Record<string, string> = { ...init.headers };
  if (init.token) headers.authorization = `Bearer ${init.token}`;
  let body: string | undefined;
  if (init.json !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(init.json);
  } else if (init.form) {
    headers['content-type'] = 'application/x-www-form-urlencoded';
    body = new URLSearchParams(init.form).toString();
  }
  const t0 = Date.now();
  try {
    const res = await fetch(`${node.url}${path}`, {
      method: init.method ?? (body ? 'POST' : 'GET'),
      headers,
      body,
      signal: AbortSignal.timeout(init.timeoutMs ?? 15_000),
    });
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      /* not JSON */
    }
    return { status: res.status, body: parsed as T, ms: Date.now() - t0, headers: res.headers };
  } catch (e) {
    return { status: 0, body: { error: String((e as Error)?.message ?? e) } as T, ms: Date.now() - t0, headers: new Headers() };
  }
}

/** Polls `check` every 50 ms until it is true; resolves with the time it took, rejects after `ms`. */
export async function until(what: string, check: () => boolean | Promise<boolean>, ms = 10_000): Promise<number> {
  const t0 = Date.now();
  while (!(await check())) {
    if (Date.now() - t0 > ms) throw new Error(`timed out after ${ms} ms waiting for: ${what}`);
    await sleep(50);
  }
  return Date.now() - t0;
}

export const PASSWORD = 'Cluster-Passw0rd!';

/** A person with a password (for sign-ins through the API) and the roles. */
export async function personWithPassword(db: DB, roles: RoleName[], email = `p-${randomBytes(4).toString('hex')}@cluster.test`) {
  const id = await insertPerson(db, { email, roles, passwordHash: await hashPassword(PASSWORD) });
  return { id, email };
}

/** The password grant as the portal sends it (captcha solved against the same node). */
export async function passwordGrant(node: { url: string }, username: string, password: string, address = '10.9.8.7') {
  const captchaResponse = await solvedCaptcha(async (path) => fetch(`${node.url}${path}`));
  return call<{ access_token?: string; refresh_token?: string; Content?: { Code: string; Message: string } }>(node, '/connect/token', {
    form: { grant_type: 'password', client_id: 'portal', username, password, captchaResponse },
    headers: { 'x-forwarded-for': address },
  });
}

/** Device messages to a node's ingestion endpoint. */
export const ingest = (node: { url: string }, gatewayKey: string, messages: unknown[], timeoutMs = 15_000) =>
  call<{ Accepted?: number; Duplicates?: number; Rejected?: number }>(node, '/api/v1/device-messages/ingest', {
    json: messages,
    headers: { 'X-Gateway-Key': gatewayKey },
    timeoutMs,
  });

export type HubClient = { conn: HubConnection; got: Record<string, unknown>[]; has: (messageId: string) => boolean; stop: () => Promise<void> };

/** A browser's hub connection to a node (negotiated with the person's access token), joined to the devices' groups. */
export async function hubClient(node: { url: string }, person: { id: string; token: string }, identities: string[]): Promise<HubClient> {
  const n = await call<{ Url: string; AccessToken: string }>(node, `/api/admin/negotiate?userid=${person.id}`, { method: 'POST', token: person.token });
  if (n.status !== 200) throw new Error(`negotiate: ${n.status} ${JSON.stringify(n.body)}`);
  const got: Record<string, unknown>[] = [];
  const conn = new HubConnectionBuilder()
    .withUrl(n.body.Url, { accessTokenFactory: () => n.body.AccessToken, transport: HttpTransportType.WebSockets })
    .configureLogging(LogLevel.None)
    .build();
  conn.on('MessageStream', (p: Record<string, unknown>) => got.push(p));
  await conn.start();
  const joined = (await conn.invoke('joinGroup', identities)) as { Subscribed: string[] };
  if (joined.Subscribed.length !== identities.length) throw new Error(`joinGroup: ${JSON.stringify(joined)}`);
  return { conn, got, has: (id) => got.some((p) => p.MessageId === id), stop: () => conn.stop().catch(() => {}) };
}

/** The JSON log lines of a node whose `msg` matches. */
export const logsOf = (node: ServerProcess, msg: string | RegExp) =>
  node
    .output()
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as Record<string, unknown>)
    .filter((l) => (typeof msg === 'string' ? l.msg === msg : msg.test(String(l.msg))));

/** Prints a figure of a test (they are read, not asserted: the machine's load makes times vary). */
export function figure(name: string, values: Record<string, unknown>) {
  console.log(
    `[figure] ${name}: ${Object.entries(values)
      .map(([k, v]) => `${k}=${v}`)
      .join(' ')}`,
  );
}

/**
 * Starts a device export (every device) on a node with a known X-Export-Id and returns as soon as
 * its headers arrive: the body is left unread, so the export holds its worker (flow control) until
 * the body is read or cancelled. For the export cases across nodes and on shutdown.
 */
export async function startExport(node: { url: string }, token: string, id: string = randomUUID(), filters: Record<string, unknown> = {}) {
  const res = await fetch(`${node.url}/api/v1/device/export/list-with-filters`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', [EXPORT_ID_HEADER]: id },
    body: JSON.stringify(filters),
  });
  return { id, res };
}

/** Devices for exports: `count` rows of type 750 in one statement (generate_series), serials `${prefix}000000`…. */
export async function insertDevices(db: DB, count: number, prefix = 'CLX') {
  const template = deviceRow({ serialNumber: '', type: 750 });
  const made: Record<string, RawBuilder<unknown>> = {
    id: sql`gen_random_uuid()::text`,
    serialNumber: sql`${sql.lit(prefix)} || lpad((g - 1)::text, 6, '0')`,
    etag: sql`'"e-' || g || '"'`,
  };
  const cols = Object.keys(template);
  const exprs = cols.map((k) => made[k] ?? sql.lit(template[k as keyof typeof template]));
  await sql`insert into devices (${sql.join(cols.map((k) => sql.ref(k)))}) select ${sql.join(exprs)} from generate_series(1, ${sql.lit(count)}) g`.execute(db);
}

export type IngestBatch = { node: string; ids: string[]; status: number; ms: number; at: number };

/**
 * Gateways sending without pause: `concurrency` senders, each posting batches of `batch` messages
 * (new ids, the current time) for the identities to the nodes in turn. stop() ends the senders and
 * resolves with every batch sent: acknowledged means answered 2xx.
 */
export function ingestStream(
  targets: () => { url: string; name: string }[],
  gatewayKey: string,
  identities: string[],
  opts: { batch?: number; concurrency?: number; pauseMs?: number } = {},
) {
  const batches: IngestBatch[] = [];
  let stopped = false;
  const batch = opts.batch ?? 10;
  const sender = async (w: number) => {
    for (let i = 0; !stopped; i++) {
      const list = targets();
      const node = list[(i + w) % list.length]!;
      const msgs = Array.from({ length: batch }, (_, k) => message(identities[(i + k) % identities.length]!, { date: new Date().toISOString() }));
      const at = Date.now();
      const r = await ingest(node, gatewayKey, msgs, 10_000);
      batches.push({ node: node.name, ids: msgs.map((m) => m.messageId), status: r.status, ms: r.ms, at });
      if (r.status === 0 || r.status >= 500) await sleep(50); // a node refusing or answering 503: do not spin
      else if (opts.pauseMs) await sleep(opts.pauseMs);
    }
  };
  const running = Promise.all(Array.from({ length: opts.concurrency ?? 2 }, (_, w) => sender(w)));
  return {
    batches,
    async stop() {
      stopped = true;
      await running;
      return batches;
    },
  };
}

export const acknowledged = (batches: IngestBatch[]) => batches.filter((b) => b.status >= 200 && b.status < 300).flatMap((b) => b.ids);

/** Which of the message ids are stored. */
export async function storedIds(db: DB, ids: string[]): Promise<Set<string>> {
  const out = new Set<string>();
  for (let i = 0; i < ids.length; i += 1000) {
    const rows = await db
      .selectFrom('deviceMessages')
      .select('id')
      .where('id', 'in', ids.slice(i, i + 1000))
      .execute();
    for (const r of rows) out.add(r.id);
  }
  return out;
}
