import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClient } from '@tanstack/react-query';
import { httpError, ME, renderPage } from './helpers';

vi.mock('../../../src/app/api/http', () => ({ http: vi.fn() }));

import { http } from '../../../src/app/api/http';
import { toast } from '../../../src/app/ui/toast';
import { PersonFormPage } from '../../../src/app/features/persons/person-form-page';
import { personKeys } from '../../../src/app/features/persons/api';
import type { PersonDetails, PersonList, PersonRecord } from '../../../src/shared/schemas/persons';
import { answer, listItemOf, makeDictionaries, makePersonDetails, makePersonList, makeRole } from '../../helpers/fixtures';
import { MSG, CODE } from '../../../src/shared/messages';
import { P, ROLE_IDS } from '../../../src/shared/permissions';
import { slowMachine } from '../ui/slow-machine';

slowMachine();

const httpMock = vi.mocked(http);
const ANN = 'aaaaaaaa-0000-4000-8000-000000000001';

const annDetail = (over: Partial<PersonRecord> = {}): PersonDetails =>
  makePersonDetails(
    {
      Id: ANN,
      FirstName: 'Ann',
      LastName: 'Smith',
      Contact: { EmailAddress: 'ann@example.com' },
      Roles: [makeRole('SuperAdminRole'), makeRole('ArcManagerRole')],
      ...over,
    },
    'etag-1',
  );

type Handler = (path: string, opts?: { method?: string; body?: unknown; query?: Record<string, unknown> }) => unknown;
let handler: Handler;
let successSpy: ReturnType<typeof vi.spyOn>;
let errorSpy: ReturnType<typeof vi.spyOn>;

beforeEach(() => {
  httpMock.mockReset();
  handler = (path) => {
    if (path === '/ps-admin/dictionaries/get-all') return makeDictionaries();
    if (path === '/persons/get-by-id') return annDetail();
    throw new Error(`unexpected ${path}`);
  };
  httpMock.mockImplementation(async (path, opts) => handler(path, opts as never));
  successSpy = vi.spyOn(toast, 'success');
  errorSpy = vi.spyOn(toast, 'error');
});
afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

const editPerms = [P.PersonListView, P.PersonEditBasicInformation, P.PersonCreate];
const calls = (method: string) => httpMock.mock.calls.filter(([, o]) => (o as { method?: string } | undefined)?.method === method);
const saveButton = () => screen.getByRole('button', { name: 'Save' });

