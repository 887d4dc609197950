// Every write route records who changed what: walking the server's route table, each route that is
// not a read (GET, or a POST that only reads: lists, exports, look-ups) is called with its sample
// request as a provider admin, and an answer under 300 must have added an audit entry. Routes whose
// sample the server refuses (validation, missing record) changed nothing and need none; the routes
// that change persons, customers, devices and alarm reports have real fixtures below instead (a
// stored record with its etag), which must succeed. The list of reads is explicit, so a new write
// route is checked unless someone declares it a read here.
// SQLite and, with TEST_DB=pg, PostgreSQL.
import { afterAll, beforeAll, expect, test } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { insertPerson, signedIn } from '../helpers/auth.js';
import { deviceRow, insertCustomer } from '../helpers/customers.js';
import { insertAlarmReport } from '../helpers/alarm-reports.js';
import { ROLE_IDS } from '../../src/shared/permissions.js';

/** POST/PUT routes that change nothing a person did (reads, exports, sessions, device telemetry). */
const READS = [
  /\/get-/,
  /\/export\//,
  /export-list$/,
  /\/download-/,
  /\/query$/,
  /^\/api\/search/,
  /^\/api\/captcha/,
  /^\/api\/v1\/sso\/nonce$/,
  /^\/api\/admin\/negotiate$/,
  /^\/devices\/subscribe-for-monitoring$/,
  /^\/api\/v1\/device-messages\/ingest$/, // device telemetry, not a change by a person
  /^\/connect\/revocation$/, // ends a session; audited when a token is revoked, nothing for an unknown one
  /^\/api\/v1\/import\/devices-to-allocate\//, // reads a serial list; the allocation itself is audited
  /^\/alarm-report\/get-/,
  // Answers 200 for any address so that it tells nobody which accounts exist; for the sample's
  // unknown address nothing happens. A code really sent is audited (verification-code-sent).
  /^\/api\/v1\/two-factor-authentication\/send$/,
];

let t: TestApp;
let token: string;
let adminId: string;
beforeAll(async () => {
  t = await createTestApp();
  ({ token, id: adminId } = await signedIn(t.db, t.config, ['SuperAdminRole']));
});
afterAll(async () => {
  await t?.close();
});

