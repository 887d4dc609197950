// Phone numbers of the own-profile page (spec document 1 §3 "Phone entry in payloads", §5
// "Own profile", §9 default dial code 44 / GB first). Pure functions, shared by the form schema,
// the picker and the page.
//
// The form keeps each number as a country (ISO code, e.g. 'GB') plus the number as typed. The
// number field shows the country's dial code next to it, so users type the national part; a
// pasted international number ('+44 7400 123456') works too. libphonenumber-js is used with its
// default metadata, the same the server validates with (src/shared/schemas/persons.ts), so a
// number this page accepts is one the server accepts.
import { getCountryCallingCode, getExampleNumber, isSupportedCountry, parsePhoneNumberFromString, type CountryCode } from 'libphonenumber-js';
import metadata from 'libphonenumber-js/min/metadata';
import examples from 'libphonenumber-js/examples.mobile.json';
import { MSG } from '../../../shared/messages';
import { PHONE_TYPE } from '../../../shared/codes';
import { isAcceptedPhone } from '../../../shared/phone';
import type { CountryDto } from '../../../shared/schemas/reference';

/** A country of the dictionaries (GET ps-admin/dictionaries/get-all → Countries); the built-in fallback list has no ids. */
export type Country = Omit<CountryDto, 'Id'> & { Id?: string };

/** Spec §9: default dial code 44, country gb. */
export const DEFAULT_COUNTRY = 'GB';

/** The four numbers, in the order the page shows them (spec §2 "Personal, Work, Home, Office"). */
export const PHONE_FIELDS = ['personal', 'work', 'home', 'office'] as const;
export type PhoneField = (typeof PHONE_FIELDS)[number];

export const PHONE_FIELD_TYPE: Record<PhoneField, number> = {
  personal: PHONE_TYPE.Personal,
  work: PHONE_TYPE.Work,
  home: PHONE_TYPE.Home,
  office: PHONE_TYPE.Office,
};

export const PHONE_FIELD_LABEL: Record<PhoneField, string> = {
  personal: MSG.profilePhonePersonal,
  work: MSG.profilePhoneWork,
  home: MSG.profilePhoneHome,
  office: MSG.profilePhoneOffice,
};

export const fieldOfType = (type: number): PhoneField | undefined => PHONE_FIELDS.find((f) => PHONE_FIELD_TYPE[f] === type);

/** Flag emoji from an ISO 3166 alpha-2 code (two regional indicator symbols). */
export function flagEmoji(code: string): string {
  if (!/^[A-Za-z]{2}$/.test(code)) return '';
  return String.fromCodePoint(...[...code.toUpperCase()].map((ch) => 0x1f1e6 + ch.charCodeAt(0) - 65));
}

/** Spec §9: GB first, then the rest alphabetically by name. */
export function sortCountries(list: readonly Country[]): Country[] {
  const collator = new Intl.Collator('en-GB', { sensitivity: 'base' });
  return [...list].sort((a, b) =>
    a.Code === DEFAULT_COUNTRY ? -1 : b.Code === DEFAULT_COUNTRY ? 1 : collator.compare(a.Name, b.Name) || a.Code.localeCompare(b.Code),
  );
}

/**
 * The country list when the dictionaries could not be loaded: the same list the server seeds
 * (every country libphonenumber-js knows, named in en-GB).
 */
export function fallbackCountries(): Country[] {
  const names = new Intl.DisplayNames(['en-GB'], { type: 'region' });
  const codes = Object.keys((metadata as unknown as { countries: Record<string, unknown> }).countries);
  return sortCountries(
    codes
      .filter((c) => /^[A-Z]{2}$/.test(c))
      .map((Code) => ({ Code, Name: names.of(Code) ?? Code, PhoneNumberCode: getCountryCallingCode(Code as CountryCode) })),
  );
}

/** The dial code of a country ('44' for GB), or '' for an unknown one. */
export function dialCodeOf(country: string, countries?: readonly Country[]): string {
  const fromList = countries?.find((c) => c.Code === country)?.PhoneNumberCode;
  if (fromList) return fromList.replace(/^\+/, '');
  return country && isSupportedCountry(country) ? getCountryCallingCode(country as CountryCode) : '';
}

/**
 * The country of a stored CountryCode: an ISO code ('GB') or a dial code ('44', '+44') — the
 * demo data stores dial codes. Spec §5: "the dial code is matched to a country by its phone
 * code"; for a code shared by several countries the code's main country wins (44 → GB, 1 → US),
 * as on the server. '' when nothing matches.
 */
