// Closed alarm reports arriving from the alarm-receiving centre's platform (ours; decisions "Closed alarm reports
// arrive through an import edge, in the detail document's shape" and "At most 25 alarm reports per import request",
// docs/decisions/alarm-reports.md): POST /alarm-report/import { AlarmReports: [...] } with at most IMPORT_MAX reports, each
// in the shape GET alarm-report/get-details answers (spec doc 3 §3) plus what that document shows
// only by name: the customer's id (required), and optionally the person's and the controller's ids.
//
// - The server assigns every row id (report, calls, memos, activities, notes); ids sent are ignored.
//   A report is known by its AlarmId: one already stored is not stored again (AlreadyPresent).
// - Codes are read from `Value` (AlarmType, VerificationType, VerificationCategory, Tier,
//   AlarmDevice.Type); names sent beside them are ignored (the server's lookups name them).
// - Customer: must exist within the caller's scope; CustomerAccountFullName and Tier default to the
//   customer's. Person: ProfileSnapshot.Person (Id optional, FirstName and LastName required).
// - Dates are ISO 8601 instants with a zone ('Z' or an offset), stored as UTC.
// - The whole batch is one transaction: any invalid report refuses the batch with 400, Errors keyed
//   by its path ('AlarmReports.3.AlarmClosed'), and nothing is stored.
// - Answer: Created and AlreadyPresent (each { Index, AlarmId, AlarmReportId }) and Analysed (the
//   ids of created reports whose Analysis was generated: customer toggles and both features on).
import * as v from 'valibot';
import { ALARM_TYPES, DEVICE_TYPES, TIER_TYPES, VERIFICATION_CATEGORIES, VERIFICATION_TYPES, categoryType, isValidId, normaliseId } from '../codes.js';
import { guid } from './common.js';
import { ALARM_TEXT, CALL_LINES } from './alarm-reports.js';

/** The most reports one import holds. */
export const IMPORT_MAX = 25;
/** Bounds of one report's lists (a closed alarm has a handful of each). */
export const IMPORT_LIST_MAX = { calls: 200, records: 20, participants: 20, activities: 1000, notes: 500, memos: 200 } as const;
/** A closed date may be this far ahead of the server's clock (clock skew), no further. */
export const IMPORT_CLOCK_SKEW_MS = 5 * 60_000;

export const IMPORT_TEXT = {
  badBatch: `AlarmReports must be a list of 1 to ${IMPORT_MAX} alarm reports.`,
  badDate: 'Give an ISO 8601 date and time with its zone (e.g. 2026-11-20T10:00:00Z).',
  closedBeforeStarted: 'The alarm cannot close before it started.',
  closedInFuture: 'The alarm closed date is in the future.',
  categoryOfType: 'The verification category does not belong to the verification type.',
  unknownCustomer: 'Unknown customer.',
  seconds: 'Give a whole number of seconds, 0 or more.',
  text: 'Give a text value.',
  number: 'Give a number.',
  flag: 'Give true or false.',
  list: 'Give a list.',
  tooMany: 'Too many items.',
  person: 'The profile snapshot needs the person (FirstName, LastName).',
  customProperties: 'CustomProperties must be a JSON string or object.',
} as const;

const MAX_TEXT = 4000;
const str = (max = MAX_TEXT) => v.pipe(v.string(IMPORT_TEXT.text), v.maxLength(max, IMPORT_TEXT.text));
const optStr = (max = MAX_TEXT) => v.optional(v.nullable(str(max)), null);
const list = <S extends v.GenericSchema>(item: S, max: number) =>
  v.optional(v.pipe(v.array(item, IMPORT_TEXT.list), v.maxLength(max, IMPORT_TEXT.tooMany)), []);
const code = (values: { Value: number }[], message: string) =>
  v.object({ Value: v.pipe(v.picklist(values.map((x) => x.Value) as [number, ...number[]], message)) }, message);
