// Person endpoints against a real database (SQLite by default, PostgreSQL with TEST_DB=pg).
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { randomUUID } from 'node:crypto';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { insertPerson, tokenFor, signedIn, storedRoleNames } from '../helpers/auth.js';
import { first } from '../helpers/lists.js';
import { ROLE_IDS, type RoleName } from '../../src/shared/permissions.js';
import { CODE, MSG } from '../../src/shared/messages.js';
import { PROVIDER_TENANT_ID } from '../../src/shared/tenants.js';
import type { Insertable } from 'kysely';
import type { CustomerTable } from '../../src/server/db/schema.js';
import type { PersonList } from '../../src/shared/schemas/persons.js';

let t: TestApp;
let admin: string; // a token with every permission, not backed by a person row
beforeAll(async () => {
  t = await createTestApp();
  admin = await tokenFor(t.config, ['SuperAdminRole']);
});
afterAll(async () => {
  await t.close();
});

type ListBody = PersonList;

const list = async (qs: Record<string, string> = {}, token = admin) => {
  const res = await t.request(`/ps-admin/persons/get-list?${new URLSearchParams(qs)}`, { token });
  return { status: res.status, body: (await res.json()) as ListBody & { Content?: { Message: string; Code: string } } };
};
const put = (path: string, json: unknown, token = admin) => t.request(path, { method: 'PUT', json, token });
const post = (path: string, json: unknown, token = admin, headers?: Record<string, string>) => t.request(path, { method: 'POST', json, token, headers });
const stored = (id: string) => t.db.selectFrom('persons').selectAll().where('id', '=', id).executeTakeFirst();
const storedRoles = (id: string) => storedRoleNames(t.db, id);