describe('PersonFormPage — add', () => {
  it('shows the spec messages word for word and keeps Add disabled until changed and valid', async () => {
    const user = userEvent.setup();
    const { tab } = renderPage(<PersonFormPage />, { permissions: editPerms, route: 'personAdd' });
    expect(tab.setTitle).toHaveBeenCalledWith('Add new user');
    const add = screen.getByRole('button', { name: 'Add' });
    expect(add).toBeDisabled();
    expect(screen.getByText(MSG.rolePlaceholder)).toBeInTheDocument();

    const first = screen.getByRole('textbox', { name: 'First name' });
    const last = screen.getByRole('textbox', { name: 'Last name' });
    const email = screen.getByRole('textbox', { name: 'Email' });
    expect(first).toHaveAttribute('aria-required', 'true');
    // Leaving each field empty shows its message.
    await user.click(first);
    await user.tab();
    await user.tab();
    await user.tab();
    expect(await screen.findByText('Please enter first name')).toBeInTheDocument();
    expect(screen.getByText('Please enter last name')).toBeInTheDocument();
    expect(screen.getByText('Please enter email')).toBeInTheDocument();
    expect(first).toHaveAttribute('aria-invalid', 'true');

    await user.type(email, 'not-an-address');
    expect(await screen.findByText('Please enter a valid email')).toBeInTheDocument();

    // Roles: picking one and clearing it again says so.
    const controller = screen.getByRole('checkbox', { name: 'ARC Controller' });
    await user.click(controller);
    await user.click(controller);
    expect(await screen.findByText('Please select at least one option for roles')).toBeInTheDocument();
    expect(screen.getByText(MSG.rolePlaceholder)).toBeInTheDocument();

    await user.type(first, 'Dee');
    await user.type(last, 'Lane');
    await user.clear(email);
    await user.type(email, 'dee@example.com');
    expect(add).toBeDisabled(); // roles still empty
    await user.click(screen.getByRole('checkbox', { name: 'ARC Supervisor' }));
    await user.click(controller);
    await waitFor(() => expect(add).toBeEnabled());
    expect(screen.queryByRole('alert')).toBeNull();
    expect(tab.setDirty).toHaveBeenLastCalledWith(true);
  });

  it('adds the person, toasts "Person added." in the persons area, refreshes lists and goes back', async () => {
    const user = userEvent.setup();
    handler = (path, opts) => {
      if (path === '/api/v1/person' && opts?.method === 'POST') return answer('POST /api/v1/person', { Id: 'new-id', Etag: 'n1' });
      if (path === '/ps-admin/dictionaries/get-all') return makeDictionaries();
      throw new Error(`unexpected ${path}`);
    };
    const qc = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    qc.setQueryData(personKeys.list({ page: 1, pageSize: 10, orderBy: 'UserName', desc: false, searchValue: '' }), makePersonList([]));
    const { tab } = renderPage(<PersonFormPage />, { permissions: editPerms, route: 'personAdd', queryClient: qc });
    await user.type(screen.getByRole('textbox', { name: 'First name' }), ' Dee ');
    await user.type(screen.getByRole('textbox', { name: 'Last name' }), 'Lane');
    await user.type(screen.getByRole('textbox', { name: 'Email' }), 'dee@example.com');
    await user.click(screen.getByRole('checkbox', { name: 'Provider Admin' }));
    await user.click(screen.getByRole('checkbox', { name: 'ARC Manager' }));
    await user.click(screen.getByRole('button', { name: 'Add' }));
    await waitFor(() => expect(tab.back).toHaveBeenCalled());
    expect(calls('POST')[0][1]).toMatchObject({
      body: { person: { firstName: 'Dee', lastName: 'Lane', emailAddress: 'dee@example.com', roleIds: [ROLE_IDS.ArcManagerRole, ROLE_IDS.SuperAdminRole] } },
    });
    expect(successSpy).toHaveBeenCalledWith(MSG.personAdded, { area: 'persons' });
    expect(qc.getQueryState(personKeys.list({ page: 1, pageSize: 10, orderBy: 'UserName', desc: false, searchValue: '' }))?.isInvalidated).toBe(true);
    expect(tab.setDirty).toHaveBeenLastCalledWith(false);
  });

  it('a duplicate e-mail shows the server message once, on the field (no banner, no toast); no navigation', async () => {
    const user = userEvent.setup();
    const dup = 'A user with this email address already exists.';
    handler = (path, opts) => {
      if (path === '/api/v1/person' && opts?.method === 'POST') throw httpError(409, dup, CODE.duplicateEmail, { 'person.emailAddress': dup });
      if (path === '/ps-admin/dictionaries/get-all') return makeDictionaries();
      throw new Error(`unexpected ${path}`);
    };
    const { tab } = renderPage(<PersonFormPage />, { permissions: editPerms, route: 'personAdd' });
    await user.type(screen.getByRole('textbox', { name: 'First name' }), 'Dee');
    await user.type(screen.getByRole('textbox', { name: 'Last name' }), 'Lane');
    await user.type(screen.getByRole('textbox', { name: 'Email' }), 'ann@example.com');
    await user.click(screen.getByRole('checkbox', { name: 'ARC Manager' }));
    await user.click(screen.getByRole('button', { name: 'Add' }));
    await waitFor(() => expect(screen.getByRole('textbox', { name: 'Email' })).toHaveAttribute('aria-invalid', 'true'));
    expect(screen.getAllByText(dup)).toHaveLength(1); // on the field only
    expect(screen.getByRole('textbox', { name: 'Email' })).toHaveAccessibleDescription(dup);
    expect(errorSpy).not.toHaveBeenCalled();
    expect(tab.back).not.toHaveBeenCalled();
  });
});

