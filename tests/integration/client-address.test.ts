// Whose address the per-address limits count: the socket peer, unless
// TRUST_PROXY says how many proxies stand in front — then the entry the outermost trusted proxy
// appended to X-Forwarded-For. Over a real socket (127.0.0.1), as `npm start` serves.
import { afterEach, describe, expect, test } from 'vitest';
import { randomUUID } from 'node:crypto';
import { createTestApp } from '../helpers/app.js';
import { listen } from '../helpers/server.js';
import { AUTH_LIMITS } from '../../src/server/auth/routes.js';
import { addressKey, resolveClientAddress } from '../../src/server/http/client-address.js';
import { memoryStore } from '../../src/server/auth/rate-limit.js';
import { loadConfig } from '../../src/server/platform/config.js';
import { CODE } from '../../src/shared/messages.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function served(trustProxy: number) {
  const t = await createTestApp({ trustProxy });
  const s = await listen(t);
  cleanups.push(t.close, s.close);
  const guess = (forwardedFor?: string) =>
    fetch(`${s.url}/connect/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...(forwardedFor ? { 'x-forwarded-for': forwardedFor } : {}) },
      body: new URLSearchParams({ grant_type: 'password', client_id: 'portal', username: `spray-${randomUUID()}@address.test`, password: 'guess' }),
    });
  /** `n` guesses with distinct e-mails, `forwardedFor(i)` each; their statuses. */
  const spray = async (n: number, forwardedFor: (i: number) => string | undefined) => {
    const statuses: number[] = [];
    for (let i = 0; i < n; i++) statuses.push((await guess(forwardedFor(i))).status);
    return statuses;
  };
  return { t, guess, spray };
}
const rotating = (i: number) => `198.51.100.${i % 250}, 203.0.113.${i % 250}`;

describe('TRUST_PROXY unset (0): the socket address counts, X-Forwarded-For is ignored', () => {
  test('rotating the header does not dodge the per-address limit', async () => {
    const { guess, spray } = await served(0);
    const statuses = await spray(AUTH_LIMITS.signInPerAddress, rotating);
    expect(statuses.filter((s) => s !== 400)).toEqual([]);
    const limited = await guess('192.0.2.77');
    expect(limited.status).toBe(429);
    expect((await limited.json()).Content.Code).toBe(CODE.rateLimited);
    expect((await guess()).status).toBe(429);
  });
});

describe('TRUST_PROXY=1: the entry our proxy appended counts', () => {
  test('entries the client wrote itself are ignored; the one the proxy appended is the address', async () => {
    const { t, guess, spray } = await served(1);
    // The proxy appends the real peer (203.0.113.5); the client rotates what it writes before it.
    const statuses = await spray(AUTH_LIMITS.signInPerAddress, (i) => `10.${i % 250}.0.1, 203.0.113.5`);
    expect(statuses.filter((s) => s !== 400)).toEqual([]);
    expect((await guess('10.9.9.9, 203.0.113.5')).status).toBe(429);
    // Another client behind the same proxy is not affected, nor one seen without the header (the proxy itself).
    expect((await guess('203.0.113.6')).status).toBe(400);
    expect((await guess()).status).toBe(400);
    const line = t.logs.find((e) => e.msg === 'sign-in rate limited');
    expect(line?.address).toBe('203.0.113.5');
  });
});

describe('address resolution', () => {
  test('walks X-Forwarded-For from the right, one entry per trusted hop', () => {
    const xff = '1.1.1.1, 2.2.2.2, 3.3.3.3';
    expect(resolveClientAddress('10.0.0.1', xff, 0)).toBe('10.0.0.1');
    expect(resolveClientAddress('10.0.0.1', xff, 1)).toBe('3.3.3.3');
    expect(resolveClientAddress('10.0.0.1', xff, 2)).toBe('2.2.2.2');
    expect(resolveClientAddress('10.0.0.1', xff, 3)).toBe('1.1.1.1');
    expect(resolveClientAddress('10.0.0.1', xff, 5)).toBe('1.1.1.1'); // fewer entries than hops: the furthest
    expect(resolveClientAddress('10.0.0.1', undefined, 1)).toBe('10.0.0.1'); // reached us directly
    // Junk where a trusted proxy should have written stops the walk; ports and brackets are stripped.
    expect(resolveClientAddress('10.0.0.1', '1.1.1.1, not-an-ip, 3.3.3.3:4711', 3)).toBe('3.3.3.3');
    expect(resolveClientAddress('10.0.0.1', '[2001:db8::1]:443', 1)).toBe('2001:db8::1');
    expect(resolveClientAddress('::ffff:192.0.2.1', undefined, 0)).toBe('192.0.2.1');
  });

  test('IPv6 clients are counted by their /64; IPv4 as is', () => {
    expect(addressKey('2001:db8:1:2:aaaa:bbbb:cccc:dddd')).toBe('2001:db8:1:2::/64');
    expect(addressKey('2001:db8:1:2::ffff')).toBe(addressKey('2001:db8:1:2:1:2:3:4'));
    expect(addressKey('2001:db8:1:3::1')).not.toBe(addressKey('2001:db8:1:2::1'));
    expect(addressKey('::1')).toBe('0:0:0:0::/64');
    expect(addressKey('192.0.2.1')).toBe('192.0.2.1');
  });

  test('TRUST_PROXY must be a hop count', () => {
    expect(loadConfig({ DATA_DIR: '', JWT_SECRET: 'x'.repeat(40) }).trustProxy).toBe(0);
    expect(loadConfig({ DATA_DIR: '', JWT_SECRET: 'x'.repeat(40), TRUST_PROXY: '2' }).trustProxy).toBe(2);
    for (const bad of ['true', '-1', '1.5', 'loopback'])
      expect(() => loadConfig({ DATA_DIR: '', JWT_SECRET: 'x'.repeat(40), TRUST_PROXY: bad })).toThrow(/TRUST_PROXY/);
  });
});

describe('in-memory limiter store when full', () => {
  test('a spray of new keys into a full store costs what filling it cost per key (no scan of all keys)', async () => {
    const store = memoryStore({ maxKeys: 50_000 });
    const now = Date.now();
    let started = performance.now();
    for (let i = 0; i < 50_000; i++) await store.take('sign-in:address', `fill-${i}`, 100, 300_000, now);
    const fillPerKey = (performance.now() - started) / 50_000;
    started = performance.now();
    for (let i = 0; i < 5_000; i++) await store.take('sign-in:address', `spray-${i}`, 100, 300_000, now);
    const sprayPerKey = (performance.now() - started) / 5_000;
    expect(sprayPerKey).toBeLessThan(fillPerKey * 5 + 0.02);
    expect(store.size('sign-in:address')).toBe(50_000);
  });

  test('a spray under one limiter does not push out another limiter’s counts; the key under attack stays', async () => {
    const store = memoryStore({ maxKeys: 10 });
    const now = Date.now();
    for (let i = 0; i < 3; i++) expect((await store.take('sign-in:email', 'victim@x.test', 3, 300_000, now)).ok).toBe(true);
    for (let i = 0; i < 1_000; i++) {
      await store.take('sign-in:address', `a-${i}`, 100, 300_000, now);
      if (i % 5 === 0) await store.take('sign-in:address', 'attacker', 100, 300_000, now); // keeps attacking
    }
    expect(await store.take('sign-in:email', 'victim@x.test', 3, 300_000, now)).toEqual({ ok: false, retryAfterSeconds: 300 });
    expect(store.size('sign-in:address')).toBe(10);
    // The attacker's key was used recently all along, so it is still counted: 200 attempts, limit 100.
    expect((await store.take('sign-in:address', 'attacker', 100, 300_000, now)).ok).toBe(false);
  });
});
