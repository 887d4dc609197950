// Scheduled reports (feature `ScheduledReports`): THE CONTRACT between the schedule routes
// (src/server/modules/schedules) and the Scheduled reports page. A schedule keeps the alarm
// list's filters (date range aside: each run covers its own period, src/shared/schedules.ts),
// when it runs, who receives it and what it sends: the report (the alarm list, or the monthly
// management report of the schedule's customer or of all customers, monthly schedules only) and
// its format (an enum: .xlsx).
//
// - GET /alarm-report/schedules → { Enabled, Schedules } (Enabled false: the feature is off, no rows).
// - POST /alarm-report/schedules (create), PUT /alarm-report/schedules/:id (edit, with the Etag),
//   PUT /alarm-report/schedules/:id/pause { paused }, DELETE /alarm-report/schedules/:id → the
//   schedule (create, edit, pause) or a message (delete). Every write is audited.
// - GET /alarm-report/schedules/:id/runs → { Runs } newest first (the latest 50).
import * as v from 'valibot';
import { alarmReportFilterBody } from './alarm-reports.js';
import { SCHEDULE_FORMATS, SCHEDULE_FREQUENCIES, SCHEDULE_REPORTS, TIME_OF_DAY } from '../schedules.js';
import { USAGE_TEXT } from '../messages.js';
import { MANAGEMENT_TEXT } from './management-report.js';
import { inputJson } from './common.js';

export const SCHEDULE_NAME_MAX = 100;
export const SCHEDULE_RECIPIENTS_MAX = 20;
export const SCHEDULE_RUNS_SHOWN = 50;

export const SCHEDULE_TEXT = {
  badBody: 'The request body must be a JSON object.',
  invalidId: 'The id is not valid.',
  nameRequired: 'Please enter a name.',
  nameTooLong: `A name can be at most ${SCHEDULE_NAME_MAX} characters long.`,
  badFrequency: 'Please choose daily, weekly or monthly.',
  dayOfWeekRequired: 'Please choose the day of the week.',
  dayOfMonthRequired: 'Please choose a day of the month from 1 to 31.',
  badTime: 'Please enter the time of day as HH:mm (24-hour, UK time).',
  recipientsRequired: 'Please enter at least one recipient.',
  tooManyRecipients: `At most ${SCHEDULE_RECIPIENTS_MAX} recipients.`,
  badEmail: 'Please enter valid e-mail addresses.',
  notARecipient: (email: string) => `${email} is not the e-mail address of a person you may send reports to.`,
  otherTenant: (email: string) =>
    `${email} is a person of a customer: a report sent to them must be of their customer alone (name it exactly in the account name filter), and every other recipient of their customer or provider staff.`,
  badFormat: 'Please choose a format.',
  badReport: 'Please choose the alarm list, the management report or the usage report.',
  managementMonthly: 'The management report covers a whole month: please choose monthly.',
  managementCustomer: 'The management report is of one customer or of all customers: the account name filter must name exactly one customer, or be left empty.',
  managementOff: MANAGEMENT_TEXT.disabled,
  usageMonthly: USAGE_TEXT.scheduleMonthly,
  usageCustomer: USAGE_TEXT.scheduleCustomer,
  usageOff: USAGE_TEXT.scheduleOff,
  usagePermission: USAGE_TEXT.schedulePermission,
  notFound: 'Scheduled report not found.',
  featureOff: 'Scheduled reports are switched off.',
  stale: 'This scheduled report was changed by someone else since it was loaded. Reload it and try again.',
  created: (name: string) => `Scheduled report '${name}' created.`,
  saved: (name: string) => `Scheduled report '${name}' saved.`,
  deleted: (name: string) => `Scheduled report '${name}' deleted.`,
  paused: (name: string) => `Scheduled report '${name}' paused.`,
  resumed: (name: string) => `Scheduled report '${name}' resumed.`,
  confirmDelete: (name: string) => `Delete the scheduled report '${name}'? Its run history goes with it.`,
} as const;

export const SCHEDULE_CODE = { featureOff: 'feature_off' } as const;

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** A schedule's day number (day of the week 1–7, date 1–31): absent or null, or a whole number in range. */
const dayNumber = (max: number, message: string) =>
  v.optional(v.nullable(v.pipe(v.number(message), v.integer(message), v.minValue(1, message), v.maxValue(max, message))), null);

const scheduleEntries = {
  name: v.pipe(
    v.string(SCHEDULE_TEXT.nameRequired),
    v.trim(),
    v.minLength(1, SCHEDULE_TEXT.nameRequired),
    v.maxLength(SCHEDULE_NAME_MAX, SCHEDULE_TEXT.nameTooLong),
  ),
  frequency: v.picklist(SCHEDULE_FREQUENCIES, SCHEDULE_TEXT.badFrequency),
  dayOfWeek: dayNumber(7, SCHEDULE_TEXT.dayOfWeekRequired),
  dayOfMonth: dayNumber(31, SCHEDULE_TEXT.dayOfMonthRequired),
  timeOfDay: v.pipe(v.string(SCHEDULE_TEXT.badTime), v.trim(), v.regex(TIME_OF_DAY, SCHEDULE_TEXT.badTime)),
  recipients: v.pipe(
    v.array(
      v.pipe(v.string(SCHEDULE_TEXT.badEmail), v.trim(), v.toLowerCase(), v.regex(EMAIL, SCHEDULE_TEXT.badEmail), v.maxLength(254, SCHEDULE_TEXT.badEmail)),
      SCHEDULE_TEXT.recipientsRequired,
    ),
    inputJson<string[]>({
      type: 'array',
      minItems: 1,
      maxItems: SCHEDULE_RECIPIENTS_MAX,
      items: { type: 'string', pattern: `^\\s*${EMAIL.source.slice(1, -1)}\\s*$`, maxLength: 254 },
    }),
    v.minLength(1, SCHEDULE_TEXT.recipientsRequired),
    v.transform((a) => [...new Set(a)]),
    v.maxLength(SCHEDULE_RECIPIENTS_MAX, SCHEDULE_TEXT.tooManyRecipients),
  ),
  format: v.optional(v.picklist(SCHEDULE_FORMATS, SCHEDULE_TEXT.badFormat), 'xlsx'),
  /** What is sent: the alarm list (of the saved filters), the monthly management report or the monthly usage report. */
  report: v.optional(v.picklist(SCHEDULE_REPORTS, SCHEDULE_TEXT.badReport), 'alarmList'),
  /** The alarm list's filters (its date range is replaced by each run's period). */
  filters: v.optional(alarmReportFilterBody, {}),
};
type RuleFields = { frequency: string; dayOfWeek: number | null; dayOfMonth: number | null; report: string };
/**
 * The rules across a schedule's fields, for create and edit alike: weekly needs its day, monthly
 * its date, and the management report (a whole London month) a monthly schedule. Each issue lands
 * on its field.
 */
