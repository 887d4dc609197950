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
