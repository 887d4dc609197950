// Every write route records who changed what. Walking the server's route table, each route that
// is not a GET is either listed below as one that changes nothing a person did (with the reason),
// or has a fixture: a valid request against a stored record that must succeed and must add an
// audit entry naming the actor, the action, the entity (and its record) and the values written.
// A new write route fails this test until it has a fixture here (or a reviewed reason not to).
// The same walk shows that no route edits or deletes an audit entry, and the server's code has no
// statement that would. SQLite and, with TEST_DB=pg, PostgreSQL.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { insertPerson, signedIn, tokenFor } from '../helpers/auth.js';
import { deviceRow, insertCustomer } from '../helpers/customers.js';
import { insertAlarmReport } from '../helpers/alarm-reports.js';
import { solvedCaptcha } from '../helpers/captcha.js';
import { ROLE_IDS, type RoleName } from '../../src/shared/permissions.js';
import { hashPassword } from '../../src/server/auth/password.js';
import { createVerificationCode } from '../../src/server/auth/store.js';
import { signResetToken } from '../../src/server/auth/reset.js';
import { setFeature } from '../../src/server/modules/admin/repo.js';
import { tx } from '../../src/server/db/index.js';
import { IMPORT_SAMPLE } from '../../src/shared/schemas/alarm-report-import.js';

/**
 * Non-GET routes that record nothing, each with the reason (reviewed: a write route belongs in
 * FIXTURES instead). Reads that take a body (lists, look-ups, exports) and machine traffic.
 */
