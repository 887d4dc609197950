// Two compiled nodes (tests/helpers/cluster.ts) while what they depend on goes away and comes back,
// with gateways sending all the time; each case prints its figures ([figure] lines: time to
// recover, messages acknowledged vs stored):
// - Redis restarted: hub clients on both nodes receive again once it is back; sign-in limits are
//   shared again and a sign-out on one node ends the session on the other; nothing acknowledged
//   by ingestion during the outage is lost.
// - PostgreSQL restarted: while it is down requests answer 503 in the error shape at once (never
//   hang, never 500) and /ready is 503; each node serves again by itself once it is back, with no
//   process restart.
// - SIGTERM during an export and during ingestion: the export is cancelled, every acknowledged
//   message is stored, the process exits 0 within SHUTDOWN_TIMEOUT_MS.
// Run by the `cluster` project (`vitest run --project cluster`); skipped without PostgreSQL's and
// Redis's binaries, except in CI.
import { afterAll, beforeAll, expect, test } from 'vitest';
import { randomUUID } from 'node:crypto';
import { signedIn } from '../helpers/auth.js';
import { insertDevice } from '../helpers/live.js';
import {
  acknowledged,
  call,
  describeCluster,
  figure,
  hubClient,
  ingest,
  ingestStream,
  insertDevices,
  logsOf,
  passwordGrant,
  personWithPassword,
  PASSWORD,
  startCluster,
  startExport,
  storedIds,
  until,
  type Cluster,
  type HubClient,
} from '../helpers/cluster.js';
import { message } from '../helpers/live.js';
import { AUTH_LIMITS } from '../../src/server/auth/routes.js';
import { CODE, MSG } from '../../src/shared/messages.js';

