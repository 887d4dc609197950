// The one definition of a phone number and a post code, for every form that takes one and every
// place that shows one, on both sides (spec document 1 §5 "Own profile" messages and §9 default
// dial code 44 / GB; document 2 §5 "a leading + is added if missing", §9 default dial code 44).
//
// - A number is read in the account's country (GB when the account has none): a national number
//   keeps its meaning ('07700 900123' → '+447700900123', its trunk 0 dropped), a number typed
//   with its country code but without '+' gets one ('447700900123' → '+447700900123'), an
//   international number stays as written ('+33 6 12 34 56 78'). It is never stored as '+0…'.
// - Accepted: a number libphonenumber-js calls valid, or a possible one of full length (the
//   reserved drama ranges such as 07700 900xxx are not "valid" but are real-looking numbers that
//   demo data and tests use). Anything else is refused with the spec's message: 'Please enter a
//   valid phone number, example: {national format}' (or 'Invalid phone number' without an example).
// - Stored as E.164 ('+447700900123'). Shown for reading (lists, reports, analysis, print) in
//   international format ('+44 7700 900123'); put back into a form field in the account country's
//   national format ('07700 900123'), other countries' numbers in international format.
import { getCountryCallingCode, getExampleNumber, isSupportedCountry, parsePhoneNumberFromString, type CountryCode, type PhoneNumber } from 'libphonenumber-js';
import examples from 'libphonenumber-js/mobile/examples';
import { MSG } from './messages.js';

/** Spec: default dial code 44, country GB. */
export const DEFAULT_PHONE_COUNTRY = 'GB';

/** The ISO code of an account's country: 'GB' from 'GB', 'gb' or a country id 'country-gb'; GB when unknown. */
export function accountCountry(country?: string | null): CountryCode {
  const code = (country ?? '')
    .trim()
    .replace(/^country-/i, '')
    .toUpperCase();
  return /^[A-Z]{2}$/.test(code) && isSupportedCountry(code) ? (code as CountryCode) : DEFAULT_PHONE_COUNTRY;
}

const exampleLength = (country: CountryCode) => getExampleNumber(country, examples)?.nationalNumber.length ?? 0;

/** The number's country: its own when valid, else the account's when the dial code is the account's, else the code's main country. */
function countryOf(p: PhoneNumber, home: CountryCode): CountryCode | undefined {
  if (p.country) return p.country;
  if (p.countryCallingCode === getCountryCallingCode(home)) return home;
  return p.getPossibleCountries()[0];
}

/** Whether a parsed number is one we accept (valid, or possible of full length), read in `home`. */
export function isAcceptedPhone(p: PhoneNumber | undefined, home: string = DEFAULT_PHONE_COUNTRY): p is PhoneNumber {
  return acceptable(p, accountCountry(home));
}

function acceptable(p: PhoneNumber | undefined, home: CountryCode): p is PhoneNumber {
  if (!p) return false;
  if (p.isValid()) return true;
  const country = countryOf(p, home);
  return p.isPossible() && !!country && p.nationalNumber.length >= exampleLength(country);
}

/** The number read in the account's country, when it is one we accept (see above); otherwise undefined. */
export function parsePhone(raw: string | null | undefined, country?: string | null): PhoneNumber | undefined {
  const text = (raw ?? '').trim();
  if (!text || !/^[+\d\s\-().]+$/.test(text)) return undefined;
  const digits = text.replace(/[\s\-().]/g, '');
  if (/^\+0/.test(digits) || /^\+?$/.test(digits)) return undefined;
  const home = accountCountry(country);
  const asTyped = parsePhoneNumberFromString(digits, home);
  if (acceptable(asTyped, home)) return asTyped;
  // Typed with its country code but without the '+' (spec: "a leading + is added if missing").
  if (/^[1-9]\d+$/.test(digits)) {
    const withPlus = parsePhoneNumberFromString(`+${digits}`);
    if (acceptable(withPlus, home)) return withPlus;
  }
  return undefined;
}

