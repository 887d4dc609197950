// Sign-in rate limits across server nodes. With TEST_REDIS_URL two apps ("nodes", each with its
// own database and its own Redis client) share one Redis, as N nodes behind a load balancer do
// with REDIS_URL; without it the same behaviour is checked on one node's in-memory store.
// Every test uses its own key prefix in Redis and deletes only its own keys afterwards.
import { afterEach, describe, expect, test } from 'vitest';
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { solvedCaptcha } from '../helpers/captcha.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { insertPerson } from '../helpers/auth.js';
import { at } from '../helpers/lists.js';
import { hashPassword } from '../../src/server/auth/password.js';
import { AUTH_LIMITS } from '../../src/server/auth/routes.js';
import { createLimiter, memoryStore, redisStore, takeAll, type LimiterStore } from '../../src/server/auth/rate-limit.js';
import { openRedis, type OpenedRedis } from '../../src/server/platform/redis.js';
import { CODE, MSG } from '../../src/shared/messages.js';

const REDIS_URL = process.env.TEST_REDIS_URL;
const MODE = REDIS_URL ? 'two nodes sharing Redis' : 'one node, in memory';
const PASSWORD = 'Correct-Horse-9';
const WINDOW = AUTH_LIMITS.windowMs;
const START = new Date('2031-03-01T09:00:00.000Z').getTime();

type Body = { Content: { Message: string; Code: string } };

// What each test opened, closed (and its Redis keys deleted) after it.
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

/** A fake clock shared by the nodes (as NTP-synchronised machines share time). */
function clock() {
  let now = START;
  return {
    now: () => new Date(now),
    advance: (ms: number) => {
      now += ms;
    },
  };
}

/** This test's own key prefix and an admin client (no prefix) to look at and delete its keys. */
function redisSpace() {
  const prefix = `test-rl-${randomUUID()}:`;
  const admin = new Redis(REDIS_URL!, { lazyConnect: false, maxRetriesPerRequest: 1 });
  const keys = async () => {
    const found: string[] = [];
    for await (const batch of admin.scanStream({ match: `${prefix}*`, count: 500 })) found.push(...(batch as string[]));
    return found.sort();
  };
  cleanups.push(async () => {
    const mine = await keys();
    if (mine.length) await admin.del(...mine);
    await admin.quit();
  });
  const open = () => {
    const client = openRedis(REDIS_URL!, { keyPrefix: prefix });
    cleanups.push(() => client.close());
    return client;
  };
  return { prefix, admin, keys, open };
}

/** Two nodes (Redis) or one node used twice (memory), on one fake clock. */
async function cluster() {
  const time = clock();
  const space = REDIS_URL ? redisSpace() : undefined;
  const node = async () => {
    const app = await createTestApp({ now: time.now }, { redis: space?.open() });
    cleanups.push(() => app.close());
    return app;
  };
  const a = await node();
  const b = space ? await node() : a;
  return { nodes: [a, b] as const, time, space };
}

const passwordGrant = async (app: TestApp, username: string, password: string, address: string) =>
  app.request('/connect/token', {
    form: { grant_type: 'password', client_id: 'portal', username, password, captchaResponse: await solvedCaptcha((path) => app.request(path)) },
    headers: { 'x-forwarded-for': address },
  });
/** `count` attempts, alternating between the nodes; their statuses. */
async function attempts(nodes: readonly TestApp[], count: number, attempt: (app: TestApp, i: number) => Response | Promise<Response>) {
  const statuses: number[] = [];
  for (let i = 0; i < count; i++) statuses.push((await attempt(at(nodes, i % nodes.length), i)).status);
  return statuses;
}
async function expectLimited(res: Response, retryAfter: number | [number, number]) {
  const body = (await res.json()) as Body;
  expect(res.status).toBe(429);
  expect(body.Content).toEqual({ Message: MSG.tooManySignInAttempts, Code: CODE.rateLimited });
  const seconds = Number(res.headers.get('retry-after'));
  if (typeof retryAfter === 'number') expect(seconds).toBe(retryAfter);
  else {
    expect(seconds).toBeGreaterThanOrEqual(retryAfter[0]);
    expect(seconds).toBeLessThanOrEqual(retryAfter[1]);
  }
}
/** A random client address (a valid IP: the server ignores X-Forwarded-For entries that are not). */
const address = () => `10.${[0, 0, 0].map(() => Math.floor(Math.random() * 256)).join('.')}`;
const all = (statuses: number[], status: number) => statuses.filter((s) => s !== status);

