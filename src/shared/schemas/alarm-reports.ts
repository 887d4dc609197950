// Alarm report endpoints (spec document 3, §3, §4, §5, §7, §8): THE CONTRACT between the alarm
// report server (src/server/modules/alarm-reports) and the alarm report pages (list, charts,
// detail, print). Input schemas validate on the server; answer schemas are strict, so the
// contract test fails when either side drifts. Lookups (date range options, alarm types,
// verification types and categories, controllers) are in reference.ts; tier types come from
// GET /api/v1/customer/get-tier-types and device types from GET /api/v1/device/get-types.
//
// Answer shapes the client must know:
// - get-list: { AlarmReports, TotalCount } (PascalCase as the spec). Default list (spec §4): page 1,
//   alarmClosedDateRangeOption 2, alarmVerificationTypes [1], sortBy 'AlarmClosedDate', sortDescending
//   true — the CLIENT sends these defaults; the server's defaults for a missing field are "no filter"
//   (empty arrays), option 2 and closed date descending.
// - Date ranges are UK calendar days (Europe/London): 1 Today (since midnight), 2 the last 7 days
//   including today, 3 the last 30 days, 4/5/6 the last 3/6/12 months (from midnight of the same day
//   that many months ago), 7 All Time. Optional alarmClosedDateFrom / alarmClosedDateTo ('YYYY-MM-DD',
//   UK days, inclusive, not in the future) narrow the range further.
// - Buckets (ours where the spec leaves the edge open): every band is "from its lower bound up to but
//   not including its upper bound", so exactly 10 s is '10-40 s', exactly 40 s is 'Over 40 s',
//   exactly 120 s is '120-180 s', exactly 180 s is '180-600 s', exactly 600 s is 'Over 600 s'
//   (decision "Chart bands run from the lower bound up to, not including, the upper one",
//   docs/decisions/alarm-reports.md). TimeFrames always list every band in order, zero counts included.
// - get-verification-type-timeframes: TimeFrames keyed by time label (chronological key order, and
//   the same order in Labels), each label listing the four verification types (1 Incident,
//   2 Precautionary, 3 Planned, 4 False) with their counts, zeros included. Labels: option 1 hours
//   'HH:00'; options 2 and 3 days 'dd/MM/yyyy'; option 4 weeks (Monday) 'dd/MM/yyyy'; options 5 and 6
//   months 'MMM yyyy'. Option 7 is not charted: the client skips the call (spec §4); the server
//   answers { TimeFrames: {}, Labels: [] } for it.
// - get-details?AlarmId= → the detail document of spec §3 (AlarmStared is the spec's spelling) plus
//   Etag (the version `update` needs). 404 Code 'not_found' for an unknown alarm.
// - add-note → the created note. Blank note: 400 'Please enter note text.' (Errors.note).
// - update (escalation plan followed) takes the Etag of get-details optionally: without one the
//   flag is set (idempotent); with a stale one: 409 'etag_conflict'. Answers { Etag, EscalationPlanFollowed }.
// - log-call-download → { Content: { Message: 'Call recording downloaded.' } }.
// - export-list → an .xlsx (blob) named AlarmReports_yyyyMMdd_HHmmss.xlsx, sheet 'Alarm Reports', the
//   list's columns in its order plus Alarm Id and Device Serial; rows in the body's sort order. A
//   null body or no matching report: 400 'Export payload is empty'; over EXPORT_MAX: 400.
// - Call recordings: GET /api/v1/alarm-line/get-record-file (calls on the Alarm and Covert Call
//   lines) and GET /api/v1/second-line/get-record-file (Outbound / Inbound Second Line), query
//   RecordSId, ConferenceName, Id (the call's Id); audio/wav bytes, single byte ranges honoured
//   (206). Unknown, unavailable or wrong-line record: 404 'Failed to fetch call recording.'
// - Voice memos: GET /interactive-communication/portal/voice-memo/get-file?PersonId=&MemoId=
//   (MemoId is the memo's VoiceMemoId); audio/wav. Unknown: 404 'Failed to fetch voice memo.'
// - Response targets (ours; decisions "Response targets are an endpoint of their own" and "One edge serves
//   'within 10 s' and 'Under 10 s'", docs/decisions/alarm-reports.md): POST /alarm-report/get-response-targets with the
//   list filters plus targets → the share of alarms whose verification started within 10 s and within
//   40 s (the chart's edges: < 10 s and < 40 s, RESPONSE_WINDOWS) against the targets, and the alarms
//   that missed.
import * as v from 'valibot';
import { MSG } from '../messages.js';
import { ALARM_TYPES, DATE_RANGE_OPTIONS, DEVICE_TYPES, TIER_TYPES, VERIFICATION_CATEGORIES, VERIFICATION_TYPES } from '../codes.js';
import { edgeEntries, guid, inputJson, MAX_SEARCH_LENGTH, noNul, NOT_BLANK, pagingBody } from './common.js';

