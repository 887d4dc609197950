// @vitest-environment jsdom
// The client side of the contract:
//   - every endpoint the client's api modules call is one the contract (and so the server) declares,
//     with the method the contract gives it;
//   - one queryOptions factory per endpoint, each under its own hierarchical key (no second
//     dictionaries query under the same key, as there once was);
//   - requests and queries are defined only in the api modules (src/app/api/*, features/*/api.ts).
import { describe, expect, it, vi } from 'vitest';
import { first } from '../../helpers/lists';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

vi.mock('../../../src/app/api/http', () => ({
  CLIENT_ID: 'portal',
  TOKEN_PATH: '/connect/token',
  http: vi.fn(async () => ({})),
  publicHttp: vi.fn(async () => ({})),
  postTokenForm: vi.fn(async () => ({})),
}));

import { http, publicHttp, postTokenForm } from '../../../src/app/api/http';
import { ENDPOINTS } from '../../../src/shared/schemas/endpoints';
import * as auth from '../../../src/app/api/auth';
import * as persons from '../../../src/app/features/persons/api';
import * as profile from '../../../src/app/features/profile/api';
import { searchRecords } from '../../../src/app/api/search';
import * as devices from '../../../src/app/api/devices';
import * as alarmReports from '../../../src/app/api/alarm-reports';
import * as customers from '../../../src/app/api/customers';
import * as live from '../../../src/app/api/live';

const ID = 'aaaaaaaa-0000-4000-8000-000000000001';

/** 'METHOD /path' of each call made through the http client since the last reset. */
function takeCalls(): string[] {
  const out = [
    ...vi.mocked(http).mock.calls.map(([path, o]) => `${o?.method ?? 'GET'} ${path}`),
    ...vi.mocked(publicHttp).mock.calls.map(([path, o]) => `${o?.method ?? 'GET'} ${path}`),
    ...vi.mocked(postTokenForm).mock.calls.map(() => 'POST /connect/token'),
  ];
  vi.mocked(http).mockClear();
  vi.mocked(publicHttp).mockClear();
  vi.mocked(postTokenForm).mockClear();
  return out;
}

const patterns = Object.keys(ENDPOINTS).map((key) => {
  const [method, path = ''] = key.split(' ');
  return { key, method, re: new RegExp(`^${path.replace(/:[A-Za-z]+/g, '[^/]+')}$`) };
});
/** The contract endpoint a call is to, or the call itself when none matches. */
const endpointOf = (call: string) => {
  const [method, path = ''] = call.split(' ');
  return patterns.find((p) => p.method === method && p.re.test(path))?.key ?? `NOT IN THE CONTRACT: ${call}`;
};

// Every api module whose exports end in Query is scanned for queryOptions factories.
const modules = import.meta.glob(['../../../src/app/api/*.ts', '../../../src/app/features/*/api.ts'], { eager: true }) as Record<
  string,
  Record<string, unknown>
>;
/** Arguments for factories that need them. A new factory with parameters adds its sample here. */
const SAMPLE_ARGS: Record<string, unknown[]> = {
  personListQuery: [{ page: 1, pageSize: 10, orderBy: 'UserName', desc: false, searchValue: 'ann' }],
  personDetailQuery: [ID],
  deviceListQuery: [{ page: 1, pageSize: 10, orderBy: 'SerialNumber', desc: false }],
  deviceDetailQuery: [ID],
  // alarm reports
  alarmReportListQuery: [{ page: 1, pageSize: 10, alarmClosedDateRangeOption: 2, alarmVerificationTypes: [1] }],
  verificationStartedQuery: [{ alarmClosedDateRangeOption: 2 }],
  verificationCompletedQuery: [{ alarmClosedDateRangeOption: 2 }],
  verificationTypeTimeFramesQuery: [{ alarmClosedDateRangeOption: 2 }],
  responseTargetsQuery: [{ alarmClosedDateRangeOption: 2 }],
  alarmReportDetailsQuery: [ID],
  alarmLineRecordingQuery: [{ RecordSId: 'RE1', ConferenceName: 'CF1', Id: ID }],
  secondLineRecordingQuery: [{ RecordSId: 'RE1', ConferenceName: 'CF1', Id: ID }],
  voiceMemoQuery: [{ PersonId: ID, MemoId: ID }],
  managementReportQuery: [{ month: '2026-10', customerId: ID }],
  // customers
  customerListQuery: [{ page: 1, pageSize: 10, orderBy: 'Reference', desc: false }],
  customerByIdQuery: [ID],
  customerDetailsQuery: [ID],
  customerSubscriptionsQuery: [ID],
  customerSettingsQuery: [ID],
  customerDeviceListQuery: [ID, { page: 1, pageSize: 10 }],
  customerAdminListQuery: [{ tenantId: ID }],
  emailBacklogQuery: [ID],
  customerDuplicatesQuery: [{ name: 'Acme' }],
  crmAccountsQuery: ['acme'],
  // live devices
  deviceConfigurationQuery: ['SN-00001'],
  deviceConfigurationByIdQuery: [ID],
  configurationListQuery: [{ serialNumbers: ['SN-00001'] }],
  firmwareVersionsQuery: [['SN-00001']],
  desiredConfigurationQuery: ['SN-00001'],
  messageStreamQuery: ['359000000000001'],
  detailedMessageQuery: [{ identity: '359000000000001', messageReceived: '2026-01-01T00:00:00.000Z' }],
  lastMessagesQuery: [{ deviceIdentities: ['359000000000001'] }],
};
type Factory = { queryKey: readonly unknown[]; queryFn: (ctx: unknown) => unknown };

