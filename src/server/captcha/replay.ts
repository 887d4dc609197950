// Used captcha solutions, kept until they expire, so one solved challenge (or one reCAPTCHA
// token) passes once. In the database (table captchaSolutions, migration 006) or, with
// REDIS_URL, in Redis (SET NX with an expiry); when Redis does not answer the database decides.
import type { Redis } from 'ioredis';
import type { DB } from '../db/index.js';

export type ReplayStore = {
  /** true the first time `key` is claimed before `expiresAt`; false for every later claim. */
  claim(key: string, expiresAt: Date): Promise<boolean>;
};

export type CaptchaSolutionTable = { key: string; expiresAt: string };
const withTable = (db: DB) => db.withTables<{ captchaSolutions: CaptchaSolutionTable }>();

const SWEEP_MS = 60_000;

export function dbReplayStore(db: DB, now: () => Date): ReplayStore {
  let lastSweep = 0;
  return {
    async claim(key, expiresAt) {
      const t = withTable(db);
      const at = now();
      if (at.getTime() - lastSweep > SWEEP_MS) {
        lastSweep = at.getTime();
        await t.deleteFrom('captchaSolutions').where('expiresAt', '<', at.toISOString()).execute();
      }
      const r = await t
        .insertInto('captchaSolutions')
        .values({ key, expiresAt: expiresAt.toISOString() })
        .onConflict((oc) => oc.column('key').doNothing())
        .executeTakeFirst();
      return Number(r.numInsertedOrUpdatedRows ?? 0n) === 1;
    },
  };
}

/**
 * Redis: every node sharing it refuses a solution any node has seen. While Redis does not answer
 * (reconnecting, a command failing) this node's database decides instead (a replay across nodes
 * then passes until Redis is back); logged once per outage.
 */
export function redisReplayStore(redis: Redis, fallback: ReplayStore, opts: { now: () => Date; log: (e: Record<string, unknown>) => void }): ReplayStore {
  let degraded = false;
  const usable = () => redis.status !== 'reconnecting' && redis.status !== 'end' && redis.status !== 'close';
  const failed = (e: unknown) => {
    if (!degraded) opts.log({ msg: 'captcha replay store: Redis not answering, using the database until it does', error: String(e) });
    degraded = true;
  };
  return {
    async claim(key, expiresAt) {
      if (usable()) {
        const ttlMs = Math.max(1_000, expiresAt.getTime() - opts.now().getTime());
        try {
          const fresh = (await redis.set(`captcha:used:${key}`, '1', 'PX', ttlMs, 'NX')) === 'OK';
          if (degraded) opts.log({ msg: 'captcha replay store: Redis answering again' });
          degraded = false;
          return fresh;
        } catch (e) {
          failed(e);
        }
      } else failed(`connection ${redis.status}`);
      return fallback.claim(key, expiresAt);
    },
  };
}
