import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { stubGridLayout } from '../ui/layout';
import { renderPage } from './helpers';

vi.mock('../../../src/app/api/http', () => ({ http: vi.fn() }));
vi.mock('../../../src/app/workspace/actions', () => ({ openRoute: vi.fn(() => true) }));

import { http } from '../../../src/app/api/http';
import { openRoute } from '../../../src/app/workspace/actions';
import { PersonListPage } from '../../../src/app/features/persons/person-list-page';
import type { PersonList, PersonListItem } from '../../../src/app/features/persons/api';
import { MSG } from '../../../src/shared/messages';
import { P, ROLE_IDS } from '../../../src/shared/permissions';
import { slowMachine } from '../ui/slow-machine';

slowMachine();

const httpMock = vi.mocked(http);
const role = (name: keyof typeof ROLE_IDS, order = 1) => ({ Id: ROLE_IDS[name], Name: name, IsDefault: false, Order: order });

const ann: PersonListItem = {
  Id: 'aaaaaaaa-0000-4000-8000-000000000001', FirstName: 'Ann', LastName: 'Smith', Email: 'ann@example.com',
  Roles: [role('SuperAdminRole'), role('ArcManagerRole', 3)], IsLocked: false, LastLoginDate: '2024-03-05T21:07:00', PersonStatus: 1, Etag: 'e1',
};
const bob: PersonListItem = {
  Id: 'bbbbbbbb-0000-4000-8000-000000000002', FirstName: 'Bob', LastName: 'Jones', Email: 'bob@example.com',
  Roles: [role('ArcControllerRole', 5)], IsLocked: true, LastLoginDate: '2024-01-01T08:00:00', PersonStatus: 1, Etag: 'e2',
};
const cy: PersonListItem = {
  Id: 'cccccccc-0000-4000-8000-000000000003', FirstName: 'Cy', LastName: 'Young', Email: 'cy@example.com',
  Roles: [role('SuperAdminReadonlyRole', 2)], IsLocked: false, LastLoginDate: null, PersonStatus: 1, Etag: 'e3',
};

let listAnswer: PersonList;
const listCalls = () =>
  httpMock.mock.calls.filter(([path]) => path === '/ps-admin/persons/get-list').map(([, o]) => o?.query as Record<string, unknown>);

let restore: () => void;
beforeEach(() => {
  restore = stubGridLayout(600);
  listAnswer = { Items: [ann, bob, cy], TotalCount: 43 };
  httpMock.mockReset();
  httpMock.mockImplementation(async (path: string) => {
    if (path === '/ps-admin/persons/get-list') return structuredClone(listAnswer);
    if (path === '/ps-admin/dictionaries/get-all') return { Roles: {}, Countries: [] };
    throw new Error(`unexpected ${path}`);
  });
  vi.mocked(openRoute).mockClear();
});
afterEach(() => {
  cleanup();
  restore();
});

const allPerms = [P.PersonListView, P.PersonCreate, P.PersonEditBasicInformation];

