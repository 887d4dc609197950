// Customer administrators hold the customer-scoped AdminRole with PortalUserRole (spec document 2
// §3), never the provider's SuperAdminRole: the dictionaries carry AdminRole, adding an
// administrator stores it, migration 012 moves the administrators stored before it, User
// Management lists them as Customer Admin (not Provider Admin), and no provider permission
// follows from it. Both databases (TEST_DB=pg for PostgreSQL).
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { insertPerson, signedIn, PROVIDER_TENANT, storedRoleNames } from '../helpers/auth.js';
import { hashPassword } from '../../src/server/auth/password.js';
import { effectiveRoles } from '../../src/server/auth/tokens.js';
import { m012 } from '../../src/server/db/migrations/012-customer-admin-role.js';
import { ADMINISTRATOR_ROLE_IDS } from '../../src/server/modules/customers/repo.js';
import { permissionsForRoles, ROLE_IDS } from '../../src/shared/permissions.js';
import { insertCustomer } from '../helpers/live.js';

let t: TestApp;
let admin: { id: string; token: string };

beforeAll(async () => {
  t = await createTestApp({ clientSecrets: { 'admin-role-test': 'admin-role-s3cret' } });
  admin = await signedIn(t.db, t.config, ['SuperAdminRole']);
});
afterAll(async () => {
  await t?.close();
});

const rolesOf = (personId: string) => storedRoleNames(t.db, personId);

describe('AdminRole', () => {
  test('the dictionaries carry AdminRole, distinct from SuperAdminRole; it grants no provider permission', async () => {
    const res = await t.request('/ps-admin/dictionaries/get-all', { token: admin.token });
    expect(res.status).toBe(200);
    const dict = (await res.json()) as { Roles: Record<string, { Id: string; Name: string }> };
    expect(dict.Roles.AdminRole).toMatchObject({ Id: ROLE_IDS.AdminRole, Name: 'AdminRole' });
    expect(dict.Roles.AdminRole!.Id).not.toBe(dict.Roles.SuperAdminRole!.Id);
    expect(ADMINISTRATOR_ROLE_IDS).toEqual([ROLE_IDS.AdminRole, ROLE_IDS.PortalUserRole]);
    expect(permissionsForRoles(['AdminRole', 'PortalUserRole'])).toEqual(['Person.ManageOwnProfile']);
    // a provider role stored in a customer tenant counts for nothing; AdminRole counts for nothing in the provider tenant
    expect(effectiveRoles(randomUUID(), ['SuperAdminRole', 'AdminRole', 'PortalUserRole'])).toEqual(['AdminRole', 'PortalUserRole']);
    expect(effectiveRoles(PROVIDER_TENANT, ['AdminRole', 'ArcManagerRole'])).toEqual(['ArcManagerRole']);
  });

  test('Add administrator stores AdminRole + PortalUserRole; User Management shows Customer Admin, not Provider Admin', async () => {
    const cust = await insertCustomer(t.db, randomUUID(), 'Admin Role Ltd');
    const email = `ada-${randomUUID().slice(0, 8)}@admin-role.test`;
    const res = await t.request('/api/v1/person', {
      method: 'POST',
      token: admin.token,
      headers: { 'tenant-id': cust.tenantId },
      json: { person: { firstName: 'Ada', lastName: 'Admin', emailAddress: email, roleIds: ADMINISTRATOR_ROLE_IDS } },
    });
    expect(res.status).toBe(201);
    const { Id } = (await res.json()) as { Id: string };
    expect(await rolesOf(Id)).toEqual(['AdminRole', 'PortalUserRole']);
    const list = await t.request(`/ps-admin/persons/get-list?page=1&pageSize=10&searchValue=${encodeURIComponent(email)}`, { token: admin.token });
    const item = ((await list.json()) as { Items: { Roles: { Name: string }[] }[] }).Items[0]!;
    expect(item.Roles.map((r) => r.Name).sort()).toEqual(['AdminRole', 'PortalUserRole']);
    // the customer's administrators list finds them
    const admins = await t.request(`/ps-admin/persons/get-customer-admin-list?TenantId=${cust.tenantId}`, { token: admin.token });
    expect(admins.status).toBe(200);
    expect(((await admins.json()) as { Items: { Email: string }[] }).Items.map((a) => a.Email)).toEqual([email]);
  });

  test('a customer administrator with a password cannot sign in to the admin panel', async () => {
    const cust = await insertCustomer(t.db, randomUUID(), 'No Panel Ltd');
    const email = `no-panel-${randomUUID().slice(0, 8)}@admin-role.test`;
    await insertPerson(t.db, { email, roles: ['AdminRole', 'PortalUserRole'], tenantId: cust.tenantId, passwordHash: await hashPassword('Adm1n-Role-Pass!') });
    const res = await t.request('/connect/token', {
      form: { grant_type: 'password', client_id: 'admin-role-test', client_secret: 'admin-role-s3cret', username: email, password: 'Adm1n-Role-Pass!' },
    });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error_description: string }).error_description).toBe('Required permission for access is missing.');
  });
});

describe('migration 012', () => {
  test('moves customer administrators from SuperAdminRole to AdminRole; provider admins keep theirs; adds the role when missing', async () => {
    const cust = await insertCustomer(t.db, randomUUID(), 'Migrated Admins Ltd');
    // the state before 012: no AdminRole row, customer administrators holding SuperAdminRole
    await t.db.deleteFrom('personRoles').where('roleId', '=', ROLE_IDS.AdminRole).execute();
    await t.db.deleteFrom('roles').where('id', '=', ROLE_IDS.AdminRole).execute();
    const customerAdmin = await insertPerson(t.db, {
      email: `old-admin-${randomUUID().slice(0, 8)}@migrate.test`,
      roles: ['SuperAdminRole', 'PortalUserRole'],
      tenantId: cust.tenantId,
    });
    const providerAdmin = await insertPerson(t.db, { email: `provider-${randomUUID().slice(0, 8)}@migrate.test`, roles: ['SuperAdminRole'] });

    await m012.up!(t.db);
    expect(await t.db.selectFrom('roles').select(['name', 'order']).where('id', '=', ROLE_IDS.AdminRole).execute()).toEqual([{ name: 'AdminRole', order: 7 }]);
    expect(await rolesOf(customerAdmin)).toEqual(['AdminRole', 'PortalUserRole']);
    expect(await rolesOf(providerAdmin)).toEqual(['SuperAdminRole']);
    // no person of a customer tenant holds SuperAdminRole any more
    const left = await sql<{ n: number | string }>`
      select count(*) as n from "personRoles" pr join "persons" p on p."id" = pr."personId"
      where pr."roleId" = ${ROLE_IDS.SuperAdminRole} and p."tenantId" <> ${PROVIDER_TENANT}`.execute(t.db);
    expect(Number(left.rows[0]!.n)).toBe(0);
    // running it again changes nothing
    await m012.up!(t.db);
    expect(await rolesOf(customerAdmin)).toEqual(['AdminRole', 'PortalUserRole']);
    // and it is registered: a database migrated to the latest has run it
    const ran = await sql<{ name: string }>`select "name" from "kysely_migration" where "name" = '012_customer_admin_role'`.execute(t.db);
    expect(ran.rows).toHaveLength(1);
  });
});
