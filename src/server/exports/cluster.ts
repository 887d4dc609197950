// Export and import jobs shared by every node over Redis (REDIS_URL): the pool of each node still
// runs its own jobs, and here it
// - admits a job cluster-wide: one export (and one import) per user across the nodes, and at most
//   `maxQueue` exports waiting for a thread across the nodes (one Lua script: the user's key with
//   SET NX PX, the waiting exports in a sorted set scored by their lease's end);
// - keeps each job's progress in a hash (owner, kind, state, rows) written on every change of state
//   and at most once a second while rows are written, so any node answers the progress poll; a
//   finished job's hash is kept for its 60 s;
// - passes a Cancel that reaches another node to the owning node on pub/sub, which stops the worker.
// A job's keys are leased (LEASE_MS) and renewed while the job runs, so a node that dies holds no
// user's export for longer than the lease.
//
// Redis away: every call here resolves (admission answers 'unavailable', writes are dropped) and
// the pool carries on with its own memory, as without Redis; the outage is logged once.
import type { Redis } from 'ioredis';
import type { Bus } from '../platform/redis.js';
import type { ExportJobState, ExportProgress } from '../../shared/schemas/exports.js';

/** How long a job's keys live without renewal (a dead node's jobs are gone after this). */
export const LEASE_MS = 30_000;
/** How often a node renews the leases of its jobs and writes their progress. */
const TICK_MS = 1_000;
const RENEW_EVERY_MS = 10_000;

export type JobKind = 'export' | 'import';
/** What another node knows of a job. */
export type SharedJob = {
  id: string;
  userId: string;
  kind: JobKind;
  state: ExportJobState;
  total: number | null;
  written: number;
  omitted: number;
  parsed: { rows: number; estimate: number } | null;
};
export type Admission = 'ok' | 'busy' | 'full' | 'taken' | 'unavailable';

// KEYS: the user's key of this kind, the job's hash, the waiting exports. ARGV: job id, user id,
// kind, lease ms, now ms, the queue limit (-1: the job does not wait for a thread), this node, state.
const ADMIT = `
if redis.call('exists', KEYS[2]) == 1 then return 'taken' end
if redis.call('exists', KEYS[1]) == 1 then return 'busy' end
local max = tonumber(ARGV[6])
if max >= 0 then
  redis.call('zremrangebyscore', KEYS[3], '-inf', ARGV[5])
  if redis.call('zcard', KEYS[3]) >= max then return 'full' end
  redis.call('zadd', KEYS[3], tonumber(ARGV[5]) + tonumber(ARGV[4]), ARGV[1])
end
redis.call('set', KEYS[1], ARGV[1], 'PX', ARGV[4])
redis.call('hset', KEYS[2], 'userId', ARGV[2], 'kind', ARGV[3], 'state', ARGV[8], 'written', 0, 'total', '', 'omitted', 0, 'node', ARGV[7])
redis.call('pexpire', KEYS[2], ARGV[4])
return 'ok'`;
// KEYS: the user's key. ARGV: the job id. Deletes the key only while it is this job's.
const RELEASE = `if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end return 0`;

type Local = { job: SharedJob; dirty: boolean; finished: boolean };

