import { describe, expect, it } from 'vitest';
import { isCsvFile, parseCsvColumn } from '../../../src/app/ui/serials/csv';

describe('bulk CSV rules (spec §5)', () => {
  it('reads the column case-insensitively, comma or semicolon, skipping empty cells', () => {
    expect(parseCsvColumn('Name,serialnumber\na,SN1\nb,\nc,SN2\n', 'SerialNumber')).toEqual({ ok: true, values: ['SN1', 'SN2'] });
    expect(parseCsvColumn('x;SERIALNUMBER\n1;SN3\n2; \n3;SN4', 'SerialNumber')).toEqual({ ok: true, values: ['SN3', 'SN4'] });
  });
  it('says which column is missing', () => {
    expect(parseCsvColumn('Serial,Other\nA,B', 'SerialNumber')).toEqual({ ok: false, error: "CSV file doesn't include SerialNumber column." });
  });
  it('refuses a file that is not CSV and a broken one', () => {
    expect(isCsvFile({ type: 'application/pdf', name: 'a.pdf' })).toBe(false);
    expect(isCsvFile({ type: 'text/csv', name: 'a.txt' })).toBe(true);
    expect(parseCsvColumn('SerialNumber\n"SN1\nSN2', 'SerialNumber')).toEqual({ ok: false, error: 'Failed to parse CSV file.' });
  });
});
