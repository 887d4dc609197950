// Pub/sub for the hub's backplane. Over Redis (TEST_REDIS_URL, as the rate-limit test; skipped
// without it): messages are published on the command connection and received on a separate
// subscriber connection (Redis' CLIENT LIST shows which one subscribed), so commands keep working
// while subscribed. Two "nodes" (two command clients, two buses) see each other's
// messages. The in-process bus (no REDIS_URL) is checked always.
import { afterEach, describe, expect, test } from 'vitest';
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { createMemoryBus, openRedis, openRedisBus, type Bus } from '../../src/server/platform/redis.js';

const REDIS_URL = process.env.TEST_REDIS_URL;

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

/** Collects messages; next() resolves with the next one (or rejects after 3 s). */
function inbox() {
  const got: string[] = [];
  const waiting: ((m: string) => void)[] = [];
  return {
    got,
    handler: (m: string) => {
      got.push(m);
      waiting.shift()?.(m);
    },
    next: () =>
      new Promise<string>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error('no message within 3 s')), 3_000);
        waiting.push((m) => {
          clearTimeout(timer);
          resolve(m);
        });
      }),
  };
}

describe.skipIf(!REDIS_URL)('Redis bus (TEST_REDIS_URL)', () => {
  function node() {
    const prefix = `test-bus-${randomUUID()}:`;
    const commands = openRedis(REDIS_URL!, { keyPrefix: prefix });
    const bus = openRedisBus(commands);
    cleanups.push(async () => {
      await bus.close();
      await commands.del('k', 'n'); // the only keys these tests write (under this node's prefix)
      await commands.close();
    });
    return { commands, bus };
  }

  test('publish on the command connection, receive on the subscriber; commands still work while subscribed', async () => {
    const { commands, bus } = node();
    expect(bus.subscriber).not.toBe(commands);
    const channel = `test-bus:${randomUUID()}`;
    const box = inbox();
    await bus.subscribe(channel, box.handler);

    // The command connection is not in subscriber mode: ordinary commands work.
    await commands.set('k', 'v');
    expect(await commands.get('k')).toBe('v');
    expect(await commands.incr('n')).toBe(1);

    const received = box.next();
    expect(await bus.publish(channel, 'hello')).toBe(1);
    expect(await received).toBe('hello');
    expect(await commands.get('k')).toBe('v');
  });

  test('two nodes: a message published on one reaches the subscribers of both; unsubscribe stops delivery', async () => {
    const a = node();
    const b = node();
    const channel = `test-bus:${randomUUID()}`;
    const boxA = inbox();
    const boxB = inbox();
    const offA = await a.bus.subscribe(channel, boxA.handler);
    await b.bus.subscribe(channel, boxB.handler);

    const both = Promise.all([boxA.next(), boxB.next()]);
    expect(await a.bus.publish(channel, 'from a')).toBe(2);
    expect(await both).toEqual(['from a', 'from a']);

    await offA();
    const onlyB = boxB.next();
    expect(await b.bus.publish(channel, 'from b')).toBe(1);
    expect(await onlyB).toBe('from b');
    expect(boxA.got).toEqual(['from a']);
  });

  test('the subscriber connection is a second client connection to Redis', async () => {
    const { commands, bus } = node();
    const channel = `test-bus:${randomUUID()}`;
    await bus.subscribe(channel, () => {});
    const admin = new Redis(REDIS_URL!, { maxRetriesPerRequest: 1 });
    cleanups.push(async () => void (await admin.quit()));
    const myName = `bus-test-${randomUUID()}`;
    await commands.client('SETNAME', myName);
    const list = String(await admin.client('LIST'));
    const lines = list.split('\n').filter(Boolean);
    const cmdLine = lines.find((l) => l.includes(`name=${myName}`))!;
    expect(cmdLine).toMatch(/sub=0/);
    const subLines = lines.filter((l) => /sub=[1-9]/.test(l));
    expect(subLines.length).toBeGreaterThan(0);
    expect(subLines.some((l) => l.includes(`name=${myName}`))).toBe(false);
  });
});

describe('in-process bus (no REDIS_URL)', () => {
  test('publish reaches every subscriber of the channel, and not after unsubscribe', async () => {
    const bus: Bus = createMemoryBus();
    const a: string[] = [];
    const b: string[] = [];
    const offA = await bus.subscribe('c1', (m) => a.push(m));
    await bus.subscribe('c1', (m) => b.push(m));
    await bus.subscribe('c2', (m) => b.push(`c2:${m}`));
    expect(await bus.publish('c1', 'one')).toBe(2);
    await offA();
    expect(await bus.publish('c1', 'two')).toBe(1);
    expect(await bus.publish('c3', 'nobody')).toBe(0);
    expect(a).toEqual(['one']);
    expect(b).toEqual(['one', 'two']);
    await bus.close();
  });
});