describe('PersonFormPage — edit', () => {
  it('loads the person: title with their names, email disabled, Save disabled until something changes', async () => {
    const user = userEvent.setup();
    const { tab } = renderPage(<PersonFormPage />, { permissions: editPerms, route: 'personEdit', params: { userId: ANN } });
    const first = await screen.findByRole('textbox', { name: 'First name' });
    expect(first).toHaveValue('Ann');
    await waitFor(() => expect(tab.setTitle).toHaveBeenLastCalledWith('Edit Ann Smith'));
    expect(screen.getByRole('heading', { name: 'Edit Ann Smith' })).toBeInTheDocument();
    const email = screen.getByRole('textbox', { name: 'Email' });
    expect(email).toHaveValue('ann@example.com');
    expect(email).toBeDisabled();
    expect(screen.getByRole('checkbox', { name: 'Provider Admin' })).toBeChecked();
    expect(screen.getByRole('checkbox', { name: 'ARC Manager' })).toBeChecked();
    expect(screen.getByRole('checkbox', { name: 'ARC Controller' })).not.toBeChecked();
    expect(saveButton()).toBeDisabled();
    await user.type(screen.getByRole('textbox', { name: 'Last name' }), 'e');
    await waitFor(() => expect(saveButton()).toBeEnabled());
    // Back to the original value: nothing changed, Save disabled again.
    await user.type(screen.getByRole('textbox', { name: 'Last name' }), '{Backspace}');
    await waitFor(() => expect(saveButton()).toBeDisabled());
    expect(screen.queryByRole('button', { name: 'Unlock' })).toBeNull();
  });

  it('saves: PUT identity-update with the etag, cache updated in place with the new etag, "Person updated.", back', async () => {
    const user = userEvent.setup();
    handler = (path, opts) => {
      if (path === `/api/v1/person/${ANN}/identity-update` && opts?.method === 'PUT')
        return answer('PUT /api/v1/person/:id/identity-update', { Etag: 'etag-2' });
      if (path === '/persons/get-by-id') return annDetail();
      if (path === '/ps-admin/dictionaries/get-all') return makeDictionaries();
      throw new Error(`unexpected ${path}`);
    };
    const qc = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: Infinity } } });
    const listKey = personKeys.list({ page: 1, pageSize: 10, orderBy: 'UserName', desc: false, searchValue: '' });
    const listItem = listItemOf(annDetail());
    const other = { ...listItem, Id: 'bbbbbbbb-0000-4000-8000-000000000002', FirstName: 'Bob', Etag: 'b1' };
    qc.setQueryData<PersonList>(listKey, makePersonList([listItem, other]));
    const { tab } = renderPage(<PersonFormPage />, { permissions: editPerms, route: 'personEdit', params: { userId: ANN }, queryClient: qc });
    const last = await screen.findByRole('textbox', { name: 'Last name' });
    await user.clear(last);
    await user.type(last, 'Smythe');
    await user.click(screen.getByRole('checkbox', { name: 'ARC Controller' }));
    await user.click(saveButton());
    await waitFor(() => expect(tab.back).toHaveBeenCalled());

    const [path, opts] = calls('PUT')[0];
    expect(path).toBe(`/api/v1/person/${ANN}/identity-update`);
    expect(opts).toMatchObject({
      body: {
        personId: ANN,
        person: {
          firstName: 'Ann',
          lastName: 'Smythe',
          emailAddress: 'ann@example.com',
          etag: 'etag-1',
          roleIds: [ROLE_IDS.ArcControllerRole, ROLE_IDS.ArcManagerRole, ROLE_IDS.SuperAdminRole],
        },
      },
    });
    expect(successSpy).toHaveBeenCalledWith('Person updated.', { area: 'persons' });
    const detail = qc.getQueryData<PersonDetails>(personKeys.detail(ANN))!;
    expect(detail.Etag).toBe('etag-2');
    expect(detail.Person.LastName).toBe('Smythe');
    expect(detail.Person.Roles.map((r) => r.Name)).toEqual(['ArcControllerRole', 'ArcManagerRole', 'SuperAdminRole']);
    const list = qc.getQueryData<PersonList>(listKey)!;
    expect(list.Items[0]).toMatchObject({ LastName: 'Smythe', Etag: 'etag-2' });
    expect(list.Items[0].Roles.map((r) => r.Id)).toContain(ROLE_IDS.ArcControllerRole);
    expect(list.Items[1]).toEqual(other); // untouched
    // Updated in place: no refetch of the list or the person.
    expect(httpMock.mock.calls.filter(([p]) => p === '/persons/get-by-id')).toHaveLength(1);
    expect(tab.setDirty).toHaveBeenLastCalledWith(false);
  });

  it('a stale etag (409) shows the server message and stays on the page', async () => {
    const user = userEvent.setup();
    handler = (path, opts) => {
      if (path.endsWith('/identity-update') && opts?.method === 'PUT') throw httpError(409, MSG.staleEtag, CODE.conflict);
      if (path === '/persons/get-by-id') return annDetail();
      return makeDictionaries();
    };
    const { tab } = renderPage(<PersonFormPage />, { permissions: editPerms, route: 'personEdit', params: { userId: ANN } });
    await user.type(await screen.findByRole('textbox', { name: 'First name' }), 'e');
    await user.click(saveButton());
    expect(await screen.findByText(MSG.staleEtag)).toBeInTheDocument();
    expect(screen.getAllByText(MSG.staleEtag)).toHaveLength(1); // above the form, once
    expect(errorSpy).not.toHaveBeenCalled();
    expect(successSpy).not.toHaveBeenCalled();
    expect(tab.back).not.toHaveBeenCalled();
  });

  it('editing yourself: removing your own super admin role is refused', async () => {
    const user = userEvent.setup();
    handler = (path) => {
      if (path === '/persons/get-by-id') return annDetail({ Id: ME });
      return makeDictionaries();
    };
    renderPage(<PersonFormPage />, { permissions: editPerms, route: 'personEdit', params: { userId: ME }, sub: ME });
    const admin = await screen.findByRole('checkbox', { name: 'Provider Admin' });
    await user.click(admin);
    expect(await screen.findByText(MSG.cannotRemoveSuperAdmin)).toBeInTheDocument();
    expect(saveButton()).toBeDisabled();
    await user.click(admin);
    await waitFor(() => expect(screen.queryByText(MSG.cannotRemoveSuperAdmin)).toBeNull());
  });

  it('someone else may lose the super admin role', async () => {
    const user = userEvent.setup();
    renderPage(<PersonFormPage />, { permissions: editPerms, route: 'personEdit', params: { userId: ANN }, sub: ME });
    await user.click(await screen.findByRole('checkbox', { name: 'Provider Admin' }));
    await waitFor(() => expect(saveButton()).toBeEnabled());
    expect(screen.queryByText(MSG.cannotRemoveSuperAdmin)).toBeNull();
  });

  it('Unlock shows only for a locked person with the unlock permission; it unlocks, toasts and goes back', async () => {
    const user = userEvent.setup();
    handler = (path, opts) => {
      if (path === '/persons/get-by-id') return annDetail({ IsLocked: true });
      if (path === `/api/v1/${ANN}/unlock` && opts?.method === 'PUT') return answer('PUT /api/v1/:id/unlock', { Etag: 'etag-u' });
      return makeDictionaries();
    };
    // Locked, no permission: no button.
    renderPage(<PersonFormPage />, { permissions: editPerms, route: 'personEdit', params: { userId: ANN } });
    await screen.findByRole('textbox', { name: 'First name' });
    expect(screen.queryByRole('button', { name: 'Unlock' })).toBeNull();
    cleanup();

    const qc = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: Infinity } } });
    const { tab } = renderPage(<PersonFormPage />, {
      permissions: [...editPerms, P.UserUnlock],
      route: 'personEdit',
      params: { userId: ANN },
      queryClient: qc,
    });
    await user.click(await screen.findByRole('button', { name: 'Unlock' }));
    await waitFor(() => expect(tab.back).toHaveBeenCalled());
    expect(calls('PUT').map(([p]) => p)).toEqual([`/api/v1/${ANN}/unlock`]);
    expect(successSpy).toHaveBeenCalledWith(MSG.personUnlocked, { area: 'persons' });
    expect(qc.getQueryData<PersonDetails>(personKeys.detail(ANN))).toMatchObject({ Etag: 'etag-u', Person: { IsLocked: false } });
  });

  it('an unlocked person never shows Unlock, even with the permission', async () => {
    renderPage(<PersonFormPage />, { permissions: [...editPerms, P.UserUnlock], route: 'personEdit', params: { userId: ANN } });
    await screen.findByRole('textbox', { name: 'First name' });
    expect(screen.queryByRole('button', { name: 'Unlock' })).toBeNull();
  });

  it('a missing person shows "User not found."; an invalid id does not even ask', async () => {
    handler = (path) => {
      if (path === '/persons/get-by-id') throw httpError(404, MSG.userNotFound, CODE.notFound);
      return makeDictionaries();
    };
    renderPage(<PersonFormPage />, { permissions: editPerms, route: 'personEdit', params: { userId: ANN } });
    expect(await screen.findByText(MSG.userNotFound)).toBeInTheDocument();
    cleanup();
    httpMock.mockClear();
    renderPage(<PersonFormPage />, { permissions: editPerms, route: 'personEdit', params: { userId: 'not-a-guid' } });
    expect(screen.getByText(MSG.userNotFound)).toBeInTheDocument();
    expect(httpMock.mock.calls.filter(([p]) => p === '/persons/get-by-id')).toHaveLength(0);
  });

  it('Cancel goes back', async () => {
    const { tab } = renderPage(<PersonFormPage />, { permissions: editPerms, route: 'personEdit', params: { userId: ANN } });
    await userEvent.click(await screen.findByRole('button', { name: 'Cancel' }));
    expect(tab.back).toHaveBeenCalled();
  });
});
