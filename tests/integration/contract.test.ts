// The API contract against the real server (SQLite by default, PostgreSQL with TEST_DB=pg):
//   - the contract table (src/shared/schemas/endpoints.ts) and the server's route table list the
//     same endpoints, so a route cannot be added without declaring what it answers;
//   - every endpoint's real success answer parses with its strict output schema, so the server
//     cannot send a field the contract lacks (or drop one it names) without this test failing.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import * as v from 'valibot';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { insertPerson, signedIn, tokenFor } from '../helpers/auth.js';
import { hashPassword } from '../../src/server/auth/password.js';
import { signResetToken } from '../../src/server/auth/reset.js';
import { ENDPOINTS, type Endpoint } from '../../src/shared/schemas/endpoints.js';
import { londonMonthOf } from '../../src/shared/management-report.js';
import { errorBodySchema } from '../../src/shared/schemas/common.js';
import { tokenErrorSchema } from '../../src/shared/schemas/auth.js';
import { ROLE_IDS } from '../../src/shared/permissions.js';
import { CODE } from '../../src/shared/messages.js';
import { solvedCaptcha } from '../helpers/captcha.js';
import { at, first } from '../helpers/lists.js';
import { readXlsx } from '../helpers/xlsx.js';
import { insertAlarmReport } from '../helpers/alarm-reports.js';
import { deviceRow, insertCustomer } from '../helpers/customers.js';
import { seedAudioClips } from '../../src/server/modules/alarm-reports/audio.js';
import { IMPORT_SAMPLE } from '../../src/shared/schemas/alarm-report-import.js';

let t: TestApp;
let admin: string;
let adminId: string;
let annId: string;
const PASSWORD = 'Contract-Passw0rd!';
const checked = new Set<Endpoint>();

beforeAll(async () => {
  t = await createTestApp();
  const me = await signedIn(t.db, t.config, ['SuperAdminRole'], 'contract.admin@staff.test');
  admin = me.token;
  adminId = me.id;
  annId = await insertPerson(t.db, {
    email: 'contract.ann@staff.test',
    firstName: 'Contract',
    lastName: 'Ann',
    roles: ['ArcManagerRole', 'ArcControllerRole'],
    passwordHash: await hashPassword(PASSWORD),
  });
  await t.db
    .updateTable('persons')
    .set({
      lastLoginDate: '2026-01-02T03:04:05.000Z',
      phoneNumbers: JSON.stringify([{ CountryCode: 'GB', Number: '2079460018', IsPrimary: true, Type: 1 }]),
    })
    .where('id', '=', annId)
    .execute();
});
afterAll(async () => {
  await t.close();
});

type Init = Parameters<TestApp['request']>[1];

/** Calls an endpoint and parses the answer with the endpoint's output schema (strict: unknown fields fail). */
async function expectContract<E extends Endpoint>(endpoint: E, path: string, init: Init = {}) {
  const [method] = endpoint.split(' ');
  const res = await t.request(path, { method, token: admin, ...init });
  const body: unknown = await res.json();
  expect(res.status, `${endpoint}: ${JSON.stringify(body)}`).toBeLessThan(300);
  const r = v.safeParse(ENDPOINTS[endpoint], body);
  expect(r.success ? [] : r.issues.map((i) => `${v.getDotPath(i) ?? '(root)'}: ${i.message}`), `${endpoint} answers its contract`).toEqual([]);
  checked.add(endpoint);
  return body as v.InferOutput<(typeof ENDPOINTS)[E]>;
}

test('the contract and the server declare the same endpoints', () => {
  const served = t.routes.map((r) => `${r.method} ${r.path}`).sort();
  expect(served).toEqual(Object.keys(ENDPOINTS).sort());
});