const SHUTDOWN_TIMEOUT_MS = 6_000;
// Enough rows that the export is still writing half a second after it starts on an idle machine
// (10,000 were done by then): SIGTERM must find it running.
const EXPORT_DEVICES = 100_000;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describeCluster('restarts of what two compiled nodes depend on', () => {
  let c: Cluster;
  const hubs: HubClient[] = [];
  const A = () => c.nodes[0]!;
  const B = () => c.nodes[1]!;
  const IDENTITIES = ['358000000000201', '358000000000202', '358000000000203', '358000000000204'];
  let admin: { id: string; token: string };

  beforeAll(async () => {
    c = await startCluster({ name: 'restarts', env: { SHUTDOWN_TIMEOUT_MS: String(SHUTDOWN_TIMEOUT_MS), TRUST_PROXY: '1' } });
    for (const [i, imei] of IDENTITIES.entries()) await insertDevice(c.db, { serialNumber: `CLUSTER-R-${i}`, imei });
    admin = await signedIn(c.db, c.config, ['SuperAdminRole']);
  });
  afterAll(async () => {
    for (const h of hubs) await h.stop();
    await c?.close();
  });

  /** A probe message ingested on `from` until it reaches every hub client; the time from `since`. */
  async function probeUntilDelivered(from: () => { url: string }, clients: HubClient[], since: number, ms = 20_000) {
    let tries = 0;
    await until(
      'a probe message on every hub client',
      async () => {
        tries++;
        const m = message(IDENTITIES[0]!, { date: new Date().toISOString(), message: 'probe' });
        const r = await ingest(from(), c.gatewayKey, [m]);
        if (r.status !== 200) return false;
        const end = Date.now() + 300;
        while (Date.now() < end) {
          if (clients.every((h) => h.has(m.messageId))) return true;
          await sleep(20);
        }
        return false;
      },
      ms,
    );
    return { ms: Date.now() - since, tries };
  }

  test('Redis restarted: hub clients on both nodes receive again, limits and sign-outs are shared again, nothing acknowledged is lost', async () => {
    const onA = await hubClient(A(), admin, IDENTITIES);
    const onB = await hubClient(B(), admin, IDENTITIES);
    hubs.push(onA, onB);
    await probeUntilDelivered(A, [onA, onB], Date.now(), 5_000);

    const stream = ingestStream(() => [A(), B()], c.gatewayKey, IDENTITIES);
    await sleep(500);
    const down = Date.now();
    await c.redis.stop();
    // While Redis is away: /health says degraded (200), sign-in still works on each node alone.
    await until('both nodes see Redis gone', async () => {
      const h = await Promise.all([A(), B()].map((n) => call<{ redis: string }>(n, '/health')));
      return h.every((x) => x.status === 200 && x.body.redis === 'unavailable');
    });
    const someone = await personWithPassword(c.db, ['SuperAdminRole']);
    const during = await passwordGrant(B(), someone.email, PASSWORD, '10.2.0.1');
    expect(during.status).toBe(200);
    await sleep(1_500);
    const outageBatches = stream.batches.filter((b) => b.at >= down).length;
    const back = Date.now();
    await c.redis.start();
    const healthBack = until('both nodes see Redis back', async () => {
      const h = await Promise.all([A(), B()].map((n) => call<{ redis: string }>(n, '/health')));
      return h.every((x) => x.status === 200 && x.body.redis === 'ok');
    });
    const delivered = await probeUntilDelivered(A, [onA, onB], back);
    const reverse = await probeUntilDelivered(B, [onA, onB], back);
    const health = await healthBack;
    await sleep(500);
    const batches = await stream.stop();
    const acked = acknowledged(batches);
    const stored = await storedIds(c.db, acked);
    const during2 = batches.filter((b) => b.at >= down && b.at < back);
    figure('Redis restart', {
      outageMs: back - down,
      hubRecoveredMsAfterBack: delivered.ms,
      hubRecoveredFromBMs: reverse.ms,
      healthOkMsAfterBack: health,
      batchesDuringOutage: during2.length,
      slowestBatchDuringOutageMs: Math.max(0, ...during2.map((b) => b.ms)),
      notAcknowledgedDuringOutage: during2.filter((b) => b.status < 200 || b.status >= 300).length,
      acknowledged: acked.length,
      stored: stored.size,
    });
    expect(outageBatches).toBeGreaterThan(0);
    expect(acked.filter((id) => !stored.has(id))).toEqual([]);

    // The sign-in limit is shared again: failures alternate between the nodes, then both refuse.
    const ghost = `ghost-${randomUUID()}@cluster.test`;
    const statuses: number[] = [];
    for (let i = 0; i < AUTH_LIMITS.signInPerEmail; i++) statuses.push((await passwordGrant(i % 2 ? B() : A(), ghost, `guess-${i}`, `10.3.0.${i + 1}`)).status);
    expect(statuses.filter((s) => s !== 400)).toEqual([]);
    for (const node of [A(), B()]) expect((await passwordGrant(node, ghost, 'more', '10.3.1.1')).status).toBe(429);

    // A sign-out on A ends the session on B: its access token is refused there, its hub connection on B closes.
    const p = await personWithPassword(c.db, ['SuperAdminRole']);
    const session = (await passwordGrant(A(), p.email, PASSWORD, '10.4.0.1')).body;
    expect((await call(B(), '/api/v1/get-user-info', { token: session.access_token })).status).toBe(200); // B has read the session
    const hubOfP = await hubClient(B(), { id: p.id, token: session.access_token! }, [IDENTITIES[1]!]);
    hubs.push(hubOfP);
    const closed = new Promise<number>((resolve) => hubOfP.conn.onclose(() => resolve(Date.now())));
    const out = Date.now();
    expect(
      (await call(A(), '/connect/revocation', { form: { token: session.refresh_token!, token_type_hint: 'refresh_token', client_id: 'portal' } })).status,
    ).toBe(200);
    const refusedAfter = await until(
      'B refuses the signed-out token',
      async () => (await call(B(), '/api/v1/get-user-info', { token: session.access_token })).status === 401,
    );
    const hubClosedAfter = (await closed) - out;
    figure('sign-out on A after the Redis restart', { refusedOnBMs: refusedAfter, hubOnBClosedMs: hubClosedAfter });
  });

  test('PostgreSQL restarted: 503 in the error shape while it is down, /ready 503, every node serves again by itself', async () => {
    const pids = c.nodes.map((n) => n.child.pid);
    const stream = ingestStream(() => [A(), B()], c.gatewayKey, IDENTITIES);
    await sleep(500);
    const down = Date.now();
    await c.pg.stop();
    const stopMs = Date.now() - down;

    const answers: { node: string; path: string; status: number; ms: number }[] = [];
    let checked = false;
    try {
      for (const node of [A(), B()]) {
        const ready = await call<{ status: string; database: string }>(node, '/ready');
        expect(ready.status).toBe(503);
        expect(ready.body).toMatchObject({ status: 'not ready', database: 'unavailable' });
        const health = await call<{ database: string }>(node, '/health');
        expect(health.status).toBe(503);
        expect(health.body.database).toBe('unavailable');
        for (const [path, init] of [
          ['/api/v1/get-user-info', { token: admin.token }],
          ['/api/v1/device/get-list', { token: admin.token, json: { page: 1, pageSize: 10 } }],
          ['/api/v1/device-messages/ingest', { json: [message(IDENTITIES[2]!)], headers: { 'X-Gateway-Key': c.gatewayKey } }],
        ] as const) {
          const r = await call(node, path, { ...init, timeoutMs: 20_000 });
          answers.push({ node: node.name, path, status: r.status, ms: r.ms });
          expect({ path, status: r.status, body: r.body }).toEqual({
            path,
            status: 503,
            body: { Content: { Message: MSG.cosmosConflict, Code: CODE.unavailable } },
          });
          expect(r.headers.get('retry-after')).toBe('30');
        }
      }
      await sleep(1_000);
      checked = true;
    } finally {
      if (!checked) await c.pg.start(); // for the next case: an assertion above failed
    }
    const back = Date.now();
    await c.pg.start();
    const startMs = Date.now() - back;
    const recovered = await Promise.all(
      [A(), B()].map(async (node) => ({
        node: node.name,
        readyMs: await until(`${node.name} ready again`, async () => (await call(node, '/ready')).status === 200, 30_000),
      })),
    );
    for (const node of [A(), B()]) {
      expect((await call(node, '/api/v1/get-user-info', { token: admin.token })).status).toBe(200);
      expect((await ingest(node, c.gatewayKey, [message(IDENTITIES[3]!, { date: new Date().toISOString() })])).status).toBe(200);
    }
    await sleep(500);
    const batches = await stream.stop();
    const acked = acknowledged(batches);
    const stored = await storedIds(c.db, acked);
    const during = batches.filter((b) => b.at >= down && b.at < back);
    figure('PostgreSQL restart', {
      pgStopMs: stopMs,
      pgStartMs: startMs,
      downMs: back - down,
      slowestAnswerWhileDownMs: Math.max(...answers.map((a) => a.ms)),
      ...Object.fromEntries(recovered.map((r) => [`node${r.node}ReadyMsAfterPgBack`, r.readyMs])),
      batchesWhileDown: during.length,
      batchStatusesWhileDown: [...new Set(during.map((b) => b.status))].join('/'),
      acknowledged: acked.length,
      stored: stored.size,
    });
    expect(acked.filter((id) => !stored.has(id))).toEqual([]);
    expect(c.nodes.map((n) => n.child.pid)).toEqual(pids);
    expect(c.nodes.every((n) => n.child.exitCode === null)).toBe(true);
    for (const node of c.nodes) expect(logsOf(node, /unhandled|fatal/)).toEqual([]);
  });

  test('SIGTERM during an export and during ingestion: the export is cancelled, every acknowledged message is stored, exit 0 within the drain time', async () => {
    const t0 = Date.now();
    await insertDevices(c.db, EXPORT_DEVICES); // type 750, exported alone
    const insertMs = Date.now() - t0;
    const exporter = await signedIn(c.db, c.config, ['SuperAdminRole']);
    const exp = await startExport(A(), exporter.token, undefined, { deviceTypeIds: [750] });
    expect(exp.res.status).toBe(200);
    expect(exp.res.headers.get('x-export-total')).toBe(String(EXPORT_DEVICES));
    await sleep(500);
    const before = await call<{ State: string; Written: number }>(A(), `/api/v1/export/progress/${exp.id}`, { token: exporter.token });
    expect(before.body.State).toBe('running'); // its download is not read: the export waits for it
    const stream = ingestStream(() => [A()], c.gatewayKey, IDENTITIES, { concurrency: 3 });
    await sleep(500);
    const term = A().terminate();
    const exit = await term;
    // read only now: a download read during the drain could let the export finish before its grace ends
    const download = exp.res
      .arrayBuffer()
      .then((b) => ({ outcome: 'ended', bytes: b.byteLength }))
      .catch((e: Error) => ({ outcome: `aborted (${e.message})`, bytes: -1 }));
    await sleep(200);
    const batches = await stream.stop();
    const acked = acknowledged(batches);
    const stored = await storedIds(c.db, acked);
    const dl = await download;
    const lines = logsOf(A(), /./);
    figure('SIGTERM during an export and ingestion', {
      exitCode: exit.code,
      exitMs: exit.ms,
      drainLimitMs: SHUTDOWN_TIMEOUT_MS,
      exportRows: EXPORT_DEVICES,
      exportWrittenBefore: before.body.Written,
      insertMs,
      download: dl.outcome,
      downloadBytes: dl.bytes,
      batchesAfterSigterm: batches.filter((b) => b.at >= Date.now() - exit.ms).length,
      acknowledged: acked.length,
      stored: stored.size,
    });
    expect(exit.code).toBe(0);
    expect(exit.ms).toBeLessThan(SHUTDOWN_TIMEOUT_MS);
    expect(acked.filter((id) => !stored.has(id))).toEqual([]);
    // The export is either cancelled after half the drain time (its download still unread) or, when
    // the client's socket buffers took the whole file first, it finished within it: never both, and
    // never holding the node past its drain time.
    const cancelled = lines.find((l) => l.msg === 'exports cancelled on shutdown');
    if (cancelled) expect(cancelled).toMatchObject({ running: 1 });
    else expect(dl).toMatchObject({ outcome: 'ended' });
    expect(lines.at(-1)).toMatchObject({ msg: 'stopped' });
    expect(lines.filter((l) => /unhandled|timed out/.test(String(l.msg)))).toEqual([]);
    // B carries on
    expect((await call(B(), '/ready')).status).toBe(200);
  });
});
