// Export dates (src/shared/export-format.ts): London wall-clock time in summer (BST) and winter
// (GMT), across the spring change, as cell dates and as en-GB CSV text.
import { describe, expect, it } from 'vitest';
import { londonCellDate, londonCellSerial, londonText, withZone } from '../../../src/shared/export-format';

describe('export dates in London time', () => {
  it('cell dates hold London wall-clock time in their UTC fields', () => {
    expect(londonCellDate('2026-07-01T12:00:00.000Z')?.toISOString()).toBe('2026-07-01T13:00:00.000Z');
    expect(londonCellDate('2026-01-15T12:00:00.000Z')?.toISOString()).toBe('2026-01-15T12:00:00.000Z');
    expect(londonCellDate('2026-03-29T00:59:59.000Z')?.toISOString()).toBe('2026-03-29T00:59:59.000Z');
    expect(londonCellDate('2026-03-29T01:00:00.000Z')?.toISOString()).toBe('2026-03-29T02:00:00.000Z');
    expect(londonCellDate(null)).toBeUndefined();
    expect(londonCellDate('not a date')).toBeUndefined();
  });
  it('cell serials are the spreadsheet days of the same London wall-clock time', () => {
    // 1 July 2026 13:00 London (12:00 UTC, BST): day 46204 since 1899-12-30, 13/24 of a day.
    expect(londonCellSerial('2026-07-01T12:00:00.000Z')).toBeCloseTo(46204 + 13 / 24, 9);
    expect(londonCellSerial('2026-01-15T12:00:00.000Z')).toBeCloseTo(46037.5, 9);
    for (const iso of ['2026-03-29T00:59:59.000Z', '2026-03-29T01:00:00.000Z', '2026-10-25T00:30:00.000Z', '2026-10-25T01:30:00.000Z'])
      expect(londonCellSerial(iso)).toBeCloseTo(25569 + londonCellDate(iso)!.getTime() / 86_400_000, 9);
    expect(londonCellSerial(new Date('2026-07-01T12:00:00.000Z'))).toBe(londonCellSerial('2026-07-01T12:00:00.000Z'));
    expect(londonCellSerial(null)).toBeUndefined();
    expect(londonCellSerial('')).toBeUndefined();
    expect(londonCellSerial('not a date')).toBeUndefined();
  });
  it('CSV text is en-GB, 24-hour, with seconds', () => {
    expect(londonText('2026-07-01T23:30:05.000Z')).toBe('02/07/2026 00:30:05');
    expect(londonText('2026-12-31T23:59:59.000Z')).toBe('31/12/2026 23:59:59');
    expect(londonText(null)).toBe('');
    expect(withZone('Date')).toBe('Date (UK time)');
  });
});
