import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';

vi.mock('../../../src/app/api/http', () => ({ http: vi.fn() }));

import { http } from '../../../src/app/api/http';
import { CustomerFormPage } from '../../../src/app/features/customers/customer-form-page';
import { CRM_REQUIRED } from '../../../src/app/features/customers/customer-form-schema';
import { P } from '../../../src/shared/permissions';
import { renderPage } from '../persons/helpers';
import { polyfillDom } from '../app-core/helpers';
import { makeCustomerDetails } from '../../helpers/fixtures';

polyfillDom();

beforeEach(() => {
  vi.mocked(http).mockReset();
  // Filters, dictionaries, CRM search: nothing to offer.
  vi.mocked(http).mockImplementation(async () => ({ Items: [], TotalCount: 0, Tiers: [], Statuses: [], Countries: [] }));
});
afterEach(cleanup);

describe('Create Account', () => {
  it("a customer account without its CRM account says 'Please select the linked CRM account' once", async () => {
    const user = userEvent.setup();
    renderPage(<CustomerFormPage />, { permissions: [P.CustomerCreate, P.CustomerView, P.CustomerListView], route: 'customerCreate' });
    await user.type(screen.getByLabelText(/Account name/), 'Acme');
    await user.click(screen.getByRole('button', { name: 'Create Account' }));
    expect(await screen.findAllByText(CRM_REQUIRED)).toHaveLength(1);
  });
});

describe('Edit Account', () => {
  const ID = 'cccccccc-0000-4000-8000-000000000001';
  const details = makeCustomerDetails({
    Id: ID,
    PhoneNumber: '+447700900123',
    Address: {
      AddressLine1: '1 High Street',
      AddressLine2: null,
      City: 'Leeds',
      County: null,
      PostCode: 'LS1 1AA',
      Country: 'United Kingdom',
      CountryId: 'country-gb',
    },
  });

  const COUNTRIES = [
    { Id: 'country-fr', Name: 'France', IsoCode: 'FR' },
    { Id: 'country-gb', Name: 'United Kingdom', IsoCode: 'GB' },
  ];

  it.each([
    ['after the form', 150],
    ['before the form', 0],
  ])('shows the stored country (the country list answering %s), never "Select…"', async (_when, delay) => {
    vi.mocked(http).mockImplementation(async (path: string) => {
      if (path === '/ps-admin/customers/get-details') return details;
      if (path === '/ps-admin/dictionaries/get-all') {
        await new Promise((r) => setTimeout(r, delay));
        return { Roles: [], Countries: COUNTRIES };
      }
      return { Items: [], TotalCount: 0, Tiers: [], Statuses: [] };
    });
    renderPage(<CustomerFormPage />, {
      permissions: [P.CustomerManage, P.CustomerView, P.CustomerListView],
      route: 'customerAccountEdit',
      params: { customerId: ID },
    });
    const country = (await screen.findByLabelText(/^Country/)) as HTMLSelectElement;
    expect(country.selectedOptions[0]?.textContent).toBe('United Kingdom');
    await screen.findByRole('option', { name: 'France' });
    expect(country.selectedOptions[0]?.textContent).toBe('United Kingdom');
    expect(country).toHaveValue('country-gb');
  });
});