// ---------------------------------------------------------------- constants and messages

/** Longest note (ours; the spec gives none). */
export const NOTE_MAX = 4000;
/** The most alarm reports one export holds. */
export const EXPORT_MAX = 200_000;
/** The most missed alarms the response-target answer lists (MissedTotal counts them all). */
export const MISSED_MAX = 200;
/** BS 8484:2016 lone-worker ARC response figures: 80 % within 10 s, 98.5 % within 40 s. */
export const DEFAULT_TARGETS = { within10: 80, within40: 98.5 } as const;

export const DATE_RANGE = { Today: 1, Last7Days: 2, Last30Days: 3, Last3Months: 4, Last6Months: 5, Last12Months: 6, AllTime: 7 } as const;

/** Spec §2 chart buckets, in order; the bounds are [lower, upper) in seconds. */
export const STARTED_BANDS = [
  { TimeFrame: 'Under 10 s', from: 0, to: 10 },
  { TimeFrame: '10-40 s', from: 10, to: 40 },
  { TimeFrame: 'Over 40 s', from: 40, to: Infinity },
] as const;
export const COMPLETED_BANDS = [
  { TimeFrame: 'Under 120 s', from: 0, to: 120 },
  { TimeFrame: '120-180 s', from: 120, to: 180 },
  { TimeFrame: '180-600 s', from: 180, to: 600 },
  { TimeFrame: 'Over 600 s', from: 600, to: Infinity },
] as const;
/** The band a duration falls in (durations below 0 count as 0). */
export const bandOf = <B extends { readonly from: number; readonly to: number }>(bands: readonly B[], seconds: number): B =>
  bands.find((b) => Math.max(0, seconds) >= b.from && seconds < b.to) ?? (bands[bands.length - 1] as B);
/**
 * The response targets count from the same edges as the Verification Started chart: 'within 10 s'
 * is the 'Under 10 s' band (< 10 s) and 'within 40 s' the bands below 40 s (< 40 s), so the panel
 * and the chart always show the same numbers; an alarm at exactly 10 s missed the 10 s target.
 */
export const RESPONSE_WINDOWS = { within10: STARTED_BANDS[0].to, within40: STARTED_BANDS[1].to } as const;
/** Whether a verification that started after `seconds` counts as within `window` seconds. */
export const isWithin = (seconds: number, window: number) => seconds < window;
/** How many of the Verification Started bands (from the first) make up 'within `window` s'. */
export const startedBandsWithin = (window: number) => STARTED_BANDS.filter((b) => b.to <= window).length;

