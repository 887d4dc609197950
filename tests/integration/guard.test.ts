// The permission guard, for every route of every module: the test walks the Api route table, so
// a route added later is covered without touching this file.
//   no token             → 401 (unless the route is public)
//   a forged token       → 401 (unless the route is public)
//   role lacking access  → 403 with the spec's message
//   role holding access  → neither 401 nor the guard's 403
import { afterAll, describe, expect, test } from 'vitest';
import { randomUUID } from 'node:crypto';
import { SignJWT } from 'jose';
import { createTestApp } from '../helpers/app.js';
import { tokenFor } from '../helpers/auth.js';
import { ROLE_PERMISSIONS, ROLE_IDS, type RoleName } from '../../src/shared/permissions.js';
import { CODE, MSG } from '../../src/shared/messages.js';
import type { RouteSpec } from '../../src/server/http.js';

const t = await createTestApp();
afterAll(async () => {
  await t.close();
});

const ROLES = Object.keys(ROLE_IDS) as RoleName[];
const tokens = Object.fromEntries(await Promise.all(ROLES.map(async (r) => [r, await tokenFor(t.config, [r])] as const))) as Record<RoleName, string>;
const forged = await new SignJWT({ tenantId: randomUUID(), email: 'x@y.z', permissions: ROLE_PERMISSIONS.SuperAdminRole, role: ['SuperAdminRole'] })
  .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
  .setSubject(randomUUID())
  .setIssuedAt()
  .setExpirationTime('1h')
  .sign(new TextEncoder().encode('not-the-server-secret-not-the-server-secret'));

/** A concrete URL for a route pattern: every ':param' (with or without a {regex}) becomes a random GUID. */
function concretePath(pattern: string) {
  return pattern
    .split('/')
    .map((seg) => (seg.startsWith(':') ? randomUUID() : seg === '*' ? 'x' : seg))
    .join('/');
}

function send(route: RouteSpec, token: string | undefined) {
  const qs = route.sample?.query ? `?${new URLSearchParams(route.sample.query)}` : '';
  const init: Parameters<typeof t.request>[1] = { method: route.method, token };
  if (route.sample?.json !== undefined) init.json = route.sample.json;
  else if (route.sample?.form) init.form = route.sample.form;
  return t.request(concretePath(route.path) + qs, init);
}

const label = (r: RouteSpec) => `${r.method} ${r.path} [${r.access}]`;

test('the route table is populated and every route names its access', () => {
  expect(t.routes.length).toBeGreaterThan(20);
  for (const r of t.routes) expect(typeof r.access, label(r)).toBe('string');
  const keys = t.routes.map((r) => `${r.method} ${r.path}`);
  expect(new Set(keys).size, 'a route is declared twice').toBe(keys.length);
});

describe.each(t.routes.map((r) => [label(r), r] as const))('%s', (_name, route) => {
  test('anonymous and forged-token requests', async () => {
    const anon = await send(route, undefined);
    const bad = await send(route, forged);
    if (route.access === 'public') {
      expect(anon.status).not.toBe(401);
      expect(anon.status).toBeLessThan(500);
    } else {
      expect(anon.status).toBe(401);
      expect((await anon.json()).Content.Message).toBe(MSG.sessionExpired);
      expect(bad.status).toBe(401);
    }
  });

  test.each(ROLES)('role %s', async (role) => {
    const res = await send(route, tokens[role]);
    const allowed = route.access === 'public' || route.access === 'signed-in' || ROLE_PERMISSIONS[role].includes(route.access);
    const text = await res.text();
    let body: { Content?: { Message?: string; Code?: string } } = {};
    try {
      body = JSON.parse(text);
    } catch {
      /* non-JSON success bodies (files) are fine */
    }
    if (allowed) {
      expect(res.status, text.slice(0, 300)).not.toBe(401);
      expect(res.status, text.slice(0, 300)).not.toBe(403);
      expect(res.status, text.slice(0, 300)).toBeLessThan(500);
    } else {
      expect(res.status).toBe(403);
      expect(body.Content?.Message).toBe(MSG.forbidden);
      expect(body.Content?.Code).toBe(CODE.forbidden);
    }
  });
});
