// Fleet health (ours, provider staff): which allocated devices are not protecting anyone right
// now, and whose they are. THE CONTRACT between src/server/modules/fleet and
// src/app/features/fleet; docs/fleet-health.md says it for an operations manager.
//
// A device counts when it is allocated to a customer (status Allocated). The categories, each
// with thresholds the provider sets (Provider Settings) and a customer may override (the
// customer's Settings tab; an override left empty takes the provider's value):
// - silent: no message for longer than silentHours (or none ever);
// - notCharged: its last reported battery is at or below lowBattery % and no 'Charging started'
//   on the last notChargedDays Europe/London days (today included);
// - unused: no 'Check-in' and no 'Power on' on the last unusedDays London days (today included);
// - switchedOff: its last message is 'Power off';
// - configPending: a configuration change queued longer than configHours ago is not yet applied;
// - firmwareBehind: its firmware is older than the newest version reported for its device type.
// A device may be in several. The device list's `fleetHealth` filter selects exactly the devices
// a count counted (the same condition), so its bulk changes, export and tabs work on them.
import * as v from 'valibot';
import { guid } from './common.js';

export const FLEET_CATEGORIES = ['silent', 'notCharged', 'unused', 'switchedOff', 'configPending', 'firmwareBehind'] as const;
export type FleetCategory = (typeof FLEET_CATEGORIES)[number];

export const FLEET_CATEGORY_LABELS: Record<FleetCategory, string> = {
  silent: 'Silent',
  notCharged: 'Not charged',
  unused: 'Unused',
  switchedOff: 'Switched off',
  configPending: 'Configuration not acknowledged',
  firmwareBehind: 'Firmware behind',
};

export const THRESHOLD_KEYS = ['silentHours', 'lowBattery', 'notChargedDays', 'unusedDays', 'configHours'] as const;
export type ThresholdKey = (typeof THRESHOLD_KEYS)[number];
export type FleetThresholds = Record<ThresholdKey, number>;

/** What a threshold is, its unit, and its bounds. */
export const THRESHOLD_DEFS: Record<ThresholdKey, { label: string; unit: string; min: number; max: number }> = {
  silentHours: { label: 'Silent after', unit: 'hours without a message', min: 1, max: 24 * 90 },
  lowBattery: { label: 'Low battery at or below', unit: '%', min: 1, max: 100 },
  notChargedDays: { label: 'Not charged for', unit: 'days', min: 1, max: 90 },
  unusedDays: { label: 'Unused for', unit: 'days without a check-in or power-on', min: 1, max: 90 },
  configHours: { label: 'Configuration not acknowledged after', unit: 'hours', min: 1, max: 24 * 90 },
};

/** The provider's thresholds until it sets its own. */
export const FLEET_DEFAULTS: FleetThresholds = { silentHours: 24, lowBattery: 20, notChargedDays: 3, unusedDays: 7, configHours: 24 };

/** Which thresholds a category reads. */
export const CATEGORY_THRESHOLDS: Record<FleetCategory, readonly ThresholdKey[]> = {
  silent: ['silentHours'],
  notCharged: ['lowBattery', 'notChargedDays'],
  unused: ['unusedDays'],
  switchedOff: [],
  configPending: ['configHours'],
  firmwareBehind: [],
};

export const FLEET_TEXT = {
  badThreshold: (k: ThresholdKey) => `${THRESHOLD_DEFS[k].label} must be a whole number from ${THRESHOLD_DEFS[k].min} to ${THRESHOLD_DEFS[k].max}.`,
  providerSaved: 'Fleet health thresholds saved.',
  customerSaved: 'Fleet health thresholds of this customer saved.',
  customerNotFound: 'Customer not found.',
  invalidCustomer: 'customerId must be a customer id.',
} as const;

const threshold = (k: ThresholdKey) =>
  v.pipe(
    v.number(FLEET_TEXT.badThreshold(k)),
    v.integer(FLEET_TEXT.badThreshold(k)),
    v.minValue(THRESHOLD_DEFS[k].min, FLEET_TEXT.badThreshold(k)),
    v.maxValue(THRESHOLD_DEFS[k].max, FLEET_TEXT.badThreshold(k)),
  );

