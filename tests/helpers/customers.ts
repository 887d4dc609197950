// Customer rows for tests and benchmarks that insert customers straight into the database
// (tests/integration/search.test.ts, tests/bench/search.bench.ts, tests/bench/devices.bench.ts).
import { randomUUID } from 'node:crypto';
import type { Insertable } from 'kysely';
import type { CustomerTable } from '../../src/server/db/schema.js';

/** The customers table's 0/1 flag columns (every one NOT NULL, default 0). */
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

/** A complete customer row (every flag 0) with the given name; `at` is its created/updated time. */
export function customerRow(
  over: { name: string; portalId?: string | null; tier?: number; status?: number; id?: string },
  at = new Date(Date.UTC(2025, 5, 1)).toISOString(),
): Insertable<CustomerTable> {
  return {
    id: over.id ?? randomUUID(),
    tenantId: randomUUID(),
    name: over.name,
    portalId: over.portalId ?? null,
    phoneNumber: null,
    tier: over.tier ?? 2,
    status: over.status ?? 1,
    salesforceId: null,
    salesforceUrn: null,
    accountManagerFullName: null,
    customerSuccessManagerFullName: null,
    addressLine1: null,
    addressLine2: null,
    city: null,
    county: null,
    postCode: null,
    countryId: null,
    ...(Object.fromEntries(CUSTOMER_FLAGS.map((f) => [f, 0])) as Record<(typeof CUSTOMER_FLAGS)[number], number>),
    trackingInterval: 15,
    etag: '"e"',
    deviceSubscriptionsEtag: '"e"',
    appSubscriptionsEtag: '"e"',
    createdAt: at,
    updatedAt: at,
  };
}
