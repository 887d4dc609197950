import { describe, expect, it } from 'vitest';
import * as v from 'valibot';
import {
  countryOfCode,
  dialCodeOf,
  fallbackCountries,
  flagEmoji,
  nationalPart,
  phoneError,
  sortCountries,
  exampleNumber,
} from '../../../src/app/features/profile/phone';
import { phonePayload, profileFormSchema, valuesFromPerson, type ProfileFormValues } from '../../../src/app/features/profile/profile-form-schema';
import { filterCountries } from '../../../src/app/features/profile/country-picker';
import { MSG } from '../../../src/shared/messages';
import { resolvePhone } from '../../../src/shared/schemas/persons';

const COUNTRIES = [
  { Code: 'FR', Name: 'France', PhoneNumberCode: '33' },
  { Code: 'JE', Name: 'Jersey', PhoneNumberCode: '44' },
  { Code: 'GB', Name: 'United Kingdom', PhoneNumberCode: '44' },
  { Code: 'US', Name: 'United States', PhoneNumberCode: '1' },
  { Code: 'AX', Name: 'Åland Islands', PhoneNumberCode: '358' },
  { Code: 'DE', Name: 'Germany', PhoneNumberCode: '49' },
];

const blank: ProfileFormValues = {
  firstName: 'Ann',
  lastName: 'Smith',
  personal: '',
  personalCountry: 'GB',
  work: '',
  workCountry: 'GB',
  home: '',
  homeCountry: 'GB',
  office: '',
  officeCountry: 'GB',
  primary: '',
};

describe('phone helpers', () => {
  it('flags from ISO codes', () => {
    expect(flagEmoji('GB')).toBe('🇬🇧');
    expect(flagEmoji('fr')).toBe('🇫🇷');
    expect(flagEmoji('')).toBe('');
  });

  it('GB first, then alphabetically by name (accents folded)', () => {
    expect(sortCountries(COUNTRIES).map((c) => c.Code)).toEqual(['GB', 'AX', 'FR', 'DE', 'JE', 'US']);
    const all = fallbackCountries();
    expect(all[0]).toMatchObject({ Code: 'GB', PhoneNumberCode: '44' });
    expect(all.length).toBeGreaterThan(200);
  });

  it('stored codes: ISO or dial code, a shared dial code picks its main country', () => {
    expect(countryOfCode('GB', COUNTRIES)).toBe('GB');
    expect(countryOfCode('44', COUNTRIES)).toBe('GB');
    expect(countryOfCode('+44', COUNTRIES)).toBe('GB');
    expect(countryOfCode('1', COUNTRIES)).toBe('US');
    expect(countryOfCode('33', COUNTRIES)).toBe('FR');
    expect(countryOfCode('ZZ', COUNTRIES)).toBe('');
    expect(countryOfCode('999', COUNTRIES)).toBe('');
  });

  it('a value that is only the dial code is empty', () => {
    for (const x of ['+44', ' + 44 ', '0044', '44', '']) expect(nationalPart(x, '44')).toBe('');
    expect(nationalPart('+44 7400 123456', '44')).toBe('7400123456');
    expect(nationalPart('07400 123456', '44')).toBe('07400 123456');
    expect(phoneError('GB', '+44')).toBeUndefined();
  });

  it('invalid numbers: the example message word for word, or Invalid phone number', () => {
    expect(exampleNumber('GB')).toBe('07400 123456');
    expect(phoneError('GB', '12345')).toBe('Please enter a valid phone number, example: 07400 123456');
    // a number of another dial code is not valid for this one
    expect(phoneError('GB', '+33 6 12 34 56 78')).toBe(MSG.validPhoneExample('07400 123456'));
    expect(phoneError('', '07400 123456')).toBe(MSG.invalidPhone);
    expect(phoneError('GB', '07400 123456')).toBeUndefined();
    expect(phoneError('GB', '+44 7400 123456')).toBeUndefined();
    expect(phoneError('FR', '06 12 34 56 78')).toBeUndefined();
  });

  it('filter by name (prefix first), ISO code and dial code', () => {
    expect(filterCountries(COUNTRIES, 'uni').map((c) => c.Code)).toEqual(['GB', 'US']);
    expect(filterCountries(COUNTRIES, 'an').map((c) => c.Code)).toEqual(['FR', 'AX', 'DE']);
    expect(filterCountries(COUNTRIES, 'Aland').map((c) => c.Code)).toEqual(['AX']);
    expect(filterCountries(COUNTRIES, '+44').map((c) => c.Code)).toEqual(['JE', 'GB']);
    expect(filterCountries(COUNTRIES, 'de').map((c) => c.Code)).toEqual(['DE']);
    expect(filterCountries(COUNTRIES, 'xyz')).toEqual([]);
  });

  it('dial codes from the list, else from libphonenumber', () => {
    expect(dialCodeOf('GB', COUNTRIES)).toBe('44');
    expect(dialCodeOf('IT')).toBe('39');
    expect(dialCodeOf('')).toBe('');
  });
});

describe('form schema and payload', () => {
  const schema = profileFormSchema(COUNTRIES);
  const issues = (values: ProfileFormValues) => {
    const r = v.safeParse(schema, values);
    return r.success ? {} : Object.fromEntries(r.issues.map((i) => [String(i.path?.[0]?.key), i.message]));
  };

  it('names required; phone checked even when a name is missing', () => {
    expect(issues({ ...blank, firstName: ' ', lastName: '', work: '123' })).toEqual({
      firstName: 'Please enter first name',
      lastName: 'Please enter last name',
      work: 'Please enter a valid phone number, example: 07400 123456',
    });
    expect(issues({ ...blank, work: '+44', primary: 'work' })).toEqual({});
  });

  it('payload: only numbers beyond the dial code, ISO code, national number, primary flag, type', () => {
    const list = phonePayload(
      { ...blank, personal: '+44', work: '07400 123456', office: '+33 6 12 34 56 78', officeCountry: 'FR', primary: 'office' },
      COUNTRIES,
    );
    expect(list).toEqual([
      { CountryCode: 'GB', Number: '7400123456', IsPrimary: false, Type: 1 },
      { CountryCode: 'FR', Number: '612345678', IsPrimary: true, Type: 4 },
    ]);
    // what the server stores for each entry is exactly what was sent
    for (const p of list) expect(resolvePhone(p.CountryCode, p.Number)).toEqual({ CountryCode: p.CountryCode, Number: p.Number });
    // a country without a dial code sends nothing
    expect(phonePayload({ ...blank, work: '07400 123456', workCountry: '' }, COUNTRIES)).toEqual([]);
  });

  it('values from the stored person: dial-code country codes, national format, primary', () => {
    const values = valuesFromPerson(
      {
        Id: 'x',
        FirstName: 'Ann',
        LastName: 'Smith',
        PhoneNumbers: [
          { CountryCode: '44', Number: '7400123456', IsPrimary: false, Type: 1 },
          { CountryCode: 'FR', Number: '612345678', IsPrimary: true, Type: 2 },
        ],
      },
      COUNTRIES,
    );
    expect(values).toMatchObject({
      work: '7400 123456',
      workCountry: 'GB',
      personal: '6 12 34 56 78',
      personalCountry: 'FR',
      home: '',
      homeCountry: 'GB',
      primary: 'personal',
    });
  });
});