describe(`sign-in rate limits (${MODE})`, () => {
  test('per e-mail: attempts spread over the nodes are counted together', async () => {
    const {
      nodes: [a, b],
      space,
    } = await cluster();
    const ghost = `ghost-${randomUUID()}@limits.test`;
    const from = address();
    // Half the limit on each node: every guess is answered (400, unknown account)...
    expect(all(await attempts([a, b], AUTH_LIMITS.signInPerEmail, (app, i) => passwordGrant(app, ghost, `guess-${i}`, from)), 400)).toEqual([]);
    // ...and then both nodes refuse, from any address, in any case.
    await expectLimited(await passwordGrant(a, ghost, 'one-more', from), 300);
    await expectLimited(await passwordGrant(b, ghost.toUpperCase(), 'one-more', address()), 300);
    // Another e-mail from the same address is still answered.
    expect((await passwordGrant(b, `other-${randomUUID()}@limits.test`, 'guess', from)).status).toBe(400);

    if (space) {
      // What the nodes share: one sorted set per limiter and key, expiring with the window.
      const emailKey = `${space.prefix}rl:sign-in:email:${ghost}`;
      const addressKey = `${space.prefix}rl:sign-in:address:${from}`;
      expect(await space.keys()).toEqual(expect.arrayContaining([emailKey, addressKey]));
      expect(await space.admin.zcard(emailKey)).toBe(AUTH_LIMITS.signInPerEmail);
      expect(await space.admin.zcard(addressKey)).toBe(AUTH_LIMITS.signInPerEmail + 1); // the refused ones were not counted
      const ttl = await space.admin.pttl(emailKey);
      expect(ttl).toBeGreaterThan(0);
      expect(ttl).toBeLessThanOrEqual(WINDOW);
    }
  });

  test('per address: concurrent attempts on both nodes get exactly the limit through', async () => {
    const { nodes } = await cluster();
    const from = address();
    const over = 10;
    const statuses = await Promise.all(
      Array.from(
        { length: AUTH_LIMITS.signInPerAddress + over },
        async (_, i) => (await passwordGrant(at(nodes, i % 2), `spray-${i}-${randomUUID()}@limits.test`, 'guess', from)).status,
      ),
    );
    expect(statuses.filter((s) => s === 400).length).toBe(AUTH_LIMITS.signInPerAddress);
    expect(statuses.filter((s) => s === 429).length).toBe(over);
    await expectLimited(await passwordGrant(nodes[1], `late-${randomUUID()}@limits.test`, 'guess', from), [1, 300]);
    expect((await passwordGrant(nodes[0], `late-${randomUUID()}@limits.test`, 'guess', address())).status).toBe(400);
  });

  test('the window slides: attempts leave it one by one as their time passes', async () => {
    const {
      nodes: [a, b],
      time,
    } = await cluster();
    const ghost = `slide-${randomUUID()}@limits.test`;
    const half = AUTH_LIMITS.signInPerEmail / 2;
    expect(all(await attempts([a], half, (app, i) => passwordGrant(app, ghost, `early-${i}`, address())), 400)).toEqual([]);
    time.advance(2 * 60_000);
    expect(all(await attempts([b], half, (app, i) => passwordGrant(app, ghost, `later-${i}`, address())), 400)).toEqual([]);
    // Full: the earliest attempts leave the window in 3 minutes.
    await expectLimited(await passwordGrant(a, ghost, 'too-soon', address()), 180);
    time.advance(3 * 60_000 - 1000);
    await expectLimited(await passwordGrant(b, ghost, 'still-too-soon', address()), 1);
    time.advance(1001);
    // The early half has left; the later half still counts (a fixed window would have reset all).
    expect(all(await attempts([a, b], half, (app, i) => passwordGrant(app, ghost, `again-${i}`, address())), 400)).toEqual([]);
    await expectLimited(await passwordGrant(b, ghost, 'full-again', address()), 120);
    time.advance(WINDOW + 1);
    expect((await passwordGrant(a, ghost, 'next-window', address())).status).toBe(400);
  });

  test('sign-ins with the right password do not count, on either node', async () => {
    const {
      nodes: [a, b],
      space,
    } = await cluster();
    const email = `member-${randomUUID()}@limits.test`;
    const hash = await hashPassword(PASSWORD);
    // The same person on each node (on SQLite each node has its own database).
    for (const app of new Set([a, b])) await insertPerson(app.db, { email, roles: ['SuperAdminRole'], passwordHash: hash });
    const from = address();
    expect(all(await attempts([a, b], AUTH_LIMITS.signInPerEmail + 6, (app) => passwordGrant(app, email, PASSWORD, from)), 200)).toEqual([]);
    if (space) {
      expect(await space.admin.exists(`${space.prefix}rl:sign-in:email:${email}`)).toBe(0);
      expect(await space.admin.exists(`${space.prefix}rl:sign-in:address:${from}`)).toBe(0);
    }
    // Wrong passwords still count (the lockout answers them the same way): the full limit, then 429.
    expect(all(await attempts([a, b], AUTH_LIMITS.signInPerEmail, (app, i) => passwordGrant(app, email, `wrong-${i}`, from)), 400)).toEqual([]);
    await expectLimited(await passwordGrant(b, email, 'wrong-again', from), 300);
  });
});