/** Server-side messages the spec does not quote. */
export const ALARM_TEXT = {
  badBody: 'The request body must be a JSON object.',
  invalidId: 'The id is not valid.',
  notFound: 'Alarm report not found.',
  unknownAlarmType: 'Unknown alarm type.',
  unknownVerificationType: 'Unknown verification type.',
  unknownCategory: 'Unknown verification category.',
  unknownDeviceType: 'Unknown device type.',
  unknownTier: 'Unknown tier.',
  unknownDateRange: 'Unknown date range option.',
  badDate: 'Dates must be given as YYYY-MM-DD.',
  futureDate: 'Dates in the future can not be chosen.',
  dateOrder: 'The start date must not be after the end date.',
  searchTooLong: `Search text can be at most ${MAX_SEARCH_LENGTH} characters long.`,
  noteTooLong: `A note can be at most ${NOTE_MAX} characters long.`,
  etagRequired: 'The alarm report version (etag) is missing. Reload the report and try again.',
  stale: 'This alarm report was changed by someone else since it was loaded. Reload it and try again.',
  flagRequired: 'escalationPlanFollowed must be true or false.',
  callNotFound: 'Call not found in this alarm report.',
  tooMany: `At most ${EXPORT_MAX} alarm reports can be exported at once; narrow the filters.`,
  badTarget: 'A target must be a percentage from 0 to 100.',
  exportEmpty: MSG.exportPayloadEmpty,
} as const;

// ---------------------------------------------------------------- building blocks

const values = (list: { Value: number }[]) => list.map((l) => l.Value);
const codeList = (allowed: number[], message: string) =>
  v.optional(
    v.pipe(
      v.nullable(v.pipe(v.array(v.pipe(v.picklist(allowed, message)), message), v.maxLength(100, message))),
      v.transform((a) => [...new Set(a ?? [])]),
    ),
    [],
  );
const text = (message: string) =>
  v.optional(
    v.pipe(
      v.nullable(v.string(message)),
      v.transform((s) => (s ?? '').trim()),
      v.maxLength(MAX_SEARCH_LENGTH, message),
      v.check(noNul, message),
    ),
    '',
  );
const isoDay = v.optional(
  v.pipe(
    v.nullable(v.string(ALARM_TEXT.badDate)),
    inputJson<string | null>({ anyOf: [{ type: 'string', pattern: '^\\s*(\\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\\d|3[01]))?\\s*$' }, { type: 'null' }] }),
    v.transform((s) => (s ?? '').trim()),
    v.check((s) => s === '' || (/^\d{4}-\d{2}-\d{2}$/.test(s) && !Number.isNaN(Date.parse(`${s}T00:00:00Z`))), ALARM_TEXT.badDate),
    v.transform((s) => (s === '' ? null : s)),
  ),
  null,
);

export const ALARM_REPORT_SORT_BY = [
  'AlarmClosedDate',
  'CustomerAccountFullName',
  'Tier',
  'AlarmType',
  'AlarmVerificationType',
  'AlarmVerificationCategory',
  'PersonFullName',
  'DeviceType',
  'ArcControllerFullName',
] as const;
export type AlarmReportSortBy = (typeof ALARM_REPORT_SORT_BY)[number];

