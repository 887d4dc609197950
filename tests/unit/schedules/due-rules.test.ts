// The scheduled-report due-time rules (src/shared/schedules.ts): UK wall-clock times across the
// summer-time changes of 2026 (29 March: 01:00 GMT → 02:00 BST; 25 October: 02:00 BST → 01:00 GMT),
// monthly dates past a month's end, catch-up and the period a run covers.
import { describe, expect, it } from 'vitest';
import { describeSchedule, latestDueAt, londonInstant, nextDueAt, reportPeriod, type ScheduleRule } from '../../../src/shared/schedules';

const at = (iso: string) => new Date(iso);
const next = (rule: ScheduleRule, after: string) => nextDueAt(rule, at(after)).toISOString();
const daily = (timeOfDay: string): ScheduleRule => ({ frequency: 'daily', timeOfDay });

describe('daily at 01:30 across the spring change (the hour 01:00–02:00 does not exist)', () => {
  const rule = daily('01:30');
  it('the day before runs at 01:30 GMT', () => {
    expect(next(rule, '2026-03-27T12:00:00Z')).toBe('2026-03-28T01:30:00.000Z');
  });
  it('on the change day the missing 01:30 runs an hour later by the clock (02:30 BST, 01:30 UTC), once', () => {
    expect(next(rule, '2026-03-28T01:30:00Z')).toBe('2026-03-29T01:30:00.000Z');
  });
  it('the day after runs at 01:30 BST (00:30 UTC)', () => {
    expect(next(rule, '2026-03-29T01:30:00Z')).toBe('2026-03-30T00:30:00.000Z');
  });
});

describe('daily at 01:30 across the autumn change (the hour 01:00–02:00 happens twice)', () => {
  const rule = daily('01:30');
  it('on the change day it runs once, at the first 01:30 (BST, 00:30 UTC)', () => {
    expect(next(rule, '2026-10-24T12:00:00Z')).toBe('2026-10-25T00:30:00.000Z');
  });
  it('not again at the second 01:30 (GMT): the next run is the following night', () => {
    expect(next(rule, '2026-10-25T00:30:00Z')).toBe('2026-10-26T01:30:00.000Z');
    expect(next(rule, '2026-10-25T01:00:00Z')).toBe('2026-10-26T01:30:00.000Z');
  });
});

describe('wall-clock times keep their clock time through the year', () => {
  it('07:00 is 06:00 UTC in summer and 07:00 UTC in winter', () => {
    expect(next(daily('07:00'), '2026-07-01T00:00:00Z')).toBe('2026-07-01T06:00:00.000Z');
    expect(next(daily('07:00'), '2026-12-01T00:00:00Z')).toBe('2026-12-01T07:00:00.000Z');
  });
  it('londonInstant: a time in the skipped hour, the repeated hour, and a plain one', () => {
    expect(new Date(londonInstant(2026, 3, 29, 1, 30)).toISOString()).toBe('2026-03-29T01:30:00.000Z');
    expect(new Date(londonInstant(2026, 10, 25, 1, 30)).toISOString()).toBe('2026-10-25T00:30:00.000Z');
    expect(new Date(londonInstant(2026, 1, 15, 23, 59)).toISOString()).toBe('2026-01-15T23:59:00.000Z');
  });
  it('a due time exactly now is not next: the next is strictly after', () => {
    expect(next(daily('07:00'), '2026-12-01T07:00:00Z')).toBe('2026-12-02T07:00:00.000Z');
  });
});

