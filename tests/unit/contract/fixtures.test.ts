// The typed fixture builders (tests/helpers/fixtures.ts) produce answers the strict output
// schemas accept, and the schemas refuse the drift they exist to catch: a missing field, a field
// the contract does not name, a wrong type, a role filed under another role's name.
import { describe, expect, it } from 'vitest';
import * as v from 'valibot';
import { ENDPOINTS, type Endpoint } from '../../../src/shared/schemas/endpoints';
import { personDetailsSchema, personListItemSchema } from '../../../src/shared/schemas/persons';
import { dictionariesSchema } from '../../../src/shared/schemas/reference';
import { userInfoSchema } from '../../../src/shared/schemas/auth';
import {
  makeCustomerDetails,
  makeDictionaries,
  makeFeatures,
  makeGlobalSettings,
  makePersonDetails,
  makePersonList,
  makePersonListItem,
  makeRole,
  makeSearchHit,
  makeSearchResponse,
  makeTokenResponse,
  makeTwoFactorSetting,
  makeUserInfo,
  TWO_FACTOR_TYPES_ANSWER,
} from '../../helpers/fixtures';

const issues = (schema: v.GenericSchema, value: unknown) => {
  const r = v.safeParse(schema, value);
  return r.success ? [] : r.issues.map((i) => `${v.getDotPath(i) ?? '(root)'}: ${i.message}`);
};

describe('fixture builders answer the contract', () => {
  const samples: [Endpoint, unknown][] = [
    ['POST /connect/token', makeTokenResponse()],
    ['GET /api/v1/get-user-info', makeUserInfo()],
    ['GET /api/v1/get-user-info', makeUserInfo({ loginMethod: { value: 2, name: 'SingleSignOn' } })],
    ['GET /api/v1/get-user-two-factor-authentication', makeTwoFactorSetting()],
    ['GET /api/v1/get-user-two-factor-authentication', makeTwoFactorSetting(2, { countryId: 'country-gb', number: '07400 123456', type: 2 })],
    ['GET /api/v1/two-factor-authentication/types', TWO_FACTOR_TYPES_ANSWER],
    ['GET /ps-admin/persons/get-list', makePersonList([makePersonListItem(), makePersonListItem({ Id: 'b', LastLoginDate: '2026-01-01T00:00:00.000Z' })], 12)],
    ['GET /persons/get-by-id', makePersonDetails()],
    ['GET /ps-admin/customers/get-details', makeCustomerDetails()],
    ['GET /persons/get-own-profile', makePersonDetails({ PhoneNumbers: [{ CountryCode: 'GB', Number: '2079460018', IsPrimary: true, Type: 1 }] })],
    ['GET /ps-admin/dictionaries/get-all', makeDictionaries()],
    ['GET /features/all', makeFeatures({ SingleSignOn: true })],
    ['GET /customers/get-global-settings', makeGlobalSettings(1)],
    [
      'GET /api/search',
      makeSearchResponse('ann', [makeSearchHit(), makeSearchHit({ id: 'c1', kind: 'customer', href: '/customers/c1/account', matched: 'name' })]),
    ],
  ];
  it.each(samples.map(([e, body], i) => [`${e} #${i}`, e, body] as const))('%s', (_name, endpoint, body) => {
    expect(issues(ENDPOINTS[endpoint], body)).toEqual([]);
  });
});

describe('the output schemas catch drift', () => {
  it('a field the contract lacks (the server added one) is refused', () => {
    expect(issues(personListItemSchema, { ...makePersonListItem(), Title: 'Dr' })).toEqual([expect.stringContaining('Title')]);
  });

  it('a field the contract names but the answer lacks is refused', () => {
    const { PhoneNumbers: _dropped, ...person } = makePersonDetails().Person;
    expect(issues(personDetailsSchema, { Person: person, Etag: 'e' })).toEqual([expect.stringContaining('Person.PhoneNumbers')]);
    const { tenantId: _t, ...info } = makeUserInfo();
    expect(issues(userInfoSchema, info)).toEqual([expect.stringContaining('tenantId')]);
  });

  it('a wrong type is refused', () => {
    expect(issues(personListItemSchema, { ...makePersonListItem(), IsLocked: 0 })).toEqual([expect.stringContaining('IsLocked')]);
    expect(issues(ENDPOINTS['POST /connect/token'], { ...makeTokenResponse(), expires_in: '900' })).toEqual([expect.stringContaining('expires_in')]);
  });

  it('the dictionaries carry every role under its own name', () => {
    const dict = makeDictionaries();
    expect(issues(dictionariesSchema, { ...dict, Roles: { ...dict.Roles, ArcManagerRole: makeRole('ArcSupervisorRole') } })).toEqual([
      expect.stringContaining('Roles.ArcManagerRole'),
    ]);
    const { PortalUserRole: _p, ...roles } = dict.Roles;
    expect(issues(dictionariesSchema, { ...dict, Roles: roles })).toEqual([expect.stringContaining('Roles.PortalUserRole')]);
  });
});
