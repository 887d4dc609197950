// Every answer carries the security headers, whichever way its handler answered: through the
// context (they are set before the handler), with a Response of its own (added after), or with a
// header of its own (a page's policy, an asset's caching), which it keeps.
import { describe, expect, test } from 'vitest';
import { Hono } from 'hono';
import { securityHeaders } from '../../src/server/http/security-headers.js';

const app = new Hono()
  .use(securityHeaders(['https://idp.example']))
  .get('/api/x', (c) => c.json({ ok: true }))
  .get('/raw', () => new Response('x', { headers: { 'cache-control': 'max-age=5' } }))
  .get('/page', (c) => {
    c.header('Content-Security-Policy', "default-src 'none'");
    return c.html('<p>x</p>');
  })
  .get('/assets/a.js', (c) => c.text('x'));

const expectAll = (h: Headers) => {
  expect(h.get('x-content-type-options')).toBe('nosniff');
  expect(h.get('x-frame-options')).toBe('DENY');
  expect(h.get('referrer-policy')).toBe('no-referrer');
  expect(h.get('strict-transport-security')).toBe('max-age=15552000');
};

describe('security headers', () => {
  test('an answer built through the context: every header, the app policy with the extra source, no-store', async () => {
    const r = await app.request('/api/x');
    expectAll(r.headers);
    expect(r.headers.get('content-security-policy')).toContain("connect-src 'self' https://idp.example");
    expect(r.headers.get('cache-control')).toBe('no-store');
    expect(await r.json()).toEqual({ ok: true });
  });
  test('a Response of its own: the headers it lacks are added, its caching kept', async () => {
    const r = await app.request('/raw');
    expectAll(r.headers);
    expect(r.headers.get('content-security-policy')).toContain("default-src 'self'");
    expect(r.headers.get('cache-control')).toBe('max-age=5');
  });
  test('a page with its own policy keeps it', async () => {
    const r = await app.request('/page');
    expectAll(r.headers);
    expect(r.headers.get('content-security-policy')).toBe("default-src 'none'");
  });
  test('content-hashed assets may be cached', async () => {
    const r = await app.request('/assets/a.js');
    expectAll(r.headers);
    expect(r.headers.get('cache-control')).toBeNull();
  });
});
