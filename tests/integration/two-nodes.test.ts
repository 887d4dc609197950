// Two compiled server nodes (A and B, `node dist/server/server/main.js` as `npm start` runs it) on
// one PostgreSQL and one Redis of the test's own behave as one: a token signed in on A works on B
// (and refreshes there); a message ingested on A reaches a browser connected to B, and the other
// way round; failed sign-ins on A count against the limit on B; a scheduled report that falls due
// runs once across the nodes and its recipient gets one e-mail; an export started on A shows its
// progress on B, is cancelled through B, and the same user's second export on B is refused meanwhile. Run by the `cluster` project
// (`vitest run --project cluster`); skipped without PostgreSQL's and Redis's binaries, except in CI.
import { afterAll, beforeAll, expect, test } from 'vitest';
import { randomUUID } from 'node:crypto';
import { signedIn } from '../helpers/auth.js';
import { insertDevice, message } from '../helpers/live.js';
import {
  call,
  describeCluster,
  figure,
  hubClient,
  ingest,
  insertDevices,
  passwordGrant,
  personWithPassword,
  PASSWORD,
  startCluster,
  startExport,
  until,
  type Cluster,
  type HubClient,
} from '../helpers/cluster.js';
import { AUTH_LIMITS } from '../../src/server/auth/routes.js';
import { CODE, MSG } from '../../src/shared/messages.js';
import type { ScheduleDto } from '../../src/shared/schemas/schedules.js';
import type { ExportProgress } from '../../src/shared/schemas/exports.js';

const SCHEDULER_INTERVAL_MS = 500;

