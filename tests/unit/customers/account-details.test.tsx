import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import { Theme } from '@radix-ui/themes';
import { AccountDetails } from '../../../src/app/features/customers/customer-account-page';
import { makeCustomerDetails } from '../../helpers/fixtures';

const customer = makeCustomerDetails({
  Id: 'i',
  TenantId: 't',
  Name: 'Acme',
  Etag: 'e',
  SalesforceId: '001A',
  SalesforceUrn: 'URN-1',
  IsSalesforceAccount: true,
  SalesforceLink: 'https://acme.my.salesforce.com/001A',
});

afterEach(cleanup);

describe('Account details: Salesforce URN and link (spec §3)', () => {
  it('links the URN to the CRM account when the server sends its page', () => {
    render(
      <Theme>
        <AccountDetails customer={customer} />
      </Theme>,
    );
    expect(screen.getByRole('link', { name: 'URN-1' }).getAttribute('href')).toBe('https://acme.my.salesforce.com/001A');
  });
  it('shows the URN as text with the embedded CRM directory (no link)', () => {
    render(
      <Theme>
        <AccountDetails customer={{ ...customer, SalesforceLink: null }} />
      </Theme>,
    );
    expect(screen.getByText('URN-1')).toBeTruthy();
    expect(screen.queryByRole('link', { name: 'URN-1' })).toBeNull();
  });
});