/** E.164 ('+447700900123') of an accepted number; null for an empty value or one we refuse. */
export function normalisePhone(raw: string | null | undefined, country?: string | null): string | null {
  return parsePhone(raw, country)?.number ?? null;
}

/** The spec's message for a number we refuse in this country. */
export function phoneMessage(country?: string | null): string {
  const example = getExampleNumber(accountCountry(country), examples)?.formatNational();
  return example ? MSG.validPhoneExample(example) : MSG.invalidPhone;
}

/** undefined when the value is empty or accepted; otherwise the spec's message. */
export function phoneError(raw: string | null | undefined, country?: string | null): string | undefined {
  if (!(raw ?? '').trim()) return undefined;
  return parsePhone(raw, country) ? undefined : phoneMessage(country);
}

/**
 * How a stored number reads everywhere it is shown: '+44 7700 900123'. A national number with a
 * separate dial code (the alarm reports' {CountryCode, Number}) reads the same way. As stored
 * when it cannot be read; '-' when there is none.
 */
export function formatPhone(stored: string | null | undefined, dialCodeOrCountry?: string | null, empty = '-'): string {
  const text = (stored ?? '').trim();
  if (!text) return empty;
  const code = (dialCodeOrCountry ?? '').trim().replace(/^\+/, '');
  let p: PhoneNumber | undefined;
  if (/^\d{1,4}$/.test(code) && !text.startsWith('+')) p = parsePhoneNumberFromString(`+${code}${text.replace(/^0+/, '')}`);
  else p = parsePhone(text, /^[A-Za-z]{2}$/.test(code) ? code : undefined) ?? parsePhoneNumberFromString(text, DEFAULT_PHONE_COUNTRY);
  return p ? p.formatInternational() : text;
}

/** A stored number put back into a form field: national in the account's country ('07700 900123'), else international. */
export function phoneForInput(stored: string | null | undefined, country?: string | null): string {
  const text = (stored ?? '').trim();
  if (!text) return '';
  const p = parsePhone(text, country);
  if (!p) return text;
  const home = accountCountry(country);
  return countryOf(p, home) === home ? p.formatNational() : p.formatInternational();
}

// ---------------------------------------------------------------- post codes

/** UK post codes (GIR 0AA, SW1A 1AA, M1 1AE, B33 8TH, CR2 6XH, DN55 1PT, BFPO 1234), space optional. */
const UK_POST_CODE = /^(GIR ?0AA|BFPO ?\d{1,4}|[A-Z]{1,2}\d[A-Z\d]? ?\d[ABD-HJLNP-UW-Z]{2})$/i;
/** Elsewhere: letters, digits, spaces and hyphens, 2 to 10 characters, at least one digit or letter. */
const OTHER_POST_CODE = /^[A-Z\d][A-Z\d -]{0,8}[A-Z\d]$/i;

export const POST_CODE_MESSAGE = (country?: string | null) =>
  accountCountry(country) === 'GB' ? MSG.pleaseEnterValid('post code, example: SW1A 1AA') : MSG.pleaseEnterValid('post code');

/** undefined when the post code is empty or has the country's shape (UK format for GB); otherwise the message. */
export function postCodeError(raw: string | null | undefined, country?: string | null): string | undefined {
  const text = (raw ?? '').trim();
  if (!text) return undefined;
  const ok = accountCountry(country) === 'GB' ? UK_POST_CODE.test(text) : OTHER_POST_CODE.test(text);
  return ok ? undefined : POST_CODE_MESSAGE(country);
}

/** A post code as stored: trimmed, upper case, UK codes with their one space ('sw1a1aa' → 'SW1A 1AA'). */
export function normalisePostCode(raw: string | null | undefined, country?: string | null): string | null {
  const text = (raw ?? '').trim().toUpperCase().replace(/\s+/g, ' ');
  if (!text) return null;
  if (accountCountry(country) === 'GB' && UK_POST_CODE.test(text)) {
    const compact = text.replace(/ /g, '');
    return /^BFPO/.test(compact) ? `BFPO ${compact.slice(4)}` : `${compact.slice(0, -3)} ${compact.slice(-3)}`;
  }
  return text;
}
