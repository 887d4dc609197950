// Scheduled reports: when a schedule is due, in UK time (Europe/London, with its summer time), and
// which closed days its report covers. The one definition both the server's scheduler and the
// schedule list use. Docs: docs/scheduled-reports.md.
//
// - A schedule runs daily, weekly on one day (1 Monday … 7 Sunday) or monthly on one date (1–31;
//   a date past the month's end means its last day: the 31st runs on 30 April and 28/29 February).
// - The time of day is London wall-clock time. A time that does not exist (the hour skipped when
//   summer time starts, e.g. 01:30 on the last Sunday of March) runs an hour later by the clock
//   (02:30 BST, the same instant 01:30 GMT would have been). A time that happens twice (the hour
//   repeated when summer time ends) runs once, at its first occurrence (BST).
// - A run covers whole London days: from the previous due date up to and including the day before
//   the due date (daily: yesterday; weekly: the 7 days before; monthly: the month before, from the
//   previous due date). The management and usage reports (monthly schedules only) cover the last
//   full London calendar month before the due date, whatever its date.
import { londonOffsetAt as offsetAt, londonWallOf as wallOf } from './london-wall.js';
import { defaultMonth } from './management-report.js';

export const SCHEDULE_FREQUENCIES = ['daily', 'weekly', 'monthly'] as const;
export type ScheduleFrequency = (typeof SCHEDULE_FREQUENCIES)[number];
/** What a schedule sends. An enum so another kind of report (a PDF) can be added beside it. */
export const SCHEDULE_FORMATS = ['xlsx'] as const;
export type ScheduleFormat = (typeof SCHEDULE_FORMATS)[number];
export const SCHEDULE_FORMAT_LABELS: Record<ScheduleFormat, string> = { xlsx: 'Excel (.xlsx)' };
/**
 * Which report a schedule sends: the alarm list of its saved filters, the monthly management
 * report of its customer (the account name filter naming exactly one customer) or of all customers,
 * or the monthly usage report of its customer (named exactly; docs/fleet-health.md "Usage report").
 */
export const SCHEDULE_REPORTS = ['alarmList', 'managementReport', 'usageReport'] as const;
export type ScheduleReport = (typeof SCHEDULE_REPORTS)[number];
export const SCHEDULE_REPORT_LABELS: Record<ScheduleReport, string> = {
  alarmList: 'Alarm list',
  managementReport: 'Monthly management report',
  usageReport: 'Monthly usage report',
};
/** The reports of a whole London month (monthly schedules only; each run covers the last full month before its due date). */
export const MONTHLY_REPORTS: readonly ScheduleReport[] = ['managementReport', 'usageReport'];

/** ISO weekday names, 1 Monday … 7 Sunday. */
export const WEEKDAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'] as const;

export type ScheduleRule = {
  frequency: ScheduleFrequency;
  /** 1 Monday … 7 Sunday (weekly) */
  dayOfWeek?: number | null;
  /** 1–31 (monthly) */
  dayOfMonth?: number | null;
  /** 'HH:mm', London time */
  timeOfDay: string;
};

export const TIME_OF_DAY = /^([01]\d|2[0-3]):[0-5]\d$/;

const DAY_MS = 86_400_000;

/**
 * The instant of a London wall-clock time (m 1–12). Twice-occurring times: the first (summer
 * time); skipped times: with the offset before the change, i.e. an hour later by the clock.
 */
export function londonInstant(y: number, m: number, d: number, h: number, mi: number): number {
  const asUtc = Date.UTC(y, m - 1, d, h, mi);
  const before = asUtc - offsetAt(asUtc - DAY_MS);
  const after = asUtc - offsetAt(asUtc + DAY_MS);
  const matches = (t: number) => {
    const w = wallOf(t);
    return w.h === h && w.mi === mi && w.d === new Date(asUtc).getUTCDate();
  };
  const found = [before, after].filter(matches);
  return found.length ? Math.min(...found) : before;
}

const daysInMonth = (y: number, m: number) => new Date(Date.UTC(y, m, 0)).getUTCDate();
/** A civil date moved by n days: [y, m, d]. */
function addDays(y: number, m: number, d: number, n: number): [number, number, number] {
  const t = new Date(Date.UTC(y, m - 1, d + n));
  return [t.getUTCFullYear(), t.getUTCMonth() + 1, t.getUTCDate()];
}
/** ISO weekday (1 Monday … 7 Sunday) of a civil date. */
const isoWeekday = (y: number, m: number, d: number) => ((new Date(Date.UTC(y, m - 1, d)).getUTCDay() + 6) % 7) + 1;

