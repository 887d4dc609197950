// The usage report's rules (src/shared/usage-report.ts): the days of a month that count on a given
// London day, the rate and its change against the month before, and how they read.
import { describe, expect, it } from 'vitest';
import { countedDays, daysInMonth, lastCountedDay, monthDays, rateChange, rateChangeText, rateText, usageRate } from '../../../src/shared/usage-report';

describe('usage report rules', () => {
  it('counts every day of a past month, the days to today of this one, none of a later one', () => {
    expect(daysInMonth('2028-02')).toBe(29);
    expect(monthDays('2026-02')).toEqual({ first: '2026-02-01', last: '2026-02-28' });
    expect(countedDays('2026-10', '2026-11-10')).toBe(31);
    expect(countedDays('2026-11', '2026-11-10')).toBe(10);
    expect(countedDays('2026-11', '2026-11-01')).toBe(1);
    expect(countedDays('2026-12', '2026-11-10')).toBe(0);
    expect(lastCountedDay('2026-11', '2026-11-10')).toBe('2026-11-10');
    expect(lastCountedDay('2026-12', '2026-11-10')).toBeNull();
  });

  it('rates used device-days against devices × days, one decimal; nothing to measure is no rate', () => {
    expect(usageRate(600, 40, 30)).toBe(50);
    expect(usageRate(6, 2, 31)).toBe(9.7);
    expect(usageRate(0, 2, 31)).toBe(0);
    expect(usageRate(0, 0, 31)).toBeNull();
    expect(usageRate(0, 3, 0)).toBeNull();
    expect(rateChange(9.7, 3.3)).toBe(6.4);
    expect(rateChange(null, 3.3)).toBeNull();
  });

  it('reads as percent and points', () => {
    expect(rateText(9.7)).toBe('9.7 %');
    expect(rateText(null)).toBe('-');
    expect(rateChangeText(6.4)).toBe('+6.4 pts');
    expect(rateChangeText(-4.7)).toBe('−4.7 pts');
    expect(rateChangeText(0)).toBe('no change');
    expect(rateChangeText(null)).toBe('-');
  });
});
