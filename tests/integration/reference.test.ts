// Reference endpoints: dictionaries, features, global settings and every lookup list.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { randomUUID } from 'node:crypto';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { insertPerson, tokenFor } from '../helpers/auth.js';
import { ROLE_IDS } from '../../src/shared/permissions.js';
import { CAPABILITY, FEATURE_NAMES } from '../../src/shared/codes.js';

let t: TestApp;
let token: string;
beforeAll(async () => {
  t = await createTestApp();
  token = await tokenFor(t.config, ['SuperAdminRole']);
});
afterAll(async () => {
  await t.close();
});

/** tk: a token, 'none' for an anonymous request; defaults to a super admin. */
const get = async (path: string, tk?: string) => {
  const res = await t.request(path, { token: tk === 'none' ? undefined : (tk ?? token) });
  return { status: res.status, body: await res.json() };
};

describe('GET /ps-admin/dictionaries/get-all', () => {
  test('all seven roles keyed by name (AdminRole: the customer administrator), with Id, Name, IsDefault and Order', async () => {
    const { status, body } = await get('/ps-admin/dictionaries/get-all', await tokenFor(t.config, ['ArcControllerRole']));
    expect(status).toBe(200);
    expect(Object.keys(body.Roles).sort()).toEqual([
      'AdminRole',
      'ArcControllerRole',
      'ArcManagerRole',
      'ArcSupervisorRole',
      'PortalUserRole',
      'SuperAdminReadonlyRole',
      'SuperAdminRole',
    ]);
    expect(body.Roles.ArcControllerRole).toEqual({ Id: ROLE_IDS.ArcControllerRole, Name: 'ArcControllerRole', IsDefault: false, Order: 5 });
    expect(body.Roles.SuperAdminRole).toEqual({ Id: ROLE_IDS.SuperAdminRole, Name: 'SuperAdminRole', IsDefault: false, Order: 1 });
    expect(body.Roles.PortalUserRole.Id).toBe(ROLE_IDS.PortalUserRole);
    expect(body.Roles.AdminRole).toEqual({ Id: ROLE_IDS.AdminRole, Name: 'AdminRole', IsDefault: false, Order: 7 });
  });

  test('countries: GB first, then alphabetical by name, with Id, Code, Name and PhoneNumberCode', async () => {
    const { body } = await get('/ps-admin/dictionaries/get-all');
    const countries = body.Countries as { Id: string; Code: string; Name: string; PhoneNumberCode: string }[];
    expect(countries.length).toBeGreaterThan(200);
    expect(countries[0]).toEqual({ Id: 'country-gb', Code: 'GB', Name: 'United Kingdom', PhoneNumberCode: '44' });
    const rest = countries.slice(1).map((c) => c.Name);
    expect(rest).toEqual([...rest].sort(new Intl.Collator('en-GB', { sensitivity: 'base' }).compare));
    expect(rest.indexOf('Afghanistan')).toBeLessThan(rest.indexOf('Zimbabwe'));
    expect(countries.filter((c) => c.Code === 'GB')).toHaveLength(1);
    expect(countries.find((c) => c.Code === 'US')?.PhoneNumberCode).toBe('1');
  });

  test('needs a token', async () => {
    expect((await get('/ps-admin/dictionaries/get-all', 'none')).status).toBe(401);
  });
});

describe('features', () => {
  test('/features/all is public and lists every known feature with IsEnabled', async () => {
    const { status, body } = await get('/features/all', 'none');
    expect(status).toBe(200);
    expect(body.Features.map((f: { FeatureName: string }) => f.FeatureName).sort()).toEqual([...FEATURE_NAMES].sort());
    expect(body.Features.find((f: { FeatureName: string }) => f.FeatureName === 'SingleSignOn')).toEqual({ FeatureName: 'SingleSignOn', IsEnabled: false });
    expect(body.Features.find((f: { FeatureName: string }) => f.FeatureName === 'Devices')).toEqual({ FeatureName: 'Devices', IsEnabled: true });
  });

  test('/features is public, the same list, and filters by ?name=', async () => {
    const all = await get('/features', 'none');
    expect(all.status).toBe(200);
    expect(all.body).toEqual((await get('/features/all', 'none')).body);
    const one = await get('/features?name=SingleSignOn', 'none');
    expect(one.body).toEqual({ Features: [{ FeatureName: 'SingleSignOn', IsEnabled: false }] });
    const two = await get('/features?name=Devices,AssignDevice', 'none');
    expect(two.body.Features.map((f: { FeatureName: string }) => f.FeatureName)).toEqual(['AssignDevice', 'Devices']);
    expect((await get('/features?name=NoSuchFeature', 'none')).body).toEqual({ Features: [] });
  });

  test('reflects the database', async () => {
    await t.db.updateTable('features').set({ isEnabled: 1 }).where('name', '=', 'SingleSignOn').execute();
    expect((await get('/features?name=SingleSignOn', 'none')).body.Features[0].IsEnabled).toBe(true);
    await t.db.updateTable('features').set({ isEnabled: 0 }).where('name', '=', 'SingleSignOn').execute();
  });
});

