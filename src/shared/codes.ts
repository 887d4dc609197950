// Code tables from the spec (documents 2 and 3), plus the lookup lists whose values the spec
// leaves to the server (tiers, customer statuses, SIM types, ...). Values marked "ours" are
// chosen by this product; the spec's numbers are kept exactly.

export type Lookup = { Value: number; Name: string; Order?: number };

export const DEVICE_TYPES: Lookup[] = [
  { Value: 3, Name: 'Smartphone' },
  { Value: 10, Name: 'Identicom' },
  { Value: 15, Name: 'Eview' },
  { Value: 20, Name: 'TwigEx' },
  { Value: 30, Name: 'T4' },
  { Value: 42, Name: 'badge' },
  { Value: 52, Name: 'badge' },
  { Value: 60, Name: 'SureCam' },
  { Value: 70, Name: 'eSIM' },
  { Value: 140, Name: 'badge' },
  { Value: 370, Name: 'MG370' },
  { Value: 400, Name: 'Garmin InReach Mini 2' },
  { Value: 620, Name: 'SG620' },
  { Value: 621, Name: 'SG621' },
  { Value: 640, Name: 'SG640' },
  { Value: 740, Name: 'SG740' },
  { Value: 750, Name: 'SG750' },
  { Value: 803, Name: 'Spot Gen3' },
  { Value: 804, Name: 'Gen4' },
  { Value: 810, Name: 'SpotX' },
];

export const CAPABILITY = {
  Battery: 1,
  Signal: 2,
  SendsLocation: 4,
  RequestLocation: 8,
  RaiseAlarm: 16,
  ChangeConfiguration: 32,
  SimStatus: 64,
  ReadSMS: 128,
} as const;

const C = CAPABILITY;
const tracker = C.Battery | C.Signal | C.SendsLocation | C.RequestLocation | C.RaiseAlarm | C.ChangeConfiguration | C.SimStatus | C.ReadSMS;
/** Capabilities per device type (ours: the spec names the flags, not the mapping). */
export const DEVICE_CAPABILITIES: Record<number, number> = {
  3: C.Battery | C.Signal | C.SendsLocation | C.RaiseAlarm,
  10: tracker,
  15: tracker,
  20: tracker,
  30: tracker,
  42: C.Battery | C.RaiseAlarm | C.SendsLocation,
  52: C.Battery | C.RaiseAlarm | C.SendsLocation,
  60: C.Battery | C.Signal | C.SendsLocation | C.RaiseAlarm,
  70: C.Signal | C.SimStatus,
  140: tracker,
  370: tracker,
  400: C.Battery | C.SendsLocation | C.RaiseAlarm,
  620: tracker,
  621: tracker,
  640: tracker,
  740: tracker,
  750: tracker,
  803: C.SendsLocation | C.RaiseAlarm,
  804: C.SendsLocation | C.RaiseAlarm,
  810: C.Battery | C.SendsLocation | C.RaiseAlarm,
};

/** Whether a device type has a capability (unknown types have none). */
export const hasCapability = (type: number | null | undefined, flag: number): boolean => type != null && ((DEVICE_CAPABILITIES[type] ?? 0) & flag) !== 0;

export const ASSET_STATUSES: Lookup[] = [
  { Value: 1, Name: 'New' },
  { Value: 2, Name: 'Reserved' },
  { Value: 3, Name: 'Allocated' },
  { Value: 4, Name: 'AwaitingReturn_Replacement' },
  { Value: 5, Name: 'Returned' },
  { Value: 6, Name: 'Replacement' },
  { Value: 7, Name: 'QuarantineDamaged' },
  { Value: 8, Name: 'QuarantineEOL' },
  { Value: 10, Name: 'AwaitingReturn_Cancelled' },
  { Value: 11, Name: 'NonReturnedDevice_FaultyReplacement' },
  { Value: 12, Name: 'NonReturnedDevice_Cancelled' },
];

// ours
export const SIM_TYPES: Lookup[] = [
  { Value: 1, Name: 'Vodafone' },
  { Value: 2, Name: 'EE' },
  { Value: 3, Name: 'O2' },
  { Value: 4, Name: 'Three' },
  { Value: 5, Name: 'Multi-network roaming' },
  { Value: 6, Name: 'eSIM' },
];

// ours ('0' is the spec's default "last config" filter)
export const LAST_CONFIG_FILTERS: Lookup[] = [
  { Value: 0, Name: 'All' },
  { Value: 1, Name: 'Last 24 hours' },
  { Value: 2, Name: 'Last 7 days' },
  { Value: 3, Name: 'Last 30 days' },
  { Value: 4, Name: 'Older than 30 days' },
  { Value: 5, Name: 'Never configured' },
];

// ours
export const TIER_TYPES: Lookup[] = [
  { Value: 1, Name: 'Bronze' },
  { Value: 2, Name: 'Silver' },
  { Value: 3, Name: 'Gold' },
  { Value: 4, Name: 'Platinum' },
];

// ours
export const CUSTOMER_STATUSES: Lookup[] = [
  { Value: 1, Name: 'Active' },
  { Value: 2, Name: 'Onboarding' },
  { Value: 3, Name: 'Suspended' },
  { Value: 4, Name: 'Cancelled' },
];

// ours: what raised the alarm (the list's "Trigger" column)
export const ALARM_TYPES: Lookup[] = [
  { Value: 1, Name: 'SOS Button' },
  { Value: 2, Name: 'Fall Detected' },
  { Value: 3, Name: 'Missed Check-in' },
  { Value: 4, Name: 'Amber Alert' },
  { Value: 5, Name: 'Red Alert' },
  { Value: 6, Name: 'Welfare Check Failed' },
];

