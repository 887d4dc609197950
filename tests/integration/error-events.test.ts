// No 'error' event is left unhandled anywhere in the server: for each source (a worker pool,
// Redis's command and subscriber connections, the PostgreSQL pool, the SMTP transport, a hub socket,
// the HTTP server and the metrics listener) an error is emitted or provoked, and it is logged and
// counted (error_events_total{source}) while the process and the app keep serving. An 'error'
// event without a listener would throw out of emit() (or crash this test process).
import { afterAll, afterEach, beforeAll, describe, expect, test, vi } from 'vitest';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createServer as createNetServer, type AddressInfo } from 'node:net';
import pg from 'pg';
import nodemailer from 'nodemailer';
import WebSocket from 'ws';
import { errorEvents, startMetricsServer } from '../../src/server/platform/metrics.js';
import { workerThreads } from '../../src/server/exports/threads.js';
import { openRedis, openRedisBus } from '../../src/server/platform/redis.js';
import { openPostgres, sql } from '../../src/server/db/index.js';
import { createOutbox } from '../../src/server/mail/outbox.js';
import { createServer, type AppServer } from '../../src/server/server.js';
import { testConfig } from '../../src/server/platform/config.js';
import { createTestDb, PG_ADMIN_URL, type TestDb } from '../helpers/db.js';
import { signedIn } from '../helpers/auth.js';
import { tempDataDir } from '../helpers/process.js';
import { WAIT } from '../helpers/wait.js';

type Entry = Record<string, unknown>;
const logs: Entry[] = [];
const log = (e: Entry) => void logs.push(e);
afterEach(() => void (logs.length = 0));

/** error_events_total for a source. */
const counted = async (source: string) => (await errorEvents.get()).values.find((v) => v.labels.source === source)?.value ?? 0;

/** A TCP port nothing listens on. */
async function closedPort() {
  const s = createNetServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const { port } = s.address() as AddressInfo;
  await new Promise((r) => s.close(r));
  return port;
}

test('a worker pool: its error event is logged and counted, the pool is replaced and the next task runs', async () => {
  const dir = tempDataDir('error-events-worker');
  const file = join(dir, 'double.mjs');
  writeFileSync(file, 'export default (n) => n * 2;\n');
  const threads = workerThreads<number, number>('export', { filename: pathToFileURL(file).href, minThreads: 0, maxThreads: 1 }, log);
  try {
    const before = await counted('export_pool');
    const old = threads.piscina;
    old.emit('error', new Error('a thread could not start'));
    expect(logs).toContainEqual(expect.objectContaining({ msg: 'worker thread failed', pool: 'export', kind: 'load' }));
    expect(await counted('export_pool')).toBe(before + 1);
    expect(threads.piscina).not.toBe(old);
    expect(await threads.run(21)).toBe(42);
  } finally {
    await threads.destroy();
    rmSync(dir, { recursive: true, force: true });
  }
});

describe('Redis', () => {
  test('the command and subscriber connections log an outage once and keep running; an emitted error is logged', async () => {
    const before = await counted('redis');
    const redis = openRedis(`redis://127.0.0.1:${await closedPort()}`, { log, connectTimeoutMs: 200, commandTimeoutMs: 200 });
    const bus = openRedisBus(redis, { log });
    try {
      await vi.waitFor(() => {
        expect(logs).toContainEqual(expect.objectContaining({ msg: 'redis error', role: 'commands' }));
        expect(logs).toContainEqual(expect.objectContaining({ msg: 'redis error', role: 'subscriber' }));
      }, WAIT);
      // a command fails (the caller falls back); nothing is thrown at the process
      await expect(redis.get('k')).rejects.toThrow();
      const n = logs.length;
      redis.emit('error', new Error('emitted on the command connection'));
      bus.subscriber.emit('error', new Error('emitted on the subscriber'));
      expect(logs.length).toBe(n); // still the same outage: logged once
      expect(await counted('redis')).toBeGreaterThanOrEqual(before + 4);
    } finally {
      await bus.close();
      await redis.close();
    }
  });
});

describe('the PostgreSQL pool', () => {
  const backendPid = sql<{ pid: number }>`select pg_backend_pid() as pid`;
  let reachable = true;
  beforeAll(async () => {
    const c = new pg.Client({ connectionString: PG_ADMIN_URL, connectionTimeoutMillis: 2_000 });
    reachable = await c.connect().then(
      () => true,
      () => false,
    );
    await c.end().catch(() => {});
    if (!reachable) console.log(`error-events: PostgreSQL at ${PG_ADMIN_URL} is not reachable; the pool's test is skipped`);
  });

  test('an idle connection the server ends is logged and counted; the next query gets a new one', async (ctx) => {
    if (!reachable && process.env.TEST_DB !== 'pg') return ctx.skip();
    const before = await counted('database');
    const db = openPostgres(PG_ADMIN_URL, 1, log);
    const admin = new pg.Client({ connectionString: PG_ADMIN_URL });
    try {
      const { rows } = await backendPid.execute(db);
      await admin.connect();
      await admin.query('select pg_terminate_backend($1)', [rows[0]!.pid]);
      await vi.waitFor(
        () => expect(logs).toContainEqual(expect.objectContaining({ msg: 'database connection lost; reconnecting on the next query', code: '57P01' })),
        WAIT,
      );
      expect(await counted('database')).toBe(before + 1);
      const again = await backendPid.execute(db);
      expect(again.rows[0]!.pid).not.toBe(rows[0]!.pid);
    } finally {
      await admin.end().catch(() => {});
      await db.destroy();
    }
  });
});

