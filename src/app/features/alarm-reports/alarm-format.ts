// Display rules of the alarm report detail and list (spec document 3 §4 "Display rules", §8, §9
// "Dates"). Pure functions over the spec's field names, so the detail tab, the printable report and
// the unit tests share one source of truth. Inputs are typed structurally (only the fields a rule
// reads), so the contract's answer types fit them as they are.
import { DATE_FORMAT, formatAlarmDateTime, formatShown } from '../../../shared/dates';
import { MSG } from '../../../shared/messages';
import { CAPABILITY, hasCapability } from '../../../shared/codes';
import { formatCount, formatPercent } from '../../../shared/numbers';
import { formatPhone as formatSharedPhone } from '../../../shared/phone';

export const EMPTY = '-';

export const ALARM_TEXT = {
  noteDialogTitle: 'Add alarm report note',
  noteField: 'Note text',
  add: 'Add',
  cancel: 'Cancel',
  addNote: 'Add Note',
  escalationFollowed: 'Escalation plan followed',
  escalationQuestion: 'Controller followed the escalation plan?',
  fullProfile: 'Full Profile',
  exportPdf: 'Export to PDF',
  noResultsTitle: 'NO RESULTS',
  noResultsText: 'There are no results for the filters applied.',
  noResultsPrompt: 'Change the filters and click Apply.',
  exportConfirm: (n: number) => `Are you sure you want to export data for ${formatCount(n)} alarm reports?`,
  unknownRole: 'Unknown',
  batteryNotApplicable: 'n/a',
  batteryNotSupported: 'Not supported',
} as const;

type Named = { Name?: string | null } | null | undefined;
const str = (v: unknown): string => (typeof v === 'string' && v.trim() ? v.trim() : typeof v === 'number' && Number.isFinite(v) ? String(v) : EMPTY);
export const dash = str;
export const nameOf = (o: Named) => str(o?.Name);

/** Spec §9: 24-hour, day / short month / 2-digit year, with seconds (en-GB): '22 Nov 26 21:47:05'. */
export const formatDateTime = (value: string | null | undefined): string => formatAlarmDateTime(value, EMPTY);
export const formatDate = (value: string | null | undefined): string => formatShown(value, DATE_FORMAT, EMPTY);

/** Header: the person's name, falling back to the incoming call's phone number. */
export function headerName(person: { FirstName?: string | null; LastName?: string | null } | null | undefined, incomingPhone?: string | null): string {
  const full = `${person?.FirstName ?? ''} ${person?.LastName ?? ''}`.trim();
  return full || formatSharedPhone(incomingPhone, null, EMPTY);
}

/** A note author's label: the first role containing 'manager', else the first containing 'supervisor', else 'Unknown'. */
export function noteAuthorLabel(roles: readonly (string | null | undefined)[] | null | undefined): string {
  const list = (roles ?? []).filter((r): r is string => typeof r === 'string');
  return list.find((r) => /manager/i.test(r)) ?? list.find((r) => /supervisor/i.test(r)) ?? ALARM_TEXT.unknownRole;
}

/**
 * What the report says of a note's author on screen and in print alike: the spec's label when it
 * finds a manager or supervisor role; otherwise the author's roles as the printed report lists them
 * ('ARC Controller'), and 'Unknown' only for an author without any role.
 */
export function noteAuthorRoles(roles: readonly (string | null | undefined)[] | null | undefined): string {
  const label = noteAuthorLabel(roles);
  if (label !== ALARM_TEXT.unknownRole) return label;
  const list = (roles ?? []).filter((r): r is string => typeof r === 'string' && r.trim() !== '');
  return list.length ? list.join(', ') : label;
}

/** Seconds without fractions: 125.7 → '2m 05s', 42.9 → '42s', 3725 → '1h 02m 05s'. */
export function formatDuration(seconds: number | null | undefined): string {
  if (seconds == null || !Number.isFinite(seconds) || seconds < 0) return EMPTY;
  const s = Math.floor(seconds);
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const sec = s % 60;
  const pad = (n: number) => String(n).padStart(2, '0');
  if (h) return `${h}h ${pad(m)}m ${pad(sec)}s`;
  if (m) return `${m}m ${pad(sec)}s`;
  return `${sec}s`;
}

/** A call with zero duration shows 'Call failed'; otherwise its duration without fractional seconds. */
export function callDuration(duration: number | null | undefined): string {
  return !duration ? MSG.callFailed : formatDuration(duration);
}