test('GET /customers/get-global-settings gives TwoFactorAuthentication.Mode.Value from the database', async () => {
  expect((await get('/customers/get-global-settings')).body).toEqual({ TwoFactorAuthentication: { Mode: { Value: 0 } } });
  await t.db.updateTable('globalSettings').set({ value: '1' }).where('key', '=', 'TwoFactorAuthentication.Mode.Value').execute();
  expect((await get('/customers/get-global-settings')).body).toEqual({ TwoFactorAuthentication: { Mode: { Value: 1 } } });
  await t.db.updateTable('globalSettings').set({ value: '0' }).where('key', '=', 'TwoFactorAuthentication.Mode.Value').execute();
  expect((await get('/customers/get-global-settings', 'none')).status).toBe(401);
});

describe('stock-service lookups', () => {
  test('device types: every spec code, sorted by name with uppercase first, with capabilities', async () => {
    const { status, body } = await get('/api/v1/device/get-types');
    expect(status).toBe(200);
    expect(body).toContainEqual({ Value: 810, Name: 'SpotX', Capabilities: CAPABILITY.Battery | CAPABILITY.SendsLocation | CAPABILITY.RaiseAlarm });
    const pairs = body.map((d: { Value: number; Name: string }) => [d.Value, d.Name]);
    expect(pairs).toEqual([
      [15, 'Eview'],
      [400, 'Garmin InReach Mini 2'],
      [804, 'Gen4'],
      [10, 'Identicom'],
      [370, 'MG370'],
      [620, 'SG620'],
      [621, 'SG621'],
      [640, 'SG640'],
      [740, 'SG740'],
      [750, 'SG750'],
      [3, 'Smartphone'],
      [803, 'Spot Gen3'],
      [810, 'SpotX'],
      [60, 'SureCam'],
      [30, 'T4'],
      [20, 'TwigEx'],
      [42, 'badge'],
      [52, 'badge'],
      [140, 'badge'],
      [70, 'eSIM'],
    ]);
    for (const d of body) expect(typeof d.Capabilities).toBe('number');
  });

  test('asset statuses (by name), SIM types (by name), last-config filters (code order)', async () => {
    const statuses = (await get('/api/v1/device/get-asset-statuses')).body as { Value: number; Name: string }[];
    expect(statuses).toHaveLength(11);
    expect(statuses).toContainEqual({ Value: 4, Name: 'AwaitingReturn_Replacement' });
    expect(statuses.map((s) => s.Name)).toEqual(statuses.map((s) => s.Name).sort());
    expect(statuses[0]).toEqual({ Value: 3, Name: 'Allocated' });
    const sims = (await get('/api/v1/device/get-sim-types')).body as { Value: number; Name: string }[];
    expect(sims.map((s) => s.Name)).toEqual(['EE', 'Multi-network roaming', 'O2', 'Three', 'Vodafone', 'eSIM']);
    const filters = (await get('/api/v1/device/get-last-config-filters')).body as { Value: number; Name: string }[];
    expect(filters[0]).toEqual({ Value: 0, Name: 'All' });
    expect(filters.map((f) => f.Value)).toEqual([0, 1, 2, 3, 4, 5]);
  });

  test('tier types keep the ladder order; customer statuses by name', async () => {
    expect((await get('/api/v1/customer/get-tier-types')).body).toEqual([
      { Value: 1, Name: 'Bronze' },
      { Value: 2, Name: 'Silver' },
      { Value: 3, Name: 'Gold' },
      { Value: 4, Name: 'Platinum' },
    ]);
    expect((await get('/api/v1/customer/get-statuses')).body).toEqual([
      { Value: 1, Name: 'Active' },
      { Value: 4, Name: 'Cancelled' },
      { Value: 2, Name: 'Onboarding' },
      { Value: 3, Name: 'Suspended' },
    ]);
  });

  test('lookups come from the database, not from constants', async () => {
    await t.db.insertInto('lookups').values({ kind: 'simTypes', value: 99, name: 'Acme Mobile', order: 99 }).execute();
    expect((await get('/api/v1/device/get-sim-types')).body[0]).toEqual({ Value: 99, Name: 'Acme Mobile' });
    await t.db.deleteFrom('lookups').where('kind', '=', 'simTypes').where('value', '=', 99).execute();
  });

  test('need a token', async () => {
    for (const p of ['/api/v1/device/get-types', '/api/v1/device/get-sim-types', '/api/v1/customer/get-statuses'])
      expect((await get(p, 'none')).status).toBe(401);
  });
});

