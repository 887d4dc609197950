// Sliding-window rate limiters (a log of attempt times per key) over a store: in memory (one
// process: with several nodes each limits on its own) or in Redis (shared by every node; a
// sorted set per key, checked and added to atomically by a Lua script). Time comes from the
// injected clock so tests can move it forward.
import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';

export type Ticket = { name: string; key: string; at: number; member: string; local?: boolean };
export type TakeResult = { ok: true; ticket: Ticket } | { ok: false; retryAfterSeconds: number };

export type Limiter = {
  /**
   * Records an attempt for the key unless it is over its limit. Returns a ticket to hand back
   * to `refund` (attempts that turn out fine need not count), or the seconds to wait.
   */
  take(key: string): Promise<TakeResult>;
  refund(ticket: Ticket): Promise<void>;
};

/** Where the attempt logs live. `name` keeps limiters apart (Redis key `rl:{name}:{key}`). */
export type LimiterStore = {
  take(name: string, key: string, limit: number, windowMs: number, now: number): Promise<TakeResult>;
  refund(ticket: Ticket): Promise<void>;
};

const waitSeconds = (ms: number) => Math.max(1, Math.ceil(ms / 1000));
const newMember = (now: number) => `${now}:${randomBytes(6).toString('base64url')}`;

/**
 * In-memory store: one process. Each limiter name has its own map (so a spray of keys under one
 * limiter, e.g. addresses, cannot push another's logs, e.g. e-mails, out), bounded by `maxKeys`:
 * when a map is full the least recently attempted key is forgotten — O(1), no scan (a Map keeps
 * insertion order and every attempt moves its key to the end). Expired entries go when their key
 * is next touched.
 */
export function memoryStore(opts: { maxKeys?: number } = {}): LimiterStore & { size(name: string): number } {
  type Log = { windowMs: number; entries: { at: number; member: string }[] };
  const maxKeys = opts.maxKeys ?? 50_000;
  const byName = new Map<string, Map<string, Log>>();
  const logsOf = (name: string) => {
    let logs = byName.get(name);
    if (!logs) byName.set(name, (logs = new Map()));
    return logs;
  };

  /** The log's entries still inside the window (older ones dropped; an empty log removed; a live one made most recent). */
  const live = (logs: Map<string, Log>, key: string, now: number) => {
    const log = logs.get(key);
    if (!log) return [];
    const from = now - log.windowMs;
    let drop = 0;
    while (drop < log.entries.length && log.entries[drop].at <= from) drop++;
    if (drop) log.entries.splice(0, drop);
    logs.delete(key);
    if (log.entries.length) logs.set(key, log);
    return log.entries;
  };

  return {
    async take(name, key, limit, windowMs, now) {
      const logs = logsOf(name);
      const entries = live(logs, key, now);
      if (entries.length >= limit) return { ok: false, retryAfterSeconds: waitSeconds(entries[entries.length - limit].at + windowMs - now) };
      const member = newMember(now);
      if (entries.length) entries.push({ at: now, member });
      else {
        while (logs.size >= maxKeys) logs.delete(logs.keys().next().value!);
        logs.set(key, { windowMs, entries: [{ at: now, member }] });
      }
      return { ok: true, ticket: { name, key, at: now, member } };
    },
    async refund({ name, key, member }) {
      const logs = byName.get(name);
      const log = logs?.get(key);
      const i = log ? log.entries.findIndex((e) => e.member === member) : -1;
      if (logs && log && i >= 0) {
        log.entries.splice(i, 1);
        if (!log.entries.length) logs.delete(key);
      }
    },
    /** Keys held per limiter name (tests). */
    size: (name: string) => byName.get(name)?.size ?? 0,
  };
}

// KEYS[1] the log; ARGV now (ms), window (ms), limit, member. Drops entries at or before
// now - window, refuses when `limit` remain (returns the ms until the oldest that counts leaves),
// else adds the member and sets the key to expire a window after this attempt.
const TAKE_LUA = `
local key = KEYS[1]
local now = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
local limit = tonumber(ARGV[3])
redis.call('ZREMRANGEBYSCORE', key, '-inf', now - window)
local count = redis.call('ZCARD', key)
if count >= limit then
  local at = redis.call('ZRANGE', key, count - limit, count - limit, 'WITHSCORES')
  return {0, tonumber(at[2]) + window - now}
end
redis.call('ZADD', key, now, ARGV[4])
redis.call('PEXPIRE', key, window)
return {1, 0}
`;