/** Vehicle information appears only when a vehicle is owned or used. */
export const showVehicle = (v: { VehicleOwnedOrUsed?: boolean | null } | null | undefined) => v?.VehicleOwnedOrUsed === true;

/** Duress words appear only when active. */
export const showDuressWords = (i: { DuressWordsActive?: boolean | null } | null | undefined) => i?.DuressWordsActive === true;

type CompanyFlags = {
  IsEurowatch?: boolean | null;
  IsGlobalResponse?: boolean | null;
  IsTranslationServices?: boolean | null;
  IsNationalResponse?: boolean | null;
};

/** The service flags of the person's company that are set, as labels. */
export function serviceFlags(c: CompanyFlags | null | undefined): string[] {
  if (!c) return [];
  return [
    c.IsEurowatch && 'Eurowatch',
    c.IsGlobalResponse && 'Global Response',
    c.IsTranslationServices && 'Translation Services',
    c.IsNationalResponse && 'National Response',
  ].filter((x): x is string => !!x);
}

export type InstructionsInput = {
  instruction?: { SpecialInstructions?: readonly unknown[] | null; DuressWordsActive?: boolean | null } | null;
  medical?: { HearingImpairment?: boolean | null; MedicalConditions?: readonly unknown[] | null } | null;
  riskProfiles?: readonly unknown[] | null;
  company?: CompanyFlags | null;
};

/**
 * The alarm instructions panel appears only if at least one exists of: special instructions,
 * active duress words, hearing impairment, medical conditions, risk profiles, or a service flag.
 */
export function showInstructionsPanel({ instruction, medical, riskProfiles, company }: InstructionsInput): boolean {
  return (
    (instruction?.SpecialInstructions?.length ?? 0) > 0 ||
    showDuressWords(instruction) ||
    medical?.HearingImpairment === true ||
    (medical?.MedicalConditions?.length ?? 0) > 0 ||
    (riskProfiles?.length ?? 0) > 0 ||
    serviceFlags(company).length > 0
  );
}

/** Device details and emergency contacts are hidden when their lists are empty. */
export const hasItems = (list: readonly unknown[] | null | undefined): boolean => (list?.length ?? 0) > 0;

/** Teams flagged as primary group first; then the default plan first, then by plan name (one rule with the analysis's plan in force). */
export { sortEscalationPlans } from '../../../shared/alarm-intelligence';

/** '+44 7700 900123' from {CountryCode, Number} (the one phone format, src/shared/phone.ts); '-' when there is no number. */
export function formatPhone(p: { CountryCode?: string | null; Number?: string | null } | null | undefined): string {
  return formatSharedPhone(p?.Number, p?.CountryCode, EMPTY);
}

export function formatAddressLines(a: { AddressLine1?: string | null; AddressLine2?: string | null } | null | undefined): string {
  const parts = [a?.AddressLine1, a?.AddressLine2].map((x) => x?.trim()).filter(Boolean);
  return parts.length ? parts.join(', ') : EMPTY;
}

/** Battery gauge (spec §9): a percentage; '-' with no value. */
/** Spec §9 battery gauge: 'n/a' when the device type has no Battery capability (type given), '-' with no value, else a percentage. */
export function formatBattery(v: number | null | undefined, type?: number | null): string {
  if (type !== undefined && !hasCapability(type, CAPABILITY.Battery)) return ALARM_TEXT.batteryNotApplicable;
  return v == null || !Number.isFinite(v) ? EMPTY : `${Math.round(v)}%`;
}

/** what3words page for a three-word address ('///filled.count.soap' or 'filled.count.soap'). */
export function what3wordsUrl(w3w: string | null | undefined): string | null {
  const words = w3w?.trim().replace(/^\/+/, '');
  return words ? `https://what3words.com/${encodeURIComponent(words)}` : null;
}

export function formatCoordinates(lat: number | null | undefined, lng: number | null | undefined): string {
  if (lat == null || lng == null || !Number.isFinite(lat) || !Number.isFinite(lng)) return EMPTY;
  return `${lat.toFixed(5)}, ${lng.toFixed(5)}`;
}

// ---- activity journal (spec §3 "CustomProperties kinds"; §8 unparseable JSON renders nothing)

export type JournalLine = { label: string; value: string };

