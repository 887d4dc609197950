// Person endpoints (spec document 1, §5 and §7): the list query, add, identity update and the
// own-profile update. Field messages are the spec's ('Please enter first name', ...); the
// server and the person forms use the same schemas.
import * as v from 'valibot';
import { parsePhoneNumberFromString, isSupportedCountry, getCountryCallingCode, type CountryCode } from 'libphonenumber-js';
import metadata from 'libphonenumber-js/min/metadata';
import { MSG } from '../messages.js';
import { PHONE_TYPE } from '../codes.js';
import { isAcceptedPhone } from '../phone.js';
import { roleSchema } from './reference.js';
import {
  guid,
  ID_JSON,
  inputJson,
  NOT_BLANK,
  optionalGuid,
  pagingQuery,
  qsBool,
  qsChoice,
  qsSearch,
  requiredKey,
  requiredText,
  optionalText,
  noNul,
  edgeQuery,
  pagedListSchema,
} from './common.js';

export const NAME_MAX = 100;
export const EMAIL_MAX = 254;
export const MAX_ROLES = 10;
export const ETAG_MAX = 200;

/** Messages the spec does not quote (server-side rules only). */
export const PERSON_TEXT = {
  firstNameTooLong: `First name can be at most ${NAME_MAX} characters long.`,
  lastNameTooLong: `Last name can be at most ${NAME_MAX} characters long.`,
  emailTooLong: `Email can be at most ${EMAIL_MAX} characters long.`,
  unknownRole: 'One of the selected roles does not exist.',
  tooManyRoles: `At most ${MAX_ROLES} roles can be selected.`,
  portalRoleNotAssignable: 'The portal user role can not be assigned to provider staff.',
  customerRoleNotAssignable: 'Customer administrators can only hold the admin and portal user roles.',
  duplicateEmail: 'A user with this email address already exists.',
  emailCannotChange: 'The email address of an existing user can not be changed.',
  personIdMismatch: 'personId in the body does not match the id in the address.',
  etagRequired: 'The record version (etag) is missing. Reload the record and try again.',
  invalidId: 'The id is not valid.',
  invalidTenant: 'tenant-id must be a valid id.',
  unknownTenant: 'No customer exists for this tenant-id.',
  phoneTypeInvalid: 'Phone number type must be 1 (Work), 2 (Personal), 3 (Home) or 4 (Office).',
  phoneCountryInvalid: 'Unknown country for this phone number.',
  phoneTypeTwice: 'Only one phone number of each type can be given.',
  phonePrimaryTwice: 'Only one phone number can be the primary one.',
  tooManyPhones: 'At most 4 phone numbers can be given.',
  isPrimaryType: 'IsPrimary must be true or false.',
  phoneNumbersType: 'phoneNumbers must be a list.',
  badBody: 'The request body must be a JSON object.',
  badPerson: 'person must be an object.',
} as const;

// ---------------------------------------------------------------- list

export const PERSON_ORDER_BY = ['UserName', 'Email', 'LastLoginDate', 'Role'] as const;
export type PersonOrderBy = (typeof PERSON_ORDER_BY)[number];

/** GET ps-admin/persons/get-list */
export const personListQuery = v.object({
  ...pagingQuery,
  orderBy: qsChoice(PERSON_ORDER_BY, 'UserName', `orderBy must be one of ${PERSON_ORDER_BY.join(', ')}.`),
  desc: qsBool(false, 'desc must be true or false.'),
  searchValue: qsSearch(),
  sortRoleId: optionalGuid('sortRoleId must be a role id.'),
  ...edgeQuery,
});
export type PersonListQuery = v.InferOutput<typeof personListQuery>;

/** GET /persons/get-by-id?Id= (also accepts lower-case id). */
export const personByIdQuery = v.pipe(
  v.object({ Id: v.optional(v.string(PERSON_TEXT.invalidId)), id: v.optional(v.string(PERSON_TEXT.invalidId)) }),
  v.transform((q) => q.Id ?? q.id ?? ''),
  guid(PERSON_TEXT.invalidId),
);

// ---------------------------------------------------------------- add / identity update