/** The filters every list-shaped endpoint takes (get-list, the three timeframes, export, response targets). */
const filterEntries = {
  /** ALARM_TYPES values (what raised the alarm; the list's Trigger column). */
  alarmTypes: codeList(values(ALARM_TYPES), ALARM_TEXT.unknownAlarmType),
  alarmClosedDateRangeOption: v.optional(v.pipe(v.picklist(values(DATE_RANGE_OPTIONS), ALARM_TEXT.unknownDateRange)), DATE_RANGE.Last7Days),
  /** Custom range (ours): UK days 'YYYY-MM-DD', inclusive, within the option's range. */
  alarmClosedDateFrom: isoDay,
  alarmClosedDateTo: isoDay,
  alarmVerificationCategoryTypes: codeList(values(VERIFICATION_CATEGORIES), ALARM_TEXT.unknownCategory),
  alarmVerificationTypes: codeList(values(VERIFICATION_TYPES), ALARM_TEXT.unknownVerificationType),
  /** Alarm id, person, account or device serial contains this (case-insensitive). */
  searchValue: text(ALARM_TEXT.searchTooLong),
  /** Customer account full name contains (ours: the spec lists the filter without a payload field). */
  customerAccountFullName: text(ALARM_TEXT.searchTooLong),
  /** Person full name contains (ours, as above). */
  personFullName: text(ALARM_TEXT.searchTooLong),
  arcControllerIds: v.optional(
    v.pipe(
      v.nullable(v.pipe(v.array(guid(ALARM_TEXT.invalidId), ALARM_TEXT.invalidId), v.maxLength(500, ALARM_TEXT.invalidId))),
      v.transform((a) => [...new Set(a ?? [])]),
    ),
    [],
  ),
  deviceTypes: codeList(values(DEVICE_TYPES), ALARM_TEXT.unknownDeviceType),
  tierTypes: codeList(values(TIER_TYPES), ALARM_TEXT.unknownTier),
};
const sortEntries = {
  sortBy: v.optional(
    v.pipe(
      v.nullable(v.picklist(ALARM_REPORT_SORT_BY, `sortBy must be one of ${ALARM_REPORT_SORT_BY.join(', ')}.`)),
      v.transform((s) => s ?? 'AlarmClosedDate'),
    ),
    'AlarmClosedDate',
  ),
  sortDescending: v.optional(v.boolean('sortDescending must be true or false.'), true),
};
type DateBounds = { alarmClosedDateFrom: string | null; alarmClosedDateTo: string | null };
const dateOrder = <T extends DateBounds>() =>
  v.check<T, string>((b) => !b.alarmClosedDateFrom || !b.alarmClosedDateTo || b.alarmClosedDateFrom <= b.alarmClosedDateTo, ALARM_TEXT.dateOrder);

/** The filters without paging and sorting (timeframes). */
const filterObject = v.object(filterEntries, ALARM_TEXT.badBody);
export const alarmReportFilterBody = v.pipe(filterObject, dateOrder<v.InferOutput<typeof filterObject>>());
export type AlarmReportFilterBody = v.InferOutput<typeof alarmReportFilterBody>;
/** What the client sends (every field optional). */
export type AlarmReportFilter = v.InferInput<typeof alarmReportFilterBody>;

/** POST alarm-report/get-list — spec §7 payload. */
const listObject = v.object(
  {
    ...pagingBody,
    ...filterEntries,
    ...sortEntries,
    ...edgeEntries,
  },
  ALARM_TEXT.badBody,
);
export const alarmReportListBody = v.pipe(listObject, dateOrder<v.InferOutput<typeof listObject>>());
export type AlarmReportListBody = v.InferOutput<typeof alarmReportListBody>;
export type AlarmReportListFilter = v.InferInput<typeof alarmReportListBody>;

/** POST alarm-report/export-list — the list filters and sort (no paging); a null body is 'Export payload is empty'. */
const exportObject = v.object({ ...filterEntries, ...sortEntries }, ALARM_TEXT.badBody);
export const alarmReportExportBody = v.pipe(
  v.nullable(exportObject),
  v.metadata<v.InferOutput<typeof exportObject> | null, Record<string, unknown>>({ 'x-not-null': true }),
  v.check((b) => b !== null, ALARM_TEXT.exportEmpty),
  v.transform((b) => b!),
  dateOrder<v.InferOutput<typeof exportObject>>(),
);
export type AlarmReportExportBody = v.InferOutput<typeof alarmReportExportBody>;
export type AlarmReportExportFilter = Omit<AlarmReportListFilter, 'page' | 'pageSize'>;

const percent = (dflt: number) =>
  v.optional(v.pipe(v.number(ALARM_TEXT.badTarget), v.minValue(0, ALARM_TEXT.badTarget), v.maxValue(100, ALARM_TEXT.badTarget)), dflt);