const FIELDS: Record<string, readonly (readonly [string, string])[]> = {
  call: [
    ['to', 'To'],
    ['from', 'From'],
    ['duration', 'Duration'],
    ['status', 'Status'],
  ],
  email: [
    ['to', 'To'],
    ['subject', 'Subject'],
    ['content', 'Content'],
    ['status', 'Status'],
  ],
  sms: [
    ['to', 'To'],
    ['body', 'Body'],
    ['status', 'Status'],
  ],
  location: [
    ['googleApiAddress', 'Address'],
    ['latitude', 'Latitude'],
    ['longitude', 'Longitude'],
    ['w3WAddress', 'what3words'],
    ['gridReference', 'Grid reference'],
  ],
  verification: [
    ['type', 'Type'],
    ['category', 'Category'],
  ],
  note: [['text', 'Note']],
  supportIssueRaised: [
    ['controllerName', 'Controller'],
    ['issueRaisedDate', 'Raised'],
  ],
  alarmNotice: [
    ['expiryDate', 'Expires'],
    ['notice', 'Notice'],
  ],
  alarmType: [['trigger', 'Trigger']],
};
const DATE_FIELDS = new Set(['issueRaisedDate', 'expiryDate']);

/** The journal kind of a CustomProperties object: its `kind`, else guessed from the fields it carries. */
export function journalKind(props: Record<string, unknown>): string | null {
  if (typeof props.kind === 'string' && props.kind in FIELDS) return props.kind;
  if ('subject' in props) return 'email';
  if ('body' in props) return 'sms';
  if ('duration' in props) return 'call';
  if ('latitude' in props || 'googleApiAddress' in props) return 'location';
  if ('controllerName' in props) return 'supportIssueRaised';
  if ('notice' in props) return 'alarmNotice';
  if ('trigger' in props) return 'alarmType';
  if ('category' in props) return 'verification';
  if ('text' in props) return 'note';
  return null;
}

/**
 * The Notes column of one journal entry: the kind's fields in the spec's order, call durations
 * without fractions, dates in en-GB. Unparseable or unknown JSON gives [] (renders nothing).
 */
export function formatJournalProperties(json: string | null | undefined): JournalLine[] {
  if (!json) return [];
  let props: unknown;
  try {
    props = JSON.parse(json);
  } catch {
    return [];
  }
  if (!props || typeof props !== 'object' || Array.isArray(props)) return [];
  const p = props as Record<string, unknown>;
  const kind = journalKind(p);
  if (!kind) return [];
  return (FIELDS[kind] ?? []).map(([key, label]) => {
    const raw = p[key];
    let value: string;
    if (kind === 'call' && key === 'duration') value = typeof raw === 'number' ? formatDuration(raw) : str(raw);
    else if (DATE_FIELDS.has(key)) value = typeof raw === 'string' ? formatDateTime(raw) : EMPTY;
    else value = str(raw);
    return { label, value };
  });
}

// ---- charts (spec §2 charts; §3 series names)

/** The four verification types of the 'Type of Alarms' line chart, by AlarmType.Value. */
export const ALARM_SERIES = [
  { value: 1, key: 'realIncident', label: 'Incident', color: '#e5484d' },
  { value: 2, key: 'precautionaryIncident', label: 'Precautionary', color: '#f76b15' },
  { value: 3, key: 'planned', label: 'Planned', color: '#0090ff' },
  { value: 4, key: 'false', label: 'False', color: '#8d8d8d' },
] as const;

/** Date range option 7 is 'All Time': no line chart, and the verification-type timeframe query is skipped. */
export const ALL_TIME_OPTION = 7;

/** Axis label thinning: show every n-th label, so about `target` labels fit whatever the range. */
export function labelStep(count: number, rangeOption: number): number {
  const target = rangeOption === 1 ? 12 : rangeOption === 2 ? 7 : 10;
  return Math.max(1, Math.ceil(count / target));
}

/** Axis text of a time label: days 'dd/MM/yyyy' lose the year up to the 30-day range ('21/11'). */
export function shortLabel(label: string, rangeOption: number): string {
  const m = /^(\d{2})\/(\d{2})\/\d{4}$/.exec(label);
  return m && rangeOption <= 3 ? `${m[1]}/${m[2]}` : label;
}

/** Share (0..1) of `part` in `total`, 0 for an empty total. */
export const share = (part: number, total: number) => (total > 0 ? part / total : 0);

/** '80%', '98.5%' (src/shared/numbers.ts). */
export { formatPercent };
