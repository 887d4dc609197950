import { describe, expect, it } from 'vitest';
import { formValuesOf, toCustomerListFilter, exportFileName } from '../../../src/app/features/customers/customer-format';
import type { CustomerDetails } from '../../../src/app/api/customers';

describe('customer list filter (spec §2, §9)', () => {
  it('sends only the filters set, sorted by Reference by default', () => {
    expect(toCustomerListFilter({}, 1, 10, { key: 'Reference', desc: false })).toEqual({ page: 1, pageSize: 10, orderBy: 'Reference', desc: false });
    expect(toCustomerListFilter({ search: ' acme ', tiers: ['1', '3'], statuses: ['2'], migratedOnly: true }, 2, 25, { key: 'Name', desc: true })).toEqual({
      page: 2,
      pageSize: 25,
      orderBy: 'Name',
      desc: true,
      searchValue: 'acme',
      tierIds: [1, 3],
      statusIds: [2],
      migratedOnly: true,
    });
    // an unknown sort key falls back to Reference
    expect(toCustomerListFilter({}, 1, 10, { key: 'Nope', desc: false }).orderBy).toBe('Reference');
  });
  it('names exports with a label and a timestamp', () => {
    expect(exportFileName('Customers', new Date(2026, 0, 2, 3, 4, 5))).toBe('Customers_2026-01-02_03-04-05.xlsx');
  });
});

describe('stored customer → edit form', () => {
  const base: CustomerDetails = {
    Id: 'i',
    TenantId: 't',
    Name: 'Acme',
    Etag: 'e',
    PortalId: '42',
    PhoneNumber: '+44',
    Tier: { Value: 2, Name: 'Silver' },
    Status: { Value: 1, Name: 'Active' },
    IsMigratedAccount: true,
    SalesforceId: 'sf',
    SalesforceUrn: 'URN-1',
    IsSalesforceAccount: true,
    AccountManagerFullName: 'Ann',
    CustomerSuccessManagerFullName: null,
    Address: { AddressLine1: '1 St', AddressLine2: null, City: 'Leeds', County: null, PostCode: 'LS1', Country: 'United Kingdom', CountryId: 'gb' },
  };
  it('a CRM-linked account is a customer account with its values', () => {
    expect(formValuesOf(base)).toMatchObject({
      accountType: 'customer',
      accountName: 'Acme',
      salesforceURN: 'URN-1',
      salesforceId: 'sf',
      country: 'gb',
      successTier: '2',
      accountStatus: '1',
      isMigratedAccount: 'yes',
      portalReferenceNumber: '42',
      successManager: '',
    });
  });
  it('an account without a URN is internal', () => {
    expect(formValuesOf({ ...base, SalesforceUrn: null, SalesforceId: null, Tier: null, Status: null, IsMigratedAccount: false }).accountType).toBe('internal');
  });
});