/** POST alarm-report/get-response-targets (ours) — the filters plus the targets (default 80 / 98.5). */
const targetsObject = v.object(
  {
    ...filterEntries,
    targetWithin10Percent: percent(DEFAULT_TARGETS.within10),
    targetWithin40Percent: percent(DEFAULT_TARGETS.within40),
  },
  ALARM_TEXT.badBody,
);
export const responseTargetsBody = v.pipe(targetsObject, dateOrder<v.InferOutput<typeof targetsObject>>());
export type ResponseTargetsBody = v.InferOutput<typeof responseTargetsBody>;
export type ResponseTargetsFilter = v.InferInput<typeof responseTargetsBody>;

/** GET alarm-report/get-details?AlarmId= */
export const alarmReportDetailsQuery = v.object({ AlarmId: guid(ALARM_TEXT.invalidId) });

const noteText = v.pipe(
  v.optional(v.nullable(v.string(MSG.enterNoteText)), ''),
  inputJson<string | null>({ type: 'string', pattern: NOT_BLANK, maxLength: NOTE_MAX }, { required: true }),
  v.transform((s) => (s ?? '').trim()),
  v.nonEmpty(MSG.enterNoteText),
  v.maxLength(NOTE_MAX, ALARM_TEXT.noteTooLong),
  v.check(noNul, MSG.enterNoteText),
);
/** POST alarm-report/add-note { alarmReportId, note } */
export const addNoteBody = v.object({ alarmReportId: guid(ALARM_TEXT.invalidId), note: noteText }, ALARM_TEXT.badBody);
export type AddNoteBody = v.InferInput<typeof addNoteBody>;

/** POST alarm-report/log-call-download { alarmReportId, callId, alarmId? } */
export const logCallDownloadBody = v.object(
  { alarmReportId: guid(ALARM_TEXT.invalidId), callId: guid(ALARM_TEXT.invalidId), alarmId: v.optional(guid(ALARM_TEXT.invalidId)) },
  ALARM_TEXT.badBody,
);
export type LogCallDownloadBody = v.InferInput<typeof logCallDownloadBody>;

/**
 * PUT alarm-report/update { alarmReportId, escalationPlanFollowed, alarmId?, etag? } — the spec's
 * payload has no etag: setting a flag is idempotent, so the last write wins; an etag, when sent,
 * must still be the report's (else 409).
 */
export const updateAlarmReportBody = v.object(
  {
    alarmReportId: guid(ALARM_TEXT.invalidId),
    alarmId: v.optional(guid(ALARM_TEXT.invalidId)),
    escalationPlanFollowed: v.boolean(ALARM_TEXT.flagRequired),
    etag: v.optional(v.pipe(v.string(ALARM_TEXT.etagRequired), v.trim(), v.nonEmpty(ALARM_TEXT.etagRequired), v.maxLength(200, ALARM_TEXT.etagRequired))),
  },
  ALARM_TEXT.badBody,
);
export type UpdateAlarmReportBody = v.InferInput<typeof updateAlarmReportBody>;

const sid = (message: string) => v.pipe(v.string(message), v.trim(), v.nonEmpty(message), v.maxLength(100, message), v.check(noNul, message));
/** GET …/get-record-file?RecordSId=&ConferenceName=&Id= (Id: the call's Id). */
export const recordFileQuery = v.object({
  RecordSId: sid(MSG.callRecordingFailed),
  ConferenceName: v.optional(v.pipe(v.string(MSG.callRecordingFailed), v.maxLength(100, MSG.callRecordingFailed)), ''),
  Id: guid(MSG.callRecordingFailed),
});
export type RecordFileQuery = v.InferInput<typeof recordFileQuery>;
/** GET /interactive-communication/portal/voice-memo/get-file?PersonId=&MemoId= (MemoId: the memo's VoiceMemoId). */
export const voiceMemoFileQuery = v.object({ PersonId: guid(MSG.voiceMemoFailed), MemoId: guid(MSG.voiceMemoFailed) });
export type VoiceMemoFileQuery = v.InferInput<typeof voiceMemoFileQuery>;

// ---------------------------------------------------------------- answers

