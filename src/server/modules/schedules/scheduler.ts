// The scheduled-report loop. Every `intervalMs` (30 s) each node looks for due schedules and claims
// each with one conditional update of the schedule row — SET nextDueAt = <next due after now>,
// claimedBy = <this node> WHERE id = ? AND nextDueAt = <the value read> — so exactly one node runs
// a due time, however many nodes there are (no Redis needed). The run builds its file through the
// schedule's kind, which the module that owns the report registered (lib/scheduled-reports.ts; the
// alarm list and the monthly management report: modules/alarm-reports/scheduled.ts) — and, in one
// transaction, stores the file, puts one e-mail per recipient in the outbox and marks the run
// queued; the outbox sends them after the commit (retrying a failed send, bounded by its attempts).
//
// - Catch-up: a schedule whose due times passed while no node ran (downtime) runs once, for the
//   latest due time passed; the next due time is the first after now. One run, not one per period.
// - A run's claim is a lease (reportScheduleRuns.leaseUntil, RUN_LEASE_MS): the node that claimed
//   the run renews it every RUN_RENEW_MS while the run builds. A 'running' run whose lease has passed
//   lost its node (it stopped, or cannot reach the database) and any node takes it over; only the
//   node holding the claim can mark the run queued, in the transaction that puts its e-mails in the
//   outbox, so a run is sent once even if the node that lost it comes back.
// - A run whose build failed (or whose node died mid-run) is tried again, RUN_MAX_ATTEMPTS in all;
//   one whose node died on its last attempt is marked failed.
// - Feature ScheduledReports off: the loop does nothing (nothing claimed, nothing sent).
// - Paused schedules are not due. A schedule of a customer that pauses e-mail: its e-mails wait in
//   the outbox (held for that customer) until the pause is turned off.
import { hostname } from 'node:os';
import { randomUUID } from 'node:crypto';
import type { ExpressionBuilder } from 'kysely';
import type { DB } from '../../db/index.js';
import type { Database } from '../../db/schema.js';
import { tx } from '../../db/index.js';
import { addAttachment, type Outbox } from '../../mail/outbox.js';
import type { ExportPool } from '../../exports/pool.js';
import { scheduledReportOf } from '../../lib/scheduled-reports.js';
import { describeSchedule, latestDueAt, nextDueAt, runPeriod, type ScheduleReport } from '../../../shared/schedules.js';
import { ALL_SCHEDULES, findSchedule, reportAudience, ruleOf, runRef, scheduledReportsOn, type ScheduleRow } from './repo.js';

export const SCHEDULER_INTERVAL_MS = 30_000;
/** A run is built at most this many times (the first try and two retries). */
export const RUN_MAX_ATTEMPTS = 3;
/** A failed build is tried again after this long. */
const RUN_RETRY_MS = 60_000;
/** How long a claim on a run holds without being renewed: a 'running' run past it lost its node and is taken over. */
export const RUN_LEASE_MS = 60_000;
/** How often the node building a run renews its lease. */
export const RUN_RENEW_MS = 15_000;
/** A run with no lease (written by a node of an older version) still 'running' after this long lost its node. */
const RUN_STALE_MS = 10 * 60_000;
/** The error recorded on a run whose node stopped while it built, on its last attempt. */
export const RUN_NODE_LOST = 'the node building the report stopped before it finished';

type Log = (e: Record<string, unknown>) => void;
export type SchedulerDeps = {
  db: DB;
  outbox: Outbox;
  exports: ExportPool;
  now: () => Date;
  log: Log;
  nodeId?: string;
  /** how long a claim holds without renewal (RUN_LEASE_MS) */
  leaseMs?: number;
  /** how often a run's lease is renewed while it builds, in real time (RUN_RENEW_MS) */
  renewMs?: number;
};

