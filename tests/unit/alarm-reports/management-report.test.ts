// The monthly management report's rules: London months (their UTC bounds across summer time, the
// month an instant falls in at the edges), the month it opens on, the month before, the response
// target shares and their change against the month before, and the missed count.
import { describe, expect, it } from 'vitest';
import {
  defaultMonth,
  londonMonthOf,
  missedCount,
  monthLabel,
  monthRange,
  parseMonth,
  shareChange,
  sharePercent,
  shiftMonth,
  targetShare,
  withinCount,
} from '../../../src/shared/management-report';
import { changeText } from '../../../src/app/features/alarm-reports/management-report-print';

describe('London months', () => {
  it('a winter month runs from UTC midnight to UTC midnight', () => {
    expect(monthRange('2026-01')).toEqual({ from: '2026-01-01T00:00:00.000Z', to: '2026-02-01T00:00:00.000Z' });
  });
  it('a summer month starts and ends an hour earlier in UTC (BST)', () => {
    expect(monthRange('2026-07')).toEqual({ from: '2026-06-30T23:00:00.000Z', to: '2026-07-31T23:00:00.000Z' });
  });
  it('the months of the changeovers: March starts in GMT and ends in BST, October the other way', () => {
    expect(monthRange('2026-03')).toEqual({ from: '2026-03-01T00:00:00.000Z', to: '2026-03-31T23:00:00.000Z' });
    expect(monthRange('2026-10')).toEqual({ from: '2026-09-30T23:00:00.000Z', to: '2026-11-01T00:00:00.000Z' });
  });
  it('consecutive months meet without a gap or an overlap', () => {
    let m = '2025-11';
    for (let i = 0; i < 30; i++) {
      const next = shiftMonth(m, 1);
      expect(monthRange(m).to).toBe(monthRange(next).from);
      m = next;
    }
  });
  it('an instant belongs to the London month it falls in, not the UTC one', () => {
    expect(londonMonthOf(new Date('2026-09-30T23:30:00.000Z'))).toBe('2026-10'); // 00:30 BST on 1 October
    expect(londonMonthOf(new Date('2026-09-30T22:59:59.999Z'))).toBe('2026-09');
    expect(londonMonthOf(new Date('2026-12-31T23:59:59.999Z'))).toBe('2026-12'); // GMT: London = UTC
    expect(londonMonthOf(new Date('2027-01-01T00:00:00.000Z'))).toBe('2027-01');
  });
  it('the report opens on the London month before now', () => {
    expect(defaultMonth(new Date('2026-11-26T04:00:00.000Z'))).toBe('2026-10');
    expect(defaultMonth(new Date('2026-09-30T23:30:00.000Z'))).toBe('2026-09'); // already 1 October in London
    expect(defaultMonth(new Date('2026-01-15T12:00:00.000Z'))).toBe('2025-12');
  });
  it('months shift across years and read as names', () => {
    expect(shiftMonth('2026-01', -1)).toBe('2025-12');
    expect(shiftMonth('2025-12', 1)).toBe('2026-01');
    expect(shiftMonth('2026-05', -17)).toBe('2024-12');
    expect(monthLabel('2026-10')).toBe('October 2026');
  });
  it('only YYYY-MM is a month', () => {
    expect(parseMonth('2026-10')).toEqual({ y: 2026, m: 10 });
    for (const bad of ['2026-13', '2026-00', '2026-1', '26-10', '2026-10-01', '', 'October']) expect(parseMonth(bad), bad).toBeNull();
  });
});

describe('response-target shares', () => {
  it('within 10 s is the first Verification Started band, within 40 s the first two', () => {
    expect(withinCount([6, 3, 1], 10)).toBe(6);
    expect(withinCount([6, 3, 1], 40)).toBe(9);
    expect(missedCount(10, [6, 3, 1])).toBe(4);
  });
  it('shares of the month and the month before, the change in points and whether the target is met', () => {
    const t = targetShare(10, 80, { total: 16, started: [13, 2, 1] }, { total: 8, started: [6, 2, 0] });
    expect(t).toEqual({ Count: 13, Percent: 81.25, TargetPercent: 80, Met: true, PreviousCount: 6, PreviousPercent: 75, Change: 6.25 });
    const worse = targetShare(40, 98.5, { total: 3, started: [1, 1, 1] }, { total: 3, started: [3, 0, 0] });
    expect(worse).toMatchObject({ Count: 2, Percent: 66.67, Met: false, PreviousPercent: 100, Change: -33.33 });
  });
  it('a target exactly met is met; a month without alarms has no share and no change', () => {
    expect(targetShare(10, 80, { total: 5, started: [4, 1, 0] }, { total: 0, started: [0, 0, 0] })).toMatchObject({
      Percent: 80,
      Met: true,
      PreviousPercent: null,
      Change: null,
    });
    expect(targetShare(10, 80, { total: 0, started: [0, 0, 0] }, { total: 5, started: [5, 0, 0] })).toMatchObject({ Percent: null, Met: false, Change: null });
    expect(sharePercent(0, 0)).toBeNull();
    expect(shareChange(50, 50)).toBe(0);
  });
  it('shares and changes read as the page shows them', () => {
    expect(changeText(6.25)).toBe('+6.25 pts');
    expect(changeText(-33.33)).toBe('−33.33 pts');
    expect(changeText(0)).toBe('no change');
    expect(changeText(null)).toBe('-');
  });
});
