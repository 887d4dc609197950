// GET /ready: 200 only while the node is ready and its database answers; 503 while starting or
// draining (the phase main.ts sets) and when the database is gone. While the database is migrated
// the port answers 503 'starting' (the start-up responder), /health included.
import { afterAll, afterEach, beforeAll, expect, test } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { freePort } from '../helpers/ports.js';
import { onShutdown, runShutdownHooks, setPhase } from '../../src/server/platform/lifecycle.js';
import { startingResponder } from '../../src/server/platform/starting.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});
afterEach(() => setPhase('ready'));

test('ready while serving; not ready while starting or draining, and /health still says the process works', async () => {
  let res = await t.request('/ready');
  expect(res.status).toBe(200);
  expect(await res.json()).toEqual({ status: 'ready', phase: 'ready', database: 'ok' });
  for (const phase of ['starting', 'draining'] as const) {
    setPhase(phase);
    res = await t.request('/ready');
    expect(res.status).toBe(503);
    expect(await res.json()).toEqual({ status: 'not ready', phase, database: 'ok' });
    expect((await t.request('/health')).status).toBe(200);
  }
});

test('not ready when the database does not answer', async () => {
  const other = await createTestApp();
  await other.close(); // the database is closed under the app
  const res = await other.request('/ready');
  expect(res.status).toBe(503);
  expect(await res.json()).toEqual({ status: 'not ready', phase: 'ready', database: 'unavailable' });
});

test('shutdown hooks run last registered first; a failing one is logged and the others still run', async () => {
  const ran: string[] = [];
  const logs: Record<string, unknown>[] = [];
  onShutdown('exports', async () => void ran.push('exports'));
  onShutdown('broken', () => {
    throw new Error('cannot stop');
  });
  const remove = onShutdown('removed', () => void ran.push('removed'));
  onShutdown('last', () => void ran.push('last'));
  remove();
  await runShutdownHooks((e) => logs.push(e));
  expect(ran).toEqual(['last', 'exports']);
  expect(logs).toEqual([{ msg: 'shutdown hook failed', hook: 'broken', error: expect.stringContaining('cannot stop') }]);
  await runShutdownHooks(() => {}); // each hook runs once
  expect(ran).toEqual(['last', 'exports']);
});

test('while the database is migrated the port answers 503 starting, with Retry-After', async () => {
  const port = await freePort(); // a port nobody holds, as main.ts's PORT would be
  const starting = await startingResponder(port, '127.0.0.1');
  try {
    for (const path of ['/health', '/ready']) {
      const res = await fetch(`http://127.0.0.1:${port}${path}`);
      expect(res.status).toBe(503);
      expect(res.headers.get('retry-after')).toBe('5');
      expect(await res.json()).toEqual({ status: 'starting', phase: 'starting' });
    }
    const api = await fetch(`http://127.0.0.1:${port}/api/v1/person/basic-info-update`, { method: 'POST' });
    expect(api.status).toBe(503);
    expect(await api.json()).toMatchObject({ Content: { Code: expect.any(String), Message: expect.any(String) } });
  } finally {
    await starting.close();
  }
  await expect(fetch(`http://127.0.0.1:${port}/health`)).rejects.toThrow(); // the port is free for the real server
});
