// The modules' repositories (modules/<area>/repo.ts) without HTTP: db-first functions any module
// can call (persons uses the customers repo for customer administrators; devices and alarm reports
// will do the same), on SQLite and, with TEST_DB=pg, PostgreSQL.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { randomUUID } from 'node:crypto';
import { tx } from '../../src/server/db/index.js';
import * as persons from '../../src/server/modules/persons/repo.js';
import * as reference from '../../src/server/modules/reference/repo.js';
import { customerNames, findCustomerByTenant } from '../../src/server/lib/customer-lookups.js';
import * as v from 'valibot';
import { ROLE_IDS } from '../../src/shared/permissions.js';
import { personListQuery } from '../../src/shared/schemas/persons.js';
import { PROVIDER_TENANT_ID } from '../../src/shared/tenants.js';
import { createTestDb, type TestDb } from '../helpers/db.js';
import { first } from '../helpers/lists.js';
import { ALL_TENANTS } from '../../src/server/auth/tenant-scope.js';

let t: TestDb;
beforeAll(async () => {
  t = await createTestDb();
});
afterAll(async () => {
  await t.close();
});

const at = '2026-03-12T14:05:00.000Z';

describe('persons repo', () => {
  test('insert, find, list, rename with the etag, replace roles, unlock', async () => {
    const id = randomUUID();
    await tx(t.db, (trx) =>
      persons.insertPerson(trx, {
        id,
        tenantId: PROVIDER_TENANT_ID,
        firstName: 'Repo',
        lastName: 'Person',
        email: 'repo.person@test.test',
        roleIds: [ROLE_IDS.ArcControllerRole],
        etag: '"e1"',
        at,
      }),
    );
    const found = await persons.findPerson(t.db, ALL_TENANTS, id);
    expect(found).toMatchObject({
      Etag: '"e1"',
      tenantId: PROVIDER_TENANT_ID,
      Person: { Id: id, FirstName: 'Repo', Contact: { EmailAddress: 'repo.person@test.test' } },
    });
    expect(found!.Person.Roles.map((r) => r.Name)).toEqual(['ArcControllerRole']);
    expect(await persons.emailTaken(t.db, 'repo.person@test.test')).toBe(true);
    expect(await persons.holdsRole(t.db, id, 'ArcControllerRole')).toBe(true);

    // a stale etag changes nothing
    expect(await persons.updatePersonNames(t.db, id, '"stale"', { firstName: 'X', lastName: 'Y', email: 'repo.person@test.test', etag: '"e2"', at })).toBe(
      false,
    );
    expect(
      await persons.updatePersonNames(t.db, id, '"e1"', { firstName: 'Renamed', lastName: 'Person', email: 'repo.person@test.test', etag: '"e2"', at }),
    ).toBe(true);
    await persons.replaceRoles(t.db, id, [ROLE_IDS.ArcManagerRole, ROLE_IDS.ArcSupervisorRole]);

    const list = await persons.listPersons(t.db, ALL_TENANTS, v.parse(personListQuery, { page: '1', pageSize: '10', searchValue: 'renamed' }));
    expect(list.TotalCount).toBe(1);
    expect(list.Items[0]).toMatchObject({ Id: id, FirstName: 'Renamed', Etag: '"e2"' });
    expect(first(list.Items).Roles.map((r) => r.Name)).toEqual(['ArcManagerRole', 'ArcSupervisorRole']);

    await t.db.updateTable('persons').set({ isLocked: 1, failedAttempts: 5 }).where('id', '=', id).execute();
    await persons.unlockPerson(t.db, id, { etag: '"e3"', at });
    expect(await persons.findPersonForUpdate(t.db, ALL_TENANTS, id)).toMatchObject({ isLocked: 0, etag: '"e3"' });
  });
});

describe('reference and customers repos', () => {
  test('controllers by name; lookups by name with uppercase first; countries GB first', async () => {
    const id = randomUUID();
    await tx(t.db, (trx) =>
      persons.insertPerson(trx, {
        id,
        tenantId: PROVIDER_TENANT_ID,
        firstName: 'Aaron',
        lastName: 'Controller',
        email: 'aaron.controller@test.test',
        roleIds: [ROLE_IDS.ArcControllerRole],
        etag: '"e"',
        at,
      }),
    );
    expect((await reference.readControllers(t.db))[0]).toEqual({ Id: id, FullName: 'Aaron Controller' });
    const types = await reference.readLookup(t.db, 'alarmTypes');
    expect(types.map((x) => x.Name)).toEqual([...types.map((x) => x.Name)].sort());
    expect(first(await reference.readCountries(t.db)).Code).toBe('GB');
    expect((await reference.readFeatures(t.db, ['SingleSignOn'])).Features.map((f) => f.FeatureName)).toEqual(['SingleSignOn']);
  });

  test('customer by tenant; names by id', async () => {
    expect(await findCustomerByTenant(t.db, ALL_TENANTS, randomUUID())).toBeUndefined();
    expect((await customerNames(t.db, [])).size).toBe(0);
  });
});
