import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { first } from '../../helpers/lists';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClient } from '@tanstack/react-query';
import { httpError, ME, renderPage } from '../persons/helpers';

vi.mock('../../../src/app/api/http', () => ({ http: vi.fn() }));

import { http } from '../../../src/app/api/http';
import { toast } from '../../../src/app/ui/toast';
import { currentUserAtom } from '../../../src/app/state/session';
import { EditProfilePage } from '../../../src/app/features/profile/edit-profile-page';
import { profileKeys } from '../../../src/app/features/profile/api';
import type { OwnProfile } from '../../../src/shared/schemas/persons';
import { answer, makeCountry, makeDictionaries, makePersonDetails, makeUserInfo } from '../../helpers/fixtures';
import { MSG, CODE } from '../../../src/shared/messages';
import { P } from '../../../src/shared/permissions';
import { slowMachine } from '../ui/slow-machine';

slowMachine();

const httpMock = vi.mocked(http);
const COUNTRIES = [
  // deliberately out of order: the page puts GB first, then the rest by name
  makeCountry({ Code: 'US', Name: 'United States', PhoneNumberCode: '1' }),
  makeCountry({ Code: 'JE', Name: 'Jersey', PhoneNumberCode: '44' }),
  makeCountry({ Code: 'FR', Name: 'France', PhoneNumberCode: '33' }),
  makeCountry({ Code: 'GB', Name: 'United Kingdom', PhoneNumberCode: '44' }),
];
const GB_EXAMPLE = 'Please enter a valid phone number, example: 07400 123456';

const ownProfile = (): OwnProfile =>
  makePersonDetails(
    {
      Id: ME,
      FirstName: 'Ann',
      LastName: 'Smith',
      Contact: { EmailAddress: 'ann@example.com' },
      Roles: [],
      PhoneNumbers: [
        // the demo data stores dial codes; new saves store ISO codes
        { CountryCode: '44', Number: '7400123456', IsPrimary: true, Type: 1 },
        { CountryCode: 'GB', Number: '2079460018', IsPrimary: false, Type: 4 },
      ],
    },
    'etag-1',
  );

type Opts = { method?: string; body?: unknown };
type Handler = (path: string, opts?: Opts) => unknown;
let handler: Handler;
let successSpy: ReturnType<typeof vi.spyOn>;
let errorSpy: ReturnType<typeof vi.spyOn>;

const base: Handler = (path) => {
  if (path === '/ps-admin/dictionaries/get-all') return makeDictionaries({ Countries: COUNTRIES });
  if (path === '/persons/get-own-profile') return ownProfile();
  if (path === '/api/v1/get-user-info') return makeUserInfo({ userId: ME, email: 'ann@example.com', firstName: 'Server', lastName: 'Copy' });
  throw new Error(`unexpected ${path}`);
};

beforeEach(() => {
  httpMock.mockReset();
  handler = base;
  httpMock.mockImplementation(async (path, opts) => handler(path, opts as never));
  successSpy = vi.spyOn(toast, 'success');
  errorSpy = vi.spyOn(toast, 'error');
});
afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

const perms = [P.ManageOwnProfile];
const puts = () => httpMock.mock.calls.filter(([, o]) => (o as Opts | undefined)?.method === 'PUT');
const lastPutBody = () => puts().at(-1)![1]!.body as { person: { firstName: string; lastName: string; phoneNumbers: unknown[] }; etag: string };
const save = () => screen.getByRole('button', { name: 'Save' });
const number = (label: string) => screen.getByRole('textbox', { name: label });

async function open(queryClient?: QueryClient) {
  const r = renderPage(<EditProfilePage />, { permissions: perms, route: 'editOwnProfile', queryClient });
  await screen.findByRole('textbox', { name: 'First Name' });
  return { ...r, user: userEvent.setup() };
}