type RateLimitRedis = Redis & {
  rateLimitTake(key: string, now: number, windowMs: number, limit: number, member: string): Promise<[number, number]>;
};

/** Redis key of a limiter's log (before the client's own keyPrefix, if it has one). */
export const redisLimiterKey = (name: string, key: string) => `rl:${name}:${key}`;

/**
 * Redis store: every node that shares the Redis shares the limits. When Redis does not answer
 * (down, reconnecting, a command timing out) the attempt is counted in this node's memory
 * instead, so sign-in keeps working and guessing stays bounded per node; that is logged once
 * per outage.
 */
export function redisStore(redis: Redis, opts: { log?: (e: Record<string, unknown>) => void; maxKeys?: number } = {}): LimiterStore {
  const r = redis as RateLimitRedis;
  if (typeof r.rateLimitTake !== 'function') redis.defineCommand('rateLimitTake', { numberOfKeys: 1, lua: TAKE_LUA });
  const fallback = memoryStore({ maxKeys: opts.maxKeys });
  let degraded = false;
  const usable = () => redis.status !== 'reconnecting' && redis.status !== 'end' && redis.status !== 'close';
  const failed = (e: unknown) => {
    if (!degraded) opts.log?.({ msg: 'rate limits: Redis not answering, counting on this node until it does', error: String(e) });
    degraded = true;
  };
  const recovered = () => {
    if (degraded) opts.log?.({ msg: 'rate limits: Redis answering again' });
    degraded = false;
  };

  return {
    async take(name, key, limit, windowMs, now) {
      if (usable()) {
        try {
          const member = newMember(now);
          const [ok, waitMs] = await r.rateLimitTake(redisLimiterKey(name, key), now, windowMs, limit, member);
          recovered();
          return ok === 1 ? { ok: true, ticket: { name, key, at: now, member } } : { ok: false, retryAfterSeconds: waitSeconds(Number(waitMs)) };
        } catch (e) {
          failed(e);
        }
      } else failed(`connection ${redis.status}`);
      const res = await fallback.take(name, key, limit, windowMs, now);
      return res.ok ? { ok: true, ticket: { ...res.ticket, local: true } } : res;
    },
    async refund(ticket) {
      if (ticket.local) return fallback.refund(ticket);
      try {
        await redis.zrem(redisLimiterKey(ticket.name, ticket.key), ticket.member);
      } catch (e) {
        failed(e); // the attempt keeps counting until its window passes
      }
    },
  };
}

/** One limiter: `limit` attempts per key within any `windowMs`. Its own memory store unless given one. */
export function createLimiter(opts: { name?: string; limit: number; windowMs: number; now: () => Date; store?: LimiterStore; maxKeys?: number }): Limiter {
  const store = opts.store ?? memoryStore({ maxKeys: opts.maxKeys });
  const name = opts.name ?? 'default';
  return {
    take: (key) => store.take(name, key, opts.limit, opts.windowMs, opts.now().getTime()),
    refund: (ticket) => store.refund(ticket),
  };
}

/** Several limiters (e.g. per e-mail and per address) taken together: all or nothing. */
export async function takeAll(pairs: [Limiter, string][]): Promise<{ ok: true; refund: () => Promise<void> } | { ok: false; retryAfterSeconds: number }> {
  const taken: [Limiter, Ticket][] = [];
  const refundTaken = async () => {
    const all = taken.splice(0); // once only
    await Promise.all(all.map(([l, t]) => l.refund(t)));
  };
  for (const [limiter, key] of pairs) {
    const r = await limiter.take(key);
    if (!r.ok) {
      await refundTaken();
      return r;
    }
    taken.push([limiter, r.ticket]);
  }
  return { ok: true, refund: refundTaken };
}