describe('PersonListPage', () => {
  it('loads page 1 sorted by user name, sets the tab title and shows the columns', async () => {
    const { tab } = renderPage(<PersonListPage />, { permissions: allPerms });
    expect(await screen.findByText('Ann Smith')).toBeInTheDocument();
    expect(tab.setTitle).toHaveBeenCalledWith('Manage Users');
    expect(listCalls()[0]).toMatchObject({ page: 1, pageSize: 10, orderBy: 'UserName', desc: false });
    expect(screen.getByRole('searchbox')).toHaveAttribute('placeholder', MSG.personSearchPlaceholder);
    const headers = screen.getAllByRole('columnheader').map((h) => h.textContent?.replace(/[▲▼↕]/g, '').trim());
    expect(headers).toEqual([
      'Users name', 'Email Address', 'Provider Admin', 'Provider Admin Readonly', 'ARC Manager', 'ARC Supervisor', 'ARC Controller', 'Last Login',
    ]);
    for (const h of screen.getAllByRole('columnheader')) expect(within(h).getByRole('button')).toBeInTheDocument();
    expect(screen.getByRole('grid', { name: 'Users' })).toHaveAttribute('aria-rowcount', '44');
  });

  it('shows Add User only with the add-person permission', async () => {
    renderPage(<PersonListPage />, { permissions: [P.PersonListView] });
    await screen.findByText('Ann Smith');
    expect(screen.queryByRole('button', { name: 'Add User' })).toBeNull();
    cleanup();
    renderPage(<PersonListPage />, { permissions: allPerms });
    await userEvent.click(await screen.findByRole('button', { name: 'Add User' }));
    expect(openRoute).toHaveBeenCalledWith('/persons/add');
  });

  it('role columns are read-only checkboxes named "{role} for {name}"', async () => {
    renderPage(<PersonListPage />, { permissions: allPerms });
    const admin = await screen.findByRole('checkbox', { name: 'Provider Admin for Ann Smith' });
    expect(admin).toBeChecked();
    expect(admin).toBeDisabled();
    expect(screen.getByRole('checkbox', { name: 'ARC Manager for Ann Smith' })).toBeChecked();
    expect(screen.getByRole('checkbox', { name: 'ARC Controller for Ann Smith' })).not.toBeChecked();
    expect(screen.getByRole('checkbox', { name: 'ARC Controller for Bob Jones' })).toBeChecked();
    expect(screen.getByRole('checkbox', { name: 'Provider Admin Readonly for Cy Young' })).toBeChecked();
    await userEvent.click(screen.getByRole('checkbox', { name: 'ARC Supervisor for Cy Young' }));
    expect(screen.getByRole('checkbox', { name: 'ARC Supervisor for Cy Young' })).not.toBeChecked();
  });

  it('last column: Locked badge for a locked person, else the last login (dd/MM/yyyy HH:mm) or a dash', async () => {
    renderPage(<PersonListPage />, { permissions: allPerms });
    const annRow = (await screen.findByText('Ann Smith')).closest('[role="row"]') as HTMLElement;
    const bobRow = screen.getByText('Bob Jones').closest('[role="row"]') as HTMLElement;
    const cyRow = screen.getByText('Cy Young').closest('[role="row"]') as HTMLElement;
    const last = (row: HTMLElement) => within(row).getAllByRole('gridcell').at(-1)!;
    expect(last(annRow)).toHaveTextContent(/^05\/03\/2024 21:07$/);
    expect(last(bobRow)).toHaveTextContent(/^Locked$/);
    expect(last(cyRow)).toHaveTextContent(/^-$/);
  });

  it('sorting: a role column sends sortRoleId; clicking it again flips the direction', async () => {
    renderPage(<PersonListPage />, { permissions: allPerms });
    await screen.findByText('Ann Smith');
    const header = screen.getByRole('columnheader', { name: 'ARC Manager' });
    await userEvent.click(within(header).getByRole('button'));
    await waitFor(() => expect(listCalls().at(-1)).toMatchObject({ orderBy: 'Role', sortRoleId: ROLE_IDS.ArcManagerRole, desc: false, page: 1 }));
    expect(header).toHaveAttribute('aria-sort', 'ascending');
    await userEvent.click(within(header).getByRole('button'));
    await waitFor(() => expect(listCalls().at(-1)).toMatchObject({ sortRoleId: ROLE_IDS.ArcManagerRole, desc: true }));
    expect(header).toHaveAttribute('aria-sort', 'descending');
    await userEvent.click(within(screen.getByRole('columnheader', { name: 'Last Login' })).getByRole('button'));
    await waitFor(() => expect(listCalls().at(-1)).toMatchObject({ orderBy: 'LastLoginDate', desc: false }));
    expect(listCalls().at(-1)!.sortRoleId).toBeUndefined();
  });

  it('changing the search goes back to page 1 (debounced)', async () => {
    const user = userEvent.setup();
    renderPage(<PersonListPage />, { permissions: allPerms });
    await screen.findByText('Ann Smith');
    await user.click(screen.getByRole('button', { name: 'Page 3' }));
    await waitFor(() => expect(listCalls().at(-1)).toMatchObject({ page: 3 }));
    const before = listCalls().length;
    await user.type(screen.getByRole('searchbox'), 'smi');
    await waitFor(() => expect(listCalls().at(-1)).toMatchObject({ page: 1, searchValue: 'smi' }));
    // One request for the finished word, not one per key.
    expect(listCalls().slice(before).filter((q) => q.searchValue && q.searchValue !== 'smi')).toHaveLength(0);
    expect(screen.getByRole('button', { name: 'Page 1' })).toHaveAttribute('aria-current', 'page');
  });

  it('rows per page change reloads from page 1 with the new size', async () => {
    const user = userEvent.setup();
    renderPage(<PersonListPage />, { permissions: allPerms });
    await screen.findByText('Ann Smith');
    await user.click(screen.getByRole('button', { name: 'Page 2' }));
    await user.selectOptions(screen.getByRole('combobox', { name: 'Rows per page' }), '50');
    await waitFor(() => expect(listCalls().at(-1)).toMatchObject({ page: 1, pageSize: 50 }));
  });

  it('rows open the edit page with the edit permission (click, Enter; Ctrl = beside)', async () => {
    const user = userEvent.setup();
    renderPage(<PersonListPage />, { permissions: allPerms });
    await user.click(await screen.findByText('Bob Jones'));
    expect(openRoute).toHaveBeenLastCalledWith(`/persons/edit/${bob.Id}`, undefined);
    const grid = screen.getByRole('grid');
    act(() => grid.focus());
    await user.keyboard('{Home}{Enter}');
    expect(openRoute).toHaveBeenLastCalledWith(`/persons/edit/${ann.Id}`, undefined);
    await user.keyboard('jj{Control>}{Enter}{/Control}');
    expect(openRoute).toHaveBeenLastCalledWith(`/persons/edit/${cy.Id}`, { beside: true });
  });

  it('without the edit permission a row still opens its route, which shows the read view (User Details)', async () => {
    const user = userEvent.setup();
    renderPage(<PersonListPage />, { permissions: [P.PersonListView] });
    await user.click(await screen.findByText('Bob Jones'));
    act(() => screen.getByRole('grid').focus());
    await user.keyboard('{Enter}');
    expect(openRoute).toHaveBeenCalledWith(expect.stringMatching(/^\/persons\/edit\//), undefined);
  });

  it('shows the empty state when the total count is 0', async () => {
    listAnswer = { Items: [], TotalCount: 0 };
    renderPage(<PersonListPage />, { permissions: allPerms });
    expect(await screen.findByText(MSG.noResultsFound)).toBeInTheDocument();
  });

  it('shows the server message when the list fails', async () => {
    httpMock.mockImplementation(async (path: string) => {
      if (path === '/ps-admin/persons/get-list')
        throw Object.assign(new Error('x'), { status: 500, data: { Content: { Message: 'Database is down.', Code: 'internal_error' } } });
      return { Roles: {}, Countries: [] };
    });
    renderPage(<PersonListPage />, { permissions: allPerms });
    expect(await screen.findByRole('alert')).toHaveTextContent('Database is down.');
  });
});
