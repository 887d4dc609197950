// The device import's rules: phone numbers (libphonenumber-js, GB by default), the outcome the
// user is told (created apart from already present), the template file.
import { describe, expect, it } from 'vitest';
import Papa from 'papaparse';
import { IMPORT_OPTIONAL_COLUMNS, IMPORT_TEMPLATE_CSV } from '../../../src/shared/schemas/devices';
import { normalisePhone } from '../../../src/shared/phone';
import { importOutcome } from '../../../src/app/features/assets/import';
import { MSG } from '../../../src/shared/messages';
import { formatCount } from '../../../src/shared/numbers';

const normaliseImportPhone = (raw: string) => normalisePhone(raw) ?? undefined;

describe('import phone numbers', () => {
  it('national numbers are GB numbers; international ones stay as written; E.164 out', () => {
    expect(normaliseImportPhone('07700900001')).toBe('+447700900001');
    expect(normaliseImportPhone('07700 900 001')).toBe('+447700900001');
    expect(normaliseImportPhone('+44 7700 900001')).toBe('+447700900001');
    expect(normaliseImportPhone('+1 202 555 0143')).toBe('+12025550143');
  });
  it('what cannot be a phone number is refused', () => {
    expect(normaliseImportPhone('12345')).toBeUndefined();
    expect(normaliseImportPhone('abc')).toBeUndefined();
    expect(normaliseImportPhone('077009000011111')).toBeUndefined();
  });
});

describe('import outcome', () => {
  it('counts what was created, and names the serials already present apart', () => {
    expect(importOutcome({ created: 0, alreadyPresent: ['A1', 'B2'] })).toEqual([{ kind: 'warning', message: MSG.importAlreadyPresent(['A1', 'B2']) }]);
    expect(MSG.importAlreadyPresent(['A1', 'B2'])).toBe('2 devices were already present and left as they are: A1, B2.');
    expect(importOutcome({ created: 2002, alreadyPresent: [] })).toEqual([{ kind: 'success', message: 'You have successfully imported 2,002 devices.' }]);
    // new and existing serials: one toast (a page shows one at a time) that keeps the spec's success sentence
    expect(importOutcome({ created: 1, alreadyPresent: ['A1'] })).toEqual([
      { kind: 'warning', message: `${MSG.importedN(1)} ${MSG.importAlreadyPresent(['A1'])}` },
    ]);
    expect(importOutcome({ created: 1, alreadyPresent: ['A1'] })[0]!.message).toContain('You have successfully imported 1 devices.');
  });
  it('a long list of present serials is cut after 20', () => {
    const many = Array.from({ length: 1025 }, (_, i) => `S${i}`);
    expect(MSG.importAlreadyPresent(many)).toMatch(/: S0, S1, .*S19 and 1,005 more\.$/);
  });
});

describe('import template', () => {
  it('names every column, required ones first, with one example row the import accepts', () => {
    const rows = Papa.parse<string[]>(IMPORT_TEMPLATE_CSV.trim()).data;
    expect(rows[0]).toEqual(['SerialNumber', 'Type', ...IMPORT_OPTIONAL_COLUMNS]);
    expect(rows[1]).toHaveLength(rows[0]!.length);
    expect(normaliseImportPhone(rows[1]![5]!)).toBe('+447700900123');
  });
});

describe('counts', () => {
  it('are written alike: 2002 → 2,002', () => {
    expect(formatCount(2002)).toBe('2,002');
    expect(formatCount(0)).toBe('0');
  });
});

describe('export confirmations count alike', () => {
  it("'2,002', not '2002'", async () => {
    const { CUSTOMER_UI_TEXT } = await import('../../../src/app/features/customers/text');
    const { ALARM_TEXT } = await import('../../../src/app/features/alarm-reports/alarm-format');
    expect(CUSTOMER_UI_TEXT.exportConfirm(2002)).toBe('Are you sure you want to export data for 2,002 customers?');
    expect(CUSTOMER_UI_TEXT.exportDevicesConfirm(2002)).toBe('Are you sure you want to export data for 2,002 devices?');
    expect(ALARM_TEXT.exportConfirm(2002)).toBe('Are you sure you want to export data for 2,002 alarm reports?');
  });
});
