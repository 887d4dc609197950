// The API contract in one table: every endpoint the server serves ('METHOD /path', the path
// pattern as the server declares it) with the schema of its success answer. The input schemas sit
// next to these in the area files. Both sides import the types; tests/integration/contract.test.ts
// checks that this table and the server's route table list the same endpoints and that real
// answers parse, and the unit tests build their fixtures from the same types.
import * as v from 'valibot';
import { ssoConfigurationSchema, ssoNonceSchema, tokenResponseSchema, twoFactorSettingSchema, twoFactorTypesSchema, userInfoSchema } from './auth.js';
import { createdResponseSchema, etagResponseSchema, messageResponseSchema } from './common.js';
import { ownProfileSchema, personDetailsSchema, personListSchema } from './persons.js';
import { controllersSchema, deviceTypesSchema, dictionariesSchema, featuresSchema, globalSettingsSchema, lookupListSchema } from './reference.js';
import { searchResponseSchema } from './search.js';
import { captchaChallengeSchema } from './captcha.js';
import { bulkChangeResponseSchema, deviceListSchema, deviceManySchema, deviceSchema, importResponseSchema } from './devices.js';
// alarm reports
import {
  alarmNoteSchema,
  alarmReportDetailsSchema,
  alarmReportListSchema,
  responseTargetsSchema,
  timeFramesSchema,
  typeTimeFramesSchema,
  updateAlarmReportSchema,
} from './alarm-reports.js';
import { analysisResponseSchema } from './alarm-intelligence.js';
import { importAlarmReportsSchema } from './alarm-report-import.js';
import { managementReportSchema } from './management-report.js';
import {
  crmAccountsSchema,
  customerAdminListSchema,
  customerCreatedSchema,
  customerDetailsSchema,
  customerDuplicatesSchema,
  customerFiltersSchema,
  customerListSchema,
  customerSchema,
  customerSettingsSchema,
  customerSubscriptionsSchema,
  emailBacklogSchema,
} from './customers.js';
import * as live from './live.js';
import { exportProgressSchema } from './exports.js';
import * as admin from './admin.js';
import * as schedules from './schedules.js';
import * as fleet from './fleet.js';
import { usageReportSchema } from './usage-report.js';

