// Typed filter dates are Europe/London wall-clock time whatever the browser's zone: the instant
// sent to the server, "today" for the future check and the last day a calendar offers.
import { afterEach, describe, expect, it } from 'vitest';
import { isTypedFuture, londonCalendarToday, londonDayStartIso, londonInstant, londonIsoToday, parseTypedDate, typedIsoDay } from '../../../src/shared/dates';
import { dateFilterErrors, type FilterDef } from '../../../src/app/ui/filter-bar';
import { toIsoDay } from '../../../src/app/features/alarm-reports/alarm-list-model';
import { MSG } from '../../../src/shared/messages';

const original = process.env.TZ;
afterEach(() => {
  process.env.TZ = original;
});

// 03:00 UTC on 26 November: 03:00 in London, still 22:00 on the 25th in New York.
const NIGHT = new Date('2026-11-26T03:00:00Z');
// 23:30 UTC on 1 July: 00:30 on 2 July in London (BST), 19:30 on 1 July in New York.
const SUMMER_NIGHT = new Date('2026-07-01T23:30:00Z');

describe.each(['America/New_York', 'Asia/Tokyo', 'UTC'])('typed dates with the browser in %s', (zone) => {
  it('a typed day or date-time is the London wall-clock instant', () => {
    process.env.TZ = zone;
    expect(londonInstant('26/11/2026', false)?.toISOString()).toBe('2026-11-26T00:00:00.000Z');
    expect(londonInstant('26/11/2026 00:30', true)?.toISOString()).toBe('2026-11-26T00:30:00.000Z');
    expect(londonInstant('01/07/2026 12:00', true)?.toISOString()).toBe('2026-07-01T11:00:00.000Z');
    expect(londonInstant('1/7/26', false)?.toISOString()).toBe('2026-06-30T23:00:00.000Z');
    // the hour London skips (29 March 2026, 01:00-02:00) and one New York skips (8 March, 02:00-03:00)
    expect(londonInstant('08/03/2026 02:30', true)?.toISOString()).toBe('2026-03-08T02:30:00.000Z');
    expect(londonInstant('31/02/2026', false)).toBeNull();
    expect(londonInstant('26/11/2026 24:00', true)).toBeNull();
    expect(londonInstant('2026-11-26', false)).toBeNull();
  });

  it('the calendar day typed, and the start of a London day', () => {
    process.env.TZ = zone;
    expect(typedIsoDay('26/11/2026')).toBe('2026-11-26');
    expect(toIsoDay('1/2/26')).toBe('2026-02-01');
    expect(londonDayStartIso('2026-11-26')).toBe('2026-11-26T00:00:00.000Z');
    expect(londonDayStartIso('2026-07-01', 1)).toBe('2026-07-01T23:00:00.000Z');
    expect(londonDayStartIso('2026-10-25', 1)).toBe('2026-10-26T00:00:00.000Z');
    const picked = parseTypedDate('26/11/2026', false)!;
    expect([picked.getFullYear(), picked.getMonth(), picked.getDate()]).toEqual([2026, 10, 26]);
  });

  it("today is London's today: a typed London today is not in the future", () => {
    process.env.TZ = zone;
    expect(londonIsoToday(NIGHT)).toBe('2026-11-26');
    expect(londonIsoToday(SUMMER_NIGHT)).toBe('2026-07-02');
    const t = londonCalendarToday(NIGHT);
    expect([t.getFullYear(), t.getMonth(), t.getDate(), t.getHours()]).toEqual([2026, 10, 26, 0]);
    expect(isTypedFuture('26/11/2026', false, NIGHT)).toBe(false);
    expect(isTypedFuture('27/11/2026', false, NIGHT)).toBe(true);
    expect(isTypedFuture('02/07/2026', false, SUMMER_NIGHT)).toBe(false);
    expect(isTypedFuture('26/11/2026 02:59', true, NIGHT)).toBe(false);
    expect(isTypedFuture('26/11/2026 03:01', true, NIGHT)).toBe(true);
  });

  it('the filter bar refuses future days by London, not by the browser', () => {
    process.env.TZ = zone;
    const defs: FilterDef[] = [
      { id: 'from', type: 'date', label: 'Closed from', notAfter: 'to' },
      { id: 'to', type: 'date', label: 'Closed to' },
      { id: 'at', type: 'date-time', label: 'At' },
    ];
    expect(dateFilterErrors(defs, { from: '25/11/2026', to: '26/11/2026', at: '26/11/2026 02:00' }, NIGHT)).toEqual({});
    expect(dateFilterErrors(defs, { to: '27/11/2026', at: '26/11/2026 04:00' }, NIGHT)).toEqual({ to: MSG.dateInFuture, at: MSG.dateInFuture });
    expect(dateFilterErrors(defs, { from: '02/07/2026', to: '02/07/2026' }, SUMMER_NIGHT)).toEqual({});
  });
});
