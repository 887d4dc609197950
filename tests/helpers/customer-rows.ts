// Customer and device rows (customer integration tests and the customers benchmark; no vitest here).
import { randomUUID } from 'node:crypto';
import type { Insertable } from 'kysely';
import type { DB } from '../../src/server/db/index.js';
import type { CustomerTable, DeviceTable } from '../../src/server/db/schema.js';

/** The customers table's 0/1 flag columns (every one NOT NULL, default 0): benchmarks insert rows with raw SQL. */
export const CUSTOMER_FLAGS = [
  'isMigratedAccount',
  'isSalesforceAccount',
  'isAutomaticEmailsPaused',
  'allowDeviceSubscriptionChanges',
  'enableDiscreetAlarmApp',
  'enableFallDetectionApp',
  'enableSmsActivityConfirmation',
  'enableAlarmReportIntelligence',
  'autoGenerateAlarmIntelligence',
  'nationalResponse',
  'globalResponse',
  'eurowatch',
  'translationServices',
  'checkInTimers',
  'teamBroadcast',
  'isWelfareCheckEnabled',
  'isFallDetectionEnabled',
  'isTravelSafeEnabled',
  'isTrackingEnabled',
  'isSureCamEnabled',
  'isSosDisabled',
] as const;

export function customerRow(over: Partial<CustomerTable> & { name: string }): Insertable<CustomerTable> {
  const now = new Date().toISOString();
  return {
    id: randomUUID(),
    tenantId: randomUUID(),
    portalId: null,
    phoneNumber: null,
    tier: null,
    status: null,
    isMigratedAccount: 0,
    salesforceId: null,
    salesforceUrn: null,
    isSalesforceAccount: 0,
    accountManagerFullName: null,
    customerSuccessManagerFullName: null,
    addressLine1: null,
    addressLine2: null,
    city: null,
    county: null,
    postCode: null,
    countryId: null,
    isAutomaticEmailsPaused: 0,
    allowDeviceSubscriptionChanges: 0,
    enableDiscreetAlarmApp: 0,
    enableFallDetectionApp: 0,
    enableSmsActivityConfirmation: 0,
    enableAlarmReportIntelligence: 0,
    autoGenerateAlarmIntelligence: 0,
    nationalResponse: 0,
    globalResponse: 0,
    eurowatch: 0,
    translationServices: 0,
    checkInTimers: 0,
    teamBroadcast: 0,
    isWelfareCheckEnabled: 0,
    isFallDetectionEnabled: 0,
    isTravelSafeEnabled: 0,
    isTrackingEnabled: 0,
    isSureCamEnabled: 0,
    trackingInterval: 15,
    isSosDisabled: 0,
    etag: `"c-${randomUUID()}"`,
    deviceSubscriptionsEtag: `"d-${randomUUID()}"`,
    appSubscriptionsEtag: `"a-${randomUUID()}"`,
    createdAt: now,
    updatedAt: now,
    ...over,
  };
}

export async function insertCustomer(db: DB, over: Partial<CustomerTable> & { name: string }) {
  const row = customerRow(over);
  await db.insertInto('customers').values(row).execute();
  return row as CustomerTable;
}

export function deviceRow(over: Partial<DeviceTable> & { serialNumber: string }): DeviceTable {
  const now = new Date().toISOString();
  return {
    id: randomUUID(),
    imei: null,
    imsi: null,
    type: 620,
    phoneNumber: null,
    simPhoneNumber: null,
    simSerial: null,
    simTypeId: null,
    simStatus: null,
    supplier: 'Supplier Ltd',
    status: 1,
    customerId: null,
    orderNumber: null,
    isUserAssigned: 0,
    assignedPersonId: null,
    firmwareVersion: null,
    lastConfigurationDate: null,
    dateReceived: now,
    lastUpdated: now,
    addedToSystem: now,
    etag: `"e-${randomUUID()}"`,
    ...over,
  };
}
