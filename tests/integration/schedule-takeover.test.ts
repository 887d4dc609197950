// A scheduled run's claim is a lease. A node that claimed a run and stopped (its claim written, never
// renewed) loses it once the lease has passed: another node takes the run over and builds and sends
// it once, and the first node, were it to come back, sends nothing. A live node renews its lease
// while it builds, so its run is never taken over. A lost run on its last attempt is marked failed.
// Each scheduler is a node of its own (its own connection on PostgreSQL); the clock is injected.
// SQLite and, with TEST_DB=pg, PostgreSQL.
import { afterAll, afterEach, beforeAll, expect, test } from 'vitest';
import { startMailbox, type Mailbox } from '../helpers/mailbox.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { signedIn } from '../helpers/auth.js';
import { ok } from '../helpers/customers.js';
import { openPostgres, type DB } from '../../src/server/db/index.js';
import { createOutbox, type Outbox } from '../../src/server/mail/outbox.js';
import type { ExportPool } from '../../src/server/exports/pool.js';
import { RUN_LEASE_MS, RUN_MAX_ATTEMPTS, RUN_NODE_LOST, createReportScheduler, type SchedulerDeps } from '../../src/server/modules/schedules/scheduler.js';
import type { ScheduleDto, ScheduleInput, ScheduleListDto, ScheduleRunsDto } from '../../src/shared/schemas/schedules.js';

let t: TestApp;
let mailbox: Mailbox;
let manager: { token: string };
let clock = new Date();
/** the other node: its own connection (PostgreSQL) and outbox, the same database */
let other: { db: DB; outbox: Outbox; close: () => Promise<void> };

beforeAll(async () => {
  mailbox = await startMailbox();
  t = await createTestApp({ smtpUrl: mailbox.smtpUrl('reports@workspace.test') });
  manager = await signedIn(t.db, t.config, ['ArcManagerRole'], 'manager@arc.test');
  const source = t.deps.dbSource;
  const db = source?.kind === 'pg' ? openPostgres(source.url, 4) : t.db;
  const outbox = createOutbox({ smtpUrl: t.config.smtpUrl, log: t.deps.log, now: () => t.config.now() });
  other = {
    db,
    outbox,
    close: async () => {
      await outbox.close();
      if (db !== t.db) await db.destroy();
    },
  };
});
afterAll(async () => {
  await other?.close();
  await t?.close();
  await mailbox?.close();
});

const schedule = async (name: string, timeOfDay: string) => {
  const input: ScheduleInput = {
    name,
    frequency: 'daily',
    timeOfDay,
    recipients: ['manager@arc.test'],
    format: 'xlsx',
    filters: { alarmVerificationTypes: [1], alarmClosedDateRangeOption: 2 },
  };
  return ok<ScheduleDto>(await t.request('/alarm-report/schedules', { method: 'POST', token: manager.token, json: input }), 201);
};
// each test's schedule is paused after it, so a later test's clock finds only its own due
afterEach(async () => {
  for (const x of (await ok<ScheduleListDto>(await t.request('/alarm-report/schedules', { token: manager.token }))).Schedules)
    await ok(await t.request(`/alarm-report/schedules/${x.Id}/pause`, { method: 'PUT', token: manager.token, json: { paused: true } }));
});
const runRows = (scheduleId: string) => t.db.selectFrom('reportScheduleRuns').selectAll().where('scheduleId', '=', scheduleId).orderBy('id').execute();
const runDtos = async (id: string) => (await ok<ScheduleRunsDto>(await t.request(`/alarm-report/schedules/${id}/runs`, { token: manager.token }))).Runs;
const mailsOf = (name: string) => mailbox.mails.filter((m) => m.raw.includes(name)).length;
async function settle() {
  for (let i = 0; i < 3; i++) {
    await t.deps.outbox.idle();
    await other.outbox.idle();
    await new Promise((r) => setTimeout(r, 50));
  }
}
async function until(what: string, check: () => Promise<boolean>) {
  for (let i = 0; i < 200; i++) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`timed out waiting for ${what}`);
}
/** An export pool whose builds wait until `open()` (a node busy building, or one that stopped). */
function gatedPool() {
  let open!: () => void;
  const gate = new Promise<void>((r) => (open = r));
  const pool = t.services.exports;
  const gated = {
    ...pool,
    start: async (...a: Parameters<ExportPool['start']>) => {
      await gate;
      return pool.start(...a);
    },
  } as ExportPool;
  return { pool: gated, open };
}
const node = (nodeId: string, over: Partial<SchedulerDeps> = {}) =>
  createReportScheduler({ db: t.db, outbox: t.deps.outbox, exports: t.services.exports, now: () => clock, log: t.deps.log, nodeId, ...over });
const otherNode = (nodeId: string) =>
  createReportScheduler({ db: other.db, outbox: other.outbox, exports: t.services.exports, now: () => clock, log: t.deps.log, nodeId });