const named = v.strictObject({ Name: v.string(), Value: v.number() });
const option = v.nullable(v.strictObject({ Id: v.union([v.number(), v.string()]), Name: v.string() }));

/** A list row (spec §3 "Alarm report list row"; Value next to each Name is ours). */
export const alarmReportRowSchema = v.strictObject({
  AlarmReportId: v.string(),
  AlarmId: v.string(),
  AlarmClosedDate: v.string(),
  CustomerAccountFullName: v.string(),
  Tier: v.nullable(named),
  AlarmType: named,
  AlarmVerificationType: named,
  AlarmVerificationCategory: named,
  PersonFullName: v.string(),
  DeviceType: v.nullable(named),
  ArcControllerFullName: v.nullable(v.string()),
});
export type AlarmReportRow = v.InferOutput<typeof alarmReportRowSchema>;
export const alarmReportListSchema = v.strictObject({ AlarmReports: v.array(alarmReportRowSchema), TotalCount: v.number() });
export type AlarmReportList = v.InferOutput<typeof alarmReportListSchema>;

/** Verification started / completed: TotalCount and every band in order. */
export const timeFramesSchema = v.strictObject({
  TotalCount: v.number(),
  TimeFrames: v.array(v.strictObject({ TimeFrame: v.string(), Count: v.number() })),
});
export type TimeFrames = v.InferOutput<typeof timeFramesSchema>;

/** Type of alarms over time: per label, the four verification types (AlarmType.Value 1–4) with counts. */
export const typeTimeFramesSchema = v.strictObject({
  TimeFrames: v.record(v.string(), v.array(v.strictObject({ AlarmType: v.strictObject({ Value: v.number() }), Count: v.number() }))),
  /** The labels in chronological order (ours: a JSON object's key order is not a contract). */
  Labels: v.array(v.string()),
});
export type TypeTimeFrames = v.InferOutput<typeof typeTimeFramesSchema>;

const targetResult = v.strictObject({
  /** Alarms whose verification started within the limit (inclusive). */
  Count: v.number(),
  /** Count / TotalCount × 100, or null when TotalCount is 0. */
  Percent: v.nullable(v.number()),
  TargetPercent: v.number(),
  /** Percent ≥ TargetPercent (false when there are no alarms). */
  Met: v.boolean(),
});
export const missedAlarmSchema = v.strictObject({
  AlarmReportId: v.string(),
  AlarmId: v.string(),
  AlarmClosedDate: v.string(),
  PersonFullName: v.string(),
  CustomerAccountFullName: v.string(),
  ArcControllerFullName: v.nullable(v.string()),
  VerificationStartedSeconds: v.number(),
  /** Also missed the 40-s limit. */
  Over40: v.boolean(),
});
export type MissedAlarm = v.InferOutput<typeof missedAlarmSchema>;
/** POST /alarm-report/get-response-targets (ours). Missed: over 10 s, slowest first, at most MISSED_MAX. */
export const responseTargetsSchema = v.strictObject({
  TotalCount: v.number(),
  Within10: targetResult,
  Within40: targetResult,
  Missed: v.array(missedAlarmSchema),
  MissedTotal: v.number(),
});
export type ResponseTargets = v.InferOutput<typeof responseTargetsSchema>;

// ---- detail document (spec §3 "Alarm report detail" and the snapshot entities)

const phone = v.strictObject({ CountryCode: v.string(), Number: v.string() });
const address = v.strictObject({
  AddressLine1: v.string(),
  AddressLine2: v.nullable(v.string()),
  City: v.nullable(v.string()),
  County: v.nullable(v.string()),
  PostCode: v.nullable(v.string()),
  Country: v.nullable(v.strictObject({ Id: v.string(), Name: v.string(), Code: v.string() })),
});
export const alarmLocationSchema = v.strictObject({
  GoogleApiAddress: v.nullable(v.string()),
  W3WAddress: v.nullable(v.string()),
  Latitude: v.nullable(v.number()),
  Longitude: v.nullable(v.number()),
  GpsGenerated: v.boolean(),
});
export type AlarmLocation = v.InferOutput<typeof alarmLocationSchema>;

