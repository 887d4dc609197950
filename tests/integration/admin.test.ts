// Provider administration against the real server: features, the global 2FA mode, enforced
// single-sign-on domains and a person's login method; each change appears in the audit trail with
// its actor and its before/after values, the read-only admin sees but cannot change, and the audit
// trail has no write route. SQLite and, with TEST_DB=pg, PostgreSQL.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { insertPerson, signedIn } from '../helpers/auth.js';
import { randomUUID } from 'node:crypto';
import type { KyselyPlugin } from 'kysely';
import { deviceRow, errorOf, insertCustomer, ok } from '../helpers/customers.js';
import { insertAlarmReport } from '../helpers/alarm-reports.js';
import { listAudit } from '../../src/server/modules/admin/repo.js';
import type { AdminSettingsDto, AuditEntryDto, AuditListDto } from '../../src/shared/schemas/admin.js';
import type { GlobalSettingsDto, FeaturesDto } from '../../src/shared/schemas/reference.js';
import { readXlsx } from '../helpers/xlsx.js';

let t: TestApp;
let admin: { id: string; email: string; token: string };
let readonly: { id: string; email: string; token: string };

beforeAll(async () => {
  t = await createTestApp();
  admin = await signedIn(t.db, t.config, ['SuperAdminRole'], 'settings-admin@test.test');
  readonly = await signedIn(t.db, t.config, ['SuperAdminReadonlyRole'], 'settings-readonly@test.test');
});
afterAll(async () => {
  await t?.close();
});

const latest = async (filter: Record<string, unknown>): Promise<AuditEntryDto> => {
  const list = await ok<AuditListDto>(await t.request('/ps-admin/audit/get-list', { method: 'POST', token: readonly.token, json: filter }));
  expect(list.Items.length, JSON.stringify(filter)).toBeGreaterThan(0);
  return list.Items[0]!;
};

describe('features and the global 2FA mode', () => {
  test('a feature switched on is on for everyone and audited with actor and values', async () => {
    await ok(await t.request('/ps-admin/settings/feature', { method: 'PUT', token: admin.token, json: { name: 'ScheduledReports', isEnabled: false } }));
    expect((await ok<FeaturesDto>(await t.request('/features?name=ScheduledReports'))).Features[0]?.IsEnabled).toBe(false);
    await ok(await t.request('/ps-admin/settings/feature', { method: 'PUT', token: admin.token, json: { name: 'ScheduledReports', isEnabled: true } }));
    const pub = await ok<FeaturesDto>(await t.request('/features?name=ScheduledReports'));
    expect(pub.Features).toEqual([{ FeatureName: 'ScheduledReports', IsEnabled: true }]);
    const e = await latest({ entity: 'feature', entityId: 'ScheduledReports' });
    expect(e).toMatchObject({ ActorId: admin.id, ActorName: 'Test Person', Action: 'feature.update', Details: { before: false, after: true } });
    const settings = await ok<AdminSettingsDto>(await t.request('/ps-admin/settings', { token: readonly.token }));
    expect(settings.Features).toHaveLength(13);
    expect(settings.Features.find((f) => f.FeatureName === 'ScheduledReports')?.IsEnabled).toBe(true);
  });

  test('an unknown feature name is refused', async () => {
    const res = await t.request('/ps-admin/settings/feature', { method: 'PUT', token: admin.token, json: { name: 'Nope', isEnabled: true } });
    expect(res.status).toBe(400);
  });

  test('enforcing a second factor shows in the global settings and the audit trail', async () => {
    await ok(await t.request('/ps-admin/settings/two-factor-mode', { method: 'PUT', token: admin.token, json: { value: 1 } }));
    const g = await ok<GlobalSettingsDto>(await t.request('/customers/get-global-settings', { token: readonly.token }));
    expect(g.TwoFactorAuthentication.Mode.Value).toBe(1);
    const e = await latest({ action: 'global-setting', actor: 'settings-admin' });
    expect(e).toMatchObject({ ActorId: admin.id, Entity: 'globalSetting', Details: { after: 1 } });
    await ok(await t.request('/ps-admin/settings/two-factor-mode', { method: 'PUT', token: admin.token, json: { value: 0 } }));
    expect((await latest({ action: 'global-setting' })).Details).toEqual({ before: 1, after: 0 });
  });

  test('the read-only admin reads the settings but every change is refused', async () => {
    expect((await t.request('/ps-admin/settings', { token: readonly.token })).status).toBe(200);
    const puts = [
      t.request('/ps-admin/settings/feature', { method: 'PUT', token: readonly.token, json: { name: 'Devices', isEnabled: false } }),
      t.request('/ps-admin/settings/two-factor-mode', { method: 'PUT', token: readonly.token, json: { value: 1 } }),
      t.request('/ps-admin/sso-domains', { method: 'POST', token: readonly.token, json: { domain: 'x.test' } }),
    ];
    for (const res of await Promise.all(puts)) expect(res.status).toBe(403);
    const arc = await signedIn(t.db, t.config, ['ArcManagerRole']);
    expect((await t.request('/ps-admin/settings', { token: arc.token })).status).toBe(403);
    expect((await t.request('/ps-admin/audit/get-list', { method: 'POST', token: arc.token, json: {} })).status).toBe(403);
  });
});