describe('GET /ps-admin/persons/get-list', () => {
  // A fixed staff set: names, e-mails and last logins chosen so every ordering differs.
  const staff: { first: string; last: string; email: string; login: string | null; roles: RoleName[]; locked?: boolean }[] = [
    { first: 'Alice', last: 'Zimmer', email: 'zz.alice@staff.test', login: '2026-03-01T10:00:00.000Z', roles: ['SuperAdminRole'] },
    { first: 'bob', last: 'Young', email: 'yy.bob@staff.test', login: null, roles: ['ArcControllerRole'] },
    {
      first: 'Carol',
      last: 'Xu',
      email: 'xx.carol@staff.test',
      login: '2026-01-15T08:00:00.000Z',
      roles: ['ArcManagerRole', 'ArcControllerRole'],
      locked: true,
    },
    { first: 'Dan', last: 'Walker', email: 'ww.dan@staff.test', login: '2026-02-20T12:00:00.000Z', roles: ['ArcSupervisorRole'] },
    { first: 'Eve', last: 'Vance', email: 'vv.eve@staff.test', login: '2025-12-31T23:59:59.000Z', roles: ['SuperAdminReadonlyRole'] },
    { first: 'Frank', last: 'Underwood', email: 'uu.frank@staff.test', login: null, roles: ['ArcControllerRole'] },
    { first: 'Grace', last: 'Taylor', email: 'tt.grace@staff.test', login: '2026-04-02T09:30:00.000Z', roles: ['ArcSupervisorRole'] },
    { first: 'Heidi', last: 'Smith', email: 'ss.heidi@staff.test', login: '2026-04-01T09:30:00.000Z', roles: [] },
    { first: 'Ivan', last: 'Roberts', email: 'rr.ivan@staff.test', login: '2025-06-01T00:00:00.000Z', roles: ['ArcManagerRole'] },
    { first: 'Judy', last: 'Quinn', email: 'qq.judy@staff.test', login: '2026-05-05T05:05:05.000Z', roles: ['SuperAdminRole'] },
    { first: 'Ken', last: 'Percent_100%', email: 'pp.ken@staff.test', login: null, roles: ['ArcSupervisorRole'] },
    { first: 'Laura', last: 'Olsen', email: 'oo.laura@staff.test', login: '2024-01-01T00:00:00.000Z', roles: ['ArcControllerRole'] },
  ];
  const ids = new Map<string, string>();
  beforeAll(async () => {
    for (const s of staff) {
      const id = await insertPerson(t.db, { email: s.email, firstName: s.first, lastName: s.last, roles: s.roles, isLocked: s.locked });
      if (s.login) await t.db.updateTable('persons').set({ lastLoginDate: s.login }).where('id', '=', id).execute();
      ids.set(s.first, id);
    }
  });

  const names = (b: ListBody) => b.Items.map((i) => i.FirstName);
  const byName = [...staff].sort((a, b) => a.first.toLowerCase().localeCompare(b.first.toLowerCase())).map((s) => s.first);

  test('default: every person, by user name ascending, page 1 of 10, with TotalCount', async () => {
    const { status, body } = await list();
    expect(status).toBe(200);
    expect(body.TotalCount).toBe(staff.length);
    expect(names(body)).toEqual(byName.slice(0, 10));
  });

  test('an item carries the spec fields, roles in role order', async () => {
    const { body } = await list({ searchValue: 'carol' });
    expect(body.Items).toHaveLength(1);
    const carol = first(body.Items);
    expect(carol).toMatchObject({
      Id: ids.get('Carol'),
      FirstName: 'Carol',
      LastName: 'Xu',
      Email: 'xx.carol@staff.test',
      IsLocked: true,
      LastLoginDate: '2026-01-15T08:00:00.000Z',
      PersonStatus: 1,
    });
    expect(carol.Etag).toBe((await stored(ids.get('Carol')!))!.etag);
    expect(carol.Roles).toEqual([
      { Id: ROLE_IDS.ArcManagerRole, Name: 'ArcManagerRole', IsDefault: false, Order: 3 },
      { Id: ROLE_IDS.ArcControllerRole, Name: 'ArcControllerRole', IsDefault: false, Order: 5 },
    ]);
    const { body: heidi } = await list({ searchValue: 'heidi' });
    expect(first(heidi.Items).Roles).toEqual([]);
    expect(first(heidi.Items).IsLocked).toBe(false);
  });

  test('paging: page 2 continues where page 1 stopped; the last page is short; past the end is empty', async () => {
    const p1 = await list({ page: '1', pageSize: '10' });
    const p2 = await list({ page: '2', pageSize: '10' });
    expect(names(p2.body)).toEqual(byName.slice(10));
    expect(p2.body.TotalCount).toBe(staff.length);
    expect(new Set([...names(p1.body), ...names(p2.body)]).size).toBe(staff.length);
    const p9 = await list({ page: '9' });
    expect(p9.body.Items).toEqual([]);
    expect(p9.body.TotalCount).toBe(staff.length);
  });

  test('pageSize must be 10, 25, 50 or 100', async () => {
    for (const ok of ['10', '25', '50', '100']) expect((await list({ pageSize: ok })).status).toBe(200);
    for (const bad of ['5', '20', '101', '0', '-10', 'ten', '10.5']) {
      const r = await list({ pageSize: bad });
      expect(r.status, bad).toBe(400);
      expect(r.body.Content?.Message).toBe('pageSize must be one of 10, 25, 50, 100.');
    }
    expect((await list({ page: '0' })).status).toBe(400);
    expect((await list({ page: 'x' })).status).toBe(400);
    expect((await list({ desc: 'maybe' })).status).toBe(400);
    expect((await list({ orderBy: 'Password' })).status).toBe(400);
    expect((await list({ sortRoleId: 'not-a-guid' })).status).toBe(400);
    expect((await list({ searchValue: 'x'.repeat(256) })).status).toBe(400);
    expect((await list({ searchValue: 'x'.repeat(255) })).status).toBe(200);
  });

  test('desc=true reverses the user-name order', async () => {
    const { body } = await list({ desc: 'true', pageSize: '25' });
    expect(names(body)).toEqual([...byName].reverse());
  });

  test('orderBy=Email ascending and descending', async () => {
    const byEmail = [...staff].sort((a, b) => a.email.localeCompare(b.email)).map((s) => s.first);
    expect(names((await list({ orderBy: 'Email', pageSize: '25' })).body)).toEqual(byEmail);
    expect(names((await list({ orderBy: 'Email', desc: 'true', pageSize: '25' })).body)).toEqual([...byEmail].reverse());
  });

  test('orderBy=LastLoginDate: never-logged-in first ascending, most recent first descending', async () => {
    const asc = names((await list({ orderBy: 'LastLoginDate', pageSize: '25' })).body);
    const never = staff
      .filter((s) => !s.login)
      .map((s) => s.first)
      .sort((a, b) => a.toLowerCase().localeCompare(b.toLowerCase()));
    const logged = staff
      .filter((s) => s.login)
      .sort((a, b) => a.login!.localeCompare(b.login!))
      .map((s) => s.first);
    expect(asc).toEqual([...never, ...logged]);
    const desc = names((await list({ orderBy: 'LastLoginDate', desc: 'true', pageSize: '25' })).body);
    expect(desc).toEqual([...asc].reverse());
    expect(desc[0]).toBe('Judy');
  });

  test('sortRoleId puts the holders of that role first, then by name; desc puts them last', async () => {
    const holders = staff
      .filter((s) => s.roles.includes('ArcControllerRole'))
      .map((s) => s.first)
      .sort((a, b) => a.toLowerCase().localeCompare(b.toLowerCase()));
    const others = byName.filter((n) => !holders.includes(n));
    const asc = names((await list({ orderBy: 'Role', sortRoleId: ROLE_IDS.ArcControllerRole, pageSize: '25' })).body);
    expect(asc).toEqual([...holders, ...others]);
    const desc = names((await list({ orderBy: 'Role', sortRoleId: ROLE_IDS.ArcControllerRole, desc: 'true', pageSize: '25' })).body);
    expect(desc).toEqual([...asc].reverse());
    // braces and upper case are a valid id too (spec §5)
    const braced = names((await list({ sortRoleId: `{${ROLE_IDS.ArcControllerRole.toUpperCase()}}`, pageSize: '25' })).body);
    expect(braced).toEqual(asc);
  });

  test('search matches first name, last name, full name and e-mail, case-insensitively', async () => {
    // Customer-tenant persons are part of the directory too (listed, searchable).
    await insertPerson(t.db, { email: 'aaa.customer@cust.test', firstName: 'Aaron', lastName: 'Customer', roles: ['PortalUserRole'], tenantId: randomUUID() });
    const s = async (q: string) => names((await list({ searchValue: q, pageSize: '100' })).body).sort();
    expect(await s('ALICE')).toEqual(['Alice']);
    expect(await s('zimm')).toEqual(['Alice']);
    expect(await s('alice zimmer')).toEqual(['Alice']);
    expect(await s('  Alice   Zimmer ')).toEqual(['Alice']);
    expect(await s('yy.bob@')).toEqual(['bob']);
    expect(await s('@staff.test')).toHaveLength(staff.length);
    expect(await s('nobody-matches-this')).toEqual([]);
    expect(await s('Customer')).toEqual(['Aaron']); // customer-tenant persons are searchable too
    // LIKE wildcards in the search text are literal characters
    expect(await s('%')).toEqual(['Ken']);
    expect(await s('_1')).toEqual(['Ken']);
    expect(await s('a_i')).toEqual([]);
    const total = await list({ searchValue: 'staff.test', pageSize: '10' });
    expect(total.body.TotalCount).toBe(staff.length);
    expect(total.body.Items).toHaveLength(10);
  });

  test('needs the person-list permission', async () => {
    expect((await list({}, await tokenFor(t.config, ['ArcControllerRole']))).status).toBe(403);
    expect((await list({}, await tokenFor(t.config, ['SuperAdminReadonlyRole']))).status).toBe(200);
  });
});