/** Whether the schedule runs on this London date. */
export function runsOn(rule: ScheduleRule, y: number, m: number, d: number): boolean {
  if (rule.frequency === 'daily') return true;
  if (rule.frequency === 'weekly') return isoWeekday(y, m, d) === rule.dayOfWeek;
  return d === Math.min(rule.dayOfMonth ?? 1, daysInMonth(y, m));
}

const timeOf = (rule: ScheduleRule): [number, number] => {
  const [h = 0, mi = 0] = rule.timeOfDay.split(':').map(Number);
  return [h, mi];
};

/** The first due instant strictly after `after`. */
export function nextDueAt(rule: ScheduleRule, after: Date): Date {
  const t = after.getTime();
  const w = wallOf(t);
  const [h, mi] = timeOf(rule);
  // From the day before (a wall time early on London's day may still be ahead), at most ~two months on.
  for (let i = -1; i < 70; i++) {
    const [y, m, d] = addDays(w.y, w.m, w.d, i);
    if (!runsOn(rule, y, m, d)) continue;
    const due = londonInstant(y, m, d, h, mi);
    if (due > t) return new Date(due);
  }
  throw new Error('no due time found for the schedule');
}

/** The latest due instant at or before `at` (the due time a run at `at` is for). */
export function latestDueAt(rule: ScheduleRule, at: Date): Date {
  const t = at.getTime();
  const w = wallOf(t);
  const [h, mi] = timeOf(rule);
  for (let i = 1; i > -70; i--) {
    const [y, m, d] = addDays(w.y, w.m, w.d, i);
    if (!runsOn(rule, y, m, d)) continue;
    const due = londonInstant(y, m, d, h, mi);
    if (due <= t) return new Date(due);
  }
  throw new Error('no due time found for the schedule');
}

const iso = (y: number, m: number, d: number) => `${y}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`;

/** London 'YYYY-MM-DD' of an instant. */
export function londonDay(at: Date): string {
  const w = wallOf(at.getTime());
  return iso(w.y, w.m, w.d);
}

/**
 * The closed days a run for this due instant covers, inclusive ('YYYY-MM-DD', London): from the
 * previous due date to the day before the due date.
 */
export function reportPeriod(rule: ScheduleRule, due: Date): { from: string; to: string } {
  const w = wallOf(due.getTime());
  const to = addDays(w.y, w.m, w.d, -1);
  let from = to;
  for (let i = 1; i <= 62; i++) {
    const c = addDays(w.y, w.m, w.d, -i);
    if (runsOn(rule, ...c)) {
      from = c;
      break;
    }
  }
  return { from: iso(...from), to: iso(...to) };
}

/**
 * The London month ('YYYY-MM') and its days a management report run for this due instant covers:
 * the last full calendar month before the due date (due on 1 November: October; due on the 31st
 * of October: September).
 */
export function managementPeriod(due: Date): { month: string; from: string; to: string } {
  const month = defaultMonth(due);
  const [y, m] = month.split('-').map(Number) as [number, number];
  return { month, from: `${month}-01`, to: iso(y, m, daysInMonth(y, m)) };
}

/** The closed days a run of this schedule for this due instant covers (the report decides). */
export const runPeriod = (rule: ScheduleRule, report: ScheduleReport, due: Date): { from: string; to: string } => {
  if (!MONTHLY_REPORTS.includes(report)) return reportPeriod(rule, due);
  const { from, to } = managementPeriod(due);
  return { from, to };
};

/** 'Daily at 07:00', 'Weekly on Monday at 07:00', 'Monthly on the 31st (or the month's last day) at 07:00'. */
export function describeSchedule(rule: ScheduleRule): string {
  if (rule.frequency === 'daily') return `Daily at ${rule.timeOfDay}`;
  if (rule.frequency === 'weekly') return `Weekly on ${WEEKDAYS[(rule.dayOfWeek ?? 1) - 1]} at ${rule.timeOfDay}`;
  const n = rule.dayOfMonth ?? 1;
  const suffix = n % 10 === 1 && n !== 11 ? 'st' : n % 10 === 2 && n !== 12 ? 'nd' : n % 10 === 3 && n !== 13 ? 'rd' : 'th';
  return `Monthly on the ${n}${suffix}${n > 28 ? " (or the month's last day)" : ''} at ${rule.timeOfDay}`;
}