describe('single sign-on', () => {
  test('an enforced domain is stored with its company, listed, refused twice and removed; both changes audited', async () => {
    const customer = await insertCustomer(t.db, { name: 'Enforced Ltd' });
    await ok(await t.request('/ps-admin/sso-domains', { method: 'POST', token: admin.token, json: { domain: '@Enforced.Test', customerId: customer.id } }));
    const s = await ok<AdminSettingsDto>(await t.request('/ps-admin/settings', { token: admin.token }));
    expect(s.SsoDomains).toContainEqual({ Domain: 'enforced.test', CustomerId: customer.id, CustomerName: 'Enforced Ltd' });
    const again = await t.request('/ps-admin/sso-domains', { method: 'POST', token: admin.token, json: { domain: 'enforced.test' } });
    expect((await errorOf(again)).Message).toBe('enforced.test already requires single sign-on.');
    expect(await latest({ entity: 'ssoDomain', entityId: 'enforced.test' })).toMatchObject({
      ActorId: admin.id,
      Action: 'sso-domain.add',
      Details: { customerId: customer.id },
    });

    await ok(await t.request('/ps-admin/sso-domains?domain=enforced.test', { method: 'DELETE', token: admin.token }));
    const row = await t.db.selectFrom('ssoDomains').selectAll().where('domain', '=', 'enforced.test').executeTakeFirst();
    expect(row).toBeUndefined();
    expect(await latest({ entity: 'ssoDomain', entityId: 'enforced.test' })).toMatchObject({
      Action: 'sso-domain.remove',
      Details: { customerId: customer.id },
    });
  });

  test('switching a person back to password sends a set-password e-mail through the outbox and is audited', async () => {
    const id = await insertPerson(t.db, { email: 'sso-person@test.test', roles: ['ArcControllerRole'], passwordHash: 'x' });
    await ok(
      await t.request(`/api/v1/person/${id}/login-method`, { method: 'PUT', token: admin.token, json: { loginMethod: 2, ssoEmail: 'Sso.Person@Idp.Test' } }),
    );
    let p = await t.db.selectFrom('persons').select(['loginMethod', 'ssoEmail']).where('id', '=', id).executeTakeFirstOrThrow();
    expect(p).toEqual({ loginMethod: 2, ssoEmail: 'sso.person@idp.test' });

    const res = await ok<{ Content: { Message: string } }>(
      await t.request(`/api/v1/person/${id}/login-method`, { method: 'PUT', token: admin.token, json: { loginMethod: 1, ssoEmail: null } }),
    );
    expect(res.Content.Message).toBe('Login method saved. An e-mail to set a password was sent to sso-person@test.test.');
    p = await t.db.selectFrom('persons').select(['loginMethod', 'ssoEmail']).where('id', '=', id).executeTakeFirstOrThrow();
    expect(p).toEqual({ loginMethod: 1, ssoEmail: null });
    const mail = await t.db.selectFrom('outbox').select(['subject', 'body']).where('recipient', '=', 'sso-person@test.test').execute();
    expect(mail).toHaveLength(1);
    expect(mail[0]?.subject).toBe('Set your password');
    expect(mail[0]?.body).toContain('/reset-password?token=');
    const e = await latest({ entity: 'person', entityId: id, action: 'login-method' });
    expect(e).toMatchObject({
      ActorId: admin.id,
      Details: { before: { loginMethod: 2, ssoEmail: 'sso.person@idp.test' }, after: { loginMethod: 1, ssoEmail: null }, setPasswordSent: true },
    });
  });
});