describe(`limiter store (${REDIS_URL ? 'Redis' : 'memory'})`, () => {
  function store(): LimiterStore {
    if (!REDIS_URL) return memoryStore();
    return redisStore(redisSpace().open());
  }

  test('takeAll is all or nothing: a refusal hands back what was already taken', async () => {
    const time = clock();
    const s = store();
    const wide = createLimiter({ name: 'wide', limit: 3, windowMs: WINDOW, now: time.now, store: s });
    const narrow = createLimiter({ name: 'narrow', limit: 1, windowMs: WINDOW, now: time.now, store: s });
    expect(
      (
        await takeAll([
          [wide, 'k'],
          [narrow, 'k'],
        ])
      ).ok,
    ).toBe(true);
    // narrow refuses four times; wide must not have counted any of them.
    for (let i = 0; i < 4; i++)
      expect(
        await takeAll([
          [wide, 'k'],
          [narrow, 'k'],
        ]),
      ).toEqual({ ok: false, retryAfterSeconds: 300 });
    expect((await wide.take('k')).ok).toBe(true);
    expect((await wide.take('k')).ok).toBe(true);
    expect(await wide.take('k')).toEqual({ ok: false, retryAfterSeconds: 300 });
    // Names keep limiters apart; so do keys.
    expect((await narrow.take('other')).ok).toBe(true);
  });

  test('refund removes exactly the refunded attempt, once', async () => {
    const time = clock();
    const limiter = createLimiter({ name: 'exact', limit: 2, windowMs: WINDOW, now: time.now, store: store() });
    const first = await limiter.take('k');
    time.advance(60_000);
    const second = await limiter.take('k');
    if (!first.ok || !second.ok) throw new Error('both attempts should pass');
    await limiter.refund(second.ticket);
    await limiter.refund(second.ticket); // twice: still only that one
    expect((await limiter.take('k')).ok).toBe(true);
    // Left: the first (at 0) and the new one (at 1 min). The first leaves in 4 minutes.
    expect(await limiter.take('k')).toEqual({ ok: false, retryAfterSeconds: 240 });
    time.advance(4 * 60_000);
    expect((await limiter.take('k')).ok).toBe(true);
  });
});

describe('when Redis does not answer', () => {
  test('sign-ins still work and are limited on the node itself; the outage is logged once', async () => {
    const time = clock();
    // Nothing listens on port 1: the client keeps failing to connect.
    const dead: OpenedRedis = openRedis('redis://127.0.0.1:1', { connectTimeoutMs: 500, commandTimeoutMs: 500 });
    cleanups.push(() => dead.close());
    const app = await createTestApp({ now: time.now }, { redis: dead });
    cleanups.push(() => app.close());
    const ghost = `offline-${randomUUID()}@limits.test`;
    const from = address();
    expect(all(await attempts([app], AUTH_LIMITS.signInPerEmail, (node, i) => passwordGrant(node, ghost, `guess-${i}`, from)), 400)).toEqual([]);
    await expectLimited(await passwordGrant(app, ghost, 'one-more', from), 300);
    const outages = app.logs.filter((e) => String(e.msg).startsWith('rate limits: Redis not answering'));
    expect(outages.length).toBe(1);
  });
});