describe('EditProfilePage', () => {
  it('loads the profile: names, numbers beside their dial code without the trunk 0, countries, primary, title, Save disabled', async () => {
    const { tab } = await open();
    expect(tab.setTitle).toHaveBeenCalledWith('Edit Profile');
    expect(screen.getByRole('heading', { name: 'General information' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Phone numbers' })).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: 'First Name' })).toHaveValue('Ann');
    expect(screen.getByRole('textbox', { name: 'Last Name' })).toHaveValue('Smith');
    expect(screen.getByRole('textbox', { name: 'First Name' })).toHaveAttribute('aria-required', 'true');
    // '+44' is shown beside the field: '+44 7400 123456', never '+44 07400 123456'
    expect(number('Work')).toHaveValue('7400 123456');
    expect(number('Office')).toHaveValue('20 7946 0018');
    expect(number('Work')).toHaveAttribute('placeholder', '7400 123456');
    expect(number('Personal')).toHaveValue('');
    expect(number('Home')).toHaveValue('');
    // stored dial code 44 → United Kingdom; empty numbers default to GB (+44)
    for (const label of ['Personal', 'Work', 'Home', 'Office'])
      expect(screen.getByRole('button', { name: `${label} country: United Kingdom +44` })).toBeInTheDocument();
    expect(screen.getByRole('radio', { name: 'Primary (Work)' })).toBeChecked();
    expect(screen.getByRole('radio', { name: 'Primary (Personal)' })).not.toBeChecked();
    expect(save()).toBeDisabled();
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('first and last name are required (spec message), Save stays disabled', async () => {
    const { user } = await open();
    const first = screen.getByRole('textbox', { name: 'First Name' });
    await user.clear(first);
    await user.tab();
    expect(await screen.findByText('Please enter first name')).toBeInTheDocument();
    expect(first).toHaveAttribute('aria-invalid', 'true');
    const last = screen.getByRole('textbox', { name: 'Last Name' });
    await user.clear(last);
    await user.type(last, '   ');
    await user.tab();
    expect(await screen.findByText('Please enter last name')).toBeInTheDocument();
    expect(save()).toBeDisabled();
    await user.type(first, 'Anna');
    await user.clear(last);
    await user.type(last, 'Smith');
    await waitFor(() => expect(save()).toBeEnabled());
    expect(screen.queryByText('Please enter first name')).toBeNull();
  });

  it('an invalid number shows the example message word for word; Save disabled until fixed', async () => {
    const { user } = await open();
    await user.type(number('Home'), '12345');
    await user.tab();
    const message = await screen.findByText(GB_EXAMPLE);
    expect(message).toHaveAttribute('role', 'alert');
    expect(number('Home')).toHaveAttribute('aria-invalid', 'true');
    expect(save()).toBeDisabled();
    await user.clear(number('Home'));
    await user.type(number('Home'), '01632 96');
    // too short for a UK number
    expect(await screen.findByText(GB_EXAMPLE)).toBeInTheDocument();
    await user.clear(number('Home'));
    // the reserved drama ranges (07700 900xxx) read as numbers on every form (src/shared/phone.ts)
    await user.type(number('Home'), '07700 900123');
    await waitFor(() => expect(screen.queryByText(GB_EXAMPLE)).toBeNull());
    await waitFor(() => expect(save()).toBeEnabled());
  });

  it('a number that is only the dial code counts as empty and is left out of the payload', async () => {
    handler = (path, opts) =>
      path === '/api/v1/person/basic-info-update' ? answer('PUT /api/v1/person/basic-info-update', { Etag: 'etag-2' }) : base(path, opts);
    const { user } = await open();
    await user.type(number('Personal'), '+44');
    await user.tab();
    // clearing the stored office number removes it too
    await user.clear(number('Office'));
    await user.tab();
    await waitFor(() => expect(save()).toBeEnabled());
    expect(screen.queryByRole('alert')).toBeNull();
    await user.click(save());
    await waitFor(() => expect(puts()).toHaveLength(1));
    expect(lastPutBody()).toEqual({
      etag: 'etag-1',
      person: { firstName: 'Ann', lastName: 'Smith', phoneNumbers: [{ CountryCode: 'GB', Number: '7400123456', IsPrimary: true, Type: 1 }] },
    });
  });

  it('the Primary radio decides IsPrimary; numbers are sent with ISO code, national number and type', async () => {
    handler = (path, opts) =>
      path === '/api/v1/person/basic-info-update' ? answer('PUT /api/v1/person/basic-info-update', { Etag: 'etag-2' }) : base(path, opts);
    const { user } = await open();
    await user.type(number('Personal'), '07400 654321');
    await user.click(screen.getByRole('radio', { name: 'Primary (Personal)' }));
    expect(screen.getByRole('radio', { name: 'Primary (Work)' })).not.toBeChecked();
    await waitFor(() => expect(save()).toBeEnabled());
    await user.click(save());
    await waitFor(() => expect(puts()).toHaveLength(1));
    expect(lastPutBody().person.phoneNumbers).toEqual([
      { CountryCode: 'GB', Number: '7400654321', IsPrimary: true, Type: 2 },
      { CountryCode: 'GB', Number: '7400123456', IsPrimary: false, Type: 1 },
      { CountryCode: 'GB', Number: '2079460018', IsPrimary: false, Type: 4 },
    ]);
  });

  it('Save is enabled only while something differs from the stored profile; dirty state goes to the tab', async () => {
    const { user, tab } = await open();
    expect(save()).toBeDisabled();
    const last = screen.getByRole('textbox', { name: 'Last Name' });
    await user.type(last, 'e');
    await waitFor(() => expect(save()).toBeEnabled());
    expect(tab.setDirty).toHaveBeenLastCalledWith(true);
    await user.type(last, '{Backspace}');
    await waitFor(() => expect(save()).toBeDisabled());
    expect(tab.setDirty).toHaveBeenLastCalledWith(false);
  });

  it('saves: toast, cached profile takes the new etag, top-bar user refreshed, next save sends the new etag', async () => {
    let n = 1;
    handler = (path, opts) =>
      path === '/api/v1/person/basic-info-update' ? answer('PUT /api/v1/person/basic-info-update', { Etag: `etag-${++n}` }) : base(path, opts);
    const qc = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: Infinity } } });
    const personsKey = ['persons', 'list', { page: 1 }];
    qc.setQueryData(personsKey, { Items: [], TotalCount: 0 });
    const { user, store, tab } = await open(qc);
    store.set(currentUserAtom, makeUserInfo({ userId: ME, email: 'ann@example.com', firstName: 'Ann', lastName: 'Smith' }));
    const last = screen.getByRole('textbox', { name: 'Last Name' });
    await user.clear(last);
    await user.type(last, ' Smythe ');
    await user.click(save());
    await waitFor(() => expect(successSpy).toHaveBeenCalledWith('Profile updated successfully.', { area: 'persons' }));
    expect(lastPutBody()).toMatchObject({ etag: 'etag-1', person: { firstName: 'Ann', lastName: 'Smythe' } });
    const cached = qc.getQueryData<OwnProfile>(profileKeys.own)!;
    expect(cached.Etag).toBe('etag-2');
    expect(cached.Person.LastName).toBe('Smythe');
    // top bar: patched at once, then replaced by GET /api/v1/get-user-info
    await waitFor(() => expect(store.get(currentUserAtom)).toMatchObject({ firstName: 'Server', lastName: 'Copy' }));
    expect(httpMock.mock.calls.some(([p]) => p === '/api/v1/get-user-info')).toBe(true);
    expect(qc.getQueryState(personsKey)?.isInvalidated).toBe(true);
    // the form now holds the saved values: clean, Save disabled (it keeps the focus it was pressed
    // with, so it says so with aria-disabled), the tab not dirty, still on the page
    await waitFor(() => expect(save()).toHaveAttribute('aria-disabled', 'true'));
    expect(save()).toHaveFocus();
    expect(tab.setDirty).toHaveBeenLastCalledWith(false);
    expect(tab.back).not.toHaveBeenCalled();
    expect(last).toHaveValue('Smythe');

    await user.type(screen.getByRole('textbox', { name: 'First Name' }), 'e');
    await user.click(save());
    await waitFor(() => expect(puts()).toHaveLength(2));
    expect(lastPutBody().etag).toBe('etag-2');
  });

  it('a stale etag (409) shows the server message; Reload loads the latest version', async () => {
    let stale = true;
    handler = (path, opts) => {
      if (path === '/api/v1/person/basic-info-update') throw httpError(409, MSG.staleEtag, CODE.conflict);
      if (path === '/persons/get-own-profile' && !stale)
        return answer('GET /persons/get-own-profile', { ...ownProfile(), Person: { ...ownProfile().Person, FirstName: 'Annie' }, Etag: 'etag-9' });
      return base(path, opts);
    };
    const { user, queryClient } = await open();
    await user.type(screen.getByRole('textbox', { name: 'Last Name' }), 's');
    await user.click(save());
    expect(within(await screen.findByRole('alert')).getByText(MSG.staleEtag)).toBeInTheDocument();
    expect(screen.getAllByText(MSG.staleEtag)).toHaveLength(1); // one error shows once: no toast as well
    expect(errorSpy).not.toHaveBeenCalled();
    expect(successSpy).not.toHaveBeenCalled();
    stale = false;
    await user.click(screen.getByRole('button', { name: 'Reload' }));
    await waitFor(() => expect(screen.getByRole('textbox', { name: 'First Name' })).toHaveValue('Annie'));
    expect(screen.getByRole('textbox', { name: 'Last Name' })).toHaveValue('Smith');
    expect(screen.queryByRole('alert')).toBeNull();
    expect(queryClient.getQueryData<OwnProfile>(profileKeys.own)?.Etag).toBe('etag-9');
  });

  it("a 400 answer gives 'Profile can not be updated!' and puts the server's messages on the fields", async () => {
    handler = (path, opts) => {
      if (path === '/api/v1/person/basic-info-update')
        throw httpError(400, MSG.invalidPhone, CODE.validation, {
          'person.phoneNumbers.1.Number': MSG.invalidPhone,
          'person.phoneNumbers': 'Only one phone number can be the primary one.',
        });
      return base(path, opts);
    };
    const { user } = await open();
    await user.type(number('Personal'), '07400 654321');
    await user.click(save());
    await waitFor(() => expect(screen.getAllByRole('alert').length).toBeGreaterThan(0));
    expect(errorSpy).not.toHaveBeenCalled();
    const banner = first(screen.getAllByRole('alert'));
    expect(within(banner).getByText(MSG.profileCannotUpdate)).toBeInTheDocument();
    expect(within(banner).getByText('Only one phone number can be the primary one.')).toBeInTheDocument();
    // index 1 of the sent list is the Work number (Personal, Work, Office were sent)
    expect(number('Work')).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByText(MSG.invalidPhone)).toBeInTheDocument();
  });

  it('country picker: keyboard open, filter, Enter picks; the number is then checked for that dial code', async () => {
    const { user } = await open();
    const button = screen.getByRole('button', { name: 'Home country: United Kingdom +44' });
    button.focus();
    await user.keyboard('{ArrowDown}');
    const filter = await screen.findByRole('combobox', { name: 'Search country' });
    expect(filter).toHaveFocus();
    const list = screen.getByRole('listbox', { name: 'Countries for the Home number' });
    // GB first, then alphabetically
    expect(
      within(list)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['GBUnited Kingdom+44', 'FRFrance+33', 'JEJersey+44', 'USUnited States+1']);
    expect(within(list).getByRole('option', { name: /United Kingdom/ })).toHaveAttribute('aria-selected', 'true');
    await user.type(filter, 'zzz');
    expect(within(list).getByText('No results')).toBeInTheDocument();
    await user.clear(filter);
    await user.type(filter, '+33');
    expect(within(list).getAllByRole('option')).toHaveLength(1);
    expect(filter).toHaveAttribute('aria-activedescendant', within(list).getByRole('option').id);
    await user.keyboard('{Enter}');
    await waitFor(() => expect(screen.queryByRole('listbox')).toBeNull());
    const picked = screen.getByRole('button', { name: 'Home country: France +33' });
    await waitFor(() => expect(picked).toHaveFocus());
    // a GB number is not valid for +33: the French example is shown
    await user.type(number('Home'), '07400 123456');
    await user.tab();
    expect(await screen.findByText('Please enter a valid phone number, example: 06 12 34 56 78')).toBeInTheDocument();
    await user.clear(number('Home'));
    await user.type(number('Home'), '06 12 34 56 78');
    await waitFor(() => expect(save()).toBeEnabled());
  });

  it('Cancel goes back; a failed profile load shows the server message', async () => {
    const { user, tab } = await open();
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(tab.back).toHaveBeenCalled();
    cleanup();
    handler = (path, opts) => {
      if (path === '/persons/get-own-profile') throw httpError(404, MSG.userNotFound, CODE.notFound);
      return base(path, opts);
    };
    renderPage(<EditProfilePage />, { permissions: perms, route: 'editOwnProfile' });
    expect(await screen.findByText(MSG.userNotFound)).toBeInTheDocument();
  });
});
