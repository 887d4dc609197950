// Also: which persons each role may list and open (the person directory is scoped per role).
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
import { insertPerson, tokenFor } from '../helpers/auth.js';
import { ROLE_PERMISSIONS, ROLE_IDS, type RoleName } from '../../src/shared/permissions.js';
import { CODE, MSG } from '../../src/shared/messages.js';
import type { RouteSpec } from '../../src/server/http/api.js';

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
  // sample headers: a public route's own credential (the ingestion endpoint's X-Gateway-Key)
  const init: Parameters<typeof t.request>[1] = { method: route.method, token, headers: route.sample?.headers };
  if (route.sample?.json !== undefined) init.json = route.sample.json;
  else if (route.sample?.form) init.form = route.sample.form;
  return t.request(concretePath(route.path) + qs, init);
}

const label = (r: RouteSpec) => `${r.method} ${r.path} [${r.access}]`;

// A caller of a customer tenant whose token carries every permission (minted with the signing key,
// as the token endpoint never issues one): tenant data stays provider staff's.
const CUSTOMER_TENANT_CALLER = randomUUID();
const customerTenantToken = await tokenFor(t.config, ['SuperAdminRole'], { tenantId: CUSTOMER_TENANT_CALLER, email: 'minted@customer.test' });
const OWN_PROFILE = ['public', 'signed-in', 'AdminPanel.HasAccess', 'AdminPanel.Person.ManageOwnProfile', 'Person.ManageOwnProfile'];
// Another tenant's rows, with a marker no answer to the customer-tenant caller may contain.
const MARKER = `LEAKMARKER${randomUUID().slice(0, 8)}`;
{
  const { insertCustomer, insertDevice } = await import('../helpers/live.js');
  const other = await insertCustomer(t.db, randomUUID(), `${MARKER} Other Tenant Ltd`);
  await insertDevice(t.db, { serialNumber: `${MARKER}-01`, imei: '359999000000001', status: 3, customerId: other.id });
  await insertPerson(t.db, { email: `${MARKER.toLowerCase()}@other-tenant.test`, roles: ['AdminRole', 'PortalUserRole'], tenantId: other.tenantId });
}

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

  test("a customer-tenant caller holding every permission: tenant data refused (403), never another tenant's rows", async () => {
    const res = await send(route, customerTenantToken);
    const text = await res.text();
    expect(res.status, text.slice(0, 300)).toBeLessThan(500);
    expect(text).not.toContain(MARKER);
    if (!OWN_PROFILE.includes(route.access)) {
      expect(res.status, text.slice(0, 300)).toBe(403);
      expect(JSON.parse(text).Content.Message).toBe(MSG.forbidden);
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

// Who sees whom in the person directory. Provider admins (read-only included) see everyone; the
// ARC manager sees the alarm-receiving centre's staff only (provider-tenant persons with an ARC
// role); roles without the list permission see nobody (403). Checked through the list, its
// search and total, and get-by-id (404 outside the scope, as for an unknown id).
describe('person directory scope, per role', async () => {
  const CUSTOMER_TENANT = randomUUID();
  const people = {
    admin: await insertPerson(t.db, { email: 'scope-admin@guard.test', roles: ['SuperAdminRole'] }),
    readonly: await insertPerson(t.db, { email: 'scope-readonly@guard.test', roles: ['SuperAdminReadonlyRole'] }),
    manager: await insertPerson(t.db, { email: 'scope-manager@guard.test', roles: ['ArcManagerRole'] }),
    supervisor: await insertPerson(t.db, { email: 'scope-supervisor@guard.test', roles: ['ArcSupervisorRole'] }),
    controller: await insertPerson(t.db, { email: 'scope-controller@guard.test', roles: ['ArcControllerRole'] }),
    adminAndController: await insertPerson(t.db, { email: 'scope-both@guard.test', roles: ['SuperAdminRole', 'ArcControllerRole'] }),
    customerAdmin: await insertPerson(t.db, {
      email: 'scope-customer-admin@guard.test',
      roles: ['AdminRole', 'PortalUserRole'],
      tenantId: CUSTOMER_TENANT,
    }),
    loneWorker: await insertPerson(t.db, { email: 'scope-lone-worker@guard.test', roles: ['PortalUserRole'], tenantId: CUSTOMER_TENANT }),
    // Not possible through the API (customer-tenant persons get only admin and portal roles), but
    // the tenant, not the role alone, decides: a customer-side ARC role does not make ARC staff.
    customerArc: await insertPerson(t.db, { email: 'scope-customer-arc@guard.test', roles: ['ArcControllerRole'], tenantId: CUSTOMER_TENANT }),
    noRoles: await insertPerson(t.db, { email: 'scope-no-roles@guard.test', roles: [] }),
  };
  type Who = keyof typeof people;
  const everyone = Object.keys(people) as Who[];
  const arcStaff: Who[] = ['manager', 'supervisor', 'controller', 'adminAndController'];
  const visible: Record<RoleName, Who[] | 'forbidden'> = {
    SuperAdminRole: everyone,
    SuperAdminReadonlyRole: everyone,
    ArcManagerRole: arcStaff,
    ArcSupervisorRole: 'forbidden',
    ArcControllerRole: 'forbidden',
    PortalUserRole: 'forbidden',
    AdminRole: 'forbidden',
  };
  const nameOf = new Map<string, Who>(Object.entries(people).map(([k, id]) => [id, k as Who]));

  test.each(ROLES)('role %s', async (role) => {
    const expected = visible[role];
    const list = await t.request('/ps-admin/persons/get-list?page=1&pageSize=100&searchValue=scope-', { token: tokens[role] });
    if (expected === 'forbidden') {
      expect(list.status).toBe(403);
    } else {
      expect(list.status).toBe(200);
      const body = (await list.json()) as { Items: { Id: string }[]; TotalCount: number };
      expect(body.Items.map((i) => nameOf.get(i.Id)).sort()).toEqual([...expected].sort());
      expect(body.TotalCount).toBe(expected.length);
      // Unfiltered, too: nothing outside the scope on any page.
      const all = (await (await t.request('/ps-admin/persons/get-list?page=1&pageSize=100', { token: tokens[role] })).json()) as { Items: { Id: string }[] };
      for (const item of all.Items) if (nameOf.has(item.Id)) expect(expected).toContain(nameOf.get(item.Id));
    }
    for (const who of everyone) {
      const res = await t.request(`/persons/get-by-id?Id=${people[who]}`, { token: tokens[role] });
      const want = expected === 'forbidden' ? 403 : expected.includes(who) ? 200 : 404;
      expect(res.status, `${role} opens ${who}`).toBe(want);
      if (want === 404) expect((await res.json()).Content.Message).toBe(MSG.userNotFound);
    }
    // The palette search finds the same persons, no others.
    const search = await t.request('/api/search?q=scope-&scope=all&limit=50', { token: tokens[role] });
    expect(search.status).toBe(200);
    const groups = ((await search.json()) as { groups: { kind: string; hits: { id: string }[] }[] }).groups;
    const found =
      groups
        .find((g) => g.kind === 'person')
        ?.hits.map((h) => nameOf.get(h.id))
        .sort() ?? [];
    expect(found).toEqual(expected === 'forbidden' ? [] : [...expected].sort());
  });
});