type Call = { path: string; json?: unknown };
const flags = (keys: string[], on: boolean) => Object.fromEntries(keys.map((k) => [k, on]));
/** Requests that really change a stored record, keyed by the route's method and path. */
const FIXTURES: Record<string, () => Promise<Call>> = {
  'PUT /api/v1/person/:id/identity-update': async () => {
    const id = await insertPerson(t.db, { email: 'audit.identity@staff.test', firstName: 'Audit', lastName: 'Identity', roles: ['ArcControllerRole'] });
    const { etag } = await t.db.selectFrom('persons').select('etag').where('id', '=', id).executeTakeFirstOrThrow();
    return {
      path: `/api/v1/person/${id}/identity-update`,
      json: {
        personId: id,
        person: { firstName: 'Audited', lastName: 'Identity', emailAddress: 'audit.identity@staff.test', roleIds: [ROLE_IDS.ArcManagerRole], etag },
      },
    };
  },
  'PUT /api/v1/:id/unlock': async () => {
    const id = await insertPerson(t.db, { email: 'audit.locked@staff.test', roles: ['ArcControllerRole'], isLocked: true });
    return { path: `/api/v1/${id}/unlock` };
  },
  'PUT /api/v1/person/basic-info-update': async () => {
    const { etag } = await t.db.selectFrom('persons').select('etag').where('id', '=', adminId).executeTakeFirstOrThrow();
    return { path: '/api/v1/person/basic-info-update', json: { etag, person: { firstName: 'Audited', lastName: 'Admin', phoneNumbers: [] } } };
  },
  'PUT /api/v1/person/:id/login-method': async () => {
    const id = await insertPerson(t.db, { email: 'audit.login@staff.test', roles: ['ArcControllerRole'] });
    return { path: `/api/v1/person/${id}/login-method`, json: { loginMethod: 2, ssoEmail: 'audit.login@idp.test' } };
  },
  'PUT /api/v1/device/:deviceId/general-details': async () => {
    const d = deviceRow({ serialNumber: 'AUDIT-DETAILS-1' });
    await t.db.insertInto('devices').values(d).execute();
    return {
      path: `/api/v1/device/${d.id}/general-details`,
      json: { etag: d.etag, generalDetails: { supplier: 'Audit Supplies', simTypeId: 1, simSerial: '8944100000000000001', phoneNumber: '447700900999' } },
    };
  },
  'POST /api/v1/device/allocate-many': async () => {
    const c = await insertCustomer(t.db, { name: 'Audit Allocation Ltd' });
    await t.db.insertInto('deviceSubscriptions').values({ customerId: c.id, deviceType: 620, purchased: 5 }).execute();
    const d = deviceRow({ serialNumber: 'AUDIT-ALLOCATE-1', type: 620, status: 1 });
    await t.db.insertInto('devices').values(d).execute();
    return { path: '/api/v1/device/allocate-many', json: { customerId: c.id, orderNumber: 'PO-AUDIT-1', devices: [{ id: d.id, etag: d.etag }] } };
  },
  'PUT /api/v1/customer/update': async () => {
    const c = await insertCustomer(t.db, { name: 'Audit Update Ltd' });
    return {
      path: `/api/v1/customer/update?customerId=${c.id}`,
      json: { customerAccount: { name: 'Audit Updated Ltd', isMigratedAccount: false, customerStatus: 2 }, etag: c.etag },
    };
  },
  'PUT /api/v1/customer/subscriptions/update': async () => {
    const c = await insertCustomer(t.db, { name: 'Audit Subscriptions Ltd' });
    const services = ['nationalResponse', 'globalResponse', 'eurowatch', 'translationServices', 'checkInTimers', 'teamBroadcast'];
    return { path: `/api/v1/customer/subscriptions/update?customerId=${c.id}`, json: { additionalServices: flags(services, true), customerEtag: c.etag } };
  },
  'PUT /api/v1/customer/settings/update': async () => {
    const c = await insertCustomer(t.db, { name: 'Audit Settings Ltd' });
    const settings = {
      ...flags(['IsAutomaticEmailsPaused', 'AllowDeviceSubscriptionChanges', 'EnableDiscreetAlarmApp', 'EnableFallDetectionApp'], false),
      ...flags(['EnableSmsActivityConfirmation', 'EnableAlarmReportIntelligence', 'AutoGenerateAlarmIntelligence'], false),
      AllowDeviceSubscriptionChanges: true,
    };
    return { path: `/api/v1/customer/settings/update?customerId=${c.id}`, json: { customerEtag: c.etag, settings } };
  },
  'PUT /api/v1/device/change-status-many': async () => {
    const d = deviceRow({ serialNumber: 'AUDIT-STATUS-1' });
    await t.db.insertInto('devices').values(d).execute();
    return { path: '/api/v1/device/change-status-many', json: { status: 7, devices: [{ id: d.id, etag: d.etag }] } };
  },
  'PUT /api/v1/device/change-order-number-many': async () => {
    const c = await insertCustomer(t.db, { name: 'Audit Orders Ltd' });
    const d = deviceRow({ serialNumber: 'AUDIT-ORDER-1', status: 3, customerId: c.id });
    await t.db.insertInto('devices').values(d).execute();
    return { path: '/api/v1/device/change-order-number-many', json: { orderNumber: 'PO-AUDIT', devices: [{ id: d.id, etag: d.etag }] } };
  },
  'PUT /api/v1/device/change-device-type': async () => {
    await t.db
      .insertInto('devices')
      .values(deviceRow({ serialNumber: 'AUDIT-TYPE-1', type: 750 }))
      .execute();
    return { path: '/api/v1/device/change-device-type', json: { serials: ['AUDIT-TYPE-1'], newDeviceType: 640 } };
  },
  'POST /alarm-report/add-note': async () => {
    const r = await insertAlarmReport(t.db);
    return { path: '/alarm-report/add-note', json: { alarmReportId: r.id, note: 'Audited note' } };
  },
  'PUT /alarm-report/update': async () => {
    const r = await insertAlarmReport(t.db);
    return { path: '/alarm-report/update', json: { alarmReportId: r.id, alarmId: r.alarmId, escalationPlanFollowed: !r.escalationPlanFollowed, etag: r.etag } };
  },
};

const auditCount = async () =>
  Number(
    (
      await t.db
        .selectFrom('auditLog')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

test('every write route that succeeds writes an audit entry', async () => {
  const writes = t.routes.filter((r) => r.method !== 'GET' && !READS.some((re) => re.test(r.path)));
  expect(writes.length).toBeGreaterThan(10);
  const missing: string[] = [];
  const checked: string[] = [];
  const refused: string[] = [];
  for (const r of writes) {
    const key = `${r.method} ${r.path}`;
    const fixture = await FIXTURES[key]?.();
    const path = r.path.replace(/:(\w+)/g, '00000000-0000-4000-8000-000000000000');
    const qs = r.sample?.query ? `?${new URLSearchParams(r.sample.query).toString()}` : '';
    const before = await auditCount();
    const res = await t.request(fixture ? fixture.path : `${path}${qs}`, {
      method: r.method,
      token: r.access === 'public' ? undefined : token,
      json: fixture ? fixture.json : (r.sample?.json ?? (r.sample?.form ? undefined : r.method === 'DELETE' ? undefined : {})),
      form: fixture ? undefined : r.sample?.form,
      headers: r.sample?.headers,
    });
    if (fixture && res.status >= 300) refused.push(`${key}: ${res.status} ${await res.text()}`);
    if (res.status >= 300) continue;
    checked.push(`${r.method} ${r.path}`);
    if ((await auditCount()) === before) missing.push(`${r.method} ${r.path}`);
  }
  expect(refused, 'fixtures the server refused').toEqual([]);
  expect(missing, `write routes without an audit entry (checked: ${checked.join(', ')})`).toEqual([]);
  // every fixture names a route that exists and was checked
  expect(Object.keys(FIXTURES).filter((k) => !checked.includes(k))).toEqual([]);
  expect(checked.length).toBeGreaterThanOrEqual(Object.keys(FIXTURES).length + 6);
});