export const VERIFICATION_TYPES: Lookup[] = [
  { Value: 1, Name: 'Real Incident' },
  { Value: 2, Name: 'Precautionary Incident' },
  { Value: 3, Name: 'Planned' },
  { Value: 4, Name: 'False' },
];

export const VERIFICATION_CATEGORIES: Lookup[] = [
  { Value: 101, Name: 'Violence' },
  { Value: 102, Name: 'Alcohol/Drugs' },
  { Value: 103, Name: 'Domestic Violence' },
  { Value: 104, Name: 'Verbal abuse' },
  { Value: 105, Name: 'Accident/Illness/Injury' },
  { Value: 106, Name: 'Self Harm' },
  { Value: 107, Name: 'Other' },
  { Value: 201, Name: 'Monitoring' },
  { Value: 202, Name: 'Domestic Violence (Precautionary)' },
  { Value: 203, Name: 'Security' },
  { Value: 204, Name: 'Customer request' },
  { Value: 205, Name: 'Police request' },
  { Value: 301, Name: 'Activation call' },
  { Value: 302, Name: 'Test' },
  { Value: 401, Name: 'Technical Fault' },
  { Value: 402, Name: 'Mistake' },
  { Value: 403, Name: 'Ghost' },
];

/** Category → verification type it belongs to (the hundreds digit). */
export const categoryType = (category: number) => Math.floor(category / 100);

// ours, except 7 = All Time (spec: option 7 skips the timeframe query; 'All Time' has no graph) and 2 is the default
export const DATE_RANGE_OPTIONS: Lookup[] = [
  { Value: 1, Name: 'Today' },
  { Value: 2, Name: 'Last 7 days' },
  { Value: 3, Name: 'Last 30 days' },
  { Value: 4, Name: 'Last 3 months' },
  { Value: 5, Name: 'Last 6 months' },
  { Value: 6, Name: 'Last 12 months' },
  { Value: 7, Name: 'All Time' },
];

export const PHONE_TYPE = { Work: 1, Personal: 2, Home: 3, Office: 4 } as const;
export const LOGIN_METHOD = { Password: 1, SingleSignOn: 2 } as const;
export const TWO_FACTOR_TYPE = { Email: 1, SMS: 2 } as const;
export const TWO_FACTOR_TYPES: Lookup[] = [
  { Value: 1, Name: 'Email' },
  { Value: 2, Name: 'SMS' },
];

export const FEATURE_NAMES = [
  'AssignDevice',
  'Devices',
  'ExportReportExcel',
  'ScheduledReports',
  'ExportManagementReportPDF',
  'StandardMobile',
  'HardDeletePerson',
  'CustomCheckInTime',
  'SingleSignOn',
  'AppTileLayoutConfiguration',
  'EnableAlarmReportIntelligence',
  'AutoGenerateAlarmReportIntelligence',
  'ScheduledUsageReport',
] as const;

export const PAGE_SIZES = [10, 25, 50, 100] as const;
export const DEFAULT_PAGE_SIZE = 10;
export const IDLE_TIMEOUT_MS = 1_800_000;

export const lookupName = (list: Lookup[], value: number | null | undefined) => list.find((l) => l.Value === value)?.Name ?? 'Unknown';

/** Spec: a GUID, optionally in braces, optionally followed by ':' and a second GUID. */
const G = '[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}';
export const ID_PATTERN = new RegExp(`^(\\{${G}\\}|${G})(:${G})?$`);
export const isValidId = (id: unknown): id is string => typeof id === 'string' && ID_PATTERN.test(id);
/** Normalise a valid id to its bare first GUID, lower-case. */
export const normaliseId = (id: string) => (id.replace(/[{}]/g, '').split(':', 1)[0] ?? '').toLowerCase();
/** Whether text can be part of a normalised id (a bare lower-case GUID): hex digits and hyphens, in either case. */
export const canBeInNormalisedId = (s: string) => /^[0-9a-fA-F-]+$/.test(s);

// ---------------------------------------------------------------- display names
// What the user reads for a code: statuses in words (not the code names), device types with their
// code where several types share a name (the three 'badge' types 42, 52 and 140).

const STATUS_DISPLAY: Record<string, string> = {
  AwaitingReturn_Replacement: 'Awaiting Return (Replacement)',
  AwaitingReturn_Cancelled: 'Awaiting Return (Cancelled)',
  QuarantineDamaged: 'Quarantine (Damaged)',
  QuarantineEOL: 'Quarantine (End of Life)',
  NonReturnedDevice_FaultyReplacement: 'Not Returned (Faulty Replacement)',
  NonReturnedDevice_Cancelled: 'Not Returned (Cancelled)',
};

/** A device status as the user reads it: 'AwaitingReturn_Replacement' → 'Awaiting Return (Replacement)'. */
export function statusDisplayName(name: string): string {
  return STATUS_DISPLAY[name] ?? name;
}

const SHARED_TYPE_NAMES = new Set(DEVICE_TYPES.filter((t, i) => DEVICE_TYPES.findIndex((u) => u.Name === t.Name) !== i).map((t) => t.Name));

/** A device type as the user reads it: its name, with the code when another type has the same name ('badge (42)'). */
export function deviceTypeDisplayName(t: { Name?: string; name?: string; Value?: number; value?: number }): string {
  const name = t.Name ?? t.name ?? '';
  const value = t.Value ?? t.value;
  return SHARED_TYPE_NAMES.has(name) && value !== undefined ? `${name} (${value})` : name;
}