describe('alarm-report lookups', () => {
  test('verification types 1..4 and categories 101..403 with the spec names, in code order', async () => {
    expect((await get('/alarm-report/get-verification-types')).body).toEqual([
      { Value: 1, Name: 'Real Incident' },
      { Value: 2, Name: 'Precautionary Incident' },
      { Value: 3, Name: 'Planned' },
      { Value: 4, Name: 'False' },
    ]);
    expect((await get('/alarm-report/get-verification-categories')).body).toEqual([
      { Value: 101, Name: 'Violence' },
      { Value: 102, Name: 'Alcohol/Drugs' },
      { Value: 103, Name: 'Domestic Violence' },
      { Value: 104, Name: 'Verbal abuse' },
      { Value: 105, Name: 'Accident/Illness/Injury' },
      { Value: 106, Name: 'Self Harm' },
      { Value: 107, Name: 'Other' },
      { Value: 201, Name: 'Monitoring' },
      { Value: 202, Name: 'Domestic Violence (Precautionary)' },
      { Value: 203, Name: 'Security' },
      { Value: 204, Name: 'Customer request' },
      { Value: 205, Name: 'Police request' },
      { Value: 301, Name: 'Activation call' },
      { Value: 302, Name: 'Test' },
      { Value: 401, Name: 'Technical Fault' },
      { Value: 402, Name: 'Mistake' },
      { Value: 403, Name: 'Ghost' },
    ]);
  });

  test("date range options (path spelled 'rage' as in the spec) keep code order and include 7 All Time", async () => {
    const { status, body } = await get('/alarm-report/get-date-rage-options');
    expect(status).toBe(200);
    expect(body.map((o: { Value: number }) => o.Value)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(body[6]).toEqual({ Value: 7, Name: 'All Time' });
  });

  test('alarm types by name', async () => {
    const body = (await get('/alarm-report/get-alarm-types')).body as { Value: number; Name: string }[];
    expect(body).toHaveLength(6);
    expect(body.map((a) => a.Name)).toEqual([...body.map((a) => a.Name)].sort());
    expect(body).toContainEqual({ Value: 1, Name: 'SOS Button' });
  });

  test('controllers: provider persons holding the ARC controller role, sorted by name', async () => {
    const c1 = await insertPerson(t.db, { email: 'zoe@arc.test', firstName: 'Zoe', lastName: 'Adams', roles: ['ArcControllerRole'] });
    const c2 = await insertPerson(t.db, { email: 'adam@arc.test', firstName: 'Adam', lastName: 'Zane', roles: ['ArcControllerRole', 'ArcManagerRole'] });
    const c3 = await insertPerson(t.db, { email: 'adam2@arc.test', firstName: 'Adam', lastName: 'Brown', roles: ['ArcControllerRole'] });
    await insertPerson(t.db, { email: 'mgr@arc.test', firstName: 'Manny', lastName: 'Ger', roles: ['ArcManagerRole'] });
    await insertPerson(t.db, { email: 'cust@arc.test', firstName: 'Aaron', lastName: 'Cust', roles: ['ArcControllerRole'], tenantId: randomUUID() });
    const { status, body } = await get('/alarm-report/get-controllers', await tokenFor(t.config, ['ArcSupervisorRole']));
    expect(status).toBe(200);
    expect(body).toEqual([
      { Id: c3, FullName: 'Adam Brown' },
      { Id: c2, FullName: 'Adam Zane' },
      { Id: c1, FullName: 'Zoe Adams' },
    ]);
  });

  test('need the alarm-report list permission', async () => {
    const noAlarm = await tokenFor(t.config, ['PortalUserRole']);
    for (const p of [
      '/alarm-report/get-date-rage-options',
      '/alarm-report/get-alarm-types',
      '/alarm-report/get-verification-types',
      '/alarm-report/get-verification-categories',
      '/alarm-report/get-controllers',
    ]) {
      expect((await get(p, noAlarm)).status, p).toBe(403);
      expect((await get(p, 'none')).status, p).toBe(401);
    }
  });
});
