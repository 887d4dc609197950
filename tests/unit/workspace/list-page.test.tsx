// useListPage: a list tab's filters, page and sort go to the tab's link and come back from it (a
// reload restores the saved layout's link; Back sets an older link), and the request follows.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { act, cleanup, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { queryOptions } from '@tanstack/react-query';
import { appStore } from '../../../src/app/state/store';
import { workspaceAtom } from '../../../src/app/workspace/state';
import * as M from '../../../src/app/workspace/model';
import { resolveHref } from '../../../src/app/workspace/url';
import { setTabSearch } from '../../../src/app/workspace/actions';
import { ListFilters, ListPageFrame, ListTable, useListPage } from '../../../src/app/workspace/list-page';
import type { FilterValues } from '../../../src/app/ui/filter-bar';
import type { SortState } from '../../../src/app/ui/data-table/types';
import { MSG } from '../../../src/shared/messages';
import { stubGridLayout } from '../ui/layout';
import { slowMachine } from '../ui/slow-machine';
import { renderInWorkspaceTab } from './helpers';

slowMachine();

type Req = { page: number; pageSize: number; sortBy: string; desc: boolean; search: string; tier: string; after?: string; before?: string };
type Row = { id: string; name: string };
type State = { page: number; pageSize: number; sort: SortState; filters: FilterValues };
const INITIAL: State = { page: 1, pageSize: 10, sort: { key: 'Name', desc: false }, filters: {} };
const NAMES = Array.from({ length: 45 }, (_, i) => `Customer ${String(i + 1).padStart(2, '0')}`);

/** What the fake server was asked, in order. */
let asked: Req[] = [];
const listQuery = (req: Req) =>
  queryOptions({
    queryKey: ['test', 'list', req],
    queryFn: async () => {
      asked.push(req);
      const hits = NAMES.filter((n) => n.toLowerCase().includes(req.search.toLowerCase()));
      const sorted = req.desc ? [...hits].reverse() : hits;
      return { Items: sorted.slice((req.page - 1) * req.pageSize, req.page * req.pageSize).map((name) => ({ id: name, name })), TotalCount: hits.length };
    },
  });

function TestList({ edges = false }: { edges?: boolean }) {
  const list = useListPage({
    title: 'Test list',
    initial: INITIAL,
    request: (s: State): Req => ({
      page: s.page,
      pageSize: s.pageSize,
      sortBy: s.sort.key,
      desc: s.sort.desc,
      search: typeof s.filters.search === 'string' ? s.filters.search : '',
      tier: typeof s.filters.tier === 'string' ? s.filters.tier : '',
    }),
    query: listQuery,
    rows: (d) => d.Items,
    count: (d) => d.TotalCount,
    ...(edges ? { edgeId: (r: Row) => r.id } : {}),
  });
  return (
    <ListPageFrame title="Test list">
      <ListFilters
        list={list}
        label="Test filters"
        filters={[{ id: 'tier', type: 'dropdown', label: 'Tier', options: [{ value: 'gold', label: 'Gold' }] }]}
        search={{ id: 'search', label: 'Search test list' }}
      />
      <ListTable<Row> list={list} label="Test rows" columns={[{ id: 'name', header: 'Name', sortKey: 'Name', cell: (r) => r.name }]} getRowKey={(r) => r.id} />
    </ListPageFrame>
  );
}

let tabId: string;
let restore: () => void;
beforeEach(() => {
  restore = stubGridLayout(600);
  asked = [];
  const ws = M.openTab(M.emptyWorkspace(), resolveHref('/customers')!);
  tabId = M.focusedTab(ws)!.id;
  appStore.set(workspaceAtom, ws);
});
afterEach(() => {
  cleanup();
  restore();
  appStore.set(workspaceAtom, M.emptyWorkspace());
});

/** The list in its workspace tab, as the app renders it (the app's store holds the workspace). */
function renderInTab(edges = false) {
  return renderInWorkspaceTab(<TestList edges={edges} />, tabId, 'customers');
}
const href = () => M.findTab(appStore.get(workspaceAtom), tabId)!.tab.href;