export function createReportScheduler(d: SchedulerDeps) {
  const nodeId = d.nodeId ?? `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  const leaseMs = d.leaseMs ?? RUN_LEASE_MS;
  const renewMs = d.renewMs ?? RUN_RENEW_MS;
  const leaseFrom = (t: Date) => new Date(t.getTime() + leaseMs).toISOString();

  /** Claims the schedules due at `now` and runs them; then retries failed runs. Returns how many runs it built. */
  async function tick(): Promise<number> {
    if (!(await scheduledReportsOn(d.db))) return 0;
    const now = d.now();
    let built = 0;
    const due = await d.db
      .selectFrom('reportSchedules')
      .selectAll()
      .where('paused', '=', 0)
      .where('nextDueAt', '<=', now.toISOString())
      .orderBy('nextDueAt')
      .limit(50)
      .execute();
    for (const s of due) {
      const rule = ruleOf(s);
      const dueAt = latestDueAt(rule, now);
      const next = nextDueAt(rule, now);
      const missed = countMissed(s, dueAt);
      const period = runPeriod(rule, s.report as ScheduleReport, dueAt);
      // The schedule's claim and its run's row in one transaction: a node that stops between the two
      // leaves neither (the due time stays due), never a due time claimed with no run.
      const claimed = await tx(d.db, async (trx) => {
        const claim = await trx
          .updateTable('reportSchedules')
          .set({ nextDueAt: next.toISOString(), claimedBy: nodeId, claimedAt: now.toISOString() })
          .where('id', '=', s.id)
          .where('nextDueAt', '=', s.nextDueAt)
          .where('paused', '=', 0)
          .executeTakeFirst();
        if (Number(claim.numUpdatedRows) !== 1) return { taken: true } as const; // another node has it
        // the unique (schedule, due time) index: a due time that has a run already is not run again
        const row = await trx
          .insertInto('reportScheduleRuns')
          .values({
            scheduleId: s.id,
            dueAt: dueAt.toISOString(),
            periodFrom: period.from,
            periodTo: period.to,
            missed,
            state: 'running',
            rows: null,
            error: null,
            attempts: 1,
            claimedBy: nodeId,
            startedAt: now.toISOString(),
            finishedAt: null,
            leaseUntil: leaseFrom(now),
          })
          .onConflict((oc) => oc.columns(['scheduleId', 'dueAt']).doNothing())
          .returning('id')
          .executeTakeFirst();
        return { taken: false, runId: row ? Number(row.id) : undefined } as const;
      });
      if (claimed.taken) continue;
      if (claimed.runId === undefined) {
        d.log({ msg: 'scheduled report: due time already run', scheduleId: s.id, dueAt: dueAt.toISOString() });
        continue;
      }
      await execute(s, claimed.runId, dueAt);
      built++;
    }
    built += await retryRuns(now);
    return built;
  }

  /** Due times between the stored one and the one run (downtime), for the run's record. */
  function countMissed(s: ScheduleRow, dueAt: Date): number {
    let n = 0;
    let t = new Date(s.nextDueAt);
    while (t < dueAt && n < 1000) {
      n++;
      t = nextDueAt(ruleOf(s), t);
    }
    return n;
  }

  /**
   * Failed runs a minute after they failed, and runs whose node lost them (a 'running' run past its
   * lease), are claimed again (one conditional update: one node wins) and built; attempts count
   * every claim, RUN_MAX_ATTEMPTS in all. A lost run on its last attempt is marked failed.
   */
  async function retryRuns(now: Date): Promise<number> {
    const nowIso = now.toISOString();
    const retryBefore = new Date(now.getTime() - RUN_RETRY_MS).toISOString();
    const staleBefore = new Date(now.getTime() - RUN_STALE_MS).toISOString();
    const lost = (eb: ExpressionBuilder<Database, 'reportScheduleRuns'>) =>
      eb.and([eb('state', '=', 'running'), eb.or([eb('leaseUntil', '<', nowIso), eb.and([eb('leaseUntil', 'is', null), eb('startedAt', '<', staleBefore)])])]);
    const ended = await d.db
      .updateTable('reportScheduleRuns')
      .set({ state: 'failed', error: RUN_NODE_LOST, finishedAt: nowIso, leaseUntil: null })
      .where('attempts', '>=', RUN_MAX_ATTEMPTS)
      .where(lost)
      .returning(['id', 'scheduleId', 'claimedBy'])
      .execute();
    for (const r of ended) d.log({ msg: 'scheduled report run failed', scheduleId: r.scheduleId, runId: r.id, error: RUN_NODE_LOST, node: r.claimedBy });
    const runs = await d.db
      .selectFrom('reportScheduleRuns')
      .selectAll()
      .where('attempts', '<', RUN_MAX_ATTEMPTS)
      .where((eb) => eb.or([eb.and([eb('state', '=', 'failed'), eb('finishedAt', '<', retryBefore)]), lost(eb)]))
      .limit(20)
      .execute();
    let n = 0;
    for (const r of runs) {
      // the same row as read (state, attempts, node): another node that took it first changed them
      const claim = await d.db
        .updateTable('reportScheduleRuns')
        .set({ state: 'running', attempts: r.attempts + 1, claimedBy: nodeId, startedAt: nowIso, finishedAt: null, leaseUntil: leaseFrom(now) })
        .where('id', '=', r.id)
        .where('state', '=', r.state)
        .where('attempts', '=', r.attempts)
        .where('claimedBy', '=', r.claimedBy)
        .executeTakeFirst();
      if (Number(claim.numUpdatedRows) !== 1) continue;
      if (r.state === 'running')
        d.log({ msg: 'scheduled report: run taken over', scheduleId: r.scheduleId, runId: r.id, from: r.claimedBy, attempt: r.attempts + 1 });
      const s = await findSchedule(d.db, ALL_SCHEDULES, r.scheduleId);
      if (!s) continue;
      await execute(s, r.id, new Date(r.dueAt));
      n++;
    }
    return n;
  }

  /** Builds the report of one run and queues its e-mails; a failure is recorded on the run (and retried later). */
  async function execute(s: ScheduleRow, runId: number, dueAt: Date) {
    const now = d.now();
    const rule = ruleOf(s);
    const lease = holdLease(s.id, runId);
    try {
      // The tenant rule, again at each run: rows of every tenant go to provider staff only; a
      // customer's person gets that customer's rows alone (the alarm list is read in its tenant scope).
      const audience = await reportAudience(d.db, JSON.parse(s.recipients) as string[], s.customerId);
      if (!audience.ok) throw new Error(`not sent: ${audience.message}`);
      const built = await scheduledReportOf(s.report).build({ db: d.db, exports: d.exports, schedule: s, rule, dueAt, now, scope: audience.scope });
      const customer = s.customerId
        ? await d.db.selectFrom('customers').select(['tenantId', 'isAutomaticEmailsPaused']).where('id', '=', s.customerId).executeTakeFirst()
        : undefined;
      const holdFor = customer?.isAutomaticEmailsPaused === 1 ? customer.tenantId : null;
      const recipients = JSON.parse(s.recipients) as string[];
      const body =
        `${s.name}: ${describeSchedule(rule)} (UK time).\n\n` +
        built.text +
        '\n\nThis e-mail was sent by the Safety Workspace because you are a recipient of this scheduled report.';
      const rows = built.rows;
      const queued = await tx(d.db, async (trx) => {
        const attachmentId = built.file ? await addAttachment(trx, built.file, now) : null;
        for (const to of recipients)
          await d.outbox.enqueue(trx, { channel: 'email', recipient: to, subject: built.subject, body, attachmentId, holdFor, ref: runRef(runId) });
        const done = await trx
          .updateTable('reportScheduleRuns')
          .set({ state: 'queued', rows, error: null, finishedAt: d.now().toISOString(), leaseUntil: null })
          .where('id', '=', runId)
          .where('state', '=', 'running')
          .where('claimedBy', '=', nodeId)
          .executeTakeFirst();
        if (Number(done.numUpdatedRows) !== 1) throw new LostRun();
        return true;
      }).catch((e) => {
        if (e instanceof LostRun) return false; // another node took the run over: it sends, not this one
        throw e;
      });
      if (queued) d.outbox.flush(d.db);
      d.log({ msg: 'scheduled report run', scheduleId: s.id, runId, report: s.report, rows, queued, recipients: recipients.length, held: !!holdFor });
    } catch (e) {
      const error = String((e as Error)?.message ?? e).slice(0, 500);
      d.log({ msg: 'scheduled report run failed', scheduleId: s.id, runId, error });
      await d.db
        .updateTable('reportScheduleRuns')
        .set({ state: 'failed', error, finishedAt: d.now().toISOString(), leaseUntil: null })
        .where('id', '=', runId)
        .where('state', '=', 'running')
        .where('claimedBy', '=', nodeId)
        .execute()
        .catch(() => undefined);
    } finally {
      lease.stop();
    }
  }

  /**
   * Renews this node's lease on a run every `renewMs` until stopped. A renewal that changes no row
   * means the run was taken over (this node was cut off past its lease): the build goes on, but its
   * result is not sent (the final update is conditional on the claim).
   */
  function holdLease(scheduleId: string, runId: number) {
    const renew = async () => {
      try {
        const r = await d.db
          .updateTable('reportScheduleRuns')
          .set({ leaseUntil: leaseFrom(d.now()) })
          .where('id', '=', runId)
          .where('state', '=', 'running')
          .where('claimedBy', '=', nodeId)
          .executeTakeFirst();
        if (Number(r.numUpdatedRows) !== 1) {
          d.log({ msg: 'scheduled report: run taken over by another node', scheduleId, runId });
          clearInterval(timer);
        }
      } catch (e) {
        // the database did not answer: the next renewal tries again (the lease outlasts several)
        d.log({ msg: 'scheduled report: lease not renewed', level: 'warn', scheduleId, runId, error: String((e as Error)?.message ?? e) });
      }
    };
    const timer = setInterval(() => void renew(), renewMs);
    timer.unref();
    return { stop: () => clearInterval(timer) };
  }

  let timer: NodeJS.Timeout | undefined;
  let running: Promise<unknown> | null = null;
  let stopped = false;
  const runTick = () => {
    if (running || stopped) return;
    running = tick()
      .catch((e) => d.log({ msg: 'scheduled reports: loop error', error: String((e as Error)?.message ?? e) }))
      .finally(() => {
        running = null;
      });
  };

  return {
    nodeId,
    tick,
    /** Starts the loop (first look at once, then every intervalMs; the timer does not keep the process alive). */
    start(intervalMs = SCHEDULER_INTERVAL_MS) {
      stopped = false;
      runTick();
      timer = setInterval(runTick, intervalMs);
      timer.unref();
    },
    /** Stops the loop and waits for a run under way (shutdown drain). */
    async stop() {
      stopped = true;
      clearInterval(timer);
      if (running) await running;
    },
  };
}
export type ReportScheduler = ReturnType<typeof createReportScheduler>;

class LostRun extends Error {}
