// The shared route table: URL paths to { route, params } and back, and id normalisation.
import { describe, expect, test } from 'vitest';
import { getHref, matchPath } from '../../../src/shared/routes';
import { canBeInNormalisedId, normaliseId } from '../../../src/shared/codes';

const ID = '0f8fad5b-d9cb-469f-a165-70867728950e';

describe('matchPath', () => {
  test('static routes, with a trailing slash, query or hash ignored', () => {
    expect(matchPath('/persons')).toEqual({ route: 'persons', params: {} });
    expect(matchPath('/persons/')).toEqual({ route: 'persons', params: {} });
    expect(matchPath('/persons?page=2#top')).toEqual({ route: 'persons', params: {} });
    expect(matchPath('/customers#x')).toEqual({ route: 'customers', params: {} });
  });

  test('a literal segment beats a parameter: /persons/add is not an edit, /customers/create not an account', () => {
    expect(matchPath('/persons/add')).toEqual({ route: 'personAdd', params: {} });
    expect(matchPath('/customers/create')).toEqual({ route: 'customerCreate', params: {} });
    expect(matchPath('/asset-management/device-bulk-update')).toEqual({ route: 'bulkUpdate', params: {} });
  });

  test('parameters are captured and URL-decoded', () => {
    expect(matchPath(`/persons/edit/${ID}`)).toEqual({ route: 'personEdit', params: { userId: ID } });
    expect(matchPath(`/customers/${ID}/devices/allocate`)).toEqual({ route: 'customerAllocate', params: { customerId: ID } });
    expect(matchPath('/asset-management/SG640%201234')).toEqual({ route: 'device', params: { deviceId: 'SG640 1234' } });
  });

  test('no match: unknown paths, wrong segment counts, an empty parameter', () => {
    expect(matchPath('/nowhere')).toBeNull();
    expect(matchPath('/persons/edit')).toBeNull();
    expect(matchPath(`/persons/edit/${ID}/more`)).toBeNull();
    expect(matchPath('/customers//account')).toBeNull();
    expect(matchPath('')).toBeNull();
    expect(matchPath('?q=1')).toBeNull();
  });

  test('getHref builds what matchPath reads', () => {
    const href = getHref('customerSubscriptions', { customerId: 'a b/c' });
    expect(href).toBe('/customers/a%20b%2Fc/subscriptions');
    expect(matchPath(href)).toEqual({ route: 'customerSubscriptions', params: { customerId: 'a b/c' } });
  });
});

describe('normaliseId', () => {
  test('strips braces and a second GUID, lower-cases', () => {
    expect(normaliseId(`{${ID.toUpperCase()}}`)).toBe(ID);
    expect(normaliseId(`${ID}:${ID.toUpperCase()}`)).toBe(ID);
    expect(normaliseId(ID)).toBe(ID);
    expect(normaliseId('')).toBe('');
  });
});

describe('canBeInNormalisedId', () => {
  test('text made of hex digits and hyphens (either case) can be part of a normalised id; anything else cannot', () => {
    expect(canBeInNormalisedId(normaliseId(`{${ID.toUpperCase()}}`))).toBe(true);
    expect(canBeInNormalisedId('4B1E-9')).toBe(true);
    for (const s of ['', 'parcel express 3', 'SER1234', '{4b1e', '4b1e:9', 'ab cd']) expect(canBeInNormalisedId(s), s).toBe(false);
  });
});