/** A calendar date that exists (Date.parse rolls 30 February over into March). */
const realDay = (s: string) => {
  const [y = 0, m = 0, d = 0] = s.slice(0, 10).split('-').map(Number);
  return m >= 1 && m <= 12 && d >= 1 && d <= new Date(Date.UTC(y, m, 0)).getUTCDate();
};
/** An instant with its zone, normalised to the stored form (UTC, milliseconds). */
const instant = v.pipe(
  v.string(IMPORT_TEXT.badDate),
  v.check(
    (s) => /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})$/i.test(s) && !Number.isNaN(Date.parse(s)) && realDay(s),
    IMPORT_TEXT.badDate,
  ),
  v.transform((s) => new Date(s).toISOString()),
);
/** An optional id: missing, null or empty gives null (the detail document shows an unknown person's id as ''). */
const optId = v.pipe(
  v.optional(v.nullable(v.string(ALARM_TEXT.invalidId)), null),
  v.transform((s) => (s ?? '').trim()),
  v.check((s) => s === '' || isValidId(s), ALARM_TEXT.invalidId),
  v.transform((s) => (s === '' ? null : normaliseId(s))),
);
const seconds = v.pipe(
  v.number(IMPORT_TEXT.seconds),
  v.integer(IMPORT_TEXT.seconds),
  v.minValue(0, IMPORT_TEXT.seconds),
  v.maxValue(10_000_000, IMPORT_TEXT.seconds),
);

const location = v.object({
  GoogleApiAddress: optStr(500),
  W3WAddress: optStr(200),
  Latitude: v.optional(v.nullable(v.pipe(v.number(IMPORT_TEXT.number), v.minValue(-90), v.maxValue(90))), null),
  Longitude: v.optional(v.nullable(v.pipe(v.number(IMPORT_TEXT.number), v.minValue(-180), v.maxValue(180))), null),
  GpsGenerated: v.optional(v.boolean(IMPORT_TEXT.flag), false),
});

const call = v.object({
  StartTime: instant,
  EndTime: instant,
  Duration: v.pipe(v.number(IMPORT_TEXT.number), v.minValue(0, IMPORT_TEXT.number)),
  Line: v.picklist(CALL_LINES, `Line must be one of ${CALL_LINES.join(', ')}.`),
  Number: str(50),
  CallParticipants: list(v.object({ FullName: str(200) }), IMPORT_LIST_MAX.participants),
  AlarmCall: v.optional(v.boolean(IMPORT_TEXT.flag), false),
  ConferenceName: optStr(100),
  Records: list(
    v.object({ SId: v.pipe(str(100), v.nonEmpty(IMPORT_TEXT.text)), Unavailable: v.optional(v.boolean(IMPORT_TEXT.flag), false), Reason: optStr(500) }),
    IMPORT_LIST_MAX.records,
  ),
});

const activity = v.object({
  Date: instant,
  Creator: str(200),
  Details: str(),
  /** The spec's JSON string; an object is taken too and stored as its JSON. */
  CustomProperties: v.optional(
    v.union(
      [
        str(20_000),
        v.pipe(
          v.record(v.string(), v.unknown()),
          v.transform((o) => JSON.stringify(o)),
        ),
      ],
      IMPORT_TEXT.customProperties,
    ),
    '{}',
  ),
});

const note = v.object({
  Note: v.pipe(str(), v.nonEmpty(IMPORT_TEXT.text)),
  CreatedDate: instant,
  Person: v.object({ Id: optId, FullName: str(200), Roles: list(str(100), 20) }),
});

const memo = v.looseObject({
  StartDate: instant,
  DurationInMinutes: v.pipe(v.number(IMPORT_TEXT.number), v.integer(IMPORT_TEXT.number), v.minValue(0, IMPORT_TEXT.number)),
  DisplayName: v.object({ Name: str(200) }),
  TextMemo: optStr(),
  VoiceMemoId: optStr(100),
});

/** The profile snapshot as it was when the alarm closed: stored whole (the detail page reads what it knows). */
const snapshot = v.looseObject({
  Person: v.looseObject({ Id: optId, FirstName: str(200), LastName: str(200) }, IMPORT_TEXT.person),
  MemosAndActivities: v.optional(v.looseObject({ ActivitiesWithMemos: list(memo, IMPORT_LIST_MAX.memos) }), { ActivitiesWithMemos: [] }),
});