export const emergencyContactSchema = v.strictObject({ FirstName: v.string(), LastName: v.string(), Relationship: v.string(), PhoneNumber: phone });
export const snapshotDeviceSchema = v.strictObject({
  Id: v.string(),
  Type: named,
  Serial: v.string(),
  PhoneNumber: v.nullable(v.string()),
  LastKnownBattery: v.nullable(v.number()),
});
export const teamWithPlanSchema = v.strictObject({
  Team: v.strictObject({ Name: v.string(), PrimaryGroup: v.boolean() }),
  EscalationPlan: v.strictObject({
    Name: v.string(),
    Instructions: v.array(
      v.strictObject({
        Instruction: v.string(),
        Contact: v.strictObject({ InstructionContactName: v.string(), CountryCode: v.string(), Value: v.string() }),
      }),
    ),
  }),
  DefaultEscalationPlan: v.boolean(),
});
export const memoSchema = v.strictObject({
  Id: v.string(),
  StartDate: v.string(),
  DurationInMinutes: v.number(),
  DisplayName: v.strictObject({ Name: v.string() }),
  TextMemo: v.nullable(v.string()),
  VoiceMemoId: v.nullable(v.string()),
});
export type MemoDto = v.InferOutput<typeof memoSchema>;

/** The person as the snapshot holds them (spec §3 "User info", "Full person profile"). */
export const snapshotPersonSchema = v.strictObject({
  Id: v.string(),
  FirstName: v.string(),
  LastName: v.string(),
  Company: v.strictObject({
    Name: v.string(),
    IsEurowatch: v.boolean(),
    IsGlobalResponse: v.boolean(),
    IsTranslationServices: v.boolean(),
    IsNationalResponse: v.boolean(),
  }),
  Contact: v.strictObject({ WorkPhoneNumber: v.nullable(phone), PersonalPhoneNumber: v.nullable(phone), EmailAddress: v.nullable(v.string()) }),
  EmergencyContacts: v.array(emergencyContactSchema),
  Title: option,
  JobSector: option,
  JobRole: option,
  JobTitle: v.nullable(v.string()),
  RiskProfiles: v.array(v.strictObject({ Id: v.union([v.number(), v.string()]), Name: v.string() })),
  VehicleInformation: v.strictObject({
    VehicleOwnedOrUsed: v.boolean(),
    VehicleRegistration: v.nullable(v.string()),
    Color: option,
    Make: option,
    Model: v.nullable(v.string()),
  }),
  PersonalDetails: v.strictObject({ DateOfBirth: v.nullable(v.string()), Gender: option, HomeAddress: v.nullable(address), WorkAddress: v.nullable(address) }),
  MedicalInformation: v.strictObject({
    HearingImpairment: v.boolean(),
    HearingImpairmentLevel: v.nullable(v.string()),
    BloodType: option,
    MedicalConditions: v.array(v.strictObject({ Id: v.union([v.number(), v.string()]), Name: v.string() })),
  }),
  Ethnicity: option,
  PhysicalInformation: v.strictObject({
    Height: v.nullable(
      v.strictObject({ Unit: v.picklist(['centimeters', 'feet']), CentimeterValue: v.number(), FeetValue: v.number(), InchValue: v.number() }),
    ),
    HairColor: option,
    EyeColor: option,
    DistinguishingFeatures: v.array(v.strictObject({ Id: v.union([v.number(), v.string()]), Name: v.string(), AdditionalInformation: v.nullable(v.string()) })),
  }),
});
export type SnapshotPerson = v.InferOutput<typeof snapshotPersonSchema>;

