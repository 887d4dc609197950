// The schedule body (src/shared/schemas/schedules.ts) as the server and the dialog both check it:
// the day and date fields from one factory, the rules across fields (weekly needs its day, monthly
// its date, the management report a monthly schedule) landing on their fields with the spec-style
// messages; and the period a management report run covers (src/shared/schedules.ts).
import { describe, expect, it } from 'vitest';
import * as v from 'valibot';
import { managementPeriod, runPeriod, type ScheduleRule } from '../../../src/shared/schedules';
import { SCHEDULE_TEXT, scheduleCreateBody, scheduleUpdateBody, type ScheduleInput } from '../../../src/shared/schemas/schedules';

const body = (over: Partial<ScheduleInput> = {}): ScheduleInput => ({
  name: 'Monthly figures',
  frequency: 'monthly',
  dayOfMonth: 1,
  timeOfDay: '07:00',
  recipients: ['a@b.test'],
  ...over,
});
/** { field: first message } of what the schema refuses, {} when it takes the body. */
function errorsOf(schema: typeof scheduleCreateBody | typeof scheduleUpdateBody, b: unknown) {
  const r = v.safeParse(schema, b);
  const out: Record<string, string> = {};
  if (!r.success) for (const i of r.issues) out[String(i.path?.[0]?.key ?? '_')] ??= i.message;
  return out;
}

describe.each([
  ['create', scheduleCreateBody],
  ['edit', scheduleUpdateBody],
] as const)('%s', (_, schema) => {
  it('takes a monthly alarm list and defaults the report and the format', () => {
    const r = v.parse(schema, body());
    expect(r).toMatchObject({ report: 'alarmList', format: 'xlsx', dayOfWeek: null, dayOfMonth: 1 });
  });
  it.each([
    [{ dayOfWeek: 0, frequency: 'weekly' as const }, 'dayOfWeek', SCHEDULE_TEXT.dayOfWeekRequired],
    [{ dayOfWeek: 8, frequency: 'weekly' as const }, 'dayOfWeek', SCHEDULE_TEXT.dayOfWeekRequired],
    [{ dayOfWeek: 2.5, frequency: 'weekly' as const }, 'dayOfWeek', SCHEDULE_TEXT.dayOfWeekRequired],
    [{ dayOfMonth: 0 }, 'dayOfMonth', SCHEDULE_TEXT.dayOfMonthRequired],
    [{ dayOfMonth: 32 }, 'dayOfMonth', SCHEDULE_TEXT.dayOfMonthRequired],
    [{ dayOfMonth: '3' as unknown as number }, 'dayOfMonth', SCHEDULE_TEXT.dayOfMonthRequired],
    [{ timeOfDay: '24:00' }, 'timeOfDay', SCHEDULE_TEXT.badTime],
    [{ timeOfDay: '7:00' }, 'timeOfDay', SCHEDULE_TEXT.badTime],
  ])('a day, date or time out of range: %j', (over, field, message) => {
    expect(errorsOf(schema, body(over))).toEqual({ [field]: message });
  });
  it('weekly without its day, monthly without its date: the message lands on the missing field', () => {
    expect(errorsOf(schema, body({ frequency: 'weekly', dayOfWeek: null }))).toEqual({ dayOfWeek: SCHEDULE_TEXT.dayOfWeekRequired });
    expect(errorsOf(schema, body({ frequency: 'monthly', dayOfMonth: null }))).toEqual({ dayOfMonth: SCHEDULE_TEXT.dayOfMonthRequired });
    expect(errorsOf(schema, body({ frequency: 'daily', dayOfMonth: null }))).toEqual({});
  });
  it('the management report is monthly only (the message on the frequency)', () => {
    expect(errorsOf(schema, body({ report: 'managementReport' }))).toEqual({});
    expect(errorsOf(schema, body({ report: 'managementReport', frequency: 'daily' }))).toEqual({ frequency: SCHEDULE_TEXT.managementMonthly });
    expect(errorsOf(schema, body({ report: 'managementReport', frequency: 'weekly', dayOfWeek: 1 }))).toEqual({ frequency: SCHEDULE_TEXT.managementMonthly });
    expect(errorsOf(schema, body({ report: 'pdf' as never }))).toEqual({ report: SCHEDULE_TEXT.badReport });
  });
});

describe('the period of a management report run: the last full London month before the due date', () => {
  const rule: ScheduleRule = { frequency: 'monthly', dayOfMonth: 1, timeOfDay: '00:30' };
  it('due at 00:30 BST on 1 October (23:30 UTC on 30 September): September', () => {
    expect(managementPeriod(new Date('2026-09-30T23:30:00Z'))).toEqual({ month: '2026-09', from: '2026-09-01', to: '2026-09-30' });
  });
  it('due on 31 March: February (28 days), not March', () => {
    expect(managementPeriod(new Date('2027-03-31T06:00:00Z'))).toEqual({ month: '2027-02', from: '2027-02-01', to: '2027-02-28' });
  });
  it('due in January: December of the year before', () => {
    expect(managementPeriod(new Date('2027-01-15T07:00:00Z'))).toEqual({ month: '2026-12', from: '2026-12-01', to: '2026-12-31' });
  });
  it('runPeriod: the alarm list keeps the days since the previous due date, the management report the whole month', () => {
    const due = new Date('2026-11-15T07:00:00Z');
    const fifteenth: ScheduleRule = { ...rule, dayOfMonth: 15 };
    expect(runPeriod(fifteenth, 'alarmList', due)).toEqual({ from: '2026-10-15', to: '2026-11-14' });
    expect(runPeriod(fifteenth, 'managementReport', due)).toEqual({ from: '2026-10-01', to: '2026-10-31' });
  });
});