describe('the audit trail', () => {
  test('filters by date range and pages; entries have no write route', async () => {
    const future = await ok<AuditListDto>(
      await t.request('/ps-admin/audit/get-list', { method: 'POST', token: admin.token, json: { from: '2999-01-01T00:00:00Z' } }),
    );
    expect(future).toEqual({ Items: [], TotalCount: 0 });
    const all = await ok<AuditListDto>(await t.request('/ps-admin/audit/get-list', { method: 'POST', token: admin.token, json: { pageSize: 50 } }));
    expect(all.TotalCount).toBeGreaterThanOrEqual(6);
    const writes = t.routes.filter((r) => r.method !== 'GET' && /audit/i.test(r.path) && !r.path.endsWith('/get-list') && !r.path.endsWith('/export-list'));
    expect(writes).toEqual([]);
  });

  test('exports the filtered list to .xlsx, newest first, every matching entry across keyset pages', async () => {
    // 1,203 entries of one entity (more than a keyset page), pairs sharing a timestamp, plus one of another entity
    const base = Date.parse('2026-03-01T10:00:00Z');
    const rows = Array.from({ length: 1203 }, (_, i) => ({
      at: new Date(base + Math.floor(i / 2) * 60_000).toISOString(),
      actorId: admin.id,
      action: 'exportcheck.update',
      entity: 'exportcheck',
      entityId: `rec-${i}`,
      details: JSON.stringify({ before: { n: i }, after: { n: i + 1 } }),
    }));
    for (let i = 0; i < rows.length; i += 200)
      await t.db
        .insertInto('auditLog')
        .values(rows.slice(i, i + 200))
        .execute();
    await t.db
      .insertInto('auditLog')
      .values({ at: new Date(base).toISOString(), actorId: null, action: 'other.update', entity: 'othercheck', entityId: 'x', details: '{}' })
      .execute();

    const res = await t.request('/ps-admin/audit/export-list', {
      method: 'POST',
      token: readonly.token,
      json: { entity: 'exportcheck', actor: 'settings-admin' },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-disposition')).toMatch(/^attachment; filename="AuditTrail_\d{8}_\d{6}\.xlsx"$/);
    const [sheet] = await readXlsx(Buffer.from(await res.arrayBuffer()));
    const data = sheet!.data;
    expect(data[0]).toEqual(['When (UK time)', 'Actor', 'Action', 'Entity', 'Record', 'Details']);
    expect(data.length - 1).toBe(1203);
    // newest first; of two entries at the same time, the later written first
    expect(data.slice(1, 4).map((r) => r[4])).toEqual(['rec-1202', 'rec-1201', 'rec-1200']);
    expect(data[1203]![4]).toBe('rec-0');
    expect(new Set(data.slice(1).map((r) => r[4])).size).toBe(1203);
    expect(data[1]!.slice(2, 4)).toEqual(['exportcheck.update', 'exportcheck']);
    expect(data[1]![5]).toBe('{"n":1202} → {"n":1203}');
    expect(String(data[1]![1])).not.toBe('System');
    expect(data[1]![0]).toBeInstanceOf(Date);

    // a reader without the audit permission may not export
    const arc = await signedIn(t.db, t.config, ['ArcControllerRole']);
    expect((await t.request('/ps-admin/audit/export-list', { method: 'POST', token: arc.token, json: {} })).status).toBe(403);
  });
});

describe('the audit list names each record', () => {
  test('a device by its serial, a customer by its name, a person by name, an alarm report by its alarm id, a schedule by its name; each with the link that opens it', async () => {
    const device = deviceRow({ serialNumber: `SG750-LABEL${Date.now() % 100000}` });
    await t.db.insertInto('devices').values(device).execute();
    const customer = await insertCustomer(t.db, { name: 'Labelled Care Ltd' });
    const personId = await insertPerson(t.db, { email: `labelled-${randomUUID()}@test.test`, firstName: 'Lena', lastName: 'Label', roles: [] });
    const reportId = randomUUID();
    const alarmId = `A-${randomUUID().slice(0, 8)}`;
    await insertAlarmReport(t.db, { id: reportId, alarmId });
    const scheduleId = randomUUID();
    const now = new Date().toISOString();
    await t.db
      .insertInto('reportSchedules')
      .values({
        id: scheduleId,
        name: 'Weekly labels',
        ownerId: admin.id,
        customerId: null,
        frequency: 'weekly',
        dayOfWeek: 1,
        dayOfMonth: null,
        timeOfDay: '08:00',
        recipients: '[]',
        format: 'xlsx',
        filters: '{}',
        nextDueAt: now,
        claimedBy: null,
        claimedAt: null,
        etag: '"s"',
        createdAt: now,
        updatedAt: now,
      })
      .execute();
    const gone = randomUUID();
    const entries: [string, string | null][] = [
      ['device', device.id],
      ['customer', customer.id],
      ['person', personId],
      ['alarmReport', reportId],
      ['schedule', scheduleId],
      ['device', gone], // a record deleted since
      ['feature', 'ScheduledReports'], // a kind without a record of its own
      ['customer', null],
    ];
    await t.db
      .insertInto('auditLog')
      .values(
        entries.map(([entity, entityId]) => ({
          at: '2031-06-01T10:00:00.000Z',
          actorId: admin.id,
          action: 'labelcheck.update',
          entity,
          entityId,
          details: '{}',
        })),
      )
      .execute();

    const list = await ok<AuditListDto>(
      await t.request('/ps-admin/audit/get-list', { method: 'POST', token: readonly.token, json: { action: 'labelcheck', pageSize: 25 } }),
    );
    expect(list.TotalCount).toBe(entries.length);
    const shown = (entity: string, entityId: string | null) => {
      const e = list.Items.find((x) => x.Entity === entity && x.EntityId === entityId)!;
      return { label: e.RecordLabel, href: e.RecordHref };
    };
    expect(shown('device', device.id)).toEqual({ label: device.serialNumber, href: `/asset-management/${device.id}` });
    expect(shown('customer', customer.id)).toEqual({ label: 'Labelled Care Ltd', href: `/customers/${customer.id}/account` });
    expect(shown('person', personId)).toEqual({ label: 'Lena Label', href: `/persons/edit/${personId}` });
    // an alarm report opens by its alarm id (the detail route's key), not by the report row's id
    expect(shown('alarmReport', reportId)).toEqual({ label: alarmId, href: `/alarm-reports/${alarmId}` });
    expect(shown('schedule', scheduleId)).toEqual({ label: 'Weekly labels', href: null });
    expect(shown('device', gone)).toEqual({ label: null, href: null });
    expect(shown('feature', 'ScheduledReports')).toEqual({ label: null, href: null });
    expect(shown('customer', null)).toEqual({ label: null, href: null });
  });

  test('a page of many entries looks its records up once per entity kind, not once per entry', async () => {
    const devices = Array.from({ length: 30 }, (_, i) => deviceRow({ serialNumber: `SG750-BATCH${String(i).padStart(3, '0')}` }));
    await t.db.insertInto('devices').values(devices).execute();
    const customers = await Promise.all(Array.from({ length: 10 }, (_, i) => insertCustomer(t.db, { name: `Batch Customer ${i}` })));
    await t.db
      .insertInto('auditLog')
      .values([
        ...devices.map((d) => ({
          at: '2031-07-01T10:00:00.000Z',
          actorId: null,
          action: 'batchcheck.update',
          entity: 'device',
          entityId: d.id,
          details: '{}',
        })),
        ...customers.map((c) => ({
          at: '2031-07-01T10:00:00.000Z',
          actorId: null,
          action: 'batchcheck.update',
          entity: 'customer',
          entityId: c.id,
          details: '{}',
        })),
      ])
      .execute();
    let queries = 0;
    const counting: KyselyPlugin = {
      transformQuery: (a) => {
        queries++;
        return a.node;
      },
      transformResult: async (a) => a.result,
    };
    const filter = { actor: '', entity: '', action: 'batchcheck', entityId: '', from: null, to: null };
    const page = await listAudit(t.db.withPlugin(counting), filter, 1, 50);
    expect(page.Items).toHaveLength(40);
    expect(page.Items.every((e) => e.RecordLabel && e.RecordHref)).toBe(true);
    expect(new Set(page.Items.filter((e) => e.Entity === 'device').map((e) => e.RecordLabel))).toEqual(new Set(devices.map((d) => d.serialNumber)));
    // the page, its count, one look-up of the devices and one of the customers
    expect(queries).toBe(4);
  });
});
