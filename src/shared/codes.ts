// Code tables from the spec (documents 2 and 3), plus the lookup lists whose values the spec
// leaves to the server (tiers, customer statuses, SIM types, ...). Values marked "ours" are
// chosen by this product; the spec's numbers are kept exactly.

export type Lookup = { Value: number; Name: string; Order?: number };

/** A lookup list from its names by value, in value order (a record's integer keys iterate in ascending order). */
const byValue = (names: Record<number, string>): Lookup[] => Object.entries(names).map(([value, Name]) => ({ Value: Number(value), Name }));
/** A lookup list of consecutive values from `first`, in the order given. */
const numbered = (names: string[], first = 1): Lookup[] => names.map((Name, i) => ({ Value: first + i, Name }));

export const DEVICE_TYPES: Lookup[] = byValue({
  3: 'Smartphone',
  10: 'Identicom',
  15: 'Eview',
  20: 'TwigEx',
  30: 'T4',
  42: 'badge',
  52: 'badge',
  60: 'SureCam',
  70: 'eSIM',
  140: 'badge',
  370: 'MG370',
  400: 'Garmin InReach Mini 2',
  620: 'SG620',
  621: 'SG621',
  640: 'SG640',
  740: 'SG740',
  750: 'SG750',
  803: 'Spot Gen3',
  804: 'Gen4',
  810: 'SpotX',
});

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

export const ASSET_STATUSES: Lookup[] = byValue({
  1: 'New',
  2: 'Reserved',
  3: 'Allocated',
  4: 'AwaitingReturn_Replacement',
  5: 'Returned',
  6: 'Replacement',
  7: 'QuarantineDamaged',
  8: 'QuarantineEOL',
  10: 'AwaitingReturn_Cancelled',
  11: 'NonReturnedDevice_FaultyReplacement',
  12: 'NonReturnedDevice_Cancelled',
});

// ours
export const SIM_TYPES: Lookup[] = numbered(['Vodafone', 'EE', 'O2', 'Three', 'Multi-network roaming', 'eSIM']);

// ours ('0' is the spec's default "last config" filter)
export const LAST_CONFIG_FILTERS: Lookup[] = numbered(['All', 'Last 24 hours', 'Last 7 days', 'Last 30 days', 'Older than 30 days', 'Never configured'], 0);

// ours
export const TIER_TYPES: Lookup[] = numbered(['Bronze', 'Silver', 'Gold', 'Platinum']);

// ours
export const CUSTOMER_STATUSES: Lookup[] = numbered(['Active', 'Onboarding', 'Suspended', 'Cancelled']);

// ours: what raised the alarm (the list's "Trigger" column)
export const ALARM_TYPES: Lookup[] = numbered(['SOS Button', 'Fall Detected', 'Missed Check-in', 'Amber Alert', 'Red Alert', 'Welfare Check Failed']);

export const VERIFICATION_TYPES: Lookup[] = numbered(['Real Incident', 'Precautionary Incident', 'Planned', 'False']);

export const VERIFICATION_CATEGORIES: Lookup[] = byValue({
  101: 'Violence',
  102: 'Alcohol/Drugs',
  103: 'Domestic Violence',
  104: 'Verbal abuse',
  105: 'Accident/Illness/Injury',
  106: 'Self Harm',
  107: 'Other',
  201: 'Monitoring',
  202: 'Domestic Violence (Precautionary)',
  203: 'Security',
  204: 'Customer request',
  205: 'Police request',
  301: 'Activation call',
  302: 'Test',
  401: 'Technical Fault',
  402: 'Mistake',
  403: 'Ghost',
});

/** Category → verification type it belongs to (the hundreds digit). */
export const categoryType = (category: number) => Math.floor(category / 100);

// ours, except 7 = All Time (spec: option 7 skips the timeframe query; 'All Time' has no graph) and 2 is the default
export const DATE_RANGE_OPTIONS: Lookup[] = numbered(['Today', 'Last 7 days', 'Last 30 days', 'Last 3 months', 'Last 6 months', 'Last 12 months', 'All Time']);

export const PHONE_TYPE = { Work: 1, Personal: 2, Home: 3, Office: 4 } as const;
export const LOGIN_METHOD = { Password: 1, SingleSignOn: 2 } as const;
export const TWO_FACTOR_TYPE = { Email: 1, SMS: 2 } as const;
export const TWO_FACTOR_TYPES: Lookup[] = numbered(['Email', 'SMS']);

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
