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
import type { PersonList } from '../../../src/shared/schemas/persons';
import { makeDictionaries, makePersonList, makePersonListItem, makeRole } from '../../helpers/fixtures';
import { MSG } from '../../../src/shared/messages';
import { P, ROLE_IDS } from '../../../src/shared/permissions';
import { slowMachine } from '../ui/slow-machine';
import { KeyListener } from '../../../src/app/keyboard/key-listener';
import { COMMANDS } from '../../../commands/index';

slowMachine();

const httpMock = vi.mocked(http);

const ann = makePersonListItem({
  Id: 'aaaaaaaa-0000-4000-8000-000000000001',
  FirstName: 'Ann',
  LastName: 'Smith',
  Email: 'ann@example.com',
  Roles: [makeRole('SuperAdminRole'), makeRole('ArcManagerRole')],
  LastLoginDate: '2024-03-05T21:07:00',
  Etag: 'e1',
});
const bob = makePersonListItem({
  Id: 'bbbbbbbb-0000-4000-8000-000000000002',
  FirstName: 'Bob',
  LastName: 'Jones',
  Email: 'bob@example.com',
  Roles: [makeRole('ArcControllerRole')],
  IsLocked: true,
  LastLoginDate: '2024-01-01T08:00:00',
  Etag: 'e2',
});
const cy = makePersonListItem({
  Id: 'cccccccc-0000-4000-8000-000000000003',
  FirstName: 'Cy',
  LastName: 'Young',
  Email: 'cy@example.com',
  Roles: [makeRole('SuperAdminReadonlyRole')],
  LastLoginDate: null,
  Etag: 'e3',
});

let listAnswer: PersonList;
const listCalls = () => httpMock.mock.calls.filter(([path]) => path === '/ps-admin/persons/get-list').map(([, o]) => o?.query as Record<string, unknown>);

let restore: () => void;
beforeEach(() => {
  restore = stubGridLayout(600);
  listAnswer = makePersonList([ann, bob, cy], 43);
  httpMock.mockReset();
  httpMock.mockImplementation(async (path: string) => {
    if (path === '/ps-admin/persons/get-list') return structuredClone(listAnswer);
    if (path === '/ps-admin/dictionaries/get-all') return makeDictionaries();
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
      'Users name',
      'Email Address',
      'Provider Admin',
      'Provider Admin Readonly',
      'ARC Manager',
      'ARC Supervisor',
      'ARC Controller',
      'Customer Admin',
      'Last Login',
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

  it('role columns show a clear tick for each role held (not a grey disabled checkbox), named "{role} for {name}"', async () => {
    renderPage(<PersonListPage />, { permissions: allPerms });
    const admin = await screen.findByRole('img', { name: 'Provider Admin for Ann Smith: yes' });
    expect(admin.querySelector('svg')).not.toBeNull(); // the tick
    expect(screen.getByRole('img', { name: 'ARC Manager for Ann Smith: yes' })).toBeInTheDocument();
    expect(screen.getByRole('img', { name: 'ARC Controller for Ann Smith: no' })).toHaveTextContent('–');
    expect(screen.getByRole('img', { name: 'ARC Controller for Bob Jones: yes' })).toBeInTheDocument();
    expect(screen.getByRole('img', { name: 'Provider Admin Readonly for Cy Young: yes' })).toBeInTheDocument();
    expect(screen.getByRole('img', { name: 'ARC Supervisor for Cy Young: no' })).toBeInTheDocument();
    expect(screen.queryAllByRole('checkbox')).toHaveLength(0);
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
    expect(
      listCalls()
        .slice(before)
        .filter((q) => q.searchValue && q.searchValue !== 'smi'),
    ).toHaveLength(0);
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

  it('rows open the edit page with the edit permission (click, Enter; Ctrl+Enter = beside)', async () => {
    const user = userEvent.setup();
    renderPage(
      <>
        <KeyListener commands={COMMANDS} />
        <PersonListPage />
      </>,
      { permissions: allPerms },
    );
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
    renderPage(
      <>
        <KeyListener commands={COMMANDS} />
        <PersonListPage />
      </>,
      { permissions: [P.PersonListView] },
    );
    await user.click(await screen.findByText('Bob Jones'));
    act(() => screen.getByRole('grid').focus());
    await user.keyboard('{Enter}');
    expect(openRoute).toHaveBeenCalledWith(expect.stringMatching(/^\/persons\/edit\//), undefined);
  });

  it('each row is a real link to the edit page (middle click, copy link), a plain click still opens the tab', async () => {
    const user = userEvent.setup();
    renderPage(<PersonListPage />, { permissions: allPerms });
    const link = await screen.findByRole('link', { name: 'Bob Jones' });
    expect(link).toHaveAttribute('href', `/persons/edit/${bob.Id}`);
    expect(link.closest('[role="row"]')).toHaveAttribute('data-linked');
    await user.click(link);
    expect(openRoute).toHaveBeenLastCalledWith(`/persons/edit/${bob.Id}`, undefined);
    // A Ctrl-click is the browser's (new browser tab): the workspace does not open anything.
    vi.mocked(openRoute).mockClear();
    await user.keyboard('{Control>}');
    await user.click(screen.getByRole('link', { name: 'Ann Smith' }));
    await user.keyboard('{/Control}');
    expect(openRoute).not.toHaveBeenCalled();
  });

  it('shows the empty state when the total count is 0', async () => {
    listAnswer = makePersonList([]);
    renderPage(<PersonListPage />, { permissions: allPerms });
    expect(await screen.findByText(MSG.noResultsFound)).toBeInTheDocument();
  });

  it('shows the server message when the list fails', async () => {
    httpMock.mockImplementation(async (path: string) => {
      if (path === '/ps-admin/persons/get-list')
        throw Object.assign(new Error('x'), { status: 500, data: { Content: { Message: 'Database is down.', Code: 'internal_error' } } });
      return makeDictionaries();
    });
    renderPage(<PersonListPage />, { permissions: allPerms });
    expect(await screen.findByRole('alert')).toHaveTextContent('Database is down.');
  });
});