/** PUT /ps-admin/fleet-health/thresholds: the provider's thresholds, all five. */
export const providerThresholdsBody = v.object({
  silentHours: threshold('silentHours'),
  lowBattery: threshold('lowBattery'),
  notChargedDays: threshold('notChargedDays'),
  unusedDays: threshold('unusedDays'),
  configHours: threshold('configHours'),
});

const overrideOf = (k: ThresholdKey) => v.optional(v.nullable(threshold(k)), null);
/** PUT /ps-admin/customers/fleet-thresholds: a customer's override; null (or left out) takes the provider's value. */
export const customerThresholdsBody = v.object({
  customerId: guid(FLEET_TEXT.invalidCustomer),
  silentHours: overrideOf('silentHours'),
  lowBattery: overrideOf('lowBattery'),
  notChargedDays: overrideOf('notChargedDays'),
  unusedDays: overrideOf('unusedDays'),
  configHours: overrideOf('configHours'),
});
/** GET /ps-admin/customers/fleet-thresholds?customerId= */
export const customerThresholdsQuery = v.object({ customerId: guid(FLEET_TEXT.invalidCustomer) });

const thresholdsSchema = v.strictObject({
  silentHours: v.number(),
  lowBattery: v.number(),
  notChargedDays: v.number(),
  unusedDays: v.number(),
  configHours: v.number(),
});
const overrideSchema = v.strictObject({
  silentHours: v.nullable(v.number()),
  lowBattery: v.nullable(v.number()),
  notChargedDays: v.nullable(v.number()),
  unusedDays: v.nullable(v.number()),
  configHours: v.nullable(v.number()),
});
export type FleetOverride = v.InferOutput<typeof overrideSchema>;

/** GET /ps-admin/fleet-health/thresholds */
export const providerThresholdsSchema = v.strictObject({ Thresholds: thresholdsSchema, Defaults: thresholdsSchema });
export type ProviderThresholdsDto = v.InferOutput<typeof providerThresholdsSchema>;
/** GET /ps-admin/customers/fleet-thresholds: the override, the provider's values, and what holds for the customer. */
export const customerThresholdsSchema = v.strictObject({ Override: overrideSchema, Provider: thresholdsSchema, Effective: thresholdsSchema });
export type CustomerThresholdsDto = v.InferOutput<typeof customerThresholdsSchema>;

const countsSchema = v.strictObject({
  silent: v.number(),
  notCharged: v.number(),
  unused: v.number(),
  switchedOff: v.number(),
  configPending: v.number(),
  firmwareBehind: v.number(),
});
export type FleetCounts = v.InferOutput<typeof countsSchema>;

/**
 * GET /ps-admin/fleet-health: the counts over every allocated device, and per customer with any
 * device in a category — worst first (most devices in any category, then the larger share of the
 * customer's devices, then the name). Devices: the allocated devices; Affected: those in at least one category.
 */
export const fleetHealthSchema = v.strictObject({
  Devices: v.number(),
  Affected: v.number(),
  Counts: countsSchema,
  Customers: v.array(
    v.strictObject({
      CustomerId: v.string(),
      CustomerName: v.string(),
      Devices: v.number(),
      Affected: v.number(),
      Counts: countsSchema,
      HasOverride: v.boolean(),
    }),
  ),
  Thresholds: thresholdsSchema,
  At: v.string(),
});
export type FleetHealthDto = v.InferOutput<typeof fleetHealthSchema>;

/**
 * Hub event to every connection (like SettingsChanged): Fleet Health's counts changed — a device
 * crossed a threshold, or thresholds changed. Clients holding the page refetch it (the event
 * carries no figures: the refetch is the permission-checked read).
 */
export const FLEET_HEALTH_CHANGED_EVENT = 'FleetHealthChanged';
export const fleetHealthChangedEventSchema = v.strictObject({ At: v.string() });
export type FleetHealthChangedEvent = v.InferOutput<typeof fleetHealthChangedEventSchema>;
