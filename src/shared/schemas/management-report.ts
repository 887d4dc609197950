// The monthly management report (ours; docs/alarm-intelligence.md "Monthly management report"),
// behind the feature ExportManagementReportPDF:
//
// - POST /alarm-report/get-management-report { month: 'YYYY-MM', customerId?: guid | null,
//   targetWithin10Percent?, targetWithin40Percent? } (AdminPanel.AlarmReport.Export) → the report
//   of one customer (customerId) or of all customers (null or missing) for a Europe/London month.
//   403 'feature_disabled' when the feature is off; 404 for an unknown customer; 400 for a month
//   that is not 'YYYY-MM'.
// Rules (months, shares, the month before): src/shared/management-report.ts.
import * as v from 'valibot';
import { guid, inputJson } from './common.js';
import { ALARM_TEXT, DEFAULT_TARGETS } from './alarm-reports.js';
import { lookupSchema } from './reference.js';
import { parseMonth } from '../management-report.js';

export const MANAGEMENT_FEATURE = 'ExportManagementReportPDF';

export const MANAGEMENT_TEXT = {
  title: 'Management Report',
  allCustomers: 'All customers',
  disabled: 'The management report is not enabled.',
  badMonth: 'Choose a month (YYYY-MM).',
  customerNotFound: 'Customer not found.',
} as const;
/** The printed report's section headings, top to bottom (the e2e test reads the PDF in this order). */
export const MANAGEMENT_SECTIONS = [
  'Alarms by type',
  'Alarms by category',
  'Verification bands',
  'Response targets',
  'Alarms that missed the 10 s target',
  'Busiest users',
  'Busiest devices',
  'Escalation plan compliance',
] as const;
export const MANAGEMENT_CODE = { disabled: 'feature_disabled' } as const;

const percent = (dflt: number) =>
  v.optional(v.pipe(v.number(ALARM_TEXT.badTarget), v.minValue(0, ALARM_TEXT.badTarget), v.maxValue(100, ALARM_TEXT.badTarget)), dflt);

/** POST /alarm-report/get-management-report */
export const managementReportBody = v.object(
  {
    month: v.pipe(
      v.string(MANAGEMENT_TEXT.badMonth),
      inputJson({ type: 'string', pattern: '^(20\\d\\d|2100)-(0[1-9]|1[0-2])$' }),
      v.check((m) => parseMonth(m) !== null, MANAGEMENT_TEXT.badMonth),
    ),
    customerId: v.optional(v.nullable(guid(ALARM_TEXT.invalidId)), null),
    targetWithin10Percent: percent(DEFAULT_TARGETS.within10),
    targetWithin40Percent: percent(DEFAULT_TARGETS.within40),
  },
  ALARM_TEXT.badBody,
);
export type ManagementReportBody = v.InferInput<typeof managementReportBody>;

const counted = v.strictObject({ ...lookupSchema.entries, Count: v.number() });
const band = v.strictObject({ TimeFrame: v.string(), Count: v.number() });
const target = v.strictObject({
  Count: v.number(),
  Percent: v.nullable(v.number()),
  TargetPercent: v.number(),
  Met: v.boolean(),
  PreviousCount: v.number(),
  PreviousPercent: v.nullable(v.number()),
  Change: v.nullable(v.number()),
});

export const managementReportSchema = v.strictObject({
  Month: v.string(),
  PreviousMonth: v.string(),
  /** The London month as UTC instants [From, To). */
  From: v.string(),
  To: v.string(),
  CustomerId: v.nullable(v.string()),
  /** The customer's name, or 'All customers'. */
  CustomerName: v.string(),
  TotalCount: v.number(),
  PreviousTotalCount: v.number(),
  /** Alarms by what raised them (every alarm type, in code order). */
  ByAlarmType: v.array(counted),
  /** By verification type (Real Incident, Precautionary Incident, Planned, False). */
  ByVerificationType: v.array(counted),
  /** By verification category (the categories with alarms, most first). */
  ByCategory: v.array(counted),
  VerificationStarted: v.array(band),
  VerificationCompleted: v.array(band),
  Within10: target,
  Within40: target,
  /** Alarms whose verification started outside 10 s, slowest first, at most MISSED_LIST_MAX. */
  Missed: v.array(
    v.strictObject({
      AlarmReportId: v.string(),
      AlarmId: v.string(),
      AlarmClosedDate: v.string(),
      PersonFullName: v.string(),
      CustomerAccountFullName: v.string(),
      VerificationStartedSeconds: v.number(),
      Over40: v.boolean(),
    }),
  ),
  MissedTotal: v.number(),
  BusiestPersons: v.array(v.strictObject({ PersonId: v.string(), FullName: v.string(), Count: v.number() })),
  BusiestDevices: v.array(v.strictObject({ Serial: v.string(), DeviceType: v.string(), Count: v.number() })),
  /**
   * Escalation-plan compliance from the stored analyses of the month's reports; null when alarm
   * report intelligence is off (the feature, or for one customer its setting).
   */
  PlanCompliance: v.nullable(
    v.strictObject({
      Analysed: v.number(),
      WithPlan: v.number(),
      Followed: v.number(),
      NotFollowed: v.number(),
      NoPlan: v.number(),
      Agrees: v.number(),
      Questions: v.number(),
      /** Followed of those with a plan, in percent (null when none had a plan). */
      FollowedPercent: v.nullable(v.number()),
    }),
  ),
});
export type ManagementReport = v.InferOutput<typeof managementReportSchema>;
