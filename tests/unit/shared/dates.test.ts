// @vitest-environment jsdom
// Dates are shown in Europe/London wall-clock time whatever the zone the browser runs in.
import { afterEach, describe, expect, it } from 'vitest';
import { DATE_FORMAT, formatShown } from '../../../src/shared/dates';
import { formatDateTime as alarmDateTime } from '../../../src/app/features/alarm-reports/alarm-format';
import { formatDateTime as deviceDateTime } from '../../../src/app/features/assets/asset-format';
import { formatLastLogin } from '../../../src/app/features/persons/person-columns';

const BST = '2026-07-01T23:30:00Z'; // 00:30 on 2 July in London (UTC+1)
const GMT = '2026-12-01T23:30:00Z'; // 23:30 on 1 December in London (UTC+0)
const original = process.env.TZ;
afterEach(() => {
  process.env.TZ = original;
});

describe.each(['UTC', 'America/New_York', 'Asia/Tokyo'])('shown dates with the browser in %s', (zone) => {
  it('reads a summer (BST) instant as London time', () => {
    process.env.TZ = zone;
    expect(formatShown(BST)).toBe('02/07/2026 00:30');
    expect(formatShown(BST, DATE_FORMAT)).toBe('02/07/2026');
    expect(alarmDateTime('2026-07-01T23:30:05Z')).toBe('02 Jul 26 00:30:05');
    expect(deviceDateTime(BST)).toBe('02/07/2026 00:30');
  });
  it('reads a winter (GMT) instant as London time', () => {
    process.env.TZ = zone;
    expect(formatShown(GMT)).toBe('01/12/2026 23:30');
    expect(formatLastLogin(GMT)).toBe('01/12/2026 23:30');
    expect(formatShown(new Date(GMT))).toBe('01/12/2026 23:30');
    expect(formatShown(Date.parse(GMT))).toBe('01/12/2026 23:30');
  });
  it('shows a calendar date as that day, and nothing as the empty mark', () => {
    process.env.TZ = zone;
    expect(formatShown('1980-05-01', DATE_FORMAT)).toBe('01/05/1980');
    expect(formatShown(null)).toBe('-');
    expect(formatShown('nonsense', DATE_FORMAT, '')).toBe('');
  });
});
