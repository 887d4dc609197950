// Methods: a known path asked with a method it does not take answers 405 in the error shape with
// the methods it does take in Allow (every route of the table, and TRACE through a real socket);
// an unknown path stays 404. /metrics labels stay bounded: unusual methods are one 'other' series
// and unknown paths one 'other' route. SQLite and, with TEST_DB=pg, PostgreSQL.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import http from 'node:http';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { listen } from '../helpers/server.js';
import { errorOf } from '../helpers/customers.js';
import { CODE, MSG } from '../../src/shared/messages.js';

const TOKEN = 'metrics-test-token-methods-0123456789';
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ metricsToken: TOKEN });
});
afterAll(async () => {
  await t?.close();
});

/** A concrete path of a declared pattern (every parameter a well-formed id). */
const concrete = (pattern: string) => pattern.replace(/:[A-Za-z0-9_]+(\{[^}]*\})?\??/g, '00000000-0000-4000-8000-000000000001');

describe('405 with Allow', () => {
  test('every route of the table: a method it is not declared with answers 405, Allow naming the declared ones', async () => {
    const byPath = new Map<string, Set<string>>();
    for (const r of t.routes) byPath.set(r.path, (byPath.get(r.path) ?? new Set()).add(r.method));
    expect(byPath.size).toBeGreaterThan(80);
    for (const [pattern, methods] of byPath) {
      const wrong = ['POST', 'PUT', 'DELETE', 'PATCH'].find((m) => !methods.has(m))!;
      const res = await t.request(concrete(pattern), { method: wrong });
      expect(res.status, `${wrong} ${pattern}`).toBe(405);
      const allow = (res.headers.get('allow') ?? '').split(', ');
      for (const m of methods) expect(allow, pattern).toContain(m);
      expect(allow).not.toContain(wrong);
      if (methods.has('GET')) expect(allow).toContain('HEAD');
      const err = await errorOf(res);
      expect(err).toEqual({ Message: MSG.methodNotAllowed, Code: CODE.methodNotAllowed });
    }
  });

  test('one path, several methods: Allow lists them; an unknown path is still 404', async () => {
    const res = await t.request('/alarm-report/schedules/00000000-0000-4000-8000-000000000001', { method: 'POST' });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('PUT, DELETE');
    const unknown = await t.request('/no/such/path', { method: 'PATCH' });
    expect(unknown.status).toBe(404);
    expect(unknown.headers.get('allow')).toBeNull();
    expect((await errorOf(unknown)).Code).toBe(CODE.notFound);
  });

  test('TRACE and other methods fetch() cannot send, over a real socket', async () => {
    const server = await listen(t);
    try {
      for (const method of ['TRACE', 'PROPFIND', 'OPTIONS']) {
        const got = await new Promise<{ status: number; allow?: string }>((resolve, reject) => {
          const req = http.request({ host: '127.0.0.1', port: server.port, path: '/alarm-report/add-note', method }, (res) => {
            res.resume();
            res.on('end', () => resolve({ status: res.statusCode ?? 0, allow: res.headers.allow }));
          });
          req.on('error', reject);
          req.end();
        });
        expect(got, method).toEqual({ status: 405, allow: 'POST' });
      }
    } finally {
      await server.close();
    }
  });
});

describe('/metrics labels are bounded', () => {
  test('thirty unusual methods and thirty unknown paths add no series of their own', async () => {
    const scrape = async () => (await t.request('/metrics', { headers: { authorization: `Bearer ${TOKEN}` } })).text();
    for (let i = 0; i < 30; i++) {
      await t.request('/alarm-report/add-note', { method: `X-PROBE-${i}` });
      await t.request(`/probe/unknown/${i}`, { method: 'GET' });
    }
    const text = await scrape();
    const series = text.split('\n').filter((l) => l.startsWith('http_request_duration_seconds_count{'));
    expect(series.some((l) => l.includes('X-PROBE'))).toBe(false);
    expect(series.some((l) => l.includes('/probe/unknown'))).toBe(false);
    expect(series.find((l) => l.includes('method="other",route="other",status="405"'))).toMatch(/ (30|[3-9]\d|\d{3,})$/);
    const methods = new Set(series.map((l) => /method="([^"]*)"/.exec(l)?.[1]));
    for (const m of methods) expect(['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS', 'other']).toContain(m);
  });
});