describe('useListPage: Next and Previous name the edge row', () => {
  it('Next sends the last row on screen, Previous the first, a jump neither', async () => {
    const user = userEvent.setup();
    renderInTab(true);
    expect(await screen.findByText('Customer 10')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Next page' }));
    await waitFor(() => expect(asked.at(-1)).toEqual({ page: 2, pageSize: 10, sortBy: 'Name', desc: false, search: '', tier: '', after: 'Customer 10' }));
    expect(await screen.findByText('Customer 11')).toBeInTheDocument();
    expect(href()).toBe('/customers?page=2');
    await user.click(screen.getByRole('button', { name: 'Previous page' }));
    await waitFor(() => expect(asked.at(-1)).toEqual({ page: 1, pageSize: 10, sortBy: 'Name', desc: false, search: '', tier: '', before: 'Customer 11' }));
    expect(await screen.findByText('Customer 01')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Page 3' }));
    await waitFor(() => expect(asked.at(-1)).toEqual({ page: 3, pageSize: 10, sortBy: 'Name', desc: false, search: '', tier: '' }));
    expect(await screen.findByText('Customer 21')).toBeInTheDocument();
  });
});

describe('useListPage: the list state in the link', () => {
  it('defaults are no query; the search, sort and page go to the link and the request follows', async () => {
    const user = userEvent.setup();
    renderInTab();
    expect(await screen.findByText('Customer 01')).toBeInTheDocument();
    expect(href()).toBe('/customers');
    expect(asked[0]).toEqual({ page: 1, pageSize: 10, sortBy: 'Name', desc: false, search: '', tier: '' });

    // 14 names hold a 1: two pages
    await user.type(screen.getByRole('searchbox', { name: 'Search test list' }), 'r 1{Enter}');
    await waitFor(() => expect(href()).toBe('/customers?f.search=r+1'));
    await waitFor(() => expect(asked.at(-1)).toMatchObject({ search: 'r 1', page: 1 }));
    expect(await screen.findByText('Customer 10')).toBeInTheDocument();
    await user.clear(screen.getByRole('searchbox', { name: 'Search test list' }));
    await user.type(screen.getByRole('searchbox', { name: 'Search test list' }), '1{Enter}');
    await waitFor(() => expect(href()).toBe('/customers?f.search=1'));

    await user.click(screen.getByRole('button', { name: /^Name/ }));
    await waitFor(() => expect(href()).toBe('/customers?sort=-Name&f.search=1'));
    await user.click(screen.getByRole('button', { name: 'Page 2' }));
    await waitFor(() => expect(href()).toBe('/customers?page=2&sort=-Name&f.search=1'));
    await waitFor(() => expect(asked.at(-1)).toEqual({ page: 2, pageSize: 10, sortBy: 'Name', desc: true, search: '1', tier: '' }));
    // the 14 in descending order: page 2 holds the last four
    expect(await screen.findByText('Customer 01')).toBeInTheDocument();
  });

  it('a reload (the saved layout read back) shows the same filters, sort and page, and asks for them', async () => {
    const user = userEvent.setup();
    const { unmount } = renderInTab();
    await screen.findByText('Customer 01');
    await user.type(screen.getByRole('searchbox', { name: 'Search test list' }), 'customer{Enter}');
    await waitFor(() => expect(href()).toContain('f.search=customer'));
    await user.click(screen.getByRole('button', { name: 'Page 3' }));
    await waitFor(() => expect(href()).toBe('/customers?page=3&f.search=customer'));
    unmount();

    const saved = M.serialiseWorkspace(appStore.get(workspaceAtom));
    appStore.set(workspaceAtom, M.emptyWorkspace());
    appStore.set(workspaceAtom, M.restoreWorkspace(JSON.parse(saved), resolveHref)!);
    asked = [];
    renderInTab();
    expect(await screen.findByText('Customer 21')).toBeInTheDocument();
    expect(screen.getByRole('searchbox', { name: 'Search test list' })).toHaveValue('customer');
    expect(screen.getByRole('button', { name: 'Page 3' })).toHaveAttribute('aria-current', 'page');
    expect(asked).toEqual([{ page: 3, pageSize: 10, sortBy: 'Name', desc: false, search: 'customer', tier: '' }]);
  });

  it('an older link (Back) puts the list, its filter bar and its request back', async () => {
    const user = userEvent.setup();
    renderInTab();
    await screen.findByText('Customer 01');
    await user.type(screen.getByRole('searchbox', { name: 'Search test list' }), '4{Enter}');
    await waitFor(() => expect(href()).toBe('/customers?f.search=4'));
    expect(await screen.findByText('Customer 14')).toBeInTheDocument();

    act(() => setTabSearch(tabId, ''));
    expect(await screen.findByText('Customer 01')).toBeInTheDocument();
    expect(screen.getByRole('searchbox', { name: 'Search test list' })).toHaveValue('');
    expect(asked.at(-1)).toMatchObject({ search: '', page: 1 });

    act(() => setTabSearch(tabId, '?page=5&f.tier=gold'));
    expect(await screen.findByText('Customer 41')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Page 5' })).toHaveAttribute('aria-current', 'page');
    await waitFor(() => expect(asked.at(-1)).toMatchObject({ page: 5, tier: 'gold', search: '' }));
  });

  it('Clear Filters is one more step in the link; nothing matching shows the empty message', async () => {
    const user = userEvent.setup();
    renderInTab();
    await screen.findByText('Customer 01');
    await user.type(screen.getByRole('searchbox', { name: 'Search test list' }), 'nobody{Enter}');
    expect(await screen.findByText(MSG.noResultsFound)).toBeInTheDocument();
    expect(href()).toBe('/customers?f.search=nobody');
    await user.click(screen.getByRole('button', { name: MSG.uiClearFilters }));
    await waitFor(() => expect(href()).toBe('/customers'));
    expect(await screen.findByText('Customer 01')).toBeInTheDocument();
  });
});