export const ENDPOINTS = {
  // auth service (spec document 1 §7)
  'POST /connect/token': tokenResponseSchema,
  'GET /api/v1/get-user-info': userInfoSchema,
  'GET /api/v1/get-user-two-factor-authentication': twoFactorSettingSchema,
  'GET /api/v1/two-factor-authentication/types': twoFactorTypesSchema,
  'PUT /api/v1/change-two-factor-authentication': twoFactorSettingSchema,
  'POST /api/v1/two-factor-authentication/send': messageResponseSchema,
  'POST /api/v1/change-password': messageResponseSchema,
  'POST /api/v1/reset-password': messageResponseSchema,
  'POST /api/v1/reset-password/confirm': messageResponseSchema,
  'GET /api/captcha/challenge': captchaChallengeSchema,
  /** RFC 7009: 200 with an empty body, whatever the token was. */
  'POST /connect/revocation': v.literal(''),
  // sso: what the browser needs for the provider redirect, and the nonce it sends there
  'GET /api/v1/sso/configuration': ssoConfigurationSchema,
  'POST /api/v1/sso/nonce': ssoNonceSchema,

  // persons
  'GET /ps-admin/persons/get-list': personListSchema,
  'GET /persons/get-by-id': personDetailsSchema,
  'POST /api/v1/person': createdResponseSchema,
  'PUT /api/v1/person/:id/identity-update': etagResponseSchema,
  'PUT /api/v1/:id/unlock': etagResponseSchema,
  'GET /persons/get-own-profile': ownProfileSchema,
  'PUT /api/v1/person/basic-info-update': etagResponseSchema,

  // reference data
  'GET /ps-admin/dictionaries/get-all': dictionariesSchema,
  'GET /features/all': featuresSchema,
  'GET /features': featuresSchema,
  'GET /customers/get-global-settings': globalSettingsSchema,
  'GET /api/v1/device/get-types': deviceTypesSchema,
  'GET /api/v1/device/get-last-config-filters': lookupListSchema,
  'GET /api/v1/device/get-sim-types': lookupListSchema,
  'GET /api/v1/device/get-asset-statuses': lookupListSchema,
  'GET /api/v1/customer/get-tier-types': lookupListSchema,
  'GET /api/v1/customer/get-statuses': lookupListSchema,
  'GET /alarm-report/get-date-rage-options': lookupListSchema,
  'GET /alarm-report/get-alarm-types': lookupListSchema,
  'GET /alarm-report/get-verification-types': lookupListSchema,
  'GET /alarm-report/get-verification-categories': lookupListSchema,
  'GET /alarm-report/get-controllers': controllersSchema,

  // device stock (spec document 2 §7 "Stock service"; inputs and error shapes in devices.ts)
  'POST /api/v1/device/get-list': deviceListSchema,
  'GET /api/v1/device/get-by-serial': deviceSchema,
  'GET /api/v1/device/get-by-id': deviceSchema,
  'POST /api/v1/device/get-list-by-ids': deviceManySchema,
  'POST /api/v1/device/get-list-by-serials': deviceManySchema,
  'PUT /api/v1/device/:deviceId/general-details': deviceSchema,
  'PUT /api/v1/device/change-status-many': bulkChangeResponseSchema,
  'PUT /api/v1/device/change-order-number-many': bulkChangeResponseSchema,
  'PUT /api/v1/device/change-device-type': bulkChangeResponseSchema,
  'POST /api/v1/import/devices': importResponseSchema,
  /** Blob answers: an .xlsx workbook (Content-Type application/vnd.openxmlformats-officedocument.spreadsheetml.sheet). */
  'POST /api/v1/device/export/list-with-filters': v.instance(Uint8Array),
  'POST /api/v1/device/export/list-by-ids': v.instance(Uint8Array),

  // alarm reports (spec document 3 §7; inputs, error answers and the bucket rules in alarm-reports.ts)
  'POST /alarm-report/get-list': alarmReportListSchema,
  'POST /alarm-report/get-verification-started-timeframes': timeFramesSchema,
  'POST /alarm-report/get-verification-completed-timeframes': timeFramesSchema,
  'POST /alarm-report/get-verification-type-timeframes': typeTimeFramesSchema,
  /** Ours: share of alarms whose verification started within 10 s / 40 s against targets, and those that missed. */
  'POST /alarm-report/get-response-targets': responseTargetsSchema,
  'GET /alarm-report/get-details': alarmReportDetailsSchema,
  'POST /alarm-report/add-note': alarmNoteSchema,
  'PUT /alarm-report/update': updateAlarmReportSchema,
  'POST /alarm-report/log-call-download': messageResponseSchema,
  'GET /alarm-report/get-analysis': analysisResponseSchema,
  'POST /alarm-report/generate-analysis': analysisResponseSchema,
  /** Ours: closed alarm reports from the ARC platform (alarm-report-import.ts). */
  'POST /alarm-report/import': importAlarmReportsSchema,
  /** Ours: the monthly management report of a customer or of all customers (feature ExportManagementReportPDF). */
  'POST /alarm-report/get-management-report': managementReportSchema,
  /** Blob answer: an .xlsx workbook. */
  'POST /alarm-report/export-list': v.instance(Uint8Array),
  /** Blob answers: audio/wav (single byte ranges answer 206). */
  'GET /api/v1/alarm-line/get-record-file': v.instance(Uint8Array),
  'GET /api/v1/second-line/get-record-file': v.instance(Uint8Array),
  'GET /interactive-communication/portal/voice-memo/get-file': v.instance(Uint8Array),
  // customers (spec document 2 §7 "Customer/query service" and "Stock service"; inputs and error shapes in customers.ts)
  'POST /api/v1/customer/get-list': customerListSchema,
  'GET /api/v1/customer/get-by-id': customerSchema,
  'GET /ps-admin/customers/get-details': customerDetailsSchema,
  'GET /ps-admin/customers/filters-all': customerFiltersSchema,
  'GET /ps-admin/customers/get-duplicates': customerDuplicatesSchema,
  'POST /api/v1/customer/create': customerCreatedSchema,
  'PUT /api/v1/customer/update': etagResponseSchema,
  'GET /ps-admin/customers/get-subscriptions': customerSubscriptionsSchema,
  'PUT /api/v1/customer/subscriptions/update': customerSubscriptionsSchema,
  'GET /ps-admin/customers/get-settings': customerSettingsSchema,
  'PUT /api/v1/customer/settings/update': customerSettingsSchema,
  'GET /ps-admin/persons/get-customer-admin-list': customerAdminListSchema,
  'GET /ps-admin/emails/get-backlog-count': emailBacklogSchema,
  'POST /api/v1/salesforce/account/query': crmAccountsSchema,
  'POST /api/v1/customer/get-device-list/:customerId': deviceListSchema,
  'POST /api/v1/import/devices-to-allocate/:customerId': deviceManySchema,
  'POST /api/v1/device/allocate-many': bulkChangeResponseSchema,
  /** Blob answers: .xlsx workbooks (customers; the customer's devices — ours, the Devices tab's export). */
  'POST /api/v1/customer/export/list-with-filters': v.instance(Uint8Array),
  'POST /api/v1/customer/export/device-list/:customerId': v.instance(Uint8Array),
  // live devices (spec document 2 §7 "Device configuration requests" and "Devices data service"; shapes in live.ts)
  'POST /api/v1/device-messages/ingest': live.ingestResponseSchema,
  'POST /api/admin/negotiate': live.negotiateResponseSchema,
  'POST /devices/subscribe-for-monitoring': live.subscribeResponseSchema,
  'GET /devices/get-message-stream': live.messageStreamSchema,
  'GET /devices/get-detailed-message': live.detailedMessageSchema,
  'POST /devices/get-last-messages': live.lastMessagesSchema,
  /** Blob answers: CSV (text/csv), TestingConfiguration_<date>.csv / CurrentConfiguration_<date>.csv. */
  'POST /devices/download-last-messages-csv': v.instance(Uint8Array),
  'GET /ps-admin/devices/get-configuration-types': live.configurationTypesSchema,
  'POST /ps-admin/devices/get-configurations': live.configurationListSchema,
  'POST /ps-admin/devices/get-firmware-versions': live.firmwareVersionsSchema,
  'GET /ps-admin/devices/get-configuration': live.deviceConfigurationSchema,
  'GET /ps-admin/devices/get-configuration-by-id': live.deviceConfigurationSchema,
  'POST /ps-admin/devices/download-configurations-csv': v.instance(Uint8Array),
  'PUT /device-configuration': messageResponseSchema,
  'PUT /device-configuration/firmware': messageResponseSchema,
  'PUT /api/v1/device/desired-configuration': live.configurationChangeResponseSchema,
  'GET /api/v1/device/desired-configuration': live.desiredConfigurationListSchema,

  // provider administration (ours; inputs in admin.ts)
  'GET /ps-admin/settings': admin.adminSettingsSchema,
  'PUT /ps-admin/settings/feature': messageResponseSchema,
  'PUT /ps-admin/settings/two-factor-mode': messageResponseSchema,
  'POST /ps-admin/sso-domains': messageResponseSchema,
  'DELETE /ps-admin/sso-domains': messageResponseSchema,
  'GET /ps-admin/persons/get-login-method': admin.loginMethodSchema,
  'PUT /api/v1/person/:id/login-method': messageResponseSchema,
  'POST /ps-admin/audit/get-list': admin.auditListSchema,
  'POST /ps-admin/audit/export-list': v.instance(Uint8Array),

  // scheduled reports (ours; inputs in schedules.ts)
  'GET /alarm-report/schedules': schedules.scheduleListSchema,
  'POST /alarm-report/schedules': schedules.scheduleSchema,
  'PUT /alarm-report/schedules/:id': schedules.scheduleSchema,
  'PUT /alarm-report/schedules/:id/pause': schedules.scheduleSchema,
  'DELETE /alarm-report/schedules/:id': messageResponseSchema,
  'GET /alarm-report/schedules/:id/runs': schedules.scheduleRunsSchema,

  // fleet health (ours; inputs in fleet.ts)
  'GET /ps-admin/fleet-health': fleet.fleetHealthSchema,
  'GET /ps-admin/fleet-health/thresholds': fleet.providerThresholdsSchema,
  'PUT /ps-admin/fleet-health/thresholds': messageResponseSchema,
  'GET /ps-admin/customers/fleet-thresholds': fleet.customerThresholdsSchema,
  'PUT /ps-admin/customers/fleet-thresholds': messageResponseSchema,
  'GET /ps-admin/customers/usage-report': usageReportSchema,
  'POST /ps-admin/customers/usage-report/export': v.instance(Uint8Array),

  // palette search (ours)
  'GET /api/search': searchResponseSchema,
  // export jobs (ours: src/shared/schemas/exports.ts)
  'GET /api/v1/export/progress/:id': exportProgressSchema,
  'DELETE /api/v1/export/:id': messageResponseSchema,
} as const satisfies Record<string, v.GenericSchema>;

export type Endpoint = keyof typeof ENDPOINTS;
/** The success answer of an endpoint: `ResponseOf<'GET /ps-admin/persons/get-list'>`. */
export type ResponseOf<E extends Endpoint> = v.InferOutput<(typeof ENDPOINTS)[E]>;
