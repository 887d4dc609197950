// Edit Account while someone else works on the customer (src/app/features/customers/customer-form-page.tsx),
// over a stand-in hub client: the tab follows the customer like its other tabs, names who else has
// it open, and after someone else's change shows the quiet "Changed by NAME — reload" bar without
// touching what the user typed; Reload loads the customer again and starts the form from it.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';

vi.mock('../../../src/app/api/live', async () => (await import('../../helpers/live-hub')).recordHubModule());
vi.mock('../../../src/app/api/http', () => ({ http: vi.fn() }));

import { http } from '../../../src/app/api/http';
import { CustomerFormPage } from '../../../src/app/features/customers/customer-form-page';
import { P } from '../../../src/shared/permissions';
import { RECORD_LIVE_TEXT } from '../../../src/shared/messages';
import { renderPage } from '../persons/helpers';
import { polyfillDom } from '../app-core/helpers';
import { makeCustomerDetails } from '../../helpers/fixtures';
import { recordHub, resetRecordHub } from '../../helpers/live-hub';
import { WAIT } from '../../helpers/wait';

polyfillDom();

const ID = 'cccccccc-0000-4000-8000-000000000002';
const stored = { name: 'Acme Care Ltd', etag: 'etag-1', fetches: 0 };
const details = () => makeCustomerDetails({ Id: ID, TenantId: 'tttttttt-0000-4000-8000-000000000002', Name: stored.name, Etag: stored.etag });
const live = () => recordHub.open();

beforeEach(() => {
  resetRecordHub();
  Object.assign(stored, { name: 'Acme Care Ltd', etag: 'etag-1', fetches: 0 });
  vi.mocked(http).mockReset();
  vi.mocked(http).mockImplementation(async (path: string) => {
    if (path === '/ps-admin/customers/get-details') {
      stored.fetches++;
      return details();
    }
    return { Items: [], TotalCount: 0, Tiers: [], Statuses: [], Roles: [], Countries: [] };
  });
});
afterEach(cleanup);

describe('Edit Account live', () => {
  it("names who else has the customer open, shows another user's change as the quiet bar with the typing kept, and Reload loads the stored values", async () => {
    const user = userEvent.setup();
    const { unmount } = renderPage(<CustomerFormPage />, {
      permissions: [P.CustomerManage, P.CustomerView, P.CustomerListView],
      route: 'customerAccountEdit',
      params: { customerId: ID },
    });
    const field = (await screen.findByLabelText(/Account name/)) as HTMLInputElement;
    expect(field.value).toBe('Acme Care Ltd');
    expect(live()).toMatchObject([{ kind: 'customer', id: ID }]);

    act(() => live().forEach((w) => w.handlers.onPresence?.(['Bob Tester'])));
    expect(await screen.findByText(RECORD_LIVE_TEXT.alsoOpen(['Bob Tester']))).toBeTruthy();

    await user.clear(field);
    await user.type(field, 'My unsaved name');
    stored.name = 'Acme Care Group';
    stored.etag = 'etag-2';
    act(() =>
      live().forEach((w) =>
        w.handlers.onChanged?.({ Kind: 'customer', Id: ID, What: 'change', By: 'Bob Tester', ByUserId: 'bob-1', At: '2026-11-29T10:00:00.000Z', Note: null }),
      ),
    );
    expect(await screen.findByText(RECORD_LIVE_TEXT.changedBy('Bob Tester'))).toBeTruthy();
    expect(field.value).toBe('My unsaved name');
    expect(stored.fetches).toBe(1);

    await user.click(screen.getByRole('button', { name: RECORD_LIVE_TEXT.reload }));
    await vi.waitFor(() => expect((screen.getByLabelText(/Account name/) as HTMLInputElement).value).toBe('Acme Care Group'), WAIT);
    expect(stored.fetches).toBe(2);
    expect(screen.queryByText(RECORD_LIVE_TEXT.changedBy('Bob Tester'))).toBeNull();

    unmount();
    expect(live()).toEqual([]);
  });
});
