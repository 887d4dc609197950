// UK calendar arithmetic of the alarm report ranges and chart labels (src/server/modules/alarm-reports/time.ts)
// across the 2026 clock changes (29 March 01:00 UTC forward, 25 October 01:00 UTC back).
import { describe, expect, test } from 'vitest';
import {
  closedRange,
  dayLabelsBetween,
  hourWalls,
  labelsBetween,
  londonDayOf,
  londonDayStart,
  londonWall,
  timeLabel,
} from '../../src/server/modules/alarm-reports/time.js';
import { bandOf, COMPLETED_BANDS, STARTED_BANDS } from '../../src/shared/schemas/alarm-reports.js';

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

describe('UK days', () => {
  test('a day starts at UK midnight, in winter and in summer time, and on the days the clocks change', () => {
    expect(iso(londonDayStart(2026, 1, 15))).toBe('2026-01-15T00:00:00.000Z');
    expect(iso(londonDayStart(2026, 7, 15))).toBe('2026-07-14T23:00:00.000Z');
    expect(iso(londonDayStart(2026, 3, 29))).toBe('2026-03-29T00:00:00.000Z');
    expect(iso(londonDayStart(2026, 3, 30))).toBe('2026-03-29T23:00:00.000Z');
    expect(iso(londonDayStart(2026, 10, 25))).toBe('2026-10-24T23:00:00.000Z');
    expect(iso(londonDayStart(2026, 10, 26))).toBe('2026-10-26T00:00:00.000Z');
    // days and months roll over
    expect(iso(londonDayStart(2026, 11, 22 - 29))).toBe('2026-10-23T23:00:00.000Z'); // 24 October, still summer time
    expect(iso(londonDayStart(2026, 11 - 12, 22))).toBe('2025-11-22T00:00:00.000Z');
  });

  test('ranges: options from now, custom days narrow them, a future day is flagged', () => {
    const now = Date.parse('2026-07-15T10:00:00.000Z'); // 11:00 BST
    expect(iso(closedRange(1, null, null, now).from)).toBe('2026-07-14T23:00:00.000Z');
    expect(iso(closedRange(2, null, null, now).from)).toBe('2026-07-08T23:00:00.000Z');
    expect(iso(closedRange(4, null, null, now).from)).toBe('2026-04-14T23:00:00.000Z');
    expect(closedRange(7, null, null, now)).toEqual({ from: null, to: null, futureDay: false });
    const custom = closedRange(7, '2026-03-29', '2026-03-29', now);
    expect([iso(custom.from), iso(custom.to)]).toEqual(['2026-03-29T00:00:00.000Z', '2026-03-29T23:00:00.000Z']);
    expect(iso(closedRange(2, '2026-01-01', null, now).from)).toBe('2026-07-08T23:00:00.000Z');
    expect(closedRange(2, null, '2026-07-15', now).futureDay).toBe(false);
    expect(closedRange(2, null, '2026-07-16', now).futureDay).toBe(true);
  });
});

describe('chart labels', () => {
  test('Today has 23 hours when the clocks go forward and 24 distinct labels when they go back', () => {
    const spring = labelsBetween(1, londonDayStart(2026, 3, 29), londonDayStart(2026, 3, 30));
    expect(spring).toHaveLength(23);
    expect(spring).not.toContain('01:00');
    const autumn = labelsBetween(1, londonDayStart(2026, 10, 25), londonDayStart(2026, 10, 26));
    expect(autumn).toHaveLength(24);
    expect(autumn.slice(0, 3)).toEqual(['00:00', '01:00', '02:00']);
  });

  test('labels per option', () => {
    const w = londonWall(Date.parse('2026-11-18T15:30:00.000Z')); // Wednesday
    expect([1, 2, 3, 4, 5, 6].map((o) => timeLabel(o, w))).toEqual(['15:00', '18/11/2026', '18/11/2026', '16/11/2026', 'Nov 2026', 'Nov 2026']);
    expect(timeLabel(4, londonWall(Date.parse('2026-11-16T00:00:00.000Z')))).toBe('16/11/2026'); // a Monday is its own week
    expect(timeLabel(4, londonWall(Date.parse('2026-11-15T23:59:59.000Z')))).toBe('09/11/2026');
    expect(labelsBetween(2, londonDayStart(2026, 11, 16), Date.parse('2026-11-22T12:00:00.000Z'))).toHaveLength(7);
  });
});

describe('bands', () => {
  test('the lower bound is in the band, the upper bound in the next', () => {
    expect([0, 9.99, 10, 39.99, 40, 1000].map((s) => bandOf(STARTED_BANDS, s).TimeFrame)).toEqual([
      'Under 10 s',
      'Under 10 s',
      '10-40 s',
      '10-40 s',
      'Over 40 s',
      'Over 40 s',
    ]);
    expect([119, 120, 179, 180, 599, 600].map((s) => bandOf(COMPLETED_BANDS, s).TimeFrame)).toEqual([
      'Under 120 s',
      '120-180 s',
      '120-180 s',
      '180-600 s',
      '180-600 s',
      'Over 600 s',
    ]);
  });
});

describe('day-by-day labels and hour folding', () => {
  test('hourWalls gives the wall clock londonWall gives, for every hour of 2025–2027', () => {
    const wall = hourWalls();
    const wrong: string[] = [];
    for (let t = Date.UTC(2025, 0, 1); t < Date.UTC(2028, 0, 1); t += 3_600_000) {
      const hour = new Date(t).toISOString().slice(0, 13);
      if (JSON.stringify(wall(hour)) !== JSON.stringify(londonWall(t))) wrong.push(hour);
    }
    expect(wrong).toEqual([]);
  });

  test('dayLabelsBetween lists the labels labelsBetween lists hour by hour, for options 2–6 across both changes', () => {
    for (const now of ['2026-11-22T12:00:00.000Z', '2026-04-02T08:00:00.000Z', '2026-10-27T23:30:00.000Z']) {
      const nowMs = Date.parse(now);
      for (const option of [2, 3, 4, 5, 6]) {
        const { from } = closedRange(option, null, null, nowMs);
        expect(dayLabelsBetween(option, londonDayOf(from!), londonDayOf(nowMs)), `${now} option ${option}`).toEqual(labelsBetween(option, from!, nowMs + 1));
      }
    }
  });
});