export const EMAIL_PATTERN = /^[^\s@<>()[\]\\,;:"]+@[^\s@<>()[\]\\,;:"]+\.[^\s@<>()[\]\\,;:".]{2,}$/;

const firstName = requiredText(MSG.pleaseEnter('first name'), NAME_MAX, PERSON_TEXT.firstNameTooLong);
const lastName = requiredText(MSG.pleaseEnter('last name'), NAME_MAX, PERSON_TEXT.lastNameTooLong);
const emailAddress = v.pipe(
  requiredText(MSG.pleaseEnter('email'), EMAIL_MAX, PERSON_TEXT.emailTooLong, { type: 'string', pattern: EMAIL_PATTERN.source, maxLength: EMAIL_MAX }),
  v.regex(EMAIL_PATTERN, MSG.enterValidEmail),
  v.toLowerCase(),
);
const rolesMessage = MSG.pleaseSelectOne('roles');
const roleIds = v.pipe(
  v.optional(v.nullable(v.array(v.unknown(), rolesMessage)), []),
  inputJson<unknown[] | null>({ type: 'array', minItems: 1, maxItems: MAX_ROLES, items: ID_JSON }, { required: true }),
  v.transform((a) => a ?? []),
  v.minLength(1, rolesMessage),
  v.maxLength(MAX_ROLES, PERSON_TEXT.tooManyRoles),
  v.array(guid(PERSON_TEXT.unknownRole)),
  v.transform((ids) => [...new Set(ids)]),
);
const etag = requiredText(PERSON_TEXT.etagRequired, ETAG_MAX, PERSON_TEXT.etagRequired);
/** The etag sent inside person: when given (not null), it is the one used, so it must not be blank. */
const innerEtag = v.pipe(
  v.optional(v.nullable(v.string(PERSON_TEXT.etagRequired))),
  inputJson<string | null | undefined>({ anyOf: [{ type: 'string', pattern: NOT_BLANK, maxLength: ETAG_MAX }, { type: 'null' }] }),
);

/** POST /api/v1/person — body { person: { firstName, lastName, emailAddress, roleIds } } */
export const personCreateBody = v.object(
  {
    person: requiredKey(v.optional(v.object({ firstName, lastName, emailAddress, roleIds }, PERSON_TEXT.badPerson), {})),
  },
  PERSON_TEXT.badBody,
);
export type PersonCreateBody = v.InferOutput<typeof personCreateBody>;

/**
 * PUT /api/v1/person/{id}/identity-update — body { personId, person: { firstName, lastName,
 * emailAddress, roleIds, etag } }. The etag may also be sent next to person. The e-mail address
 * is optional here (it cannot change); when sent it must equal the stored one.
 */
export const personIdentityUpdateBody = v.pipe(
  v.object(
    {
      personId: v.optional(v.nullable(v.string(PERSON_TEXT.personIdMismatch))),
      etag: v.pipe(
        v.optional(v.nullable(v.string(PERSON_TEXT.etagRequired))),
        inputJson<string | null | undefined>({ type: 'string', pattern: NOT_BLANK, maxLength: ETAG_MAX }, { required: true }),
      ),
      person: requiredKey(
        v.optional(
          v.object(
            {
              firstName,
              lastName,
              emailAddress: v.pipe(
                optionalText(MSG.enterValidEmail, EMAIL_MAX, PERSON_TEXT.emailTooLong),
                v.transform((s) => (s ? s.toLowerCase() : undefined)),
              ),
              roleIds,
              etag: innerEtag,
            },
            PERSON_TEXT.badPerson,
          ),
          {},
        ),
      ),
    },
    PERSON_TEXT.badBody,
  ),
  v.transform((b) => ({ personId: b.personId ?? undefined, etag: b.person.etag ?? b.etag ?? '', person: b.person })),
  v.object({
    personId: v.optional(v.string()),
    etag,
    person: v.object({
      firstName: v.string(),
      lastName: v.string(),
      emailAddress: v.optional(v.string()),
      roleIds: v.array(v.string()),
    }),
  }),
);
export type PersonIdentityUpdateBody = v.InferOutput<typeof personIdentityUpdateBody>;

// ---------------------------------------------------------------- own profile

export const PHONE_TYPES = Object.values(PHONE_TYPE) as number[];
/** A phone entry as the server stores and returns it (spec §3: CountryCode, Number, IsPrimary, Type 1 Work, 2 Personal, 3 Home, 4 Office). */
export const phoneNumberSchema = v.strictObject({ CountryCode: v.string(), Number: v.string(), IsPrimary: v.boolean(), Type: v.number() });
export type PhoneEntry = v.InferOutput<typeof phoneNumberSchema>;

/**
 * Resolves a phone entry: CountryCode is the country's ISO code as in the Countries dictionary
 * ('GB'); a dial code ('44' or '+44') is accepted too. Number is the number without the dial
 * code (a leading trunk 0 is fine). Returns the stored form (ISO code, national number digits)
 * or undefined when the number is not valid for that country.
 */
export function resolvePhone(countryCode: string, number: string): { CountryCode: string; Number: string } | undefined {
  const cc = countryCode.trim().toUpperCase();
  const n = number.trim();
  if (!n || n.length > 40) return undefined;
  let country: string | undefined;
  let parsed;
  if (/^[A-Z]{2}$/.test(cc) && isSupportedCountry(cc)) {
    country = cc;
    parsed = parsePhoneNumberFromString(n, cc as CountryCode);
  } else if (/^\+?\d{1,3}$/.test(cc)) {
    const dial = cc.replace('+', '');
    // the dial code's main country (44 → GB, 1 → US), as the client's default for that code
    country = (metadata as unknown as { country_calling_codes: Record<string, string[]> }).country_calling_codes[dial]?.[0];
    if (!country) return undefined;
    parsed = parsePhoneNumberFromString(n, country as CountryCode);
  } else return undefined;
  if (!isAcceptedPhone(parsed, country)) return undefined;
  // '+33 …' typed under GB parses as a French number: the number must belong to the chosen dial code.
  if (parsed.countryCallingCode !== getCountryCallingCode(country as CountryCode)) return undefined;
  return { CountryCode: country, Number: String(parsed.nationalNumber) };
}

/** Accepts PascalCase (spec: CountryCode, Number, IsPrimary, Type) or camelCase keys. */
const pascal = (raw: unknown) => {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return raw;
  const o = raw as Record<string, unknown>;
  return {
    CountryCode: o.CountryCode ?? o.countryCode,
    Number: o.Number ?? o.number,
    IsPrimary: o.IsPrimary ?? o.isPrimary,
    Type: o.Type ?? o.type,
  };
};

const phoneEntry = v.pipe(
  v.unknown(),
  v.transform(pascal),
  v.object(
    {
      CountryCode: v.pipe(v.string(MSG.invalidPhone), v.trim(), v.maxLength(10, PERSON_TEXT.phoneCountryInvalid), v.check(noNul, MSG.invalidPhone)),
      Number: v.pipe(v.string(MSG.invalidPhone), v.trim(), v.nonEmpty(MSG.invalidPhone), v.maxLength(40, MSG.invalidPhone), v.check(noNul, MSG.invalidPhone)),
      IsPrimary: v.optional(v.nullable(v.boolean(PERSON_TEXT.isPrimaryType)), false),
      Type: v.pipe(
        v.number(PERSON_TEXT.phoneTypeInvalid),
        v.check((t) => PHONE_TYPES.includes(t), PERSON_TEXT.phoneTypeInvalid),
      ),
    },
    MSG.invalidPhone,
  ),
  v.forward(
    v.check((p) => resolvePhone(p.CountryCode, p.Number) !== undefined, MSG.invalidPhone),
    ['Number'],
  ),
  v.transform((p): PhoneEntry => ({ ...resolvePhone(p.CountryCode, p.Number)!, IsPrimary: p.IsPrimary === true, Type: p.Type })),
);

export const phoneNumbers = v.pipe(
  v.optional(v.nullable(v.array(v.unknown(), PERSON_TEXT.phoneNumbersType)), []),
  v.transform((a) => a ?? []),
  v.maxLength(PHONE_TYPES.length, PERSON_TEXT.tooManyPhones),
  v.array(phoneEntry),
  v.check((list) => new Set(list.map((p) => p.Type)).size === list.length, PERSON_TEXT.phoneTypeTwice),
  v.check((list) => list.filter((p) => p.IsPrimary).length <= 1, PERSON_TEXT.phonePrimaryTwice),
);

/** PUT /api/v1/person/basic-info-update — body { person: { firstName, lastName, phoneNumbers }, etag } */
export const ownProfileUpdateBody = v.pipe(
  v.object(
    {
      etag: v.pipe(
        v.optional(v.nullable(v.string(PERSON_TEXT.etagRequired))),
        inputJson<string | null | undefined>({ type: 'string', pattern: NOT_BLANK, maxLength: ETAG_MAX }, { required: true }),
      ),
      person: requiredKey(v.optional(v.object({ firstName, lastName, phoneNumbers, etag: innerEtag }, PERSON_TEXT.badPerson), {})),
    },
    PERSON_TEXT.badBody,
  ),
  v.transform((b) => ({ etag: b.etag ?? b.person.etag ?? '', person: b.person })),
  v.object({
    etag,
    person: v.object({ firstName: v.string(), lastName: v.string(), phoneNumbers: v.array(v.custom<PhoneEntry>(() => true)) }),
  }),
);
export type OwnProfileUpdateBody = v.InferOutput<typeof ownProfileUpdateBody>;

// ---------------------------------------------------------------- responses

/** One row of GET /ps-admin/persons/get-list (spec §3: list items also carry Email, LastLoginDate, Etag). */
export const personListItemSchema = v.strictObject({
  Id: v.string(),
  FirstName: v.string(),
  LastName: v.string(),
  Email: v.string(),
  Roles: v.array(roleSchema),
  IsLocked: v.boolean(),
  /** ISO-8601; null when the person never signed in */
  LastLoginDate: v.nullable(v.string()),
  PersonStatus: v.number(),
  Etag: v.string(),
});
export type PersonListItem = v.InferOutput<typeof personListItemSchema>;

/** GET /ps-admin/persons/get-list → { Items, TotalCount } */
export const personListSchema = pagedListSchema(personListItemSchema);
export type PersonList = v.InferOutput<typeof personListSchema>;

/** A person record (spec §3 "Person", plus the phone numbers the own profile edits). */
/** A lookup value inside a profile ({ Id, Name }). */
const profileOption = v.nullish(v.looseObject({ Id: v.optional(v.union([v.number(), v.string()])), Name: v.nullish(v.string()) }));
const profileGroup = v.nullish(v.looseObject({}));
/**
 * The lone-worker profile fields the read view shows (spec document 1 §3, 'User Details'). The
 * server sends those a person has stored; staff usually have none.
 */
export const personProfileEntries = {
  Title: v.optional(profileOption),
  JobSector: v.optional(profileOption),
  JobRole: v.optional(profileOption),
  JobTitle: v.optional(v.nullish(v.string())),
  RiskProfiles: v.optional(v.nullish(v.array(profileOption))),
  VehicleInformation: v.optional(profileGroup),
  PersonalDetails: v.optional(profileGroup),
  MedicalInformation: v.optional(profileGroup),
  Ethnicity: v.optional(profileOption),
  PhysicalInformation: v.optional(profileGroup),
};
export const PERSON_PROFILE_KEYS = Object.keys(personProfileEntries) as (keyof typeof personProfileEntries)[];

export const personSchema = v.strictObject({
  Id: v.string(),
  FirstName: v.string(),
  LastName: v.string(),
  Contact: v.strictObject({ EmailAddress: v.string() }),
  Roles: v.array(roleSchema),
  IsLocked: v.boolean(),
  PersonStatus: v.number(),
  PhoneNumbers: v.array(phoneNumberSchema),
  ...personProfileEntries,
});
export type PersonRecord = v.InferOutput<typeof personSchema>;

/** GET /persons/get-by-id and GET /persons/get-own-profile → { Person, Etag } */
export const personDetailsSchema = v.strictObject({ Person: personSchema, Etag: v.string() });
export type PersonDetails = v.InferOutput<typeof personDetailsSchema>;
/** Spec §3 "Own profile: Person and Etag" — the same shape. */
export const ownProfileSchema = personDetailsSchema;
export type OwnProfile = PersonDetails;