describeCluster('two compiled nodes on one PostgreSQL and one Redis', () => {
  let c: Cluster;
  const hubs: HubClient[] = [];
  const A = () => c.nodes[0]!;
  const B = () => c.nodes[1]!;

  beforeAll(async () => {
    const t0 = Date.now();
    c = await startCluster({ name: 'two-nodes', smtp: true, env: { SCHEDULER_INTERVAL_MS: String(SCHEDULER_INTERVAL_MS), TRUST_PROXY: '1' } });
    figure('two nodes started (PostgreSQL initdb + Redis + both nodes migrating one empty database)', { ms: Date.now() - t0 });
  });
  afterAll(async () => {
    for (const h of hubs) await h.stop();
    await c?.close();
  });

  test('a token signed in on A works on B, and B refreshes it', async () => {
    const p = await personWithPassword(c.db, ['SuperAdminRole']);
    const signIn = await passwordGrant(A(), p.email, PASSWORD);
    expect(signIn.status).toBe(200);
    const info = await call<{ userId: string; email: string }>(B(), '/api/v1/get-user-info', { token: signIn.body.access_token });
    expect(info.status).toBe(200);
    expect(info.body).toMatchObject({ userId: p.id, email: p.email });
    const refreshed = await call<{ access_token?: string }>(B(), '/connect/token', {
      form: { grant_type: 'refresh_token', client_id: 'portal', refresh_token: signIn.body.refresh_token! },
    });
    expect(refreshed.status).toBe(200);
    expect((await call(A(), '/api/v1/get-user-info', { token: refreshed.body.access_token })).status).toBe(200);
  });

  test('a message ingested on A reaches a browser connected to B (and one ingested on B a browser on A), once each', async () => {
    const admin = await signedIn(c.db, c.config, ['SuperAdminRole']);
    const imei = '358000000000101';
    await insertDevice(c.db, { serialNumber: 'CLUSTER-HUB-1', imei });
    const onA = await hubClient(A(), admin, [imei]);
    const onB = await hubClient(B(), admin, [imei]);
    hubs.push(onA, onB);
    const fromA = message(imei, { message: 'SOS alarm' });
    const sent = Date.now();
    expect((await ingest(A(), c.gatewayKey, [fromA])).status).toBe(200);
    const toB = await until('the message on B', () => onB.has(fromA.messageId));
    await until('the message on A', () => onA.has(fromA.messageId));
    const fromB = message(imei, { message: 'Fall detected' });
    expect((await ingest(B(), c.gatewayKey, [fromB])).status).toBe(200);
    await until('the message on A', () => onA.has(fromB.messageId));
    await new Promise((r) => setTimeout(r, 200));
    expect(onB.got.filter((p) => p.MessageId === fromA.messageId)).toHaveLength(1);
    expect(onA.got.filter((p) => p.MessageId === fromB.messageId)).toHaveLength(1);
    figure('ingested on A → hub client on B', { ms: Date.now() - sent, waitedMs: toB });
  });

  test('failed sign-ins on A and B count against one limit', async () => {
    const ghost = `ghost-${randomUUID()}@cluster.test`;
    const statuses: number[] = [];
    for (let i = 0; i < AUTH_LIMITS.signInPerEmail; i++) statuses.push((await passwordGrant(i % 2 ? B() : A(), ghost, `guess-${i}`, `10.1.0.${i + 1}`)).status);
    expect(statuses.filter((s) => s !== 400)).toEqual([]);
    for (const node of [A(), B()]) {
      const refused = await passwordGrant(node, ghost, 'one-more', '10.1.1.1');
      expect(refused.status).toBe(429);
      expect(refused.body.Content).toEqual({ Message: MSG.tooManySignInAttempts, Code: CODE.rateLimited });
    }
  });

  test('a scheduled report that falls due runs once across the nodes; its recipient gets one e-mail', async () => {
    const manager = await personWithPassword(c.db, ['ArcManagerRole'], `manager-${randomUUID().slice(0, 8)}@arc.test`);
    const token = (await passwordGrant(A(), manager.email, PASSWORD)).body.access_token!;
    const name = `Cluster report ${randomUUID().slice(0, 8)}`;
    const created = await call<ScheduleDto>(A(), '/alarm-report/schedules', {
      token,
      json: { name, frequency: 'daily', timeOfDay: '07:00', recipients: [manager.email], format: 'xlsx', filters: { alarmClosedDateRangeOption: 2 } },
    });
    expect(created.status).toBe(201);
    // Due now: both nodes' schedulers (every 500 ms) see it on their next look.
    const due = Date.now();
    await c.db
      .updateTable('reportSchedules')
      .set({ nextDueAt: new Date(due - 1000).toISOString() })
      .where('id', '=', created.body.Id)
      .execute();
    const mailsFor = () => c.mails.filter((m) => m.raw.includes(name));
    const ms = await until('the report e-mail', () => mailsFor().length > 0, 30_000);
    // a few more looks by both nodes: nothing runs again
    await new Promise((r) => setTimeout(r, 6 * SCHEDULER_INTERVAL_MS));
    const runs = await c.db.selectFrom('reportScheduleRuns').selectAll().where('scheduleId', '=', created.body.Id).execute();
    expect(runs).toHaveLength(1);
    expect(runs[0]).toMatchObject({ attempts: 1, error: null });
    expect(mailsFor()).toHaveLength(1);
    expect(mailsFor()[0]!.to).toEqual([manager.email]);
    const ranOn = c.nodes.find((n) => runs[0]!.claimedBy?.includes(`:${n.child.pid}:`))?.name;
    expect(ranOn).toBeDefined();
    figure('scheduled report across two nodes', { runs: runs.length, mails: mailsFor().length, ranOn, dueToMailMs: ms, state: runs[0]!.state });
  });

  test('an export started on A shows progress and is cancelled through B; a second export of the same user on B is refused while the first runs on A', async () => {
    const admin = await signedIn(c.db, c.config, ['SuperAdminRole']);
    await insertDevices(c.db, 30_000, 'CLX');
    const t0 = Date.now();
    // The download is not read: the worker on A waits for it, so the export stays running.
    const first = await startExport(A(), admin.token, randomUUID(), { deviceTypeIds: [750] });
    expect(first.res.status).toBe(200);
    expect(first.res.headers.get('x-export-total')).toBe('30000');
    const progress = (node: { url: string }) => call<ExportProgress>(node, `/api/v1/export/progress/${first.id}`, { token: admin.token });
    const seenOnB = await progress(B());
    expect(seenOnB.status).toBe(200);
    expect(seenOnB.body).toMatchObject({ Id: first.id, State: 'running', Total: 30_000 });

    const second = await startExport(B(), admin.token);
    expect(second.res.status).toBe(429);
    expect(((await second.res.json()) as { Content: unknown }).Content).toEqual({ Message: MSG.exportAlreadyRunning, Code: CODE.exportBusy });

    const cancelled = await call<{ Content: { Message: string } }>(B(), `/api/v1/export/${first.id}`, { method: 'DELETE', token: admin.token });
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.Content.Message).toBe(MSG.exportCancelled);
    // the owning node stopped its worker: both nodes read the job as cancelled
    const ms = await until('cancelled on A', async () => (await progress(A())).body.State === 'cancelled', 20_000);
    expect((await progress(B())).body.State).toBe('cancelled');
    await first.res.body?.cancel().catch(() => undefined);
    // and, once A's worker has stopped, the user may export again on the other node
    let again: Awaited<ReturnType<typeof startExport>> | undefined;
    await until(
      'a new export accepted on B',
      async () => {
        again = await startExport(B(), admin.token, randomUUID(), { deviceTypeIds: [750] });
        if (again.res.status === 200) return true;
        expect(again.res.status).toBe(429);
        await again.res.arrayBuffer();
        return false;
      },
      20_000,
    );
    expect((await again!.res.arrayBuffer()).byteLength).toBeGreaterThan(100_000);
    figure('export on A, progress and Cancel through B', { cancelledAfterMs: ms, totalMs: Date.now() - t0 });
  });
});
