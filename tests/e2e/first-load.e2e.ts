// The first load as the compiled server sends the build: the sign-in page's scripts and
// stylesheets arrive compressed (the files the build wrote beside them) and cached for a year, the
// page itself revalidated; the workspace arrives after sign-in; a second visit takes every script
// from the browser's cache and sends the first page's data request beside the user's.
import { test, expect } from '@playwright/test';
import { signedInAs } from './helpers';

test('the sign-in page arrives compressed and cacheable; a second visit downloads no JavaScript', async ({ page, context }) => {
  const assets: { url: string; type: string; encoding?: string; cache?: string; vary?: string; length: number }[] = [];
  page.on('response', (res) => {
    const type = res.request().resourceType();
    if (type === 'script' || type === 'stylesheet' || type === 'document')
      assets.push({
        url: res.url(),
        type,
        encoding: res.headers()['content-encoding'],
        cache: res.headers()['cache-control'],
        vary: res.headers()['vary'],
        length: Number(res.headers()['content-length'] ?? 0),
      });
  });
  await page.goto('/login');
  await expect(page.getByLabel('Email')).toBeVisible();
  const doc = assets.find((a) => a.type === 'document')!;
  expect(doc.cache).toBe('no-cache');
  const first = assets.filter((a) => a.type !== 'document');
  expect(first.length).toBeGreaterThan(1);
  expect(first.some((a) => a.encoding)).toBe(true);
  for (const a of first) {
    expect(a.cache, a.url).toBe('public, max-age=31536000, immutable');
    // Files under 1 kB are sent as they are (compression would gain nothing).
    if (!a.encoding) {
      expect(a.length, a.url).toBeLessThan(1024);
      continue;
    }
    // Chromium asks for brotli over HTTPS only; on this plain-HTTP server it takes gzip.
    expect(['br', 'gzip'], a.url).toContain(a.encoding);
    expect(a.vary, a.url).toBe('Accept-Encoding');
  }

  // Signing in loads the workspace; its chunks are cached too.
  await signedInAs(page, 'admin@demo.test');
  await expect(page.getByRole('main')).toBeVisible();

  // A second visit in the same browser (signed in still): every script from the cache.
  const again = await context.newPage();
  const cdp = await context.newCDPSession(again);
  const fromNetwork: string[] = [];
  const fromCache = new Set<string>();
  const scripts = new Map<string, string>();
  cdp.on('Network.requestWillBeSent', (e) => {
    if (e.type === 'Script') scripts.set(e.requestId, e.request.url);
  });
  cdp.on('Network.requestServedFromCache', (e) => fromCache.add(e.requestId));
  cdp.on('Network.responseReceived', (e) => {
    if (e.type !== 'Script') return;
    scripts.set(e.requestId, e.response.url);
    if (e.response.fromDiskCache || e.response.fromPrefetchCache) fromCache.add(e.requestId);
  });
  cdp.on('Network.loadingFinished', (e) => {
    if (scripts.has(e.requestId) && !fromCache.has(e.requestId)) fromNetwork.push(scripts.get(e.requestId)!);
  });
  // The first page's data leaves with the request for the user, before the user has answered
  // (early-start.ts), and the app takes its answer rather than asking again.
  const api: string[] = [];
  const path = (url: string) => new URL(url).pathname;
  again.on('request', (r) => {
    if (r.resourceType() === 'fetch') api.push(`request ${path(r.url())}`);
  });
  again.on('response', (r) => {
    if (path(r.url()) === '/api/v1/get-user-info') api.push('user answered');
  });
  await cdp.send('Network.enable');
  await again.goto('/');
  await expect(again.getByRole('navigation', { name: 'Main' })).toBeVisible({ timeout: 30_000 });
  await expect(again.getByRole('main')).toBeVisible();
  await expect(again.getByRole('main').getByRole('grid')).toBeVisible();
  expect(scripts.size).toBeGreaterThan(1);
  expect(fromNetwork).toEqual([]);
  expect(api.indexOf('request /api/v1/device/get-list')).toBeGreaterThanOrEqual(0);
  expect(api.indexOf('request /api/v1/device/get-list')).toBeLessThan(api.indexOf('user answered'));
  expect(api.filter((a) => a === 'request /api/v1/device/get-list')).toHaveLength(1);
  expect(api.filter((a) => a === 'request /api/v1/get-user-info')).toHaveLength(1);
});