export function createJobRegistry(o: { redis: Redis; bus: Bus; node: string; log: (e: Record<string, unknown>) => void }) {
  const { redis, bus } = o;
  // pub/sub channels are not key-prefixed: the prefix (a deployment's or a test's) goes in the name
  const channel = `${redis.options.keyPrefix ?? ''}jobs:cancel`;
  const userKey = (kind: JobKind, userId: string) => `jobs:user:${kind}:${userId}`;
  const jobKey = (id: string) => `jobs:job:${id}`;
  const QUEUED = 'jobs:queued';
  const local = new Map<string, Local>();
  let down = false;
  let lastRenew = Date.now();

  function failed(e: unknown) {
    if (!down)
      o.log({ msg: 'export jobs: Redis unavailable; jobs are kept on this node until it is back', level: 'warn', error: String((e as Error)?.message ?? e) });
    down = true;
  }
  function ok() {
    if (down) o.log({ msg: 'export jobs: Redis is back; jobs are shared again' });
    down = false;
  }
  /** Runs a Redis call; undefined when Redis is away (logged once). */
  async function attempt<T>(fn: () => Promise<T>): Promise<T | undefined> {
    try {
      const r = await fn();
      ok();
      return r;
    } catch (e) {
      failed(e);
      return undefined;
    }
  }

  const fields = (j: SharedJob) => ({
    userId: j.userId,
    kind: j.kind,
    state: j.state,
    written: j.written,
    total: j.total ?? '',
    omitted: j.omitted,
    parsed: j.parsed ? `${j.parsed.rows}/${j.parsed.estimate}` : '',
    node: o.node,
  });

  /** Ended jobs whose final write failed (Redis away): written again once Redis answers, so their user is not held. */
  const unsettled = new Map<string, { job: SharedJob; until: number }>();
  async function settle(job: SharedJob, keepMs: number) {
    const m = redis
      .multi()
      .hset(jobKey(job.id), fields(job))
      .pexpire(jobKey(job.id), keepMs)
      .zrem(QUEUED, job.id)
      .eval(RELEASE, 1, userKey(job.kind, job.userId), job.id);
    if ((await attempt(() => m.exec())) === undefined) unsettled.set(job.id, { job, until: Date.now() + keepMs });
    else unsettled.delete(job.id);
  }

  /** Writes the progress of the jobs that changed and, every RENEW_EVERY_MS, renews the leases of those still running. */
  async function tick() {
    for (const [id, u] of unsettled) {
      if (u.until <= Date.now()) unsettled.delete(id);
      else await settle(u.job, u.until - Date.now());
      if (down) break;
    }
    if (!local.size) return;
    const renew = Date.now() - lastRenew >= RENEW_EVERY_MS;
    if (renew) lastRenew = Date.now();
    const m = redis.multi();
    let n = 0;
    for (const [id, l] of local) {
      if (l.dirty) {
        l.dirty = false;
        m.hset(jobKey(id), fields(l.job));
        m.pexpire(jobKey(id), LEASE_MS);
        n++;
      } else if (renew) {
        m.pexpire(jobKey(id), LEASE_MS);
        n++;
      }
      if (renew) {
        m.pexpire(userKey(l.job.kind, l.job.userId), LEASE_MS);
        if (l.job.state === 'queued') m.zadd(QUEUED, 'XX', Date.now() + LEASE_MS, id);
      }
    }
    if (n) await attempt(() => m.exec());
  }
  let ticking = false; // one tick at a time (a tick waits for Redis's answers, up to its command timeout)
  const timer = setInterval(() => {
    if (ticking) return;
    ticking = true;
    void tick().finally(() => (ticking = false));
  }, TICK_MS);
  timer.unref();

  const subscribed = bus.subscribe(channel, (message) => {
    let m: { id?: unknown; userId?: unknown };
    try {
      m = JSON.parse(message);
    } catch {
      return;
    }
    const l = typeof m.id === 'string' ? local.get(m.id) : undefined;
    if (l && l.job.userId === m.userId) cancelHandler?.(m.id as string, l.job.userId);
  });
  subscribed.catch((e) => failed(e));
  let cancelHandler: ((id: string, userId: string) => void) | undefined;

  return {
    /** Resolves once this node hears cancels from the others. */
    ready: () => subscribed.then(() => undefined).catch(() => undefined),
    /** Called when another node cancels one of this node's jobs. */
    onCancel(fn: (id: string, userId: string) => void) {
      cancelHandler = fn;
    },
    /**
     * Admits a job across the nodes: 'busy' (the user has one of this kind), 'full' (a job that will
     * wait for a thread, given `maxQueue`, when that many wait already across the nodes), 'taken'
     * (the id is another job's), 'unavailable' (Redis is away: the caller decides alone). Once
     * 'ok', the job is this node's to report.
     */
    async admit(job: SharedJob, maxQueue: number | null): Promise<Admission> {
      const keys = [userKey(job.kind, job.userId), jobKey(job.id), QUEUED];
      const args = [job.id, job.userId, job.kind, LEASE_MS, Date.now(), maxQueue ?? -1, o.node, job.state];
      const r = await attempt(() => redis.eval(ADMIT, keys.length, ...keys, ...args) as Promise<Admission>);
      if (r === undefined) return 'unavailable';
      if (r === 'ok') local.set(job.id, { job, dirty: false, finished: false });
      return r;
    },
    /** A job the node admitted alone (Redis away): its progress is written for the others once Redis answers. */
    track(job: SharedJob) {
      local.set(job.id, { job, dirty: true, finished: false });
    },
    /** The job changed (rows written, parsed): written within a second. A change of state is written at once. */
    changed(job: SharedJob, stateChanged = false) {
      const l = local.get(job.id);
      if (!l || l.finished) return;
      if (!stateChanged) {
        l.dirty = true;
        return;
      }
      l.dirty = false;
      const m = redis.multi().hset(jobKey(job.id), fields(job)).pexpire(jobKey(job.id), LEASE_MS);
      if (job.state !== 'queued') m.zrem(QUEUED, job.id);
      void attempt(() => m.exec());
    },
    /** The job ended: its final state is kept for `keepMs` on every node, and the user may start another. */
    finished(job: SharedJob, keepMs: number) {
      const l = local.get(job.id);
      if (!l || l.finished) return;
      l.finished = true;
      local.delete(job.id);
      void settle(job, keepMs);
    },
    /** The user may start another job of this kind (the file is complete; the thread is finishing up). */
    release(job: SharedJob) {
      void attempt(() => redis.eval(RELEASE, 1, userKey(job.kind, job.userId), job.id));
    },
    /** A job of another node (or of this one) as Redis has it; undefined when unknown or Redis is away. */
    async read(id: string): Promise<SharedJob | undefined> {
      const h = await attempt(() => redis.hgetall(jobKey(id)));
      if (!h?.userId || (h.kind !== 'export' && h.kind !== 'import')) return undefined;
      const [rows, estimate] = (h.parsed ?? '').split('/').map(Number);
      return {
        id,
        userId: h.userId,
        kind: h.kind,
        state: h.state as ExportJobState,
        total: h.total ? Number(h.total) : null,
        written: Number(h.written ?? 0),
        omitted: Number(h.omitted ?? 0),
        parsed: h.parsed ? { rows: rows!, estimate: estimate! } : null,
      };
    },
    /** Asks the node that runs the job to cancel it. */
    async cancel(id: string, userId: string): Promise<void> {
      await attempt(() => bus.publish(channel, JSON.stringify({ id, userId })));
    },
    async close() {
      clearInterval(timer);
      if (!down) await tick();
      const unsubscribe = await subscribed.catch(() => undefined);
      await unsubscribe?.().catch(() => {});
    },
  };
}
export type JobRegistry = ReturnType<typeof createJobRegistry>;

export const progressOf = (j: SharedJob): ExportProgress => ({
  Id: j.id,
  State: j.state,
  Written: j.written,
  Total: j.total,
  Omitted: j.omitted,
  Parsed: j.parsed && j.total === null ? { Rows: j.parsed.rows, Estimate: j.parsed.estimate } : null,
});