export function countryOfCode(code: string, countries: readonly Country[]): string {
  const c = (code ?? '').trim().toUpperCase();
  if (/^[A-Z]{2}$/.test(c)) return countries.some((x) => x.Code === c) ? c : '';
  const dial = c.replace(/^\+/, '').replace(/^00/, '');
  if (!/^\d{1,4}$/.test(dial)) return '';
  const main = (metadata as unknown as { country_calling_codes: Record<string, string[]> }).country_calling_codes[dial]?.[0];
  if (main && countries.some((x) => x.Code === main)) return main;
  return countries.find((x) => x.PhoneNumberCode.replace(/^\+/, '') === dial)?.Code ?? '';
}

const compact = (s: string) => s.replace(/[\s\-().]/g, '');

/**
 * What is left of a typed number once its dial code is removed. Spec §5: "a value equal to only
 * the dial code counts as empty" — '+44', '0044' and a bare '44' (the dial code as the original
 * phone widget held it) are all empty. A number starting with '+' keeps its own dial code
 * (checked against the chosen country by phoneError).
 */
export function nationalPart(value: string, dial: string): string {
  const v = (value ?? '').trim();
  const c = compact(v);
  if (!c) return '';
  if (dial && (c === `+${dial}` || c === `00${dial}` || c === dial)) return '';
  // Dial codes are prefix-free, so '+44…' is the dial code 44 followed by the national part.
  if (dial && c.startsWith(`+${dial}`)) return c.slice(dial.length + 1);
  if (dial && c.startsWith(`00${dial}`)) return c.slice(dial.length + 2);
  return v;
}

/** The number parsed for its country, if it is a valid number with that country's dial code. */
export function parseFor(country: string, value: string) {
  if (!country || !isSupportedCountry(country)) return undefined;
  const dial = getCountryCallingCode(country as CountryCode);
  const rest = nationalPart(value, dial);
  if (!rest) return undefined;
  const parsed = compact(rest).startsWith('+') ? parsePhoneNumberFromString(compact(rest)) : parsePhoneNumberFromString(rest, country as CountryCode);
  if (!isAcceptedPhone(parsed, country) || parsed.countryCallingCode !== dial) return undefined;
  return parsed;
}

/** Spec §5 example: the country's example mobile number in national format ('07400 123456'). */
export function exampleNumber(country: string): string | undefined {
  if (!country || !isSupportedCountry(country)) return undefined;
  return getExampleNumber(country as CountryCode, examples)?.formatNational();
}

/** The example as typed next to the dial code (placeholder): no trunk prefix ('7400 123456'). */
export function examplePlaceholder(country: string): string | undefined {
  if (!country || !isSupportedCountry(country)) return undefined;
  const ex = getExampleNumber(country as CountryCode, examples);
  return ex ? ex.formatInternational().replace(`+${ex.countryCallingCode}`, '').trim() : undefined;
}

/**
 * Spec §5 "each phone number must be valid for its dial code": undefined when the number is
 * empty (or only the dial code) or valid; otherwise 'Please enter a valid phone number, example:
 * {national format}', or 'Invalid phone number' when there is no example for the country (or no
 * country at all).
 */
export function phoneError(country: string, value: string, countries?: readonly Country[]): string | undefined {
  const dial = dialCodeOf(country, countries);
  const rest = nationalPart(value, dial);
  if (!rest) return undefined;
  if (parseFor(country, value)) return undefined;
  const example = exampleNumber(country);
  return example ? MSG.validPhoneExample(example) : MSG.invalidPhone;
}

/** Whether a number field holds a number (something beyond the dial code). */
export const hasNumber = (country: string, value: string, countries?: readonly Country[]) => nationalPart(value, dialCodeOf(country, countries)) !== '';

/**
 * How a stored number is shown next to its dial code: the international grouping without the
 * dial code, so no trunk 0 follows the country code ('+44' + '7700 900123', never
 * '+44 07700 900123'); as stored when it does not parse.
 */
export function displayNumber(country: string, number: string): string {
  // Valid numbers, and also numbers libphonenumber can read but not confirm (e.g. the reserved
  // '07700 900123'): both lose their trunk prefix.
  const parsed = parseFor(country, number) ?? looseParse(country, number);
  if (!parsed) return number ?? '';
  return parsed.formatInternational().replace(`+${parsed.countryCallingCode}`, '').trim();
}

function looseParse(country: string, number: string) {
  if (!country || !isSupportedCountry(country)) return undefined;
  const dial = getCountryCallingCode(country as CountryCode);
  const rest = nationalPart(number, dial);
  if (!rest || !/^\+?[\d\s\-().]+$/.test(rest)) return undefined;
  const parsed = compact(rest).startsWith('+') ? parsePhoneNumberFromString(compact(rest)) : parsePhoneNumberFromString(rest, country as CountryCode);
  return parsed && parsed.countryCallingCode === dial ? parsed : undefined;
}

/** A whole number for reading ('+44 7700 900123'): international format when it parses. */
export function formatPhone(country: string, number: string): string {
  const parsed = parseFor(country, number);
  return parsed ? parsed.formatInternational() : (number ?? '');
}
