// Own-profile validation and payload (spec document 1 §5 "Own profile"): first and last name
// required; each phone number valid for its dial code; a value that is only the dial code counts
// as empty; only numbers with something beyond the dial code (and a dial code) are sent.
//
// "No message when the type is the primary number" (§5) is read as: the Primary choice itself is
// never an error. Choosing a number as primary does not make it required, and a number is checked
// the same way whether it is the primary one or not (an invalid primary number still shows its
// message: saving it would fail on the server anyway). When the chosen primary number is empty,
// nothing is sent as primary.
import * as v from 'valibot';
import { MSG } from '../../../shared/messages';
import { NAME_MAX, PERSON_TEXT, type PersonRecord, type PhoneEntry } from '../../../shared/schemas/persons';
import {
  DEFAULT_COUNTRY,
  PHONE_FIELDS,
  PHONE_FIELD_TYPE,
  countryOfCode,
  dialCodeOf,
  displayNumber,
  fieldOfType,
  parseFor,
  phoneError,
  type Country,
  type PhoneField,
} from './phone';

export type ProfileFormValues = {
  firstName: string;
  lastName: string;
  personal: string;
  personalCountry: string;
  work: string;
  workCountry: string;
  home: string;
  homeCountry: string;
  office: string;
  officeCountry: string;
  /** The field whose number is the primary one, '' for none. */
  primary: PhoneField | '';
};

export const countryField = (f: PhoneField) => `${f}Country` as const;

/** The parts of the own profile the form reads (the contract's person record). */
export type OwnPerson = Pick<PersonRecord, 'Id' | 'FirstName' | 'LastName' | 'PhoneNumbers'>;

/** Form values from the stored profile (numbers shown in national format, GB for empty ones). */
export function valuesFromPerson(person: OwnPerson, countries: readonly Country[]): ProfileFormValues {
  const values: ProfileFormValues = {
    firstName: person.FirstName ?? '',
    lastName: person.LastName ?? '',
    personal: '',
    personalCountry: DEFAULT_COUNTRY,
    work: '',
    workCountry: DEFAULT_COUNTRY,
    home: '',
    homeCountry: DEFAULT_COUNTRY,
    office: '',
    officeCountry: DEFAULT_COUNTRY,
    primary: '',
  };
  for (const p of person.PhoneNumbers ?? []) {
    const field = fieldOfType(Number(p.Type));
    if (!field || values[field]) continue;
    const country = countryOfCode(p.CountryCode, countries);
    values[countryField(field)] = country;
    values[field] = country ? displayNumber(country, p.Number) : (p.Number ?? '');
    if (p.IsPrimary && !values.primary) values.primary = field;
  }
  return values;
}

const name = (field: string, tooLong: string) => v.pipe(v.string(), v.trim(), v.nonEmpty(MSG.pleaseEnter(field)), v.maxLength(NAME_MAX, tooLong));

/** Each number against its country's dial code; the issue lands on the number field. */
const phoneChecks = (countries: readonly Country[]) =>
  v.rawCheck<ProfileFormValues>(({ dataset, addIssue }) => {
    if (!dataset.typed) return;
    const input = dataset.value;
    for (const field of PHONE_FIELDS) {
      const message = phoneError(input[countryField(field)], input[field], countries);
      if (message) addIssue({ message, path: [{ type: 'object', origin: 'value', input, key: field, value: input[field] }] });
    }
  });

export function profileFormSchema(countries: readonly Country[]) {
  const str = v.string();
  return v.pipe(
    v.object({
      firstName: name('first name', PERSON_TEXT.firstNameTooLong),
      lastName: name('last name', PERSON_TEXT.lastNameTooLong),
      personal: str,
      personalCountry: str,
      work: str,
      workCountry: str,
      home: str,
      homeCountry: str,
      office: str,
      officeCountry: str,
      primary: v.picklist(['', ...PHONE_FIELDS]),
    }),
    phoneChecks(countries),
  );
}

/**
 * The payload's phone entries: a number is included only if something remains after removing
 * the dial code and the dial code is non-empty (§5). CountryCode is the ISO code, Number the
 * national number (what the server stores), Type 1 Work, 2 Personal, 3 Home, 4 Office.
 */
export function phonePayload(values: ProfileFormValues, countries?: readonly Country[]): PhoneEntry[] {
  const list: PhoneEntry[] = [];
  for (const field of PHONE_FIELDS) {
    const country = values[countryField(field)];
    if (!dialCodeOf(country, countries)) continue;
    const parsed = parseFor(country, values[field]);
    if (!parsed) continue;
    list.push({ CountryCode: country, Number: String(parsed.nationalNumber), IsPrimary: values.primary === field, Type: PHONE_FIELD_TYPE[field] });
  }
  return list;
}