test('the SMTP transport: an error it emits outside a send is logged and counted', async () => {
  const created: ReturnType<typeof nodemailer.createTransport>[] = [];
  const real = nodemailer.createTransport.bind(nodemailer);
  const spy = vi.spyOn(nodemailer, 'createTransport').mockImplementation(((o: never) => {
    const t = real(o);
    created.push(t);
    return t;
  }) as never);
  const outbox = createOutbox({ smtpUrl: `smtp://127.0.0.1:${await closedPort()}`, log, now: () => new Date() });
  try {
    expect(created).toHaveLength(1);
    const before = await counted('smtp');
    created[0]!.emit('error', new Error('the pooled connection failed'));
    expect(logs).toContainEqual(expect.objectContaining({ msg: 'smtp transport error', error: 'the pooled connection failed' }));
    expect(await counted('smtp')).toBe(before + 1);
  } finally {
    spy.mockRestore();
    await outbox.close();
  }
});

describe('the Node server and the hub', () => {
  let tdb: TestDb;
  let srv: AppServer;
  const config = testConfig();
  beforeAll(async () => {
    tdb = await createTestDb();
    srv = await createServer({ db: tdb.db, config, outbox: createOutbox({ log: () => {}, now: () => config.now() }), log }, { port: 0, hostname: '127.0.0.1' });
  });
  afterAll(async () => {
    await srv?.close();
    await tdb?.close();
  });
  const health = async () => (await fetch(`http://127.0.0.1:${srv.port}/health`)).status;

  test('the HTTP server: an error after it listens is logged and counted; it keeps answering', async () => {
    const before = await counted('http_server');
    srv.server.emit('error', Object.assign(new Error('accept failed'), { code: 'EMFILE' }));
    expect(logs).toContainEqual(expect.objectContaining({ msg: 'http server error', code: 'EMFILE' }));
    expect(await counted('http_server')).toBe(before + 1);
    expect(await health()).toBe(200);
  });

  test('a hub socket that sends a malformed frame is logged, counted and dropped; the hub takes the next connection', async () => {
    const admin = await signedIn(tdb.db, config, ['SuperAdminRole']);
    const neg = await fetch(`http://127.0.0.1:${srv.port}/api/admin/negotiate?userid=${admin.id}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${admin.token}` },
    });
    const hubToken = ((await neg.json()) as { AccessToken: string }).AccessToken;
    const connect = () =>
      new Promise<WebSocket>((resolve, reject) => {
        const ws = new WebSocket(`ws://127.0.0.1:${srv.port}/hub/devices?access_token=${encodeURIComponent(hubToken)}`);
        ws.once('open', () => resolve(ws));
        ws.once('error', reject);
      });
    const before = await counted('hub_socket');
    const ws = await connect();
    const closed = new Promise((r) => ws.once('close', r));
    ws.on('error', () => {});
    // A client frame must be masked: an unmasked one is a protocol error on the server's socket.
    (ws as unknown as { _socket: import('node:net').Socket })._socket.write(Buffer.from([0x81, 0x02, 0x68, 0x69]));
    await closed;
    await vi.waitFor(() => expect(logs).toContainEqual(expect.objectContaining({ msg: 'hub socket error', user: admin.id })), WAIT);
    expect(await counted('hub_socket')).toBe(before + 1);
    await vi.waitFor(() => expect(srv.services.hub.stats().connections).toBe(0), WAIT);
    const next = await connect();
    expect(next.readyState).toBe(WebSocket.OPEN);
    next.close();
    expect(await health()).toBe(200);
  });
});

test('the metrics listener: an error after it listens is logged and counted; it keeps answering', async () => {
  const server = await startMetricsServer(0, undefined, log);
  try {
    const before = await counted('http_server');
    server.emit('error', new Error('accept failed'));
    expect(logs).toContainEqual(expect.objectContaining({ msg: 'metrics server error' }));
    expect(await counted('http_server')).toBe(before + 1);
    const { port } = server.address() as AddressInfo;
    expect((await fetch(`http://127.0.0.1:${port}/metrics`)).status).toBe(200);
  } finally {
    server.close();
  }
});