describe('client calls', () => {
  it('every request function calls an endpoint of the contract', async () => {
    const made: string[] = [];
    const run = async (fn: () => Promise<unknown>) => {
      await fn();
      made.push(...takeCalls());
    };
    await run(() => auth.requestPasswordToken({ email: 'a@b.test', password: 'x', captchaResponse: 'c' }));
    await run(() => auth.getUserInfo());
    await run(() => auth.requestSsoToken({ idToken: 'i', captchaResponse: 'c', consent: true, selectedAccount: 'a@b.test' }));
    await run(() => auth.requestSsoNonce());
    await run(() => auth.resendVerificationCode('a@b.test'));
    await run(() => auth.requestPasswordReset('a@b.test', 'c'));
    await run(() => auth.confirmPasswordReset({ token: 't', newPassword: 'New-Passw0rd!', newPasswordRepeated: 'New-Passw0rd!' }));
    await run(() => auth.changeTwoFactor(null, null, { captchaResponse: 'c', currentPassword: 'p' }));
    await run(() => auth.changePassword({ oldPassword: 'a', newPassword: 'b', newPasswordRepeated: 'b', captchaResponse: 'c' }));
    await run(() => persons.createPerson({ firstName: 'A', lastName: 'B', emailAddress: 'a@b.test', roleIds: [] }));
    await run(() => persons.updatePersonIdentity(ID, { firstName: 'A', lastName: 'B', emailAddress: 'a@b.test', roleIds: [], etag: 'e' }));
    await run(() => persons.unlockPerson(ID));
    await run(() => profile.updateOwnProfile({ firstName: 'A', lastName: 'B', phoneNumbers: [] }, 'e'));
    await run(() => searchRecords({ q: 'ann', scope: 'all', limit: 8 }));
    await run(() => devices.getDeviceBySerial('SN-00001'));
    await run(() => devices.getDevicesByIds([ID]));
    await run(() => devices.getDevicesBySerials(['SN-00001']));
    await run(() => devices.updateDeviceGeneralDetails(ID, 'e', { supplier: 'S' }));
    await run(() => devices.changeStatusMany(1, [{ id: ID, etag: 'e' }]));
    await run(() => devices.changeOrderNumberMany('ORD-1', [{ id: ID, etag: 'e' }]));
    await run(() => devices.changeDeviceType(['SN-00001'], 3));
    await run(() => devices.importDevices(new File(['SerialNumber,Type\nSN-1,3\n'], 'd.csv', { type: 'text/csv' })));
    await run(() => alarmReports.addAlarmReportNote({ alarmReportId: ID, note: 'n' }));
    await run(() => alarmReports.updateEscalationPlanFollowed({ alarmReportId: ID, alarmId: ID, escalationPlanFollowed: true, etag: 'e' }));
    await run(() => alarmReports.logCallDownload({ alarmReportId: ID, callId: ID, alarmId: ID }));
    await run(() => alarmReports.exportAlarmReports({ alarmClosedDateRangeOption: 2 }));
    await run(() => customers.getCustomerSubscriptions(ID));
    await run(() => customers.getEmailBacklog(ID));
    await run(() => customers.getCustomerDuplicates({ name: 'Acme' }));
    await run(() => customers.createCustomer({ name: 'Acme', isMigratedAccount: false }));
    await run(() => customers.updateCustomer(ID, { name: 'Acme', isMigratedAccount: false }, 'e'));
    await run(() => customers.updateCustomerSubscriptions(ID, { customerEtag: 'e' }));
    await run(() =>
      customers.updateCustomerSettings(ID, 'e', {
        IsAutomaticEmailsPaused: false,
        AllowDeviceSubscriptionChanges: false,
        EnableDiscreetAlarmApp: false,
        EnableFallDetectionApp: false,
        EnableSmsActivityConfirmation: false,
        EnableAlarmReportIntelligence: false,
        AutoGenerateAlarmIntelligence: false,
      }),
    );
    await run(() => customers.addCustomerAdministrator(ID, { firstName: 'A', lastName: 'B', emailAddress: 'a@b.test', roleIds: [] }));
    await run(() => customers.importDevicesToAllocate(ID, new File(['SerialNumber\nSN-1\n'], 'd.csv', { type: 'text/csv' })));
    await run(() => customers.allocateDevices({ customerId: ID, devices: [{ id: ID, etag: 'e', typeValue: 3 }] }));
    await run(() => customers.exportCustomersWithFilters({}));
    await run(() => customers.exportCustomerDevices(ID, {}));
    await run(() => live.requestConfigurationRefresh('SN-00001'));
    await run(() => live.requestFirmwareRefresh('SN-00001'));
    await run(() => live.queueConfigurationChange({ serials: ['SN-00001'], isTrackingEnabled: true, trackingIntervalMinutes: 15 }));
    await run(() => live.downloadConfigurationsCsv({ serialNumbers: ['SN-00001'] }));
    await run(() => live.downloadLastMessagesCsv({ deviceIdentities: ['359000000000001'] }));
    await run(() => live.negotiate(ID));
    await run(() => live.subscribeForMonitoring('conn-1', ['359000000000001']));
    expect(made.map(endpointOf)).toEqual([
      'POST /connect/token',
      'GET /api/v1/get-user-info',
      'POST /connect/token',
      'POST /api/v1/sso/nonce',
      'POST /api/v1/two-factor-authentication/send',
      'POST /api/v1/reset-password',
      'POST /api/v1/reset-password/confirm',
      'PUT /api/v1/change-two-factor-authentication',
      'POST /api/v1/change-password',
      'POST /api/v1/person',
      'PUT /api/v1/person/:id/identity-update',
      'PUT /api/v1/:id/unlock',
      'PUT /api/v1/person/basic-info-update',
      'GET /api/search',
      'GET /api/v1/device/get-by-serial',
      'POST /api/v1/device/get-list-by-ids',
      'POST /api/v1/device/get-list-by-serials',
      'PUT /api/v1/device/:deviceId/general-details',
      'PUT /api/v1/device/change-status-many',
      'PUT /api/v1/device/change-order-number-many',
      'PUT /api/v1/device/change-device-type',
      'POST /api/v1/import/devices',
      'POST /alarm-report/add-note',
      'PUT /alarm-report/update',
      'POST /alarm-report/log-call-download',
      'POST /alarm-report/export-list',
      'GET /ps-admin/customers/get-subscriptions',
      'GET /ps-admin/emails/get-backlog-count',
      'GET /ps-admin/customers/get-duplicates',
      'POST /api/v1/customer/create',
      'PUT /api/v1/customer/update',
      'PUT /api/v1/customer/subscriptions/update',
      'PUT /api/v1/customer/settings/update',
      'POST /api/v1/person',
      'POST /api/v1/import/devices-to-allocate/:customerId',
      'POST /api/v1/device/allocate-many',
      'POST /api/v1/customer/export/list-with-filters',
      'POST /api/v1/customer/export/device-list/:customerId',
      'PUT /device-configuration',
      'PUT /device-configuration/firmware',
      'PUT /api/v1/device/desired-configuration',
      'POST /ps-admin/devices/download-configurations-csv',
      'POST /devices/download-last-messages-csv',
      'POST /api/admin/negotiate',
      'POST /devices/subscribe-for-monitoring',
    ]);
  });

  it('one queryOptions factory per endpoint, each with its own hierarchical key', async () => {
    const factories: { name: string; endpoint: string; key: readonly unknown[] }[] = [];
    takeCalls();
    for (const [file, mod] of Object.entries(modules)) {
      for (const [name, value] of Object.entries(mod)) {
        if (!name.endsWith('Query') || typeof value !== 'function') continue;
        if (file.endsWith('/api/queries.ts')) continue; // the helpers the factories are built with
        const opts = (value as (...a: unknown[]) => Factory)(...(SAMPLE_ARGS[name] ?? []));
        await opts.queryFn({ signal: new AbortController().signal, queryKey: opts.queryKey, meta: undefined });
        const calls = takeCalls();
        expect(calls, `${name} makes one request`).toHaveLength(1);
        factories.push({ name: `${file.replace(/^.*src\/app\//, '')}#${name}`, endpoint: endpointOf(first(calls)), key: opts.queryKey });
      }
    }
    expect(factories.map((f) => `${f.endpoint} ← ${f.name}`).sort()).toEqual(
      [
        'GET /api/v1/get-user-two-factor-authentication ← api/auth.ts#twoFactorSettingQuery',
        'GET /api/v1/two-factor-authentication/types ← api/auth.ts#twoFactorTypesQuery',
        'GET /api/v1/sso/configuration ← api/auth.ts#ssoConfigurationQuery',
        'GET /customers/get-global-settings ← api/reference.ts#globalSettingsQuery',
        'GET /features/all ← api/reference.ts#featuresQuery',
        'GET /persons/get-by-id ← features/persons/api.ts#personDetailQuery',
        'GET /persons/get-own-profile ← features/profile/api.ts#ownProfileQuery',
        'GET /ps-admin/dictionaries/get-all ← api/reference.ts#dictionariesQuery',
        'GET /ps-admin/persons/get-list ← features/persons/api.ts#personListQuery',
        'GET /api/v1/device/get-types ← api/devices.ts#deviceTypesQuery',
        'GET /api/v1/device/get-sim-types ← api/devices.ts#simTypesQuery',
        'GET /api/v1/device/get-asset-statuses ← api/devices.ts#assetStatusesQuery',
        'GET /api/v1/device/get-last-config-filters ← api/devices.ts#lastConfigFiltersQuery',
        'POST /api/v1/device/get-list ← api/devices.ts#deviceListQuery',
        'GET /api/v1/device/get-by-id ← api/devices.ts#deviceDetailQuery',
        // alarm reports
        'GET /alarm-report/get-date-rage-options ← api/alarm-reports.ts#dateRangeOptionsQuery',
        'GET /alarm-report/get-alarm-types ← api/alarm-reports.ts#alarmTypesQuery',
        'GET /alarm-report/get-analysis ← api/alarm-reports.ts#alarmReportAnalysisQuery',
        'GET /alarm-report/get-verification-types ← api/alarm-reports.ts#verificationTypesQuery',
        'GET /alarm-report/schedules ← api/schedules.ts#scheduleListQuery',
        'GET /alarm-report/schedules/:id/runs ← api/schedules.ts#scheduleRunsQuery',
        'GET /alarm-report/get-verification-categories ← api/alarm-reports.ts#verificationCategoriesQuery',
        'GET /alarm-report/get-controllers ← api/alarm-reports.ts#controllersQuery',
        'POST /alarm-report/get-list ← api/alarm-reports.ts#alarmReportListQuery',
        'POST /alarm-report/get-verification-started-timeframes ← api/alarm-reports.ts#verificationStartedQuery',
        'POST /alarm-report/get-verification-completed-timeframes ← api/alarm-reports.ts#verificationCompletedQuery',
        'POST /alarm-report/get-verification-type-timeframes ← api/alarm-reports.ts#verificationTypeTimeFramesQuery',
        'POST /alarm-report/get-response-targets ← api/alarm-reports.ts#responseTargetsQuery',
        'GET /alarm-report/get-details ← api/alarm-reports.ts#alarmReportDetailsQuery',
        'GET /api/v1/alarm-line/get-record-file ← api/alarm-reports.ts#alarmLineRecordingQuery',
        'GET /api/v1/second-line/get-record-file ← api/alarm-reports.ts#secondLineRecordingQuery',
        'GET /interactive-communication/portal/voice-memo/get-file ← api/alarm-reports.ts#voiceMemoQuery',
        'POST /alarm-report/get-management-report ← api/alarm-reports.ts#managementReportQuery',
        'GET /ps-admin/customers/filters-all ← api/customers.ts#customerFiltersQuery',
        'GET /api/v1/customer/get-tier-types ← api/customers.ts#tierTypesQuery',
        'GET /api/v1/customer/get-statuses ← api/customers.ts#customerStatusesQuery',
        'POST /api/v1/customer/get-list ← api/customers.ts#customerListQuery',
        'GET /api/v1/customer/get-by-id ← api/customers.ts#customerByIdQuery',
        'GET /ps-admin/customers/get-details ← api/customers.ts#customerDetailsQuery',
        'GET /ps-admin/customers/get-subscriptions ← api/customers.ts#customerSubscriptionsQuery',
        'GET /ps-admin/customers/usage-report ← api/fleet.ts#usageReportQuery',
        'GET /ps-admin/customers/get-settings ← api/customers.ts#customerSettingsQuery',
        'POST /api/v1/customer/get-device-list/:customerId ← api/customers.ts#customerDeviceListQuery',
        'GET /ps-admin/persons/get-customer-admin-list ← api/customers.ts#customerAdminListQuery',
        'GET /ps-admin/emails/get-backlog-count ← api/customers.ts#emailBacklogQuery',
        'GET /ps-admin/customers/get-duplicates ← api/customers.ts#customerDuplicatesQuery',
        'POST /api/v1/salesforce/account/query ← api/customers.ts#crmAccountsQuery',
        'GET /ps-admin/devices/get-configuration-types ← api/live.ts#configurationTypesQuery',
        'GET /ps-admin/devices/get-configuration ← api/live.ts#deviceConfigurationQuery',
        'GET /ps-admin/devices/get-configuration-by-id ← api/live.ts#deviceConfigurationByIdQuery',
        'POST /ps-admin/devices/get-configurations ← api/live.ts#configurationListQuery',
        'POST /ps-admin/devices/get-firmware-versions ← api/live.ts#firmwareVersionsQuery',
        'GET /api/v1/device/desired-configuration ← api/live.ts#desiredConfigurationQuery',
        'GET /devices/get-message-stream ← api/live.ts#messageStreamQuery',
        'GET /devices/get-detailed-message ← api/live.ts#detailedMessageQuery',
        'POST /devices/get-last-messages ← api/live.ts#lastMessagesQuery',
        'GET /ps-admin/settings ← api/admin.ts#adminSettingsQuery',
        'POST /ps-admin/audit/get-list ← api/admin.ts#auditListQuery',
        'GET /ps-admin/persons/get-login-method ← api/admin.ts#loginMethodQuery',
        'GET /ps-admin/fleet-health ← api/fleet.ts#fleetHealthQuery',
        'GET /ps-admin/fleet-health/thresholds ← api/fleet.ts#providerThresholdsQuery',
        'GET /ps-admin/customers/fleet-thresholds ← api/fleet.ts#customerThresholdsQuery',
      ].sort(),
    );
    // Keys: an area root, then the endpoint's own name; no key is a prefix of another endpoint's key.
    const ROOTS = ['auth', 'reference', 'persons', 'profile', 'devices', 'alarm-reports', 'customers', 'live', 'admin', 'schedules', 'fleet'];
    for (const f of factories) {
      expect(ROOTS, f.name).toContain(f.key[0]);
      expect(f.key.length, f.name).toBeGreaterThanOrEqual(2);
    }
    for (const a of factories)
      for (const b of factories) if (a !== b) expect(b.key.slice(0, a.key.length), `${a.name} key is a prefix of ${b.name}`).not.toEqual(a.key);
  });

  it('requests and queries are defined only in the api modules', () => {
    const root = join(__dirname, '../../../src/app');
    const files: string[] = [];
    const walk = (dir: string) => {
      for (const name of readdirSync(dir)) {
        const p = join(dir, name);
        if (statSync(p).isDirectory()) walk(p);
        else if (/\.tsx?$/.test(name)) files.push(p);
      }
    };
    walk(root);
    const isApiModule = (rel: string) => rel.startsWith('api/') || /^features\/[^/]+\/api\.ts$/.test(rel);
    const CALL = /\b(?:http|publicHttp|postTokenForm)\s*(?:<[^>()]*>)?\s*\(|\bfetch\s*\(|\bqueryFn\s*:|\bqueryOptions\s*\(/;
    const offenders = files
      .map((f) => relative(root, f).replace(/\\/g, '/'))
      .filter((rel) => !isApiModule(rel))
      .filter((rel) => CALL.test(readFileSync(join(root, rel), 'utf8')));
    expect(offenders).toEqual([]);
  });
});
