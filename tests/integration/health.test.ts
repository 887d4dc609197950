import { afterAll, beforeAll, expect, test } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

test('health answers ok once the database is migrated', async () => {
  const res = await t.request('/health');
  expect(res.status).toBe(200);
  expect(await res.json()).toEqual({ status: 'ok', database: 'ok', redis: 'not configured' });
});

test('reference data is present after migration', async () => {
  const roles = await t.db.selectFrom('roles').select('name').orderBy('order').execute();
  expect(roles.map((r) => r.name)).toEqual([
    'SuperAdminRole',
    'SuperAdminReadonlyRole',
    'ArcManagerRole',
    'ArcSupervisorRole',
    'ArcControllerRole',
    'PortalUserRole',
    'AdminRole',
  ]);
  const gb = await t.db.selectFrom('countries').selectAll().where('code', '=', 'GB').executeTakeFirstOrThrow();
  expect(gb.phoneNumberCode).toBe('44');
});

test('unknown api path is a 404, not a 500', async () => {
  const res = await t.request('/api/v1/nope');
  expect(res.status).toBe(404);
  expect(await res.json()).toEqual({ Content: { Message: 'Not found.', Code: 'not_found' } });
});