describe('GET /persons/get-by-id', () => {
  test('returns the person and its etag', async () => {
    const id = await insertPerson(t.db, { email: 'byid@staff.test', firstName: 'By', lastName: 'Id', roles: ['ArcManagerRole'], isLocked: true });
    const res = await t.request(`/persons/get-by-id?Id=${id}`, { token: admin });
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body).toEqual({
      Person: {
        Id: id,
        FirstName: 'By',
        LastName: 'Id',
        Contact: { EmailAddress: 'byid@staff.test' },
        Roles: [{ Id: ROLE_IDS.ArcManagerRole, Name: 'ArcManagerRole', IsDefault: false, Order: 3 }],
        IsLocked: true,
        PersonStatus: 1,
        PhoneNumbers: [],
      },
      Etag: (await stored(id))!.etag,
    });
    const braced = await t.request(`/persons/get-by-id?Id={${id.toUpperCase()}}`, { token: admin });
    expect((await braced.json()).Person.Id).toBe(id);
  });

  test('carries the stored profile for the read view (identity fields win)', async () => {
    const id = await insertPerson(t.db, { email: 'profile@staff.test', firstName: 'Pro', lastName: 'File', roles: ['ArcManagerRole'] });
    const profile = { Title: { Id: 1, Name: 'Dr' }, JobTitle: 'Lone worker', FirstName: 'Not this', PersonalDetails: { DateOfBirth: '1990-01-02' } };
    await t.db
      .updateTable('persons')
      .set({ profile: JSON.stringify(profile) })
      .where('id', '=', id)
      .execute();
    const body = await (await t.request(`/persons/get-by-id?Id=${id}`, { token: admin })).json();
    expect(body.Person).toMatchObject({
      Id: id,
      FirstName: 'Pro',
      Title: { Id: 1, Name: 'Dr' },
      JobTitle: 'Lone worker',
      PersonalDetails: { DateOfBirth: '1990-01-02' },
    });
  });

  test("unknown id → 404 'User not found.'; invalid id → 400", async () => {
    const res = await t.request(`/persons/get-by-id?Id=${randomUUID()}`, { token: admin });
    expect(res.status).toBe(404);
    expect((await res.json()).Content.Message).toBe(MSG.userNotFound);
    expect(MSG.userNotFound).toBe('User not found.');
    for (const bad of ['', 'abc', '123', `${randomUUID()}x`]) {
      const r = await t.request(`/persons/get-by-id?Id=${encodeURIComponent(bad)}`, { token: admin });
      expect(r.status, bad).toBe(400);
    }
    expect((await t.request('/persons/get-by-id', { token: admin })).status).toBe(400);
  });
});