const NOT_AUDITED: [RegExp, string][] = [
  [/\/get-/, 'a list or look-up with its filters in the body: reads only'],
  [/\/export\/|export-list$/, 'an export: reads the list into a file'],
  [/^\/ps-admin\/customers\/usage-report\/export$/, "an export: reads a customer's usage report into a file"],
  [/\/download-/, 'a CSV download of a list: reads only'],
  [/^\/api\/v1\/salesforce\/account\/query$/, 'a search of the CRM: reads only'],
  [/^\/api\/v1\/import\/devices-to-allocate\//, 'reads a serial list into allocation rows; the allocation itself is audited'],
  [/^\/api\/v1\/device-messages\/ingest$/, "device telemetry posted by gateways: machine data, not a person's change"],
  [/^\/api\/admin\/negotiate$/, 'opens a live-updates connection: nothing is stored'],
  [/^\/devices\/subscribe-for-monitoring$/, "adds devices to a live connection's groups: nothing is stored"],
  [/^\/api\/v1\/sso\/nonce$/, 'a signed single-sign-on nonce: nothing is stored; the sign-in that uses it is audited'],
  [/^\/api\/v1\/export\/:id$/, "cancels the caller's own export job: a running job, no stored record"],
];
const notAudited = (path: string) => NOT_AUDITED.find(([re]) => re.test(path));

let t: TestApp;
let admin: { id: string; email: string; token: string };
beforeAll(async () => {
  t = await createTestApp();
  admin = await signedIn(t.db, t.config, ['SuperAdminRole']);
});
afterAll(async () => {
  await t?.close();
});

type Details = Record<string, unknown>;
/** An audit entry the request must have added; actorId defaults to the admin's. */
type Entry = { action: string; entity: string; entityId?: string | null; actorId?: string | null; beforeAfter?: boolean; details?: (d: Details) => void };
type Call = {
  path: string;
  json?: unknown;
  form?: Record<string, string>;
  body?: BodyInit;
  /** the caller's token; null: no token (public routes); default the admin's */
  token?: string | null;
  expect: Entry[];
};

const PASSWORD = 'Audit-Passw0rd!';
const flags = (keys: string[], on: boolean) => Object.fromEntries(keys.map((k) => [k, on]));
const captcha = () => solvedCaptcha((path) => t.request(path));
let n = 0;
const unique = (s: string) => `${s}-${++n}`;
/** A person who signs in with a password, and an access token of theirs. */
async function passwordPerson(roles: RoleName[] = ['ArcControllerRole'], over: { twoFactorType?: number } = {}) {
  const email = `${unique('audit.password')}@staff.test`;
  const id = await insertPerson(t.db, { email, roles, passwordHash: await hashPassword(PASSWORD), ...over });
  return { id, email, token: await tokenFor(t.config, roles, { id, email }) };
}
const etagOf = async (id: string) => (await t.db.selectFrom('persons').select('etag').where('id', '=', id).executeTakeFirstOrThrow()).etag;
async function device(over: Parameters<typeof deviceRow>[0]) {
  const d = deviceRow(over);
  await t.db.insertInto('devices').values(d).execute();
  return d;
}
const beforeAfter = (before: Details, after: Details) => (d: Details) => expect(d).toMatchObject({ before, after });

/** A schedule's body: the alarm list's filters, sent daily to an ARC manager. */
async function scheduleInput() {
  const recipient = await passwordPerson(['ArcManagerRole']);
  return {
    name: unique('Daily incidents'),
    frequency: 'daily',
    timeOfDay: '07:00',
    recipients: [recipient.email],
    format: 'xlsx',
    filters: { alarmClosedDateRangeOption: 2 },
  };
}
/** A stored schedule (made through the API, as a person would). */
async function schedule(): Promise<{ Id: string; Etag: string }> {
  await setFeature(t.db, 'ScheduledReports', true);
  const res = await t.request('/alarm-report/schedules', { method: 'POST', token: admin.token, json: await scheduleInput() });
  expect(res.status).toBeLessThan(300);
  return (await res.json()) as { Id: string; Etag: string };
}

/** A valid request for each write route, keyed by the route's method and path, and the entries it must add. */
const FIXTURES: Record<string, () => Promise<Call>> = {
  // ------------------------------------------------ provider administration
  'PUT /ps-admin/settings/feature': async () => ({
    path: '/ps-admin/settings/feature',
    json: { name: 'ScheduledReports', isEnabled: true },
    expect: [{ action: 'feature.update', entity: 'feature', entityId: 'ScheduledReports', beforeAfter: true, details: (d) => expect(d.after).toBe(true) }],
  }),
  'PUT /ps-admin/settings/two-factor-mode': async () => ({
    path: '/ps-admin/settings/two-factor-mode',
    json: { value: 0 },
    expect: [
      {
        action: 'global-setting.update',
        entity: 'globalSetting',
        entityId: 'TwoFactorAuthentication.Mode.Value',
        beforeAfter: true,
        details: (d) => expect(d.after).toBe(0),
      },
    ],
  }),
  'POST /ps-admin/sso-domains': async () => {
    const c = await insertCustomer(t.db, { name: 'Audit Domain Ltd' });
    return {
      path: '/ps-admin/sso-domains',
      json: { domain: 'audit-added.test', customerId: c.id },
      expect: [{ action: 'sso-domain.add', entity: 'ssoDomain', entityId: 'audit-added.test', details: (d) => expect(d.customerId).toBe(c.id) }],
    };
  },
  'DELETE /ps-admin/sso-domains': async () => {
    await t.db.insertInto('ssoDomains').values({ domain: 'audit-removed.test', enforced: 1, customerId: null }).execute();
    return {
      path: '/ps-admin/sso-domains?domain=audit-removed.test',
      expect: [
        { action: 'sso-domain.remove', entity: 'ssoDomain', entityId: 'audit-removed.test', details: (d) => expect(d).toHaveProperty('customerId', null) },
      ],
    };
  },
  'PUT /api/v1/person/:id/login-method': async () => {
    const id = await insertPerson(t.db, { email: 'audit.login@staff.test', roles: ['ArcControllerRole'] });
    return {
      path: `/api/v1/person/${id}/login-method`,
      json: { loginMethod: 2, ssoEmail: 'audit.login@idp.test' },
      expect: [
        {
          action: 'login-method-changed',
          entity: 'person',
          entityId: id,
          details: beforeAfter({ loginMethod: 1 }, { loginMethod: 2, ssoEmail: 'audit.login@idp.test' }),
        },
      ],
    };
  },

  // ------------------------------------------------ persons
  'POST /api/v1/person': async () => ({
    path: '/api/v1/person',
    json: { person: { firstName: 'Audit', lastName: 'Created', emailAddress: 'audit.created@staff.test', roleIds: [ROLE_IDS.ArcManagerRole] } },
    expect: [
      { action: 'person.create', entity: 'person', details: (d) => expect(d).toMatchObject({ email: 'audit.created@staff.test', lastName: 'Created' }) },
    ],
  }),
  'PUT /api/v1/person/:id/identity-update': async () => {
    const id = await insertPerson(t.db, { email: 'audit.identity@staff.test', firstName: 'Audit', lastName: 'Identity', roles: ['ArcControllerRole'] });
    return {
      path: `/api/v1/person/${id}/identity-update`,
      json: {
        personId: id,
        person: {
          firstName: 'Audited',
          lastName: 'Identity',
          emailAddress: 'audit.identity@staff.test',
          roleIds: [ROLE_IDS.ArcManagerRole],
          etag: await etagOf(id),
        },
      },
      expect: [{ action: 'person.identity-update', entity: 'person', entityId: id, details: (d) => expect(d).toMatchObject({ firstName: 'Audited' }) }],
    };
  },
  'PUT /api/v1/:id/unlock': async () => {
    const id = await insertPerson(t.db, { email: 'audit.locked@staff.test', roles: ['ArcControllerRole'], isLocked: true });
    return {
      path: `/api/v1/${id}/unlock`,
      expect: [{ action: 'person.unlock', entity: 'person', entityId: id, details: (d) => expect(d.wasLocked).toBe(true) }],
    };
  },
  'PUT /api/v1/person/basic-info-update': async () => ({
    path: '/api/v1/person/basic-info-update',
    json: { etag: await etagOf(admin.id), person: { firstName: 'Audited', lastName: 'Admin', phoneNumbers: [] } },
    expect: [{ action: 'person.basic-info-update', entity: 'person', entityId: admin.id, details: (d) => expect(d).toMatchObject({ firstName: 'Audited' }) }],
  }),

  // ------------------------------------------------ sign-in related (the person's own security settings)
  'POST /connect/token': async () => {
    const p = await passwordPerson();
    return {
      path: '/connect/token',
      token: null,
      form: { grant_type: 'password', client_id: 'portal', username: p.email, password: PASSWORD, captchaResponse: await captcha() },
      expect: [{ action: 'login-succeeded', entity: 'person', entityId: p.id, actorId: p.id }],
    };
  },
  'POST /connect/revocation': async () => {
    const p = await passwordPerson();
    const signIn = await t.request('/connect/token', {
      form: { grant_type: 'password', client_id: 'portal', username: p.email, password: PASSWORD, captchaResponse: await captcha() },
    });
    const { refresh_token } = (await signIn.json()) as { refresh_token: string };
    return {
      path: '/connect/revocation',
      token: null,
      form: { token: refresh_token, token_type_hint: 'refresh_token', client_id: 'portal' },
      expect: [{ action: 'logout', entity: 'person', entityId: p.id, actorId: p.id }],
    };
  },
  'PUT /api/v1/change-two-factor-authentication': async () => {
    const p = await passwordPerson();
    return {
      path: '/api/v1/change-two-factor-authentication',
      token: p.token,
      json: { twoFactorAuthentication: { type: 1, phoneNumber: null }, currentPassword: PASSWORD, captchaResponse: await captcha() },
      expect: [{ action: 'two-factor-changed', entity: 'person', entityId: p.id, actorId: p.id, details: beforeAfter({ type: null }, { type: 1 }) }],
    };
  },
  'POST /api/v1/two-factor-authentication/send': async () => {
    // a sign-in under way (password verified, code not used yet): the resend sends a fresh code
    const p = await passwordPerson(['ArcControllerRole'], { twoFactorType: 1 });
    await tx(t.db, (trx) => createVerificationCode(trx, p.id, new Date()));
    return {
      path: '/api/v1/two-factor-authentication/send',
      token: null,
      json: { email: p.email },
      expect: [
        { action: 'verification-code-sent', entity: 'person', entityId: p.id, actorId: p.id, details: (d) => expect(d).toMatchObject({ reason: 'resend' }) },
      ],
    };
  },
  'POST /api/v1/change-password': async () => {
    const p = await passwordPerson();
    return {
      path: '/api/v1/change-password',
      token: p.token,
      json: { oldPassword: PASSWORD, newPassword: 'Audit-Changed-9', newPasswordRepeated: 'Audit-Changed-9', captchaResponse: await captcha() },
      expect: [{ action: 'password-changed', entity: 'person', entityId: p.id, actorId: p.id }],
    };
  },
  'POST /api/v1/reset-password': async () => {
    const p = await passwordPerson();
    return {
      path: '/api/v1/reset-password',
      token: null,
      json: { email: p.email, captchaResponse: await captcha() },
      // asked for by whoever knows the address: no actor
      expect: [{ action: 'password-reset-requested', entity: 'person', entityId: p.id, actorId: null, details: (d) => expect(d.sent).toBe(true) }],
    };
  },
  'POST /api/v1/reset-password/confirm': async () => {
    const p = await passwordPerson();
    const person = await t.db.selectFrom('persons').select(['id', 'passwordHash']).where('id', '=', p.id).executeTakeFirstOrThrow();
    return {
      path: '/api/v1/reset-password/confirm',
      token: null,
      json: { token: await signResetToken(t.config, person), newPassword: 'Audit-Reset-9', newPasswordRepeated: 'Audit-Reset-9' },
      expect: [{ action: 'password-reset', entity: 'person', entityId: p.id, actorId: p.id }],
    };
  },

  // ------------------------------------------------ customers
  'POST /api/v1/customer/create': async () => ({
    path: '/api/v1/customer/create',
    json: { name: 'Audit Created Ltd', isMigratedAccount: false },
    expect: [{ action: 'customer.create', entity: 'customer', details: (d) => expect(d.name).toBe('Audit Created Ltd') }],
  }),
  'PUT /api/v1/customer/update': async () => {
    const c = await insertCustomer(t.db, { name: 'Audit Update Ltd' });
    return {
      path: `/api/v1/customer/update?customerId=${c.id}`,
      json: { customerAccount: { name: 'Audit Updated Ltd', isMigratedAccount: false, customerStatus: 2 }, etag: c.etag },
      expect: [
        { action: 'customer.update', entity: 'customer', entityId: c.id, details: beforeAfter({ name: 'Audit Update Ltd' }, { name: 'Audit Updated Ltd' }) },
      ],
    };
  },
  'PUT /api/v1/customer/subscriptions/update': async () => {
    const c = await insertCustomer(t.db, { name: 'Audit Subscriptions Ltd' });
    const services = ['nationalResponse', 'globalResponse', 'eurowatch', 'translationServices', 'checkInTimers', 'teamBroadcast'];
    return {
      path: `/api/v1/customer/subscriptions/update?customerId=${c.id}`,
      json: { additionalServices: { ...flags(services, true), checkInTimers: false }, customerEtag: c.etag },
      expect: [
        {
          action: 'customer.subscriptions-update',
          entity: 'customer',
          entityId: c.id,
          details: (d) => expect(d.additionalServices).toMatchObject({ eurowatch: true }),
        },
      ],
    };
  },
  'PUT /api/v1/customer/settings/update': async () => {
    const c = await insertCustomer(t.db, { name: 'Audit Settings Ltd' });
    const settings = {
      ...flags(['IsAutomaticEmailsPaused', 'AllowDeviceSubscriptionChanges', 'EnableDiscreetAlarmApp', 'EnableFallDetectionApp'], false),
      ...flags(['EnableSmsActivityConfirmation', 'EnableAlarmReportIntelligence', 'AutoGenerateAlarmIntelligence'], false),
      AllowDeviceSubscriptionChanges: true,
    };
    return {
      path: `/api/v1/customer/settings/update?customerId=${c.id}`,
      json: { customerEtag: c.etag, settings },
      expect: [
        {
          action: 'customer.settings-update',
          entity: 'customer',
          entityId: c.id,
          details: beforeAfter({ AllowDeviceSubscriptionChanges: false }, { AllowDeviceSubscriptionChanges: true }),
        },
      ],
    };
  },
  'PUT /ps-admin/fleet-health/thresholds': async () => ({
    path: '/ps-admin/fleet-health/thresholds',
    json: { silentHours: 36, lowBattery: 20, notChargedDays: 3, unusedDays: 7, configHours: 24 },
    expect: [
      {
        action: 'fleet-thresholds.update',
        entity: 'globalSetting',
        entityId: 'fleetThresholds',
        beforeAfter: true,
        details: (d) => expect(d.after).toMatchObject({ silentHours: 36 }),
      },
    ],
  }),
  'PUT /ps-admin/customers/fleet-thresholds': async () => {
    const c = await insertCustomer(t.db, { name: 'Audit Fleet Ltd' });
    return {
      path: '/ps-admin/customers/fleet-thresholds',
      json: { customerId: c.id, unusedDays: 14 },
      expect: [
        {
          action: 'fleet-thresholds.update',
          entity: 'customer',
          entityId: c.id,
          beforeAfter: true,
          details: (d) => expect(d.after).toMatchObject({ unusedDays: 14, silentHours: null }),
        },
      ],
    };
  },
  'POST /api/v1/device/allocate-many': async () => {
    const c = await insertCustomer(t.db, { name: 'Audit Allocation Ltd' });
    await t.db.insertInto('deviceSubscriptions').values({ customerId: c.id, deviceType: 620, purchased: 5 }).execute();
    const d = await device({ serialNumber: 'AUDIT-ALLOCATE-1', type: 620, status: 1 });
    return {
      path: '/api/v1/device/allocate-many',
      json: { customerId: c.id, orderNumber: 'PO-AUDIT-1', devices: [{ id: d.id, etag: d.etag }] },
      expect: [
        { action: 'device.allocate', entity: 'customer', entityId: c.id, details: (x) => expect(x).toMatchObject({ orderNumber: 'PO-AUDIT-1', ids: [d.id] }) },
        {
          action: 'device.allocate',
          entity: 'device',
          entityId: d.id,
          details: beforeAfter({ status: 1, customerId: null, orderNumber: null }, { status: 3, customerId: c.id, orderNumber: 'PO-AUDIT-1' }),
        },
      ],
    };
  },

  // ------------------------------------------------ devices
  'PUT /api/v1/device/:deviceId/general-details': async () => {
    const d = await device({ serialNumber: 'AUDIT-DETAILS-1' });
    return {
      path: `/api/v1/device/${d.id}/general-details`,
      json: { etag: d.etag, generalDetails: { supplier: 'Audit Supplies', simTypeId: 1, simSerial: '8944100000000000001', phoneNumber: '447700900999' } },
      expect: [
        { action: 'device.update', entity: 'device', entityId: d.id, details: beforeAfter({ supplier: 'Supplier Ltd' }, { supplier: 'Audit Supplies' }) },
      ],
    };
  },
  'PUT /api/v1/device/change-status-many': async () => {
    const d = await device({ serialNumber: 'AUDIT-STATUS-1' });
    return {
      path: '/api/v1/device/change-status-many',
      json: { status: 7, devices: [{ id: d.id, etag: d.etag }] },
      expect: [{ action: 'device.change-status', entity: 'device', entityId: d.id, details: beforeAfter({ status: 1 }, { status: 7 }) }],
    };
  },
  'PUT /api/v1/device/change-order-number-many': async () => {
    const c = await insertCustomer(t.db, { name: 'Audit Orders Ltd' });
    const d = await device({ serialNumber: 'AUDIT-ORDER-1', status: 3, customerId: c.id, orderNumber: 'PO-OLD' });
    return {
      path: '/api/v1/device/change-order-number-many',
      json: { orderNumber: 'PO-AUDIT', devices: [{ id: d.id, etag: d.etag }] },
      expect: [
        {
          action: 'device.change-order-number',
          entity: 'device',
          entityId: d.id,
          details: beforeAfter({ orderNumber: 'PO-OLD' }, { orderNumber: 'PO-AUDIT' }),
        },
      ],
    };
  },
  'PUT /api/v1/device/change-device-type': async () => {
    const d = await device({ serialNumber: 'AUDIT-TYPE-1', type: 750 });
    return {
      path: '/api/v1/device/change-device-type',
      json: { serials: ['AUDIT-TYPE-1'], newDeviceType: 640 },
      expect: [{ action: 'device.change-type', entity: 'device', entityId: d.id, details: beforeAfter({ type: 750 }, { type: 640 }) }],
    };
  },
  'POST /api/v1/import/devices': async () => {
    const form = new FormData();
    form.set('File', new File(['SerialNumber,Type\nAUDIT-IMPORT-1,620\n'], 'devices.csv', { type: 'text/csv' }));
    return {
      path: '/api/v1/import/devices',
      body: form,
      expect: [{ action: 'device.import', entity: 'device', details: (d) => expect(d).toMatchObject({ created: 1 }) }],
    };
  },
  'PUT /device-configuration': async () => {
    const d = await device({ serialNumber: 'AUDIT-REFRESH-1', type: 620 });
    return {
      path: '/device-configuration',
      json: { serial: 'AUDIT-REFRESH-1' },
      expect: [{ action: 'device.refresh-configuration', entity: 'device', entityId: d.id, details: (x) => expect(x.serialNumber).toBe('AUDIT-REFRESH-1') }],
    };
  },
  'PUT /device-configuration/firmware': async () => {
    const d = await device({ serialNumber: 'AUDIT-FIRMWARE-1', type: 620 });
    return {
      path: '/device-configuration/firmware',
      json: { serial: 'AUDIT-FIRMWARE-1' },
      expect: [{ action: 'device.refresh-firmware', entity: 'device', entityId: d.id, details: (x) => expect(x.serialNumber).toBe('AUDIT-FIRMWARE-1') }],
    };
  },
  'PUT /api/v1/device/desired-configuration': async () => {
    const d = await device({ serialNumber: 'AUDIT-CONFIG-1', type: 620 });
    return {
      path: '/api/v1/device/desired-configuration',
      json: { serials: ['AUDIT-CONFIG-1'], isTrackingEnabled: true, trackingIntervalMinutes: 15 },
      expect: [
        {
          action: 'device.desired-configuration',
          entity: 'device',
          entityId: d.id,
          details: beforeAfter({ isTrackingEnabled: null }, { isTrackingEnabled: true, trackingIntervalMinutes: 15 }),
        },
      ],
    };
  },

  // ------------------------------------------------ alarm reports
  'POST /alarm-report/add-note': async () => {
    const r = await insertAlarmReport(t.db);
    return {
      path: '/alarm-report/add-note',
      json: { alarmReportId: r.id, note: 'Audited note' },
      expect: [{ action: 'alarmReport.addNote', entity: 'alarmReport', entityId: r.id, details: (d) => expect(d.note).toBe('Audited note') }],
    };
  },
  'PUT /alarm-report/update': async () => {
    const r = await insertAlarmReport(t.db);
    return {
      path: '/alarm-report/update',
      json: { alarmReportId: r.id, alarmId: r.alarmId, escalationPlanFollowed: true, etag: r.etag },
      expect: [
        {
          action: 'alarmReport.escalationPlanFollowed',
          entity: 'alarmReport',
          entityId: r.id,
          details: beforeAfter({ escalationPlanFollowed: false }, { escalationPlanFollowed: true }),
        },
      ],
    };
  },
  'POST /alarm-report/generate-analysis': async () => {
    await setFeature(t.db, 'EnableAlarmReportIntelligence', true);
    const c = await insertCustomer(t.db, { name: 'Audit Intelligence Ltd', enableAlarmReportIntelligence: 1 });
    const r = await insertAlarmReport(t.db, { customerId: c.id });
    return {
      path: '/alarm-report/generate-analysis',
      json: { alarmReportId: r.id },
      expect: [{ action: 'alarmReport.generateAnalysis', entity: 'alarmReport', entityId: r.id, details: (d) => expect(typeof d.generatedAt).toBe('string') }],
    };
  },
  'POST /alarm-report/import': async () => {
    const c = await insertCustomer(t.db, { name: 'Audit Import Ltd' });
    const alarmId = '7d3c2a10-0000-4000-8000-00000000a1a1';
    return {
      path: '/alarm-report/import',
      json: {
        AlarmReports: [{ ...IMPORT_SAMPLE, AlarmId: alarmId, CustomerId: c.id, ProfileSnapshot: { Person: { FirstName: 'Audit', LastName: 'Import' } } }],
      },
      expect: [{ action: 'alarmReport.import', entity: 'alarmReport', details: (d) => expect(d).toMatchObject({ alarmId, customerId: c.id }) }],
    };
  },
  'POST /alarm-report/schedules': async () => {
    await setFeature(t.db, 'ScheduledReports', true);
    return {
      path: '/alarm-report/schedules',
      json: await scheduleInput(),
      expect: [{ action: 'schedule.create', entity: 'schedule', details: (d) => expect(d).toHaveProperty('after') }],
    };
  },
  'PUT /alarm-report/schedules/:id': async () => {
    const s = await schedule();
    return {
      path: `/alarm-report/schedules/${s.Id}`,
      json: { ...(await scheduleInput()), name: 'Renamed schedule', etag: s.Etag },
      expect: [{ action: 'schedule.update', entity: 'schedule', entityId: s.Id, beforeAfter: true }],
    };
  },
  'PUT /alarm-report/schedules/:id/pause': async () => {
    const s = await schedule();
    return {
      path: `/alarm-report/schedules/${s.Id}/pause`,
      json: { paused: true },
      expect: [{ action: 'schedule.pause', entity: 'schedule', entityId: s.Id }],
    };
  },
  'DELETE /alarm-report/schedules/:id': async () => {
    const s = await schedule();
    return {
      path: `/alarm-report/schedules/${s.Id}`,
      expect: [{ action: 'schedule.delete', entity: 'schedule', entityId: s.Id, details: (d) => expect(d).toHaveProperty('before') }],
    };
  },
  'POST /alarm-report/log-call-download': async () => {
    const r = await insertAlarmReport(t.db, { calls: [{}] });
    const callId = r.calls[0]!.id;
    return {
      path: '/alarm-report/log-call-download',
      json: { alarmReportId: r.id, callId },
      expect: [{ action: 'alarmReport.callDownload', entity: 'alarmReport', entityId: r.id, details: (d) => expect(d.callId).toBe(callId) }],
    };
  },
};

type AuditRow = { id: number | string; at: string; actorId: string | null; action: string; entity: string; entityId: string | null; details: string };
const allEntries = async () => (await t.db.selectFrom('auditLog').selectAll().orderBy('id').execute()) as AuditRow[];

test('every write route records an audit entry with its actor, action, record and values; none edits or deletes one', async () => {
  const writes = t.routes.filter((r) => r.method !== 'GET');
  const keys = writes.map((r) => `${r.method} ${r.path}`);
  // every write route is either audited (a fixture) or listed with its reason, never both
  const unclassified = writes.filter((r) => !FIXTURES[`${r.method} ${r.path}`] && !notAudited(r.path)).map((r) => `${r.method} ${r.path}`);
  expect(unclassified, 'write routes with neither a fixture nor a reason to record nothing').toEqual([]);
  expect(writes.filter((r) => FIXTURES[`${r.method} ${r.path}`] && notAudited(r.path)).map((r) => r.path)).toEqual([]);
  expect(
    Object.keys(FIXTURES).filter((k) => !keys.includes(k)),
    'fixtures of routes that do not exist',
  ).toEqual([]);

  // entries already there when the walk starts; each write below must leave every earlier entry as it was
  await t.db
    .insertInto('auditLog')
    .values(
      ['first', 'second'].map((n) => ({
        at: new Date().toISOString(),
        actorId: admin.id,
        action: `walk.${n}`,
        entity: 'walk',
        entityId: n,
        details: '{"n":1}',
      })),
    )
    .execute();
  const earlier = await allEntries();
  const refused: string[] = [];
  const missing: string[] = [];
  const edited: string[] = [];
  for (const r of writes) {
    const key = `${r.method} ${r.path}`;
    const fixture = FIXTURES[key];
    if (!fixture) continue;
    const call = await fixture();
    const before = await allEntries();
    const last = Math.max(0, ...before.map((e) => Number(e.id)));
    const res = await t.request(call.path, {
      method: r.method,
      token: call.token === null ? undefined : (call.token ?? admin.token),
      json: call.json,
      form: call.form,
      body: call.body,
    });
    if (res.status >= 300) {
      refused.push(`${key}: ${res.status} ${await res.text()}`);
      continue;
    }
    const after = await allEntries();
    const kept = new Map(after.map((e) => [String(e.id), e]));
    if (before.some((e) => JSON.stringify(kept.get(String(e.id))) !== JSON.stringify(e))) edited.push(key);
    const added = after.filter((e) => Number(e.id) > last);
    for (const want of call.expect) {
      const actorId = want.actorId === undefined ? admin.id : want.actorId;
      const row = added.find(
        (a) => a.action === want.action && a.entity === want.entity && a.actorId === actorId && (want.entityId === undefined || a.entityId === want.entityId),
      );
      if (!row) {
        missing.push(`${key}: no ${want.action} entry on ${want.entity} ${want.entityId ?? ''} by ${actorId} (added: ${JSON.stringify(added)})`);
        continue;
      }
      const details = JSON.parse(row.details) as Details;
      // values: every entry says what was written
      expect(typeof details === 'object' && details !== null && Object.keys(details).length > 0, `${key}: ${want.action} has no values`).toBe(true);
      if (want.beforeAfter) for (const k of ['before', 'after']) expect(details, `${key}: ${k}`).toHaveProperty(k);
      want.details?.(details);
    }
  }
  expect(refused, 'fixtures the server refused').toEqual([]);
  expect(missing, 'write routes that did not record their entry').toEqual([]);
  expect(edited, 'write routes that edited or deleted an earlier entry').toEqual([]);

  // every GET too, with its sample request: afterwards each entry written before the walk is unchanged
  for (const r of t.routes.filter((x) => x.method === 'GET')) {
    const qs = r.sample?.query ? `?${new URLSearchParams(r.sample.query).toString()}` : '';
    await t.request(`${r.path.replace(/:(\w+)/g, '00000000-0000-4000-8000-000000000000')}${qs}`, { token: r.access === 'public' ? undefined : admin.token });
  }
  const now = new Map((await allEntries()).map((e) => [String(e.id), e]));
  expect(earlier.length).toBeGreaterThan(0);
  for (const e of earlier) expect(now.get(String(e.id)), `entry ${e.id} edited or deleted`).toEqual(e);
});

test("no route has an audit entry path, and the server's code never updates or deletes one", () => {
  expect(t.routes.filter((r) => r.method !== 'GET' && /audit/i.test(r.path) && !/\/(get|export)-list$/.test(r.path))).toEqual([]);
  const root = fileURLToPath(new URL('../../src/server', import.meta.url));
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const p = join(dir, name);
      if (statSync(p).isDirectory()) walk(p);
      else if (p.endsWith('.ts')) files.push(p);
    }
  };
  walk(root);
  // the demo seed's --reset (a command-line tool that starts over) and migrations are not the product's routes
  const product = files.filter((f) => !/[\\/](seed|migrations)[\\/]/.test(f) && !f.endsWith('migrations.ts'));
  expect(product.length).toBeGreaterThan(40);
  const edits = [
    /(updateTable|deleteFrom|replaceInto|mergeInto)\(\s*['"`]auditLog['"`]/,
    /\b(update|delete\s+from|truncate(\s+table)?)\s+"?auditLog"?/i,
    /insertInto\(\s*['"`]auditLog['"`]\)[\s\S]{0,400}?onConflict/,
  ];
  const offending = product.filter((f) => edits.some((re) => re.test(readFileSync(f, 'utf8'))));
  expect(offending).toEqual([]);
});
