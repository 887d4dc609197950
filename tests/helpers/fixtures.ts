// Typed builders for API answers, built from the contract's types (src/shared/schemas), so a change
// of the contract breaks the tests that use them at typecheck. Each returns a complete, valid
// answer (tests/unit/contract/fixtures.test.ts parses them with the strict output schemas); pass
// overrides for what the test is about.
import { ROLE, ROLE_IDS, type RoleName } from '../../src/shared/permissions.js';
import type { Endpoint, ResponseOf } from '../../src/shared/schemas/endpoints.js';
import type { TokenResponse, TwoFactorPhone, TwoFactorSetting, TwoFactorTypeOption, UserInfo } from '../../src/shared/schemas/auth.js';
import type { PersonDetails, PersonList, PersonListItem, PersonRecord } from '../../src/shared/schemas/persons.js';
import type { CustomerDetails } from '../../src/shared/schemas/customers.js';
import type { CountryDto, DictionariesDto, FeaturesDto, GlobalSettingsDto, RoleDto } from '../../src/shared/schemas/reference.js';
import type { SearchGroup, SearchHit, SearchResponse } from '../../src/shared/schemas/search.js';
import { SEARCH_GROUP_LABELS } from '../../src/shared/schemas/search.js';
import { at } from './lists.js';

/** An answer checked against the endpoint's contract type: `answer('PUT /api/v1/:id/unlock', { Etag: 'e2' })`. */
export const answer = <E extends Endpoint>(_endpoint: E, body: ResponseOf<E>): ResponseOf<E> => body;

const ROLE_ORDER: Record<RoleName, number> = {
  SuperAdminRole: 1,
  SuperAdminReadonlyRole: 2,
  ArcManagerRole: 3,
  ArcSupervisorRole: 4,
  ArcControllerRole: 5,
  PortalUserRole: 6,
  AdminRole: 7,
};

/** A role as persons and the dictionaries carry it (the fixed id and order of that role). */
export const makeRole = (name: RoleName, over: Partial<RoleDto> = {}): RoleDto => ({
  Id: ROLE_IDS[name],
  Name: name,
  IsDefault: name === ROLE.PortalUser,
  Order: ROLE_ORDER[name],
  ...over,
});

export const makeCountry = (over: Partial<CountryDto> & Pick<CountryDto, 'Code'>): CountryDto => ({
  Id: `country-${over.Code.toLowerCase()}`,
  Name: over.Code,
  PhoneNumberCode: '',
  ...over,
});

export const DEFAULT_COUNTRIES: CountryDto[] = [
  makeCountry({ Code: 'GB', Name: 'United Kingdom', PhoneNumberCode: '44' }),
  makeCountry({ Code: 'FR', Name: 'France', PhoneNumberCode: '33' }),
];

/** GET /ps-admin/dictionaries/get-all: every role, and the countries given (GB and France by default). */
export const makeDictionaries = (over: { Countries?: CountryDto[] } = {}): DictionariesDto => ({
  Roles: {
    SuperAdminRole: makeRole('SuperAdminRole'),
    SuperAdminReadonlyRole: makeRole('SuperAdminReadonlyRole'),
    ArcManagerRole: makeRole('ArcManagerRole'),
    ArcSupervisorRole: makeRole('ArcSupervisorRole'),
    ArcControllerRole: makeRole('ArcControllerRole'),
    PortalUserRole: makeRole('PortalUserRole'),
    AdminRole: makeRole('AdminRole'),
  },
  Countries: over.Countries ?? DEFAULT_COUNTRIES,
});

export const makeFeatures = (on: Record<string, boolean> = {}): FeaturesDto => ({
  Features: Object.entries(on).map(([FeatureName, IsEnabled]) => ({ FeatureName, IsEnabled })),
});

export const makeGlobalSettings = (mode = 0): GlobalSettingsDto => ({ TwoFactorAuthentication: { Mode: { Value: mode } } });

// ---- persons

export const PERSON_ID = 'aaaaaaaa-0000-4000-8000-000000000001';

/** One row of the person list. */
export const makePersonListItem = (over: Partial<PersonListItem> = {}): PersonListItem => ({
  Id: PERSON_ID,
  FirstName: 'Ann',
  LastName: 'Smith',
  Email: 'ann@example.com',
  Roles: [makeRole('SuperAdminRole')],
  IsLocked: false,
  LastLoginDate: null,
  PersonStatus: 1,
  Etag: 'etag-1',
  ...over,
});