describe('POST /api/v1/person', () => {
  const valid = (over: Record<string, unknown> = {}) => ({
    person: {
      firstName: 'New',
      lastName: 'Starter',
      emailAddress: `new.${randomUUID().slice(0, 8)}@staff.test`,
      roleIds: [ROLE_IDS.ArcSupervisorRole],
      ...over,
    },
  });

  test('creates the person with its roles, returns Id and Etag, and audits', async () => {
    const body = valid({ firstName: '  Nora ', emailAddress: 'Nora.New@Staff.TEST', roleIds: [ROLE_IDS.ArcManagerRole, ROLE_IDS.ArcControllerRole] });
    const res = await post('/api/v1/person', body);
    expect(res.status).toBe(201);
    const { Id, Etag } = await res.json();
    const row = await stored(Id);
    expect(row).toMatchObject({
      firstName: 'Nora',
      lastName: 'Starter',
      email: 'nora.new@staff.test',
      tenantId: PROVIDER_TENANT_ID,
      isLocked: 0,
      personStatus: 1,
      etag: Etag,
      searchText: 'nora starter nora.new@staff.test',
    });
    expect(await storedRoles(Id)).toEqual(['ArcControllerRole', 'ArcManagerRole']);
    const log = await t.db.selectFrom('auditLog').selectAll().where('entityId', '=', Id).execute();
    expect(log.map((l) => l.action)).toEqual(['person.create']);
    // and it shows up in the list
    const listed = await list({ searchValue: 'nora.new' });
    expect(listed.body.Items.map((i) => i.Id)).toEqual([Id]);
  });

  test('every field is required, with the spec messages', async () => {
    const cases: [Record<string, unknown>, string, string][] = [
      [{ firstName: '' }, 'person.firstName', 'Please enter first name'],
      [{ firstName: '   ' }, 'person.firstName', 'Please enter first name'],
      [{ firstName: undefined }, 'person.firstName', 'Please enter first name'],
      [{ firstName: 42 }, 'person.firstName', 'Please enter first name'],
      [{ lastName: null }, 'person.lastName', 'Please enter last name'],
      [{ emailAddress: '' }, 'person.emailAddress', 'Please enter email'],
      [{ emailAddress: 'not-an-email' }, 'person.emailAddress', MSG.enterValidEmail],
      [{ emailAddress: 'a@b' }, 'person.emailAddress', 'Please enter a valid email'],
      [{ emailAddress: 'a b@c.com' }, 'person.emailAddress', 'Please enter a valid email'],
      [{ roleIds: [] }, 'person.roleIds', 'Please select at least one option for roles'],
      [{ roleIds: undefined }, 'person.roleIds', 'Please select at least one option for roles'],
      [{ roleIds: 'x' }, 'person.roleIds', 'Please select at least one option for roles'],
    ];
    for (const [over, field, message] of cases) {
      const res = await post('/api/v1/person', valid(over));
      expect(res.status, JSON.stringify(over)).toBe(400);
      const b = await res.json();
      expect(b.Content.Message, JSON.stringify(over)).toBe(message);
      expect(b.Content.Errors[field]).toBe(message);
      expect(b.Content.Code).toBe(CODE.validation);
    }
    const empty = await post('/api/v1/person', {});
    expect((await empty.json()).Content.Errors).toMatchObject({
      'person.firstName': 'Please enter first name',
      'person.lastName': 'Please enter last name',
      'person.emailAddress': 'Please enter email',
      'person.roleIds': 'Please select at least one option for roles',
    });
    expect(await t.db.selectFrom('persons').select('id').where('firstName', '=', 'New').execute()).toEqual([]);
  });

  test('roles must exist; the portal user role is not assignable to provider staff', async () => {
    const unknown = await post('/api/v1/person', valid({ roleIds: [randomUUID()] }));
    expect(unknown.status).toBe(400);
    const portal = await post('/api/v1/person', valid({ roleIds: [ROLE_IDS.ArcManagerRole, ROLE_IDS.PortalUserRole] }));
    expect(portal.status).toBe(400);
    expect((await portal.json()).Content.Code).toBe(CODE.roleNotAssignable);
    expect(await t.db.selectFrom('persons').select('id').where('lastName', '=', 'Starter').where('firstName', '=', 'New').execute()).toEqual([]);
  });

  test('a duplicate e-mail (any case) is 409 duplicate_email', async () => {
    await insertPerson(t.db, { email: 'taken@staff.test', roles: ['ArcManagerRole'] });
    const res = await post('/api/v1/person', valid({ emailAddress: 'TAKEN@staff.test' }));
    expect(res.status).toBe(409);
    const b = await res.json();
    expect(b.Content.Code).toBe(CODE.duplicateEmail);
    expect(b.Content.Message).toBe('A user with this email address already exists.');
    expect(await t.db.selectFrom('persons').select('id').where('email', '=', 'taken@staff.test').execute()).toHaveLength(1);
  });

  test('concurrent creates with the same e-mail: one 201, the rest 409', async () => {
    const email = `race.${randomUUID().slice(0, 8)}@staff.test`;
    const results = await Promise.all(Array.from({ length: 8 }, () => post('/api/v1/person', valid({ emailAddress: email }))));
    const statuses = results.map((r) => r.status).sort();
    expect(statuses.filter((s) => s === 201)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(7);
  });

  test('tenant-id header: customer administrators, only with the manage-customers permission', async () => {
    const tenantId = randomUUID();
    const now = new Date().toISOString();
    // only the columns without a database default; the rest take theirs
    const customer = {
      id: randomUUID(),
      tenantId,
      name: 'Acme',
      etag: '"c"',
      deviceSubscriptionsEtag: '"d"',
      appSubscriptionsEtag: '"a"',
      createdAt: now,
      updatedAt: now,
    } as unknown as Insertable<CustomerTable>;
    await t.db.insertInto('customers').values(customer).execute();
    const customerAdmin = valid({ roleIds: [ROLE_IDS.AdminRole, ROLE_IDS.PortalUserRole] });
    const ok = await post('/api/v1/person', customerAdmin, admin, { 'tenant-id': tenantId });
    expect(ok.status).toBe(201);
    const { Id } = await ok.json();
    expect((await stored(Id))!.tenantId).toBe(tenantId);
    expect(await storedRoles(Id)).toEqual(['AdminRole', 'PortalUserRole']);
    // customer administrators appear in the directory
    expect((await list({ searchValue: (await stored(Id))!.email })).body.TotalCount).toBe(1);

    const arcRole = await post('/api/v1/person', valid({ roleIds: [ROLE_IDS.ArcControllerRole] }), admin, { 'tenant-id': tenantId });
    expect(arcRole.status).toBe(400);
    // the provider's super-admin role is never given to a customer administrator
    const providerRole = await post('/api/v1/person', valid({ roleIds: [ROLE_IDS.SuperAdminRole, ROLE_IDS.PortalUserRole] }), admin, { 'tenant-id': tenantId });
    expect(providerRole.status).toBe(400);
    // and the customer admin role is never given to provider staff
    const customerRole = await post('/api/v1/person', valid({ roleIds: [ROLE_IDS.AdminRole] }), admin);
    expect(customerRole.status).toBe(400);
    expect((await arcRole.json()).Content.Code).toBe(CODE.roleNotAssignable);
    expect((await post('/api/v1/person', customerAdmin, admin, { 'tenant-id': randomUUID() })).status).toBe(400);
    expect((await post('/api/v1/person', customerAdmin, admin, { 'tenant-id': 'garbage' })).status).toBe(400);
    // a role with Person.Create but not the manage-customers permission cannot pick a tenant
    const { ROLE_PERMISSIONS } = await import('../../src/shared/permissions.js');
    const creatorWithoutManage = (Object.keys(ROLE_PERMISSIONS) as RoleName[]).find(
      (r) => ROLE_PERMISSIONS[r].includes('Person.Create') && !ROLE_PERMISSIONS[r].includes('AdminPanel.Customer.Manage'),
    );
    if (creatorWithoutManage) {
      const res = await post('/api/v1/person', customerAdmin, await tokenFor(t.config, [creatorWithoutManage]), { 'tenant-id': tenantId });
      expect(res.status).toBe(403);
    }
  });

  test('read-only admins cannot add persons', async () => {
    const res = await post('/api/v1/person', valid(), await tokenFor(t.config, ['SuperAdminReadonlyRole']));
    expect(res.status).toBe(403);
    expect((await res.json()).Content.Message).toBe(MSG.forbidden);
  });
});

describe('PUT /api/v1/person/{id}/identity-update', () => {
  const update = (id: string, person: Record<string, unknown>, token = admin, extra: Record<string, unknown> = {}) =>
    put(`/api/v1/person/${id}/identity-update`, { personId: id, person, ...extra }, token);

  test('updates names and roles, returns the new etag', async () => {
    const id = await insertPerson(t.db, { email: 'edit.me@staff.test', firstName: 'Edit', lastName: 'Me', roles: ['ArcControllerRole', 'ArcSupervisorRole'] });
    const before = (await stored(id))!;
    const res = await update(id, {
      firstName: 'Edited',
      lastName: 'Person',
      emailAddress: 'Edit.Me@staff.test',
      roleIds: [ROLE_IDS.ArcManagerRole],
      etag: before.etag,
    });
    expect(res.status).toBe(200);
    const { Etag } = await res.json();
    const after = (await stored(id))!;
    expect(Etag).toBeTruthy();
    expect(Etag).not.toBe(before.etag);
    expect(after).toMatchObject({
      firstName: 'Edited',
      lastName: 'Person',
      email: 'edit.me@staff.test',
      etag: Etag,
      searchText: 'edited person edit.me@staff.test',
    });
    expect(await storedRoles(id)).toEqual(['ArcManagerRole']);
    const log = await t.db.selectFrom('auditLog').select('action').where('entityId', '=', id).execute();
    expect(log.map((l) => l.action)).toEqual(['person.identity-update']);
    // the etag may also travel next to person
    const again = await put(`/api/v1/person/${id}/identity-update`, {
      personId: id,
      etag: Etag,
      person: { firstName: 'Edited', lastName: 'Twice', roleIds: [ROLE_IDS.ArcManagerRole] },
    });
    expect(again.status).toBe(200);
    expect((await stored(id))!.lastName).toBe('Twice');
  });

  test('a stale etag is 409 and changes nothing', async () => {
    const id = await insertPerson(t.db, { email: 'stale@staff.test', firstName: 'Stale', lastName: 'One', roles: ['ArcControllerRole'] });
    const res = await update(id, { firstName: 'X', lastName: 'Y', roleIds: [ROLE_IDS.ArcManagerRole], etag: '"old"' });
    expect(res.status).toBe(409);
    const b = await res.json();
    expect(b.Content.Code).toBe(CODE.conflict);
    expect(b.Content.Message).toBe(MSG.staleEtag);
    expect((await stored(id))!.firstName).toBe('Stale');
    expect(await storedRoles(id)).toEqual(['ArcControllerRole']);
    const missing = await update(id, { firstName: 'X', lastName: 'Y', roleIds: [ROLE_IDS.ArcManagerRole] });
    expect(missing.status).toBe(400);
  });

  test('you cannot remove your own super admin role', async () => {
    const me = await signedIn(t.db, t.config, ['SuperAdminRole']);
    const etag = (await stored(me.id))!.etag;
    const res = await update(me.id, { firstName: 'Me', lastName: 'Myself', roleIds: [ROLE_IDS.ArcManagerRole], etag }, me.token);
    expect(res.status).toBe(400);
    const b = await res.json();
    expect(b.Content.Message).toBe('You can not remove super admin role!');
    expect(b.Content.Code).toBe(CODE.cannotRemoveSuperAdmin);
    expect(await storedRoles(me.id)).toEqual(['SuperAdminRole']);
    // keeping it is fine
    const keep = await update(me.id, { firstName: 'Me', lastName: 'Myself', roleIds: [ROLE_IDS.SuperAdminRole, ROLE_IDS.ArcManagerRole], etag }, me.token);
    expect(keep.status).toBe(200);
    expect(await storedRoles(me.id)).toEqual(['ArcManagerRole', 'SuperAdminRole']);
    // someone else may remove it
    const other = (await stored(me.id))!.etag;
    expect((await update(me.id, { firstName: 'Me', lastName: 'Myself', roleIds: [ROLE_IDS.ArcManagerRole], etag: other })).status).toBe(200);
  });

  test("unknown person → 404 'User not found.'; invalid id → 400; e-mail change → 400; id mismatch → 400; roles required", async () => {
    const ghost = randomUUID();
    const res = await update(ghost, { firstName: 'A', lastName: 'B', roleIds: [ROLE_IDS.ArcManagerRole], etag: '"x"' });
    expect(res.status).toBe(404);
    expect((await res.json()).Content.Message).toBe('User not found.');
    expect(
      (await put('/api/v1/person/not-a-guid/identity-update', { person: { firstName: 'A', lastName: 'B', roleIds: [ROLE_IDS.ArcManagerRole], etag: 'e' } }))
        .status,
    ).toBe(400);

    const id = await insertPerson(t.db, { email: 'fixed@staff.test', firstName: 'Fixed', lastName: 'Mail', roles: ['ArcControllerRole'] });
    const etag = (await stored(id))!.etag;
    const mail = await update(id, { firstName: 'A', lastName: 'B', emailAddress: 'other@staff.test', roleIds: [ROLE_IDS.ArcManagerRole], etag });
    expect(mail.status).toBe(400);
    expect((await mail.json()).Content.Message).toBe('The email address of an existing user can not be changed.');
    const mismatch = await put(`/api/v1/person/${id}/identity-update`, {
      personId: randomUUID(),
      person: { firstName: 'A', lastName: 'B', roleIds: [ROLE_IDS.ArcManagerRole], etag },
    });
    expect(mismatch.status).toBe(400);
    const noRoles = await update(id, { firstName: 'A', lastName: 'B', roleIds: [], etag });
    expect(noRoles.status).toBe(400);
    expect((await noRoles.json()).Content.Message).toBe('Please select at least one option for roles');
    const portal = await update(id, { firstName: 'A', lastName: 'B', roleIds: [ROLE_IDS.PortalUserRole], etag });
    expect((await portal.json()).Content.Code).toBe(CODE.roleNotAssignable);
    expect((await stored(id))!).toMatchObject({ firstName: 'Fixed', email: 'fixed@staff.test', etag });
  });
});

describe('PUT /api/v1/{id}/unlock', () => {
  test('unlocks, resets failed attempts, new etag, audited', async () => {
    const id = await insertPerson(t.db, { email: 'locked@staff.test', roles: ['ArcControllerRole'], isLocked: true });
    await t.db.updateTable('persons').set({ failedAttempts: 5 }).where('id', '=', id).execute();
    const before = (await stored(id))!;
    const res = await put(`/api/v1/${id}/unlock`, undefined);
    expect(res.status).toBe(200);
    const { Etag } = await res.json();
    expect(await stored(id)).toMatchObject({ isLocked: 0, failedAttempts: 0, etag: Etag });
    expect(Etag).not.toBe(before.etag);
    expect((await t.db.selectFrom('auditLog').select('action').where('entityId', '=', id).execute()).map((l) => l.action)).toEqual(['person.unlock']);
  });

  test('404 for an unknown person, 400 for a bad id, 403 without User.Unlock', async () => {
    const res = await put(`/api/v1/${randomUUID()}/unlock`, undefined);
    expect(res.status).toBe(404);
    expect((await res.json()).Content.Message).toBe(MSG.userNotFound);
    expect((await put('/api/v1/nope/unlock', undefined)).status).toBe(400);
    expect((await put(`/api/v1/${randomUUID()}/unlock`, undefined, await tokenFor(t.config, ['ArcManagerRole']))).status).toBe(403);
  });
});

describe('own profile', () => {
  test('GET persons/get-own-profile returns the caller', async () => {
    const me = await signedIn(t.db, t.config, ['ArcControllerRole']);
    const res = await t.request('/persons/get-own-profile', { token: me.token });
    expect(res.status).toBe(200);
    const b = await res.json();
    expect(b.Person).toMatchObject({ Id: me.id, Contact: { EmailAddress: me.email }, PhoneNumbers: [], Roles: [{ Name: 'ArcControllerRole' }] });
    expect(b.Etag).toBe((await stored(me.id))!.etag);
    const ghost = await t.request('/persons/get-own-profile', { token: await tokenFor(t.config, ['ArcControllerRole']) });
    expect(ghost.status).toBe(404);
    expect((await ghost.json()).Content.Message).toBe(MSG.userNotFound);
  });

  test('PUT basic-info-update stores names and valid phone numbers, returns the new etag', async () => {
    const me = await signedIn(t.db, t.config, ['ArcSupervisorRole']);
    const etag = (await stored(me.id))!.etag;
    const res = await put(
      '/api/v1/person/basic-info-update',
      {
        etag,
        person: {
          firstName: 'Sam',
          lastName: 'Phones',
          phoneNumbers: [
            { CountryCode: 'GB', Number: '020 7946 0018', IsPrimary: false, Type: 1 },
            { CountryCode: '44', Number: '07911 123456', IsPrimary: true, Type: 2 },
          ],
        },
      },
      me.token,
    );
    expect(res.status).toBe(200);
    const { Etag } = await res.json();
    expect(Etag).not.toBe(etag);
    const profile = await (await t.request('/persons/get-own-profile', { token: me.token })).json();
    expect(profile.Etag).toBe(Etag);
    expect(profile.Person).toMatchObject({ FirstName: 'Sam', LastName: 'Phones' });
    expect(profile.Person.PhoneNumbers).toEqual([
      { CountryCode: 'GB', Number: '2079460018', IsPrimary: false, Type: 1 },
      { CountryCode: 'GB', Number: '7911123456', IsPrimary: true, Type: 2 },
    ]);
    expect((await stored(me.id))!.searchText).toBe(`sam phones ${me.email}`);
  });

  test("invalid phone → 400 'Invalid phone number' on that field; stale etag → 409; names required", async () => {
    const me = await signedIn(t.db, t.config, ['ArcManagerRole']);
    const etag = (await stored(me.id))!.etag;
    const bad = await put(
      '/api/v1/person/basic-info-update',
      {
        etag,
        person: {
          firstName: 'A',
          lastName: 'B',
          phoneNumbers: [
            { CountryCode: 'GB', Number: '020 7946 0018', Type: 1 },
            { CountryCode: 'GB', Number: '12', Type: 3 },
          ],
        },
      },
      me.token,
    );
    expect(bad.status).toBe(400);
    const b = await bad.json();
    expect(b.Content.Message).toBe('Invalid phone number');
    expect(b.Content.Errors).toEqual({ 'person.phoneNumbers.1.Number': 'Invalid phone number' });

    // a French number under the GB dial code is not a GB number
    const foreign = await put(
      '/api/v1/person/basic-info-update',
      {
        etag,
        person: { firstName: 'A', lastName: 'B', phoneNumbers: [{ CountryCode: 'GB', Number: '+33 6 12 34 56 78', Type: 2 }] },
      },
      me.token,
    );
    expect(foreign.status).toBe(400);
    expect((await foreign.json()).Content.Errors).toEqual({ 'person.phoneNumbers.0.Number': 'Invalid phone number' });

    const twoPrimary = await put(
      '/api/v1/person/basic-info-update',
      {
        etag,
        person: {
          firstName: 'A',
          lastName: 'B',
          phoneNumbers: [
            { CountryCode: 'GB', Number: '020 7946 0018', IsPrimary: true, Type: 1 },
            { CountryCode: 'GB', Number: '07911 123456', IsPrimary: true, Type: 2 },
          ],
        },
      },
      me.token,
    );
    expect(twoPrimary.status).toBe(400);

    const noName = await put('/api/v1/person/basic-info-update', { etag, person: { firstName: '', lastName: 'B', phoneNumbers: [] } }, me.token);
    expect((await noName.json()).Content.Message).toBe('Please enter first name');

    const stale = await put('/api/v1/person/basic-info-update', { etag: '"stale"', person: { firstName: 'A', lastName: 'B', phoneNumbers: [] } }, me.token);
    expect(stale.status).toBe(409);
    expect((await stored(me.id))!).toMatchObject({ firstName: 'Test', etag });
  });
});