const report = v.pipe(
  v.object({
    AlarmId: guid(ALARM_TEXT.invalidId),
    CustomerId: guid(ALARM_TEXT.invalidId),
    CustomerAccountFullName: optStr(200),
    Tier: v.optional(v.nullable(code(TIER_TYPES, ALARM_TEXT.unknownTier)), null),
    Location: v.optional(location, { GoogleApiAddress: null, W3WAddress: null, Latitude: null, Longitude: null, GpsGenerated: false }),
    AlarmDevice: v.optional(v.nullable(v.object({ Type: code(DEVICE_TYPES, ALARM_TEXT.unknownDeviceType), Serial: optStr(100) })), null),
    AlarmStared: instant,
    AlarmClosed: instant,
    AlarmType: code(ALARM_TYPES, ALARM_TEXT.unknownAlarmType),
    VerificationType: code(VERIFICATION_TYPES, ALARM_TEXT.unknownVerificationType),
    VerificationCategory: code(VERIFICATION_CATEGORIES, ALARM_TEXT.unknownCategory),
    EscalationPlanFollowed: v.optional(v.boolean(IMPORT_TEXT.flag), false),
    AlarmIncomingCallPhoneNumber: optStr(50),
    ArcControllerId: optId,
    ArcControllerFullName: optStr(200),
    VerificationStartedSeconds: seconds,
    VerificationCompletedSeconds: seconds,
    ProfileSnapshot: snapshot,
    ActivityJournal: v.optional(v.object({ AdditionalNoteList: list(note, IMPORT_LIST_MAX.notes), Activities: list(activity, IMPORT_LIST_MAX.activities) }), {
      AdditionalNoteList: [],
      Activities: [],
    }),
    Calls: list(call, IMPORT_LIST_MAX.calls),
  }),
  v.forward(
    v.check((r) => r.AlarmClosed >= r.AlarmStared, IMPORT_TEXT.closedBeforeStarted),
    ['AlarmClosed'],
  ),
  v.forward(
    v.check((r) => categoryType(r.VerificationCategory.Value) === r.VerificationType.Value, IMPORT_TEXT.categoryOfType),
    ['VerificationCategory'],
  ),
);
export type ImportedAlarmReport = v.InferOutput<typeof report>;

/** POST /alarm-report/import { AlarmReports } */
export const importAlarmReportsBody = v.object(
  { AlarmReports: v.pipe(v.array(report, IMPORT_TEXT.badBatch), v.minLength(1, IMPORT_TEXT.badBatch), v.maxLength(IMPORT_MAX, IMPORT_TEXT.badBatch)) },
  ALARM_TEXT.badBody,
);
export type ImportAlarmReportsBody = v.InferInput<typeof importAlarmReportsBody>;

const outcome = v.strictObject({ Index: v.number(), AlarmId: v.string(), AlarmReportId: v.string() });
export const importAlarmReportsSchema = v.strictObject({
  Created: v.array(outcome),
  AlreadyPresent: v.array(outcome),
  Analysed: v.array(v.string()),
});
export type ImportAlarmReportsResponse = v.InferOutput<typeof importAlarmReportsSchema>;

/**
 * The smallest report the import takes (the ARC platform sends the detail document's fields): the
 * OpenAPI sample, and the base tests spread and override (AlarmId, CustomerId, the person).
 */
export const IMPORT_SAMPLE = {
  AlarmId: '00000000-0000-4000-8000-000000000000',
  CustomerId: '00000000-0000-4000-8000-000000000000',
  AlarmStared: '2026-01-01T10:00:00Z',
  AlarmClosed: '2026-01-01T10:05:00Z',
  AlarmType: { Value: 1 },
  VerificationType: { Value: 1 },
  VerificationCategory: { Value: 101 },
  VerificationStartedSeconds: 8,
  VerificationCompletedSeconds: 150,
  ProfileSnapshot: { Person: { FirstName: 'Sample', LastName: 'Person' } },
} as const satisfies ImportAlarmReportsBody['AlarmReports'][number];
