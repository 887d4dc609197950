// Export jobs shared by two nodes over Redis (TEST_REDIS_URL; the redis step of `npm test`, skipped
// without it): two apps over one database file, each with its own Redis connections, as two nodes
// behind a round-robin proxy. An export started on A shows its progress through B and is cancelled
// through B (A's worker stops); a second export of the same user on B is refused while the first
// runs on A; an export that would wait for a thread is refused when the queue across the nodes is
// full; a finished job's progress is read from B. Each run uses its own key prefix (and so its own
// channel), so runs sharing a Redis do not see each other. With Redis unreachable a node exports
// alone and says so once in its log.
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { randomUUID } from 'node:crypto';
import { spawn } from 'node:child_process';
import { createApp } from '../../src/server/app.js';
import { testConfig, type Config } from '../../src/server/platform/config.js';
import { createOutbox } from '../../src/server/mail/outbox.js';
import { openRedis, openRedisBus, type OpenedRedis, type RedisBus } from '../../src/server/platform/redis.js';
import { createTestDb, type TestDb } from '../helpers/db.js';
import { tokenFor } from '../helpers/auth.js';
import { deviceRow } from '../helpers/customer-rows.js';
import { freePort } from '../helpers/ports.js';
import { CODE, MSG } from '../../src/shared/messages.js';
import { EXPORT_ID_HEADER, type ExportProgress } from '../../src/shared/schemas/exports.js';
import { WAIT } from '../helpers/wait.js';

const REDIS_URL = process.env.TEST_REDIS_URL;
const BIG = 30_000; // devices of type 750: an export that holds its worker while its download is not read
const SMALL = 12; // devices of type 620

type Node = ReturnType<typeof createApp> & { redis: OpenedRedis; bus: RedisBus; logs: Record<string, unknown>[]; config: Config };

async function startNode(tdb: TestDb, redisUrl: string, prefix: string, commandTimeoutMs?: number): Promise<Node> {
  const logs: Record<string, unknown>[] = [];
  const log = (e: Record<string, unknown>) => void logs.push(e);
  // one worker and one waiting export per node: the queue across the nodes is reachable with four users
  const config = testConfig({ hubChannelPrefix: `${prefix}hub`, exports: { workers: 1, queue: 1 } });
  const redis = openRedis(redisUrl, { keyPrefix: prefix, log, ...(commandTimeoutMs ? { commandTimeoutMs, connectTimeoutMs: commandTimeoutMs } : {}) });
  const bus = openRedisBus(redis, { log });
  const node = createApp({ db: tdb.db, config, outbox: createOutbox({ log, now: () => config.now() }), log, redis, bus, dbSource: tdb.source });
  return Object.assign(node, { redis, bus, logs, config });
}
async function stopNode(n: Node | undefined) {
  if (!n) return;
  await n.services.exports.close();
  await n.services.hub.close();
  await n.bus.close();
  await n.redis.close();
}

const request = (n: Node, path: string, token: string, init: { method?: string; json?: unknown; id?: string } = {}) =>
  n.app.request(path, {
    method: init.method ?? (init.json === undefined ? 'GET' : 'POST'),
    headers: {
      authorization: `Bearer ${token}`,
      ...(init.json === undefined ? {} : { 'content-type': 'application/json' }),
      ...(init.id ? { [EXPORT_ID_HEADER]: init.id } : {}),
    },
    body: init.json === undefined ? undefined : JSON.stringify(init.json),
  });
const exportDevices = (n: Node, token: string, types: number[], id = randomUUID()) =>
  request(n, '/api/v1/device/export/list-with-filters', token, { json: { deviceTypeIds: types }, id });
async function progress(n: Node, token: string, id: string) {
  const res = await request(n, `/api/v1/export/progress/${id}`, token);
  return res.status === 200 ? ((await res.json()) as ExportProgress) : res.status;
}