export const makePersonList = (Items: PersonListItem[], TotalCount = Items.length): PersonList => ({ Items, TotalCount });

/** A person record (GET /persons/get-by-id and get-own-profile → Person). */
export const makePerson = (over: Partial<PersonRecord> = {}): PersonRecord => ({
  Id: PERSON_ID,
  FirstName: 'Ann',
  LastName: 'Smith',
  Contact: { EmailAddress: 'ann@example.com' },
  Roles: [makeRole('SuperAdminRole')],
  IsLocked: false,
  PersonStatus: 1,
  PhoneNumbers: [],
  ...over,
});

/** { Person, Etag } — GET /persons/get-by-id and GET /persons/get-own-profile. */
export const makePersonDetails = (over: Partial<PersonRecord> = {}, Etag = 'etag-1'): PersonDetails => ({ Person: makePerson(over), Etag });

/** The list row of a person record (what the list shows for the same person). */
export const listItemOf = (d: PersonDetails, over: Partial<PersonListItem> = {}): PersonListItem =>
  makePersonListItem({
    Id: d.Person.Id,
    FirstName: d.Person.FirstName,
    LastName: d.Person.LastName,
    Email: d.Person.Contact.EmailAddress,
    Roles: d.Person.Roles,
    IsLocked: d.Person.IsLocked,
    PersonStatus: d.Person.PersonStatus,
    Etag: d.Etag,
    ...over,
  });

// ---- auth service

export const makeUserInfo = (over: Partial<UserInfo> = {}): UserInfo => ({
  userId: 'user-1',
  email: 'ann@example.test',
  firstName: 'Ann',
  lastName: 'Admin',
  roles: ['SuperAdminRole'],
  tenantId: 't1',
  ...over,
});

export const makeTokenResponse = (over: Partial<TokenResponse> = {}): TokenResponse => ({
  access_token: 'access',
  token_type: 'Bearer',
  refresh_token: 'refresh',
  expires_in: 900,
  ...over,
});

export const TWO_FACTOR_TYPES_ANSWER: TwoFactorTypeOption[] = [
  { name: 'Email', value: 1 },
  { name: 'SMS', value: 2 },
];

export const makeTwoFactorSetting = (type: 1 | 2 | null = null, phoneNumber: TwoFactorPhone | null = null): TwoFactorSetting => ({
  twoFactorAuthentication: { type: type === null ? null : at(TWO_FACTOR_TYPES_ANSWER, type - 1), phoneNumber },
});

// ---- search

export const makeSearchHit = (over: Partial<SearchHit> = {}): SearchHit => ({
  id: PERSON_ID,
  kind: 'person',
  title: 'Ann Smith',
  subtitle: 'ann@example.com',
  href: `/persons/edit/${PERSON_ID}`,
  score: 2.5,
  matched: 'name',
  ...over,
});

export const makeSearchResponse = (query: string, hits: SearchHit[]): SearchResponse => {
  const groups: SearchGroup[] = [];
  for (const h of hits) {
    let g = groups.find((x) => x.kind === h.kind);
    if (!g) groups.push((g = { kind: h.kind, label: SEARCH_GROUP_LABELS[h.kind], hits: [] }));
    g.hits.push(h);
  }
  return { query, groups };
};

// ---- customers

export const CUSTOMER_ID = 'cccccccc-0000-4000-8000-000000000001';

/** GET ps-admin/customers/get-details: an internal account (no CRM link) with no tier, status or address. */
export const makeCustomerDetails = (over: Partial<CustomerDetails> = {}): CustomerDetails => ({
  Id: CUSTOMER_ID,
  TenantId: 'tttttttt-0000-4000-8000-000000000001',
  Name: 'Acme Care Ltd',
  Etag: 'etag-1',
  PortalId: null,
  PhoneNumber: null,
  Tier: null,
  Status: null,
  IsMigratedAccount: false,
  SalesforceId: null,
  SalesforceUrn: null,
  IsSalesforceAccount: false,
  SalesforceLink: null,
  AccountManagerFullName: null,
  CustomerSuccessManagerFullName: null,
  Address: { AddressLine1: null, AddressLine2: null, City: null, County: null, PostCode: null, Country: null, CountryId: null },
  ...over,
});