describe('every endpoint answers its contract', () => {
  test('persons', async () => {
    const list = await expectContract('GET /ps-admin/persons/get-list', '/ps-admin/persons/get-list?searchValue=contract');
    expect(list.Items.map((p) => p.Email).sort()).toEqual(['contract.admin@staff.test', 'contract.ann@staff.test']);
    expect(list.Items.find((p) => p.Id === annId)?.Roles).toHaveLength(2);

    const ann = await expectContract('GET /persons/get-by-id', `/persons/get-by-id?Id=${annId}`);
    expect(ann.Person.PhoneNumbers).toEqual([{ CountryCode: 'GB', Number: '2079460018', IsPrimary: true, Type: 1 }]);

    const created = await expectContract('POST /api/v1/person', '/api/v1/person', {
      json: { person: { firstName: 'New', lastName: 'Person', emailAddress: 'contract.new@staff.test', roleIds: [ROLE_IDS.ArcSupervisorRole] } },
    });
    const updated = await expectContract('PUT /api/v1/person/:id/identity-update', `/api/v1/person/${created.Id}/identity-update`, {
      json: { personId: created.Id, person: { firstName: 'Renamed', lastName: 'Person', roleIds: [ROLE_IDS.ArcManagerRole], etag: created.Etag } },
    });
    expect(updated.Etag).not.toBe(created.Etag);
    await expectContract('PUT /api/v1/:id/unlock', `/api/v1/${created.Id}/unlock`);

    const own = await expectContract('GET /persons/get-own-profile', '/persons/get-own-profile');
    expect(own.Person.Id).toBe(adminId);
    await expectContract('PUT /api/v1/person/basic-info-update', '/api/v1/person/basic-info-update', {
      json: {
        etag: own.Etag,
        person: { firstName: 'Contract', lastName: 'Admin', phoneNumbers: [{ CountryCode: 'GB', Number: '020 7946 0018', IsPrimary: true, Type: 2 }] },
      },
    });
  });

  test('reference data', async () => {
    const dict = await expectContract('GET /ps-admin/dictionaries/get-all', '/ps-admin/dictionaries/get-all');
    expect(dict.Roles.SuperAdminRole.Id).toBe(ROLE_IDS.SuperAdminRole);
    expect(first(dict.Countries).Code).toBe('GB');
    expect((await expectContract('GET /features/all', '/features/all', { token: undefined })).Features.length).toBeGreaterThan(0);
    expect((await expectContract('GET /features', '/features?name=SingleSignOn', { token: undefined })).Features).toHaveLength(1);
    await expectContract('GET /customers/get-global-settings', '/customers/get-global-settings');
    expect((await expectContract('GET /api/v1/device/get-types', '/api/v1/device/get-types')).length).toBeGreaterThan(0);
    await insertPerson(t.db, { email: 'contract.controller@arc.test', firstName: 'Con', lastName: 'Troller', roles: ['ArcControllerRole'] });
    expect((await expectContract('GET /alarm-report/get-controllers', '/alarm-report/get-controllers')).length).toBeGreaterThan(0);
    const lookups = [
      'GET /api/v1/device/get-last-config-filters',
      'GET /api/v1/device/get-sim-types',
      'GET /api/v1/device/get-asset-statuses',
      'GET /api/v1/customer/get-tier-types',
      'GET /api/v1/customer/get-statuses',
      'GET /alarm-report/get-date-rage-options',
      'GET /alarm-report/get-alarm-types',
      'GET /alarm-report/get-verification-types',
      'GET /alarm-report/get-verification-categories',
    ] as const;
    for (const e of lookups) expect((await expectContract(e, e.slice(4))).length, e).toBeGreaterThan(0);
  });

  test('devices', async () => {
    const fd = new FormData();
    fd.append('File', new File(['SerialNumber,Type,IMEI\nCONTRACT-001,620,359000000000991\nCONTRACT-002,3,\n'], 'devices.csv', { type: 'text/csv' }));
    const imported = await expectContract('POST /api/v1/import/devices', '/api/v1/import/devices', { body: fd });
    expect(imported).toMatchObject({ created: 2 });
    const [id1, id2] = imported.idList;
    const list = await expectContract('POST /api/v1/device/get-list', '/api/v1/device/get-list', { json: { searchValue: 'CONTRACT' } });
    expect(list.devices.map((d) => d.id)).toEqual([id1, id2]);
    const d1 = await expectContract('GET /api/v1/device/get-by-id', `/api/v1/device/get-by-id?id=${id1}`);
    expect((await expectContract('GET /api/v1/device/get-by-serial', '/api/v1/device/get-by-serial?serial=contract-002')).id).toBe(id2);
    await expectContract('POST /api/v1/device/get-list-by-ids', '/api/v1/device/get-list-by-ids', { json: { ids: [id2, id1] } });
    const bySerial = await expectContract('POST /api/v1/device/get-list-by-serials', '/api/v1/device/get-list-by-serials', {
      json: { serials: ['CONTRACT-001', 'CONTRACT-404'] },
    });
    expect(at(bySerial.devices, 1).etag).toBe('not-found');
    const d1b = await expectContract('PUT /api/v1/device/:deviceId/general-details', `/api/v1/device/${id1}/general-details`, {
      json: { etag: d1.etag, generalDetails: { supplier: 'Contract Supplies', simTypeId: 1, simSerial: '894400000000001', phoneNumber: '447700900123' } },
    });
    const status = await expectContract('PUT /api/v1/device/change-status-many', '/api/v1/device/change-status-many', {
      json: { status: 4, devices: [{ id: id1, etag: d1b.etag }] },
    });
    await expectContract('PUT /api/v1/device/change-order-number-many', '/api/v1/device/change-order-number-many', {
      json: { orderNumber: 'PO-C', devices: status.devices },
    });
    await expectContract('PUT /api/v1/device/change-device-type', '/api/v1/device/change-device-type', {
      json: { serials: ['CONTRACT-002'], newDeviceType: 640 },
    });
    // Exports answer an .xlsx workbook (a blob): read it back with an independent reader.
    for (const [endpoint, json] of [
      ['POST /api/v1/device/export/list-with-filters', { searchValue: 'CONTRACT' }],
      ['POST /api/v1/device/export/list-by-ids', { ids: [id1, id2] }],
    ] as const) {
      const res = await t.request(endpoint.slice(5), { method: 'POST', token: admin, json });
      expect(res.status, endpoint).toBe(200);
      expect(res.headers.get('content-type')).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
      const bytes = new Uint8Array(await res.arrayBuffer());
      expect(v.safeParse(ENDPOINTS[endpoint], bytes).success).toBe(true);
      const [sheet] = await readXlsx(Buffer.from(bytes));
      expect(sheet?.sheet).toBe('Devices');
      expect(first(sheet?.data ?? [])).toContain('Serial Number');
      expect(
        (sheet?.data ?? [])
          .slice(1)
          .map((r) => String(r[0]))
          .sort(),
      ).toEqual(['CONTRACT-001', 'CONTRACT-002']);
      checked.add(endpoint);
    }
  });

  test('alarm reports', async () => {
    await seedAudioClips(t.db, 1);
    const closed = new Date(Date.now() - 3_600_000).toISOString();
    const r = await insertAlarmReport(t.db, {
      alarmClosed: closed,
      personFullName: 'Contract Alarmperson',
      calls: [{ line: 'Alarm' }, { line: 'Outbound Second Line' }],
      memos: [{}],
      journal: [{ details: 'Alarm raised', customProperties: JSON.stringify({ kind: 'alarmType', trigger: 'SOS Button' }) }],
      notes: [{ note: 'Reviewed' }],
    });
    const filter = { alarmClosedDateRangeOption: 2, searchValue: 'contract alarmperson' };
    const list = await expectContract('POST /alarm-report/get-list', '/alarm-report/get-list', { json: { page: 1, pageSize: 10, ...filter } });
    expect(list.AlarmReports.map((x) => x.AlarmId)).toEqual([r.alarmId]);
    expect(
      (await expectContract('POST /alarm-report/get-verification-started-timeframes', '/alarm-report/get-verification-started-timeframes', { json: filter }))
        .TotalCount,
    ).toBe(1);
    expect(
      (
        await expectContract('POST /alarm-report/get-verification-completed-timeframes', '/alarm-report/get-verification-completed-timeframes', {
          json: filter,
        })
      ).TotalCount,
    ).toBe(1);
    expect(
      (await expectContract('POST /alarm-report/get-verification-type-timeframes', '/alarm-report/get-verification-type-timeframes', { json: filter })).Labels,
    ).toHaveLength(7);
    expect((await expectContract('POST /alarm-report/get-response-targets', '/alarm-report/get-response-targets', { json: filter })).Within10.Count).toBe(1);
    const d = await expectContract('GET /alarm-report/get-details', `/alarm-report/get-details?AlarmId=${r.alarmId}`);
    expect(d.Calls).toHaveLength(2);
    expect((await expectContract('POST /alarm-report/add-note', '/alarm-report/add-note', { json: { alarmReportId: r.id, note: 'Contract note' } })).Note).toBe(
      'Contract note',
    );
    await expectContract('PUT /alarm-report/update', '/alarm-report/update', {
      json: { alarmReportId: r.id, alarmId: r.alarmId, escalationPlanFollowed: true, etag: d.Etag },
    });
    const [alarmCall, secondCall] = d.Calls;
    await expectContract('POST /alarm-report/log-call-download', '/alarm-report/log-call-download', { json: { alarmReportId: r.id, callId: alarmCall?.Id } });
    // Alarm report intelligence: a customer with it on.
    const intel = await insertCustomer(t.db, { name: 'Analysis Intelligence Ltd', enableAlarmReportIntelligence: 1, autoGenerateAlarmIntelligence: 0 });
    await t.db.updateTable('alarmReports').set({ customerId: intel.id }).where('id', '=', r.id).execute();
    expect(
      (await expectContract('POST /alarm-report/generate-analysis', '/alarm-report/generate-analysis', { json: { alarmReportId: r.id } })).Analysis,
    ).not.toBeNull();
    expect((await expectContract('GET /alarm-report/get-analysis', `/alarm-report/get-analysis?AlarmReportId=${r.id}`)).Enabled).toBe(true);
    // The monthly management report of that customer, for the month the report closed in.
    const closedMonth = londonMonthOf(
      new Date((await t.db.selectFrom('alarmReports').select('alarmClosed').where('id', '=', r.id).executeTakeFirstOrThrow()).alarmClosed),
    );
    expect(
      (
        await expectContract('POST /alarm-report/get-management-report', '/alarm-report/get-management-report', {
          json: { month: closedMonth, customerId: intel.id },
        })
      ).TotalCount,
    ).toBe(1);
    // Blob answers: the export (.xlsx) and the audio (audio/wav).
    const blobs = [
      [
        'POST /alarm-report/export-list',
        '/alarm-report/export-list',
        { method: 'POST', json: filter },
        'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      ],
      [
        'GET /api/v1/alarm-line/get-record-file',
        `/api/v1/alarm-line/get-record-file?RecordSId=${alarmCall?.Records[0]?.SId}&ConferenceName=${alarmCall?.ConferenceName}&Id=${alarmCall?.Id}`,
        {},
        'audio/wav',
      ],
      [
        'GET /api/v1/second-line/get-record-file',
        `/api/v1/second-line/get-record-file?RecordSId=${secondCall?.Records[0]?.SId}&ConferenceName=${secondCall?.ConferenceName}&Id=${secondCall?.Id}`,
        {},
        'audio/wav',
      ],
      [
        'GET /interactive-communication/portal/voice-memo/get-file',
        `/interactive-communication/portal/voice-memo/get-file?PersonId=${r.personId}&MemoId=${r.memos[0]?.voiceMemoId}`,
        {},
        'audio/wav',
      ],
    ] as const;
    for (const [endpoint, path, init, type] of blobs) {
      const res = await t.request(path, { token: admin, ...init });
      expect(res.status, endpoint).toBe(200);
      expect(res.headers.get('content-type'), endpoint).toBe(type);
      expect(v.safeParse(ENDPOINTS[endpoint], new Uint8Array(await res.arrayBuffer())).success, endpoint).toBe(true);
      checked.add(endpoint);
    }
  });

  // customers
  test('customers', async () => {
    await t.db
      .insertInto('crmAccounts')
      .values({
        id: '001CONTRACT',
        name: 'Contract CRM Account',
        urn: 'URN-CONTRACT',
        streetLine1: '1 Contract Street',
        streetLine2: null,
        county: null,
        city: 'Leeds',
        postalCode: 'LS1 1AA',
        country: 'United Kingdom',
        phone: '+441134960000',
        accountManagerFullName: 'Alex Owner',
        customerSuccessManagerFullName: 'Sam Success',
        customerSuccessTier: 2,
        searchName: 'contract crm account',
      })
      .execute();
    const [crm] = await expectContract('POST /api/v1/salesforce/account/query', '/api/v1/salesforce/account/query', { json: { query: 'contract' } });
    expect(crm?.countryId).toBe('country-gb');
    const created = await expectContract('POST /api/v1/customer/create', '/api/v1/customer/create', {
      json: {
        name: crm?.name,
        isMigratedAccount: true,
        portalReferenceNumber: '31337',
        customerStatus: 1,
        customerSuccessTier: crm?.customerSuccessTier,
        salesforceId: crm?.id,
        salesforceUrn: crm?.urn,
        phoneNumber: crm?.phone,
        addressDto: { addressLine1: crm?.streetLine1, city: crm?.city, postCode: crm?.postalCode, countryId: crm?.countryId },
      },
    });
    const id = created.Id;
    const list = await expectContract('POST /api/v1/customer/get-list', '/api/v1/customer/get-list', { json: { searchValue: 'contract' } });
    expect(list.customers.map((c) => c.id)).toEqual([id]);
    await expectContract('GET /api/v1/customer/get-by-id', `/api/v1/customer/get-by-id?id=${id}`);
    const details = await expectContract('GET /ps-admin/customers/get-details', `/ps-admin/customers/get-details?CustomerId=${id}`);
    expect(details.Address.Country).toBe('United Kingdom');
    await expectContract('GET /ps-admin/customers/filters-all', '/ps-admin/customers/filters-all');
    const dup = await expectContract(
      'GET /ps-admin/customers/get-duplicates',
      '/ps-admin/customers/get-duplicates?Name=contract%20crm%20account&PortalReferenceNumber=31337&SalesforceUrn=URN-CONTRACT',
    );
    expect(dup.Duplicates.map((d) => d.MatchedOn)).toEqual([['Name', 'PortalReferenceNumber', 'SalesforceUrn']]);
    const updated = await expectContract('PUT /api/v1/customer/update', `/api/v1/customer/update?customerId=${id}`, {
      json: {
        customerAccount: { name: 'Contract CRM Account', isMigratedAccount: true, customerStatus: 2, salesforceUrn: 'URN-CONTRACT' },
        etag: created.Etag,
      },
    });
    const subs = await expectContract('GET /ps-admin/customers/get-subscriptions', `/ps-admin/customers/get-subscriptions?CustomerId=${id}`);
    expect(subs.CustomerEtag).toBe(updated.Etag);
    await expectContract('PUT /api/v1/customer/subscriptions/update', `/api/v1/customer/subscriptions/update?customerId=${id}`, {
      json: {
        deviceSubscriptions: { subscriptions: [{ deviceType: 620, purchased: 2 }] },
        appSubscriptions: {
          appFeatures: {
            isWelfareCheckEnabled: true,
            isFallDetectionEnabled: true,
            isTravelSafeEnabled: false,
            isTrackingEnabled: true,
            isSureCamEnabled: false,
            trackingInterval: 15,
            isSosDisabled: false,
          },
          subscriptions: [{ appSubscriptionType: 1, purchased: 5 }],
        },
        additionalServices: {
          nationalResponse: true,
          globalResponse: false,
          eurowatch: false,
          translationServices: false,
          checkInTimers: false,
          teamBroadcast: true,
        },
        deviceSubscriptionsEtag: subs.DeviceSubscriptions.Etag,
        appSubscriptionsEtag: subs.AppSubscriptions.Etag,
        customerEtag: subs.CustomerEtag,
      },
    });
    const settings = await expectContract('GET /ps-admin/customers/get-settings', `/ps-admin/customers/get-settings?CustomerId=${id}`);
    await expectContract('PUT /api/v1/customer/settings/update', `/api/v1/customer/settings/update?customerId=${id}`, {
      json: { customerEtag: settings.CustomerEtag, settings: { ...settings.Settings, IsAutomaticEmailsPaused: true } },
    });
    const adminAdded = await t.request('/api/v1/person', {
      method: 'POST',
      token: admin,
      headers: { 'tenant-id': created.TenantId },
      json: {
        person: {
          firstName: 'Con',
          lastName: 'Tract',
          emailAddress: 'contract.customer.admin@customer.test',
          roleIds: [ROLE_IDS.AdminRole, ROLE_IDS.PortalUserRole],
        },
      },
    });
    expect(adminAdded.status).toBe(201);
    const admins = await expectContract(
      'GET /ps-admin/persons/get-customer-admin-list',
      `/ps-admin/persons/get-customer-admin-list?TenantId=${created.TenantId}`,
    );
    expect(admins.Items.map((a) => a.Email)).toEqual(['contract.customer.admin@customer.test']);
    expect((await expectContract('GET /ps-admin/emails/get-backlog-count', `/ps-admin/emails/get-backlog-count?TenantId=${created.TenantId}`)).count).toBe(1);

    const stockId = '00000000-0000-4000-8000-00000000c0de';
    await t.db
      .insertInto('devices')
      .values(deviceRow({ id: stockId, serialNumber: 'CONTRACT-ALLOC-1', supplier: null, etag: '"contract-alloc"' }))
      .execute();
    const fd = new FormData();
    fd.append('File', new File(['SerialNumber\nCONTRACT-ALLOC-1\nCONTRACT-404\n'], 'allocate.csv', { type: 'text/csv' }));
    const toAllocate = await expectContract('POST /api/v1/import/devices-to-allocate/:customerId', `/api/v1/import/devices-to-allocate/${id}`, { body: fd });
    expect(toAllocate.devices.map((d) => [d.serialNumber, d.isAllocatable])).toEqual([
      ['CONTRACT-ALLOC-1', true],
      ['CONTRACT-404', false],
    ]);
    const d0 = first(toAllocate.devices);
    await expectContract('POST /api/v1/device/allocate-many', '/api/v1/device/allocate-many', {
      json: { customerId: id, orderNumber: 'PO-CONTRACT', devices: [{ id: d0.id, etag: d0.etag, typeValue: d0.type.value }] },
    });
    const devices = await expectContract('POST /api/v1/customer/get-device-list/:customerId', `/api/v1/customer/get-device-list/${id}`, { json: {} });
    expect(devices.devices.map((d) => d.serialNumber)).toEqual(['CONTRACT-ALLOC-1']);
    // fleet health: the allocated device has never sent a message (silent), and the thresholds of the provider and of the customer
    const fleet = await expectContract('GET /ps-admin/fleet-health', '/ps-admin/fleet-health');
    expect(fleet.Customers.find((c) => c.CustomerId === id)?.Counts.silent).toBe(1);
    await expectContract('PUT /ps-admin/fleet-health/thresholds', '/ps-admin/fleet-health/thresholds', {
      json: { silentHours: 24, lowBattery: 20, notChargedDays: 3, unusedDays: 7, configHours: 24 },
    });
    expect((await expectContract('GET /ps-admin/fleet-health/thresholds', '/ps-admin/fleet-health/thresholds')).Thresholds.silentHours).toBe(24);
    await expectContract('PUT /ps-admin/customers/fleet-thresholds', '/ps-admin/customers/fleet-thresholds', { json: { customerId: id, silentHours: 48 } });
    const own = await expectContract('GET /ps-admin/customers/fleet-thresholds', `/ps-admin/customers/fleet-thresholds?customerId=${id}`);
    expect([own.Override.silentHours, own.Effective.silentHours, own.Effective.unusedDays]).toEqual([48, 48, 7]);
    // the usage report: the allocated device, never used
    const usage = await expectContract('GET /ps-admin/customers/usage-report', `/ps-admin/customers/usage-report?customerId=${id}&month=2026-10`);
    expect(usage.Rows.map((r) => [r.Serial, r.DaysUsed, r.LastSeen])).toEqual([['CONTRACT-ALLOC-1', 0, null]]);
    for (const [endpoint, path, json, sheetName] of [
      ['POST /api/v1/customer/export/list-with-filters', '/api/v1/customer/export/list-with-filters', { searchValue: 'contract' }, 'Customers'],
      ['POST /api/v1/customer/export/device-list/:customerId', `/api/v1/customer/export/device-list/${id}`, {}, 'Devices'],
      ['POST /ps-admin/customers/usage-report/export', '/ps-admin/customers/usage-report/export', { customerId: id, month: '2026-10' }, 'Usage Report'],
    ] as const) {
      const res = await t.request(path, { method: 'POST', token: admin, json });
      expect(res.status, endpoint).toBe(200);
      const bytes = new Uint8Array(await res.arrayBuffer());
      expect(v.safeParse(ENDPOINTS[endpoint], bytes).success).toBe(true);
      const [sheet] = await readXlsx(Buffer.from(bytes));
      expect(sheet?.sheet).toBe(sheetName);
      expect(sheet?.data.length).toBe(2);
      checked.add(endpoint);
    }
    // export jobs: the progress of the last export, then its cancellation (a finished job answers too)
    const job = await t.request('/api/v1/customer/export/list-with-filters', { method: 'POST', token: admin, json: { searchValue: 'contract' } });
    const jobId = job.headers.get('x-export-id')!;
    await job.arrayBuffer();
    const progress = await expectContract('GET /api/v1/export/progress/:id', `/api/v1/export/progress/${jobId}`);
    expect(progress).toMatchObject({ Id: jobId, State: 'done', Written: 1, Total: 1, Omitted: 0 });
    await expectContract('DELETE /api/v1/export/:id', `/api/v1/export/${jobId}`);
  });

  test('live devices', async () => {
    const imei = '359111000000001';
    const fd = new FormData();
    fd.append('File', new File([`SerialNumber,Type,IMEI\nLIVECHK-0001,640,${imei}\n`], 'devices.csv', { type: 'text/csv' }));
    await expectContract('POST /api/v1/import/devices', '/api/v1/import/devices', { body: fd });
    const now = Date.now();
    const batch = [0, 1, 2].map((i) => ({
      messageId: `contract-live-${i}`,
      deviceIdentity: imei,
      deviceType: 640,
      date: new Date(now - 3000 + i * 1000).toISOString(),
      message: i === 2 ? 'Configuration acknowledged' : 'Heartbeat',
      battery: 90,
      signal: 70,
      location: i === 1 ? { latitude: 51.5, longitude: -0.1 } : null,
      rawMessage: '+RESP',
      properties: i === 2 ? { Configuration: { IsTracking: true, TrackingSeconds: 900 } } : {},
    }));
    const ingested = await expectContract('POST /api/v1/device-messages/ingest', '/api/v1/device-messages/ingest', {
      token: undefined,
      json: batch,
      headers: { 'X-Gateway-Key': 'test-gateway-key' },
    });
    expect(ingested.Accepted).toBe(3);
    const neg = await expectContract('POST /api/admin/negotiate', `/api/admin/negotiate?userid=${adminId}`);
    expect(neg.Url).toMatch(/\/hub\/devices$/);
    // No hub connection here (live-hub.test.ts has them): a subscription for an unknown connection is a 404 in the error shape.
    const sub = await t.request('/devices/subscribe-for-monitoring', {
      method: 'POST',
      token: admin,
      json: { connectionId: 'none', deviceIdentities: [imei] },
    });
    expect(sub.status).toBe(404);
    expect(v.safeParse(errorBodySchema, await sub.json()).success).toBe(true);
    expect(v.safeParse(ENDPOINTS['POST /devices/subscribe-for-monitoring'], { Subscribed: [imei], Refused: [] }).success).toBe(true);
    checked.add('POST /devices/subscribe-for-monitoring');
    const stream = await expectContract('GET /devices/get-message-stream', `/devices/get-message-stream?deviceIdentity=${imei}&pageSize=2`);
    expect(stream.ContinuationToken).not.toBeNull();
    const m = first(stream.Items);
    await expectContract(
      'GET /devices/get-detailed-message',
      `/devices/get-detailed-message?identity=${imei}&messageReceived=${encodeURIComponent(m.Date)}&deviceType=640`,
    );
    await expectContract('POST /devices/get-last-messages', '/devices/get-last-messages', { json: { deviceIdentities: [imei, 'nobody'] } });
    await expectContract('GET /ps-admin/devices/get-configuration-types', '/ps-admin/devices/get-configuration-types');
    await expectContract('POST /ps-admin/devices/get-configurations', '/ps-admin/devices/get-configurations', {
      json: { serialNumbers: ['LIVECHK-0001', 'CONTRACT-001'] },
    });
    await expectContract('POST /ps-admin/devices/get-firmware-versions', '/ps-admin/devices/get-firmware-versions', { json: { serials: ['LIVECHK-0001'] } });
    const cfg = await expectContract('GET /ps-admin/devices/get-configuration', '/ps-admin/devices/get-configuration?Serial=LIVECHK-0001');
    expect(cfg.TrackingSeconds).toBe(900);
    await expectContract('GET /ps-admin/devices/get-configuration-by-id', `/ps-admin/devices/get-configuration-by-id?Id=${cfg.Id}`);
    await expectContract('PUT /device-configuration', '/device-configuration', { json: { serial: 'LIVECHK-0001' } });
    await expectContract('PUT /device-configuration/firmware', '/device-configuration/firmware', { json: { serial: 'LIVECHK-0001' } });
    await expectContract('PUT /api/v1/device/desired-configuration', '/api/v1/device/desired-configuration', {
      json: {
        serials: ['LIVECHK-0001'],
        isTrackingEnabled: true,
        trackingIntervalMinutes: 30,
        rawCommands: [{ rawCommand: 'AT+GTQSS', communicationProtocol: 'TCP' }],
      },
    });
    const queue = await expectContract('GET /api/v1/device/desired-configuration', '/api/v1/device/desired-configuration?serial=LIVECHK-0001');
    expect(queue.Items.map((i) => i.Kind).sort()).toEqual(['configuration', 'refresh-configuration', 'refresh-firmware']);
    // CSV downloads (blobs)
    for (const [endpoint, json] of [
      ['POST /devices/download-last-messages-csv', { deviceIdentities: [imei] }],
      ['POST /ps-admin/devices/download-configurations-csv', { serialNumbers: ['LIVECHK-0001'] }],
    ] as const) {
      const res = await t.request(endpoint.slice(5), { method: 'POST', token: admin, json });
      expect(res.status, endpoint).toBe(200);
      expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
      const bytes = new Uint8Array(await res.arrayBuffer());
      expect(v.safeParse(ENDPOINTS[endpoint], bytes).success).toBe(true);
      expect(new TextDecoder().decode(bytes)).toContain('LIVECHK-0001');
      checked.add(endpoint);
    }
  });

  test('search', async () => {
    const found = await expectContract('GET /api/search', '/api/search?q=contract.ann');
    const hits = found.groups.flatMap((g) => g.hits);
    expect(hits.map((h) => h.id)).toContain(annId);
    expect(hits.find((h) => h.id === annId)?.href).toBe(`/persons/edit/${annId}`);
  });

  test('auth service', async () => {
    const info = await expectContract('GET /api/v1/get-user-info', '/api/v1/get-user-info');
    expect(info).toMatchObject({ userId: adminId, email: 'contract.admin@staff.test', roles: ['SuperAdminRole'] });
    await expectContract('GET /api/v1/get-user-two-factor-authentication', '/api/v1/get-user-two-factor-authentication');
    expect(await expectContract('GET /api/v1/two-factor-authentication/types', '/api/v1/two-factor-authentication/types')).toEqual([
      { name: 'Email', value: 1 },
      { name: 'SMS', value: 2 },
    ]);
    const captcha = () => solvedCaptcha((path) => t.request(path));
    expect((await expectContract('GET /api/captcha/challenge', '/api/captcha/challenge', { token: undefined })).provider).toBe('altcha');
    // sso: no provider in this app; the nonce is issued regardless (full flows: sso.test.ts)
    expect(await expectContract('GET /api/v1/sso/configuration', '/api/v1/sso/configuration', { token: undefined })).toEqual({ enabled: false });
    expect((await expectContract('POST /api/v1/sso/nonce', '/api/v1/sso/nonce', { token: undefined })).nonce).toMatch(/^n1\./);

    const signIn = { grant_type: 'password', client_id: 'portal', username: 'contract.ann@staff.test', password: PASSWORD };
    const tokens = await expectContract('POST /connect/token', '/connect/token', { token: undefined, form: { ...signIn, captchaResponse: await captcha() } });
    await expectContract('POST /connect/token', '/connect/token', {
      token: undefined,
      form: { grant_type: 'refresh_token', client_id: 'portal', refresh_token: tokens.refresh_token },
    });
    // Logout (RFC 7009): 200 with an empty body.
    const other = await t.request('/connect/token', { form: { ...signIn, captchaResponse: await captcha() } });
    const revoked = await t.request('/connect/revocation', {
      method: 'POST',
      form: { token: (await other.json()).refresh_token, token_type_hint: 'refresh_token', client_id: 'portal' },
    });
    expect(revoked.status).toBe(200);
    expect(v.safeParse(ENDPOINTS['POST /connect/revocation'], await revoked.text()).success).toBe(true);
    checked.add('POST /connect/revocation');
    // Logout ends the person's access tokens within seconds (session epoch): sign in again.
    const again = await t.request('/connect/token', { form: { ...signIn, captchaResponse: await captcha() } });
    const annToken: string = (await again.json()).access_token;

    const gb = (await t.db.selectFrom('countries').select('id').where('code', '=', 'GB').executeTakeFirstOrThrow()).id;
    const sms = await expectContract('PUT /api/v1/change-two-factor-authentication', '/api/v1/change-two-factor-authentication', {
      token: annToken,
      json: {
        twoFactorAuthentication: { type: 2, phoneNumber: { countryId: gb, number: '07400 123456', type: 2 } },
        captchaResponse: await captcha(),
        currentPassword: PASSWORD,
      },
    });
    expect(sms.twoFactorAuthentication.type).toEqual({ name: 'SMS', value: 2 });
    await expectContract('PUT /api/v1/change-two-factor-authentication', '/api/v1/change-two-factor-authentication', {
      token: annToken,
      json: { twoFactorAuthentication: { type: null, phoneNumber: null }, captchaResponse: await captcha(), currentPassword: PASSWORD },
    });
    await expectContract('POST /api/v1/change-password', '/api/v1/change-password', {
      token: annToken,
      json: { oldPassword: PASSWORD, newPassword: 'Contract-Passw0rd!2', newPasswordRepeated: 'Contract-Passw0rd!2', captchaResponse: await captcha() },
    });
    await expectContract('POST /api/v1/two-factor-authentication/send', '/api/v1/two-factor-authentication/send', {
      token: undefined,
      json: { email: 'contract.ann@staff.test' },
    });
    await expectContract('POST /api/v1/reset-password', '/api/v1/reset-password', {
      token: undefined,
      json: { email: 'contract.ann@staff.test', captchaResponse: await captcha() },
    });
    const person = await t.db.selectFrom('persons').select(['id', 'passwordHash']).where('id', '=', annId).executeTakeFirstOrThrow();
    await expectContract('POST /api/v1/reset-password/confirm', '/api/v1/reset-password/confirm', {
      token: undefined,
      json: { token: await signResetToken(t.config, person), newPassword: 'Contract-Passw0rd!3', newPasswordRepeated: 'Contract-Passw0rd!3' },
    });
  });

  test('provider administration', async () => {
    const s = await expectContract('GET /ps-admin/settings', '/ps-admin/settings');
    expect(s.Features).toHaveLength(13);
    await expectContract('PUT /ps-admin/settings/feature', '/ps-admin/settings/feature', { json: { name: 'ScheduledReports', isEnabled: true } });
    await expectContract('PUT /ps-admin/settings/two-factor-mode', '/ps-admin/settings/two-factor-mode', { json: { value: 0 } });
    await expectContract('POST /ps-admin/sso-domains', '/ps-admin/sso-domains', { json: { domain: 'contract-company.test' } });
    await expectContract('DELETE /ps-admin/sso-domains', '/ps-admin/sso-domains?domain=contract-company.test');
    expect(await expectContract('GET /ps-admin/persons/get-login-method', `/ps-admin/persons/get-login-method?id=${annId}`)).toEqual({
      LoginMethod: 1,
      SsoEmail: null,
    });
    await expectContract('PUT /api/v1/person/:id/login-method', `/api/v1/person/${annId}/login-method`, { json: { loginMethod: 1, ssoEmail: null } });
    const audit = await expectContract('POST /ps-admin/audit/get-list', '/ps-admin/audit/get-list', { json: { pageSize: 50 } });
    expect(audit.Items.length).toBeGreaterThan(0);
    const res = await t.request('/ps-admin/audit/export-list', { method: 'POST', token: admin, json: { entity: 'person' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    const bytes = new Uint8Array(await res.arrayBuffer());
    expect(v.safeParse(ENDPOINTS['POST /ps-admin/audit/export-list'], bytes).success).toBe(true);
    const [sheet] = await readXlsx(Buffer.from(bytes));
    expect(sheet?.sheet).toBe('Audit Trail');
    checked.add('POST /ps-admin/audit/export-list');
  });

  test('scheduled reports', async () => {
    const body = {
      name: 'Contract schedule',
      frequency: 'monthly',
      dayOfMonth: 31,
      timeOfDay: '06:30',
      recipients: ['contract.ann@staff.test'],
      format: 'xlsx',
      filters: { alarmVerificationTypes: [1] },
    };
    const created = await expectContract('POST /alarm-report/schedules', '/alarm-report/schedules', { json: body });
    const path = `/alarm-report/schedules/${created.Id}`;
    await expectContract('PUT /alarm-report/schedules/:id', path, { json: { ...body, name: 'Contract schedule 2', etag: created.Etag } });
    await expectContract('PUT /alarm-report/schedules/:id/pause', `${path}/pause`, { json: { paused: true } });
    const list = await expectContract('GET /alarm-report/schedules', '/alarm-report/schedules');
    expect(list.Schedules.map((s) => s.Name)).toContain('Contract schedule 2');
    await expectContract('GET /alarm-report/schedules/:id/runs', `${path}/runs`);
    await expectContract('DELETE /alarm-report/schedules/:id', path);
  });

  test('closed alarm reports imported from the ARC platform', async () => {
    const c = await insertCustomer(t.db, { name: 'Contract Import Ltd' });
    const doc = {
      ...IMPORT_SAMPLE,
      AlarmId: '7d3c2a10-0000-4000-8000-00000000c0c0',
      CustomerId: c.id,
      VerificationType: { Value: 4 },
      VerificationCategory: { Value: 402 },
      ProfileSnapshot: { Person: { FirstName: 'Contract', LastName: 'Import' } },
    };
    const r = await expectContract('POST /alarm-report/import', '/alarm-report/import', { json: { AlarmReports: [doc, doc] } });
    expect([r.Created.length, r.AlreadyPresent.length]).toEqual([1, 1]);
  });

  test('every endpoint of the contract was checked above', () => {
    expect(Object.keys(ENDPOINTS).filter((e) => !checked.has(e as Endpoint))).toEqual([]);
  });
});

describe('error answers', () => {
  test('{ Content: { Message, Code, Errors? } } everywhere; the token endpoint adds error / error_description', async () => {
    const bad = await t.request('/ps-admin/persons/get-list?pageSize=7', { token: admin });
    expect(bad.status).toBe(400);
    const body = await bad.json();
    expect(v.safeParse(errorBodySchema, body).success, JSON.stringify(body)).toBe(true);
    expect(body.Content.Errors).toHaveProperty('pageSize');

    const denied = await t.request('/ps-admin/persons/get-list', { token: await tokenFor(t.config, ['ArcControllerRole']) });
    expect(denied.status).toBe(403);
    expect(v.safeParse(errorBodySchema, await denied.json()).success).toBe(true);

    const failed = await t.request('/connect/token', {
      form: {
        grant_type: 'password',
        client_id: 'portal',
        username: 'nobody@staff.test',
        password: 'x',
        captchaResponse: await solvedCaptcha((path) => t.request(path)),
      },
    });
    expect(failed.status).toBe(400);
    const tokenBody = await failed.json();
    expect(v.safeParse(tokenErrorSchema, tokenBody).success, JSON.stringify(tokenBody)).toBe(true);
    expect(tokenBody.Content.Code).toBe(CODE.invalidGrant);
  });
});
