// createApp on its own (what every integration test calls app.request on): errors keep the API's
// shape for paths no route knows, and the services the routes use are built (or passed in) by
// createApp itself — a search group is whatever provider a module registers.
import { afterAll, beforeAll, expect, test } from 'vitest';
import { createApp, createServices } from '../../src/server/app.js';
import { createSearchService } from '../../src/server/modules/search/service.js';
import type { SearchProvider } from '../../src/server/lib/search-provider.js';
import { P } from '../../src/shared/permissions.js';
import { CODE } from '../../src/shared/messages.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { signedIn } from '../helpers/auth.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

const NOT_FOUND = { Content: { Message: 'Not found.', Code: CODE.notFound } };

test('an unknown path is 404 with { Content: { Message, Code } } for every method, signed in or not', async () => {
  const { token } = await signedIn(t.db, t.config, ['SuperAdminRole']);
  for (const [path, init] of [
    ['/api/whatever', {}],
    ['/api/whatever', { token }],
    ['/api/v1/person/not/a/route', { method: 'PUT', json: {} }],
    ['/no-such-page', { headers: { accept: 'text/html' } }],
  ] as const) {
    const res = await t.request(path, init);
    expect(res.status, path).toBe(404);
    expect(res.headers.get('content-type'), path).toMatch(/^application\/json/);
    expect(await res.json(), path).toEqual(NOT_FOUND);
  }
});

test('createApp uses the services it is given: the search endpoint answers from the registered providers', async () => {
  const search = createSearchService(t.db);
  const fake: SearchProvider<{ id: string; name: string }> = {
    kind: 'customer',
    permission: P.CustomerListView,
    prefix: (ctx) => [Promise.resolve([{ id: 'c1', name: `${ctx.q} Widgets` }])],
    substring: async () => [],
    classify: () => ({ tier: 2, matched: 'name', raw: 2.5 }),
    score: (m) => m.raw,
    recency: () => '',
    toHits: async (items) =>
      items.map(({ row, score }) => ({ id: row.id, kind: 'customer', title: row.name, subtitle: '', href: '/x', score, matched: 'name' })),
  };
  search.register(fake);
  expect(() => search.register(fake)).toThrow(/registered twice/);
  const { app } = createApp(t.deps, { ...createServices(t.deps), search });
  const { token } = await signedIn(t.db, t.config, ['SuperAdminRole']);
  const res = await app.request('/api/search?q=acme', { headers: { authorization: `Bearer ${token}` } });
  expect(res.status).toBe(200);
  expect(await res.json()).toEqual({
    query: 'acme',
    groups: [
      {
        kind: 'customer',
        label: 'Customers',
        hits: [{ id: 'c1', kind: 'customer', title: 'acme Widgets', subtitle: '', href: '/x', score: 2.5, matched: 'name' }],
      },
    ],
  });
});

test('each app builds its own services: rate-limit counts of one app do not leak into another over the same deps', async () => {
  const a = createServices(t.deps);
  const b = createServices(t.deps);
  expect(a.authLimiters).not.toBe(b.authLimiters);
  for (let i = 0; i < 5; i++) await a.authLimiters.mail.perEmail.take('x@example.test');
  expect((await a.authLimiters.mail.perEmail.take('x@example.test')).ok).toBe(false);
  expect((await b.authLimiters.mail.perEmail.take('x@example.test')).ok).toBe(true);
  expect(a.search.kinds()).toEqual(['device', 'customer', 'person', 'alarmReport']);
});