test('a run whose node stopped is taken over once its lease has passed, and built and sent once', async () => {
  const s = await schedule('Takeover daily', '06:15');
  const due = new Date(s.NextRunAt!);
  clock = new Date(due.getTime() + 1000);
  const claimedAt = clock.getTime();
  // Node A claims the run and stops while building it: its build never ends, its lease is never renewed.
  const stopped = gatedPool();
  const a = node('node-a', { exports: stopped.pool, renewMs: 3_600_000 });
  const aTick = a.tick();
  await until('node A to claim the run', async () => (await runRows(s.Id)).length === 1);
  const [claimed] = await runRows(s.Id);
  expect(claimed).toMatchObject({ state: 'running', claimedBy: 'node-a', attempts: 1, leaseUntil: new Date(claimedAt + RUN_LEASE_MS).toISOString() });

  const b = otherNode('node-b');
  // Within the lease: node B leaves it alone.
  clock = new Date(claimedAt + RUN_LEASE_MS - 1000);
  expect(await b.tick()).toBe(0);
  expect((await runRows(s.Id))[0]).toMatchObject({ state: 'running', claimedBy: 'node-a', attempts: 1 });

  // Past the lease: node B takes the run over, builds it and sends it.
  clock = new Date(claimedAt + RUN_LEASE_MS + 1000);
  expect(await b.tick()).toBe(1);
  await settle();
  await until('the e-mail', async () => mailsOf('Takeover daily') >= 1);
  const [taken] = await runRows(s.Id);
  expect(taken).toMatchObject({ state: 'queued', claimedBy: 'node-b', attempts: 2, leaseUntil: null });
  expect((await runDtos(s.Id))[0]).toMatchObject({ Outcome: 'sent', Attempts: 2 });

  // Later looks take nothing again; node A coming back with its build done sends nothing.
  clock = new Date(clock.getTime() + 5 * RUN_LEASE_MS);
  expect(await b.tick()).toBe(0);
  stopped.open();
  await aTick;
  await settle();
  await new Promise((r) => setTimeout(r, 200));
  expect(mailsOf('Takeover daily')).toBe(1);
  expect(await runRows(s.Id)).toHaveLength(1);
  expect((await runRows(s.Id))[0]).toMatchObject({ state: 'queued', claimedBy: 'node-b', attempts: 2 });
  console.log(`takeover: claimed by node-a, taken over by node-b ${RUN_LEASE_MS / 1000 + 1} s later (lease ${RUN_LEASE_MS / 1000} s), 1 e-mail sent`);
});

test("a live node's run is not taken over while it renews its lease", async () => {
  const s = await schedule('Renewed daily', '06:45');
  const due = new Date(s.NextRunAt!);
  clock = new Date(due.getTime() + 1000);
  const claimedAt = clock.getTime();
  const busy = gatedPool();
  // renewals every 20 ms of real time, each from the injected clock
  const a = node('node-c', { exports: busy.pool, renewMs: 20 });
  const aTick = a.tick();
  await until('node C to claim the run', async () => (await runRows(s.Id)).length === 1);
  const b = otherNode('node-d');
  for (const step of [1, 2, 3]) {
    clock = new Date(claimedAt + step * 45_000); // past the first lease from step 2 on
    const leaseFrom = clock.getTime() + RUN_LEASE_MS;
    await until('a renewal', async () => Date.parse((await runRows(s.Id))[0]!.leaseUntil ?? '') >= leaseFrom);
    expect(await b.tick()).toBe(0);
    expect((await runRows(s.Id))[0]).toMatchObject({ state: 'running', claimedBy: 'node-c', attempts: 1 });
  }
  busy.open();
  expect(await aTick).toBe(1);
  await settle();
  await until('the e-mail', async () => mailsOf('Renewed daily') >= 1);
  expect((await runRows(s.Id))[0]).toMatchObject({ state: 'queued', claimedBy: 'node-c', attempts: 1, leaseUntil: null });
  clock = new Date(clock.getTime() + 5 * RUN_LEASE_MS);
  expect(await b.tick()).toBe(0);
  await settle();
  expect(mailsOf('Renewed daily')).toBe(1);
});

test('a run lost on its last attempt is marked failed, not left running', async () => {
  const s = await schedule('Lost thrice', '07:15');
  const due = new Date(s.NextRunAt!);
  clock = new Date(due.getTime() + 1000);
  const stopped = gatedPool();
  const a = node('node-e', { exports: stopped.pool, renewMs: 3_600_000 });
  const aTick = a.tick();
  await until('node E to claim the run', async () => (await runRows(s.Id)).length === 1);
  // as if two more nodes had taken it over and stopped too
  await t.db.updateTable('reportScheduleRuns').set({ attempts: RUN_MAX_ATTEMPTS }).where('scheduleId', '=', s.Id).execute();
  clock = new Date(clock.getTime() + RUN_LEASE_MS + 1000);
  expect(await otherNode('node-f').tick()).toBe(0);
  expect((await runRows(s.Id))[0]).toMatchObject({ state: 'failed', error: RUN_NODE_LOST, attempts: RUN_MAX_ATTEMPTS, claimedBy: 'node-e' });
  expect((await runDtos(s.Id))[0]).toMatchObject({ Outcome: 'failed', Error: RUN_NODE_LOST });
  stopped.open();
  await aTick;
  await settle();
  expect(mailsOf('Lost thrice')).toBe(0);
  expect((await runRows(s.Id))[0]).toMatchObject({ state: 'failed', claimedBy: 'node-e' });
});