export const profileSnapshotSchema = v.strictObject({
  Person: snapshotPersonSchema,
  SnapshotDate: v.string(),
  PrimaryTeamAlarmInstruction: v.nullable(
    v.strictObject({
      SpecialInstructions: v.array(v.string()),
      DuressWordsActive: v.boolean(),
      DuressWords: v.nullable(v.strictObject({ Monitor: v.string(), CallPolice: v.string() })),
    }),
  ),
  Devices: v.array(snapshotDeviceSchema),
  TeamWithEscalationPlan: v.array(teamWithPlanSchema),
  MemosAndActivities: v.strictObject({ ActivitiesWithMemos: v.array(memoSchema) }),
});
export type ProfileSnapshot = v.InferOutput<typeof profileSnapshotSchema>;

export const alarmNoteSchema = v.strictObject({
  Id: v.string(),
  Note: v.string(),
  CreatedDate: v.string(),
  Person: v.strictObject({ FullName: v.string(), Roles: v.array(v.string()) }),
});
export type AlarmNoteDto = v.InferOutput<typeof alarmNoteSchema>;

/** An activity log entry; CustomProperties is the stored JSON string (kinds in spec §3; may be unparseable). */
export const activityLogEntrySchema = v.strictObject({
  Id: v.string(),
  Date: v.string(),
  Creator: v.string(),
  Details: v.string(),
  CustomProperties: v.string(),
});
export type ActivityLogEntry = v.InferOutput<typeof activityLogEntrySchema>;

export const CALL_LINES = ['Covert Call', 'Alarm', 'Outbound Second Line', 'Inbound Second Line'] as const;
export type CallLine = (typeof CALL_LINES)[number];
/** Which record-file endpoint serves a call's recordings. */
export const isSecondLine = (line: string) => line === 'Outbound Second Line' || line === 'Inbound Second Line';

export const callRecordSchema = v.strictObject({ SId: v.string(), Unavailable: v.boolean(), Reason: v.nullable(v.string()) });
export const alarmCallSchema = v.strictObject({
  Id: v.string(),
  StartTime: v.string(),
  EndTime: v.string(),
  /** Seconds, may have fractions (the display drops them; 0 shows 'Call failed'). */
  Duration: v.number(),
  Line: v.string(),
  Number: v.string(),
  CallParticipants: v.array(v.strictObject({ FullName: v.string() })),
  AlarmCall: v.boolean(),
  ConferenceName: v.nullable(v.string()),
  Records: v.array(callRecordSchema),
});
export type AlarmCallDto = v.InferOutput<typeof alarmCallSchema>;

/** GET alarm-report/get-details?AlarmId= — calls and activity entries in time order, notes oldest first. */
export const alarmReportDetailsSchema = v.strictObject({
  Id: v.string(),
  AlarmId: v.string(),
  Etag: v.string(),
  Location: alarmLocationSchema,
  AlarmDevice: v.nullable(v.strictObject({ Type: named, Serial: v.nullable(v.string()) })),
  /** The spec's spelling. */
  AlarmStared: v.string(),
  AlarmClosed: v.string(),
  AlarmType: named,
  VerificationType: named,
  VerificationCategory: named,
  EscalationPlanFollowed: v.boolean(),
  AlarmIncomingCallPhoneNumber: v.nullable(v.string()),
  CustomerAccountFullName: v.string(),
  Tier: v.nullable(named),
  ArcControllerFullName: v.nullable(v.string()),
  VerificationStartedSeconds: v.number(),
  VerificationCompletedSeconds: v.number(),
  ProfileSnapshot: profileSnapshotSchema,
  ActivityJournal: v.strictObject({ AdditionalNoteList: v.array(alarmNoteSchema), Activities: v.array(activityLogEntrySchema) }),
  Calls: v.array(alarmCallSchema),
});
export type AlarmReportDetails = v.InferOutput<typeof alarmReportDetailsSchema>;

/** PUT alarm-report/update */
export const updateAlarmReportSchema = v.strictObject({ Etag: v.string(), EscalationPlanFollowed: v.boolean() });
export type UpdateAlarmReportResponse = v.InferOutput<typeof updateAlarmReportSchema>;

export const AUDIO_TYPE = 'audio/wav';