describe('weekly and monthly', () => {
  it('weekly on Monday 08:00 (1 = Monday)', () => {
    // Sunday 7 June 2026 → Monday 8 June, 08:00 BST
    expect(next({ frequency: 'weekly', dayOfWeek: 1, timeOfDay: '08:00' }, '2026-06-07T10:00:00Z')).toBe('2026-06-08T07:00:00.000Z');
    // Sunday is 7
    expect(next({ frequency: 'weekly', dayOfWeek: 7, timeOfDay: '08:00' }, '2026-06-08T10:00:00Z')).toBe('2026-06-14T07:00:00.000Z');
  });
  it('monthly on the 31st runs on the last day of shorter months', () => {
    const rule: ScheduleRule = { frequency: 'monthly', dayOfMonth: 31, timeOfDay: '06:00' };
    expect(next(rule, '2026-04-01T00:00:00Z')).toBe('2026-04-30T05:00:00.000Z');
    expect(next(rule, '2026-04-30T05:00:00Z')).toBe('2026-05-31T05:00:00.000Z');
    expect(next(rule, '2027-02-01T00:00:00Z')).toBe('2027-02-28T06:00:00.000Z');
    expect(next(rule, '2028-02-01T00:00:00Z')).toBe('2028-02-29T06:00:00.000Z');
    expect(next(rule, '2026-12-01T00:00:00Z')).toBe('2026-12-31T06:00:00.000Z');
  });
  it('monthly on the 30th skips nothing in February (the 28th) and is the 30th elsewhere', () => {
    const rule: ScheduleRule = { frequency: 'monthly', dayOfMonth: 30, timeOfDay: '06:00' };
    expect(next(rule, '2027-02-01T00:00:00Z')).toBe('2027-02-28T06:00:00.000Z');
    expect(next(rule, '2027-03-01T00:00:00Z')).toBe('2027-03-30T05:00:00.000Z');
  });
});

describe('catch-up: the due time a late run is for', () => {
  it('is the latest due time passed, not the first missed one', () => {
    expect(latestDueAt(daily('07:00'), at('2026-06-10T12:00:00Z')).toISOString()).toBe('2026-06-10T06:00:00.000Z');
    expect(latestDueAt(daily('07:00'), at('2026-06-10T05:59:00Z')).toISOString()).toBe('2026-06-09T06:00:00.000Z');
    expect(latestDueAt(daily('07:00'), at('2026-06-10T06:00:00Z')).toISOString()).toBe('2026-06-10T06:00:00.000Z');
  });
});

describe('the period a run covers (closed London days, inclusive)', () => {
  it('daily: the day before', () => {
    expect(reportPeriod(daily('07:00'), at('2026-06-10T06:00:00Z'))).toEqual({ from: '2026-06-09', to: '2026-06-09' });
  });
  it('daily at 00:30 BST: the London day before, not the UTC one', () => {
    expect(reportPeriod(daily('00:30'), at('2026-06-09T23:30:00Z'))).toEqual({ from: '2026-06-09', to: '2026-06-09' });
  });
  it('weekly: the seven days before', () => {
    expect(reportPeriod({ frequency: 'weekly', dayOfWeek: 1, timeOfDay: '08:00' }, at('2026-06-08T07:00:00Z'))).toEqual({
      from: '2026-06-01',
      to: '2026-06-07',
    });
  });
  it('monthly on the 31st: from the previous due date (31 March) to the day before 30 April', () => {
    expect(reportPeriod({ frequency: 'monthly', dayOfMonth: 31, timeOfDay: '06:00' }, at('2026-04-30T05:00:00Z'))).toEqual({
      from: '2026-03-31',
      to: '2026-04-29',
    });
  });
});

describe('describeSchedule', () => {
  it('says when it runs', () => {
    expect(describeSchedule(daily('07:00'))).toBe('Daily at 07:00');
    expect(describeSchedule({ frequency: 'weekly', dayOfWeek: 1, timeOfDay: '08:00' })).toBe('Weekly on Monday at 08:00');
    expect(describeSchedule({ frequency: 'monthly', dayOfMonth: 31, timeOfDay: '06:00' })).toBe("Monthly on the 31st (or the month's last day) at 06:00");
    expect(describeSchedule({ frequency: 'monthly', dayOfMonth: 2, timeOfDay: '06:00' })).toBe('Monthly on the 2nd at 06:00');
  });
});
