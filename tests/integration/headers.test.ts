// Security headers on every answer: strict CSP (scripts from our origin only,
// no framing), nosniff, a referrer policy, and no-store on API answers (they carry personal data),
// error answers included. Plus the client build: no inline scripts, no public source maps.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { readFileSync } from 'node:fs';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { signedIn } from '../helpers/auth.js';
import viteConfig from '../../vite.config.js';

let t: TestApp;
let admin: { token: string };
beforeAll(async () => {
  t = await createTestApp();
  admin = await signedIn(t.db, t.config, ['SuperAdminRole']);
});
afterAll(async () => {
  await t.close();
});

/** The CSP as { directive: sources }. */
function csp(res: Response) {
  const raw = res.headers.get('content-security-policy') ?? '';
  return Object.fromEntries(
    raw
      .split(';')
      .map((d) => d.trim())
      .filter(Boolean)
      .map((d) => {
        const [name, ...sources] = d.split(/\s+/);
        return [name, sources];
      }),
  );
}

function expectSecure(res: Response, what: string) {
  const policy = csp(res);
  expect(policy['default-src'], what).toEqual(["'self'"]);
  expect(policy['script-src'], what).toEqual(["'self'"]); // no 'unsafe-inline', no 'unsafe-eval'
  expect(policy['frame-ancestors'], what).toEqual(["'none'"]);
  expect(policy['object-src'], what).toEqual(["'none'"]);
  expect(policy['base-uri'], what).toEqual(["'none'"]);
  expect(res.headers.get('x-content-type-options'), what).toBe('nosniff');
  expect(res.headers.get('x-frame-options'), what).toBe('DENY');
  expect(res.headers.get('referrer-policy'), what).toBe('no-referrer');
  expect(res.headers.get('cache-control'), what).toBe('no-store');
}

describe('every answer carries the headers', () => {
  test('personal data: the person list, one person, the current user', async () => {
    for (const path of ['/ps-admin/persons/get-list?page=1&pageSize=10', '/api/v1/get-user-info', '/persons/get-own-profile']) {
      const res = await t.request(path, { token: admin.token });
      expect(res.status, path).toBe(200);
      expectSecure(res, path);
    }
  });

  test('errors and the public endpoints: 401, 404, 400 from the token endpoint, health', async () => {
    expectSecure(await t.request('/ps-admin/persons/get-list?page=1&pageSize=10'), '401');
    expectSecure(await t.request('/api/v1/nope'), '404');
    const token = await t.request('/connect/token', { form: { grant_type: 'password', client_id: 'portal', username: 'x@y.test', password: 'nope' } });
    expect(token.status).toBe(400);
    expectSecure(token, 'token 400');
    expectSecure(await t.request('/health'), 'health');
  });
});

describe('client build', () => {
  test('index.html loads scripts from files only: no inline script for the CSP to refuse', () => {
    const html = readFileSync('index.html', 'utf8');
    const scripts = [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)];
    expect(scripts.length).toBeGreaterThan(0);
    for (const [, attrs, body] of scripts) {
      expect(attrs).toMatch(/\bsrc=/);
      expect(body?.trim()).toBe('');
    }
    expect(html).not.toMatch(/\son[a-z]+=/i); // no inline event handlers either
  });

  test('the production build publishes no source maps', () => {
    expect(viteConfig.build?.sourcemap ?? false).toBe(false);
  });
});