describe.skipIf(!REDIS_URL)('export jobs across two nodes (TEST_REDIS_URL)', () => {
  let tdb: TestDb;
  let a: Node;
  let b: Node;
  const token = (roles: ['SuperAdminRole'] = ['SuperAdminRole']) => tokenFor(a.config, roles);

  beforeAll(async () => {
    tdb = await createTestDb({ file: true });
    for (let i = 0; i < BIG; i += 500)
      await tdb.db
        .insertInto('devices')
        .values(Array.from({ length: Math.min(500, BIG - i) }, (_, k) => deviceRow({ serialNumber: `CL${String(i + k).padStart(6, '0')}`, type: 750 })))
        .execute();
    await tdb.db
      .insertInto('devices')
      .values(Array.from({ length: SMALL }, (_, k) => deviceRow({ serialNumber: `CS${String(k).padStart(4, '0')}`, type: 620 })))
      .execute();
    const prefix = `test-jobs-${randomUUID()}:`;
    a = await startNode(tdb, REDIS_URL!, prefix);
    b = await startNode(tdb, REDIS_URL!, prefix);
    await a.services.exports.ready();
    await b.services.exports.ready();
  }, 120_000);
  afterAll(async () => {
    await stopNode(a);
    await stopNode(b);
    await tdb?.close();
  });

  test('an export started on A: its progress through B, a second export of the user refused on B, cancelled through B', async () => {
    const user = await token();
    const res = await exportDevices(a, user, [750]);
    expect(res.status).toBe(200);
    const id = res.headers.get(EXPORT_ID_HEADER)!;

    // B has no such job in memory: it answers from Redis
    await vi.waitFor(async () => expect(await progress(b, user, id)).toMatchObject({ Id: id, State: 'running', Total: BIG }), WAIT);
    const other = await token();
    expect(await progress(b, other, id)).toBe(404); // the owner only, on every node

    const second = await exportDevices(b, user, [620]);
    expect(second.status).toBe(429);
    expect((await second.json()).Content).toEqual({ Message: MSG.exportAlreadyRunning, Code: CODE.exportBusy });
    expect(b.services.exports.stats().busyTasks).toBe(0);

    expect(a.services.exports.stats().running).toBe(1);
    const cancelled = await request(b, `/api/v1/export/${id}`, user, { method: 'DELETE' });
    expect(cancelled.status).toBe(200);
    expect((await cancelled.json()).Content.Message).toBe(MSG.exportCancelled);
    // A's worker stops: its job is cancelled and A runs nothing
    await vi.waitFor(() => expect(a.services.exports.stats()).toMatchObject({ running: 0, busyTasks: 0 }), WAIT);
    const seen = await progress(b, user, id);
    expect(seen).toMatchObject({ State: 'cancelled' });
    expect((seen as ExportProgress).Written).toBeLessThan(BIG);
    expect(await progress(a, user, id)).toMatchObject({ State: 'cancelled' });
    await res.body?.cancel().catch(() => {});

    // the user is free again on either node
    const again = await exportDevices(b, user, [620]);
    expect(again.status).toBe(200);
    await again.arrayBuffer();
  }, 60_000);

  test('the queue limit holds across the nodes: an export that would wait on B is refused while A holds the waiting one', async () => {
    const [u1, u2, u3, u4] = await Promise.all([token(), token(), token(), token()]);
    const onA = await exportDevices(a, u1, [750]); // holds A's one worker (not read)
    expect(onA.status).toBe(200);
    const waitingOnA = exportDevices(a, u2, [750]); // waits for A's worker: the queue (1) is full
    await vi.waitFor(() => expect(a.services.exports.stats().queued).toBe(1), WAIT);
    const onB = await exportDevices(b, u3, [750]); // B's worker was free: runs at once
    expect(onB.status).toBe(200);
    const refused = await exportDevices(b, u4, [620]); // would wait on B: the queue is full across the nodes
    expect(refused.status).toBe(429);
    expect((await refused.json()).Content).toEqual({ Message: MSG.exportQueueFull, Code: CODE.exportQueueFull });

    await onA.body!.cancel();
    const second = await waitingOnA;
    expect(second.status).toBe(200);
    await second.body!.cancel();
    await onB.body!.cancel();
    await vi.waitFor(
      () => {
        expect(a.services.exports.stats()).toMatchObject({ running: 0, queued: 0, busyTasks: 0 });
        expect(b.services.exports.stats()).toMatchObject({ running: 0, queued: 0, busyTasks: 0 });
      },
      { timeout: 15_000 },
    );
    // nothing waits any more: the fourth user's export runs on B
    const now = await exportDevices(b, u4, [620]);
    expect(now.status).toBe(200);
    await now.arrayBuffer();
  }, 60_000);

  test("a finished job's progress is read from the other node", async () => {
    const user = await token();
    const res = await exportDevices(a, user, [620]);
    expect(res.status).toBe(200);
    const id = res.headers.get(EXPORT_ID_HEADER)!;
    await res.arrayBuffer();
    await vi.waitFor(
      async () => expect(await progress(b, user, id)).toEqual({ Id: id, State: 'done', Written: SMALL, Total: SMALL, Omitted: 0, Parsed: null }),
      WAIT,
    );
  }, 60_000);

  test("an import's job is shared too: its progress is read from the other node once it is done", async () => {
    const user = await token();
    const id = randomUUID();
    const fd = new FormData();
    fd.append(
      'File',
      new File([`SerialNumber,Type\n${Array.from({ length: 5 }, (_, i) => `CI${randomUUID().slice(0, 8)}${i},803`).join('\n')}\n`], 'devices.csv', {
        type: 'text/csv',
      }),
    );
    const res = await a.app.request('/api/v1/import/devices', {
      method: 'POST',
      body: fd,
      headers: { authorization: `Bearer ${user}`, [EXPORT_ID_HEADER]: id },
    });
    expect(res.status).toBe(200);
    await vi.waitFor(async () => expect(await progress(b, user, id)).toMatchObject({ Id: id, State: 'done', Written: 5, Total: 5 }), WAIT);
  }, 60_000);

  test('without Redis a node exports alone and logs the outage once', async () => {
    const alone = await startNode(tdb, `redis://127.0.0.1:${await freePort()}`, `test-jobs-${randomUUID()}:`, 200);
    try {
      const user = await token();
      for (let i = 0; i < 2; i++) {
        const id = randomUUID();
        const res = await exportDevices(alone, user, [620], id);
        expect(res.status).toBe(200);
        await res.arrayBuffer();
        expect(await progress(alone, user, id)).toMatchObject({ State: 'done', Written: SMALL });
      }
      // one export per user still holds on the node
      const held = await exportDevices(alone, user, [750]);
      expect(held.status).toBe(200);
      const refused = await exportDevices(alone, user, [620]);
      expect(refused.status).toBe(429);
      await held.body!.cancel();
      expect(alone.logs.filter((l) => String(l.msg).startsWith('export jobs: Redis unavailable'))).toHaveLength(1);
    } finally {
      await stopNode(alone);
    }
  }, 60_000);

  test('Redis going away while an export runs: the export completes on its node, the outage is logged once', async () => {
    // a Redis of this test's own, stopped mid-run (the shared one is never touched)
    const port = await freePort();
    const server = spawn('redis-server', ['--port', String(port), '--save', '', '--appendonly', 'no', '--daemonize', 'no'], { stdio: 'ignore' });
    const exited = new Promise((r) => server.once('exit', r));
    let node: Node | undefined;
    try {
      node = await startNode(tdb, `redis://127.0.0.1:${port}`, `test-jobs-${randomUUID()}:`, 300);
      await vi.waitFor(() => expect(node!.redis.status).toBe('ready'), WAIT);
      await node.services.exports.ready();
      const user = await token();
      const res = await exportDevices(node, user, [750]);
      expect(res.status).toBe(200);
      const id = res.headers.get(EXPORT_ID_HEADER)!;
      await vi.waitFor(async () => expect(await node!.redis.hget(`jobs:job:${id}`, 'state')).toBe('running'), WAIT);
      server.kill('SIGKILL');
      await exited;
      const bytes = (await res.arrayBuffer()).byteLength;
      expect(bytes).toBeGreaterThan(100_000);
      await vi.waitFor(async () => expect(await progress(node!, user, id)).toMatchObject({ State: 'done', Written: BIG, Total: BIG }), { timeout: 15_000 });
      await vi.waitFor(() => expect(node!.logs.filter((l) => String(l.msg).startsWith('export jobs: Redis unavailable'))).toHaveLength(1), WAIT);
      process.stdout.write(`export-cluster: an export of ${BIG} rows completed (${bytes} bytes) with its Redis stopped mid-run\n`);
    } finally {
      if (server.exitCode === null && server.signalCode === null) server.kill('SIGKILL');
      await stopNode(node);
    }
  }, 90_000);
});