const ruleChecks = <T extends RuleFields>() =>
  v.rawCheck<T>(({ dataset, addIssue }) => {
    if (!dataset.typed) return;
    const input: RuleFields = dataset.value;
    const issue = (key: keyof RuleFields, message: string) =>
      addIssue({ message, path: [{ type: 'object', origin: 'value', input: input as unknown as Record<string, unknown>, key, value: input[key] }] });
    if (input.frequency === 'weekly' && input.dayOfWeek === null) issue('dayOfWeek', SCHEDULE_TEXT.dayOfWeekRequired);
    if (input.frequency === 'monthly' && input.dayOfMonth === null) issue('dayOfMonth', SCHEDULE_TEXT.dayOfMonthRequired);
    if (input.report === 'managementReport' && input.frequency !== 'monthly') issue('frequency', SCHEDULE_TEXT.managementMonthly);
    if (input.report === 'usageReport' && input.frequency !== 'monthly') issue('frequency', SCHEDULE_TEXT.usageMonthly);
  });

const createObject = v.object(scheduleEntries, SCHEDULE_TEXT.badBody);
export const scheduleCreateBody = v.pipe(createObject, ruleChecks<v.InferOutput<typeof createObject>>());
export type ScheduleCreateBody = v.InferOutput<typeof scheduleCreateBody>;
export type ScheduleInput = v.InferInput<typeof scheduleCreateBody>;

const updateObject = v.object({ ...scheduleEntries, etag: v.optional(v.nullable(v.string()), null) }, SCHEDULE_TEXT.badBody);
export const scheduleUpdateBody = v.pipe(updateObject, ruleChecks<v.InferOutput<typeof updateObject>>());
export type ScheduleUpdateBody = v.InferOutput<typeof scheduleUpdateBody>;

export const schedulePauseBody = v.object({ paused: v.boolean('paused must be true or false.') }, SCHEDULE_TEXT.badBody);

// ---------------------------------------------------------------- answers

/**
 * A run's outcome: 'running' (the report is being built), 'sending' (handed to the outbox),
 * 'sent' (every recipient's e-mail went), 'held' (the customer pauses e-mail: waiting in the
 * outbox), 'failed' (building or sending failed after its retries; Error says why; a build that
 * failed is tried again while Attempts allow).
 */
export const RUN_OUTCOMES = ['running', 'sending', 'sent', 'held', 'failed'] as const;
export type RunOutcome = (typeof RUN_OUTCOMES)[number];

export const scheduleRunSchema = v.strictObject({
  Id: v.number(),
  DueAt: v.string(),
  StartedAt: v.string(),
  FinishedAt: v.nullable(v.string()),
  PeriodFrom: v.string(),
  PeriodTo: v.string(),
  Rows: v.nullable(v.number()),
  Outcome: v.picklist(RUN_OUTCOMES),
  Error: v.nullable(v.string()),
  Attempts: v.number(),
  /** Due times missed while no server ran, folded into this run. */
  Missed: v.number(),
});
export type ScheduleRunDto = v.InferOutput<typeof scheduleRunSchema>;

export const scheduleSchema = v.strictObject({
  Id: v.string(),
  Name: v.string(),
  Frequency: v.picklist(SCHEDULE_FREQUENCIES),
  DayOfWeek: v.nullable(v.number()),
  DayOfMonth: v.nullable(v.number()),
  TimeOfDay: v.string(),
  Description: v.string(),
  Recipients: v.array(v.string()),
  Format: v.picklist(SCHEDULE_FORMATS),
  /** What is sent: 'alarmList', 'managementReport' (of CustomerName, or of all customers when null) or 'usageReport' (of CustomerName). */
  Report: v.picklist(SCHEDULE_REPORTS),
  Filters: v.record(v.string(), v.unknown()),
  /** The customer whose report this is (the filters name exactly one account), else null. */
  CustomerName: v.nullable(v.string()),
  Paused: v.boolean(),
  NextRunAt: v.nullable(v.string()),
  LastRun: v.nullable(scheduleRunSchema),
  CreatedByName: v.string(),
  Etag: v.string(),
});
export type ScheduleDto = v.InferOutput<typeof scheduleSchema>;

export const scheduleListSchema = v.strictObject({ Enabled: v.boolean(), Schedules: v.array(scheduleSchema) });
export type ScheduleListDto = v.InferOutput<typeof scheduleListSchema>;
export const scheduleRunsSchema = v.strictObject({ Runs: v.array(scheduleRunSchema) });
export type ScheduleRunsDto = v.InferOutput<typeof scheduleRunsSchema>;
