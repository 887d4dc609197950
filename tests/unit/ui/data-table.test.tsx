import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useRef, useState } from 'react';
import { DataTable, type DataTableProps } from '../../../src/app/ui/data-table/data-table';
import type { DataTableColumn, SortState } from '../../../src/app/ui/data-table/types';
import { MSG } from '../../../src/shared/messages';
import { stubGridLayout } from './layout';
import { slowMachine } from './slow-machine';
import { KeyListener } from '../../../src/app/keyboard/key-listener';
import { COMMANDS } from '../../../commands/index';

slowMachine();

type Row = { id: string; name: string; email: string };
const makeRows = (n: number, from = 0): Row[] =>
  Array.from({ length: n }, (_, i) => ({ id: `r${from + i}`, name: `Name ${from + i}`, email: `user${from + i}@example.com` }));

const columns: DataTableColumn<Row>[] = [
  { id: 'name', header: 'Name', sortKey: 'Name', cell: (r) => r.name },
  { id: 'email', header: 'Email', sortKey: 'Email', cell: (r) => r.email },
  { id: 'plain', header: 'Plain', cell: () => 'x' },
];

// The app's one key listener is there, as in the workspace: j / k / Enter / x / `/` are commands.
function Table(props: Partial<DataTableProps<Row>> & { rows: Row[] }) {
  return (
    <>
      <KeyListener commands={COMMANDS} />
      <DataTable<Row> label="People" columns={columns} getRowKey={(r) => r.id} totalCount={props.rows.length} {...props} />
    </>
  );
}

const dataRows = () => screen.getAllByRole('row').filter((r) => r.hasAttribute('aria-rowindex') && r.getAttribute('aria-rowindex') !== '1'); // the state row (loading, empty, error) has no index

let restore: () => void;
beforeEach(() => {
  restore = stubGridLayout(440);
});
afterEach(() => {
  cleanup();
  restore();
});

describe('DataTable', () => {
  it('keeps only a window of rows in the DOM for 20,000 rows and counts them all', async () => {
    const rows = makeRows(20_000);
    render(<Table rows={rows} />);
    const grid = screen.getByRole('grid', { name: 'People' });
    expect(grid).toHaveAttribute('aria-rowcount', '20001');
    const first = dataRows();
    expect(first.length).toBeGreaterThan(5);
    expect(first.length).toBeLessThan(60);
    expect(first[0]).toHaveAttribute('aria-rowindex', '2');
    expect(screen.getByText('Name 0')).toBeInTheDocument();
    expect(screen.queryByText('Name 19999')).not.toBeInTheDocument();

    // End jumps to the last row: it is rendered (aria-rowindex 20001) and the window stays small.
    act(() => grid.focus());
    await userEvent.keyboard('{End}');
    expect(await screen.findByText('Name 19999')).toBeInTheDocument();
    const last = dataRows();
    expect(last.length).toBeLessThan(60);
    expect(last.some((r) => r.getAttribute('aria-rowindex') === '20001')).toBe(true);
    const activeId = grid.getAttribute('aria-activedescendant')!;
    expect(document.getElementById(activeId)).toHaveTextContent('Name 19999');
    expect(screen.queryByText('Name 0')).not.toBeInTheDocument();
  });

  it('a page of 100 rows renders only the visible ones, with row indexes offset by the page', () => {
    render(<Table rows={makeRows(100, 200)} totalCount={5000} page={3} pageSize={100} onPageChange={() => {}} />);
    expect(screen.getByRole('grid')).toHaveAttribute('aria-rowcount', '5001');
    const rows = dataRows();
    expect(rows.length).toBeLessThan(60);
    expect(rows[0]).toHaveAttribute('aria-rowindex', '202');
    expect(rows[0]).toHaveTextContent('Name 200');
  });

  it('clicking a sortable header sorts ascending, clicking it again flips the direction (aria-sort follows)', async () => {
    const seen: SortState[] = [];
    function Sorted() {
      const [sort, setSort] = useState<SortState>({ key: 'Name', desc: false });
      return (
        <Table
          rows={makeRows(3)}
          sort={sort}
          onSortChange={(s) => {
            seen.push(s);
            setSort(s);
          }}
        />
      );
    }
    render(<Sorted />);
    const nameHeader = screen.getByRole('columnheader', { name: 'Name' });
    const emailHeader = screen.getByRole('columnheader', { name: 'Email' });
    expect(nameHeader).toHaveAttribute('aria-sort', 'ascending');
    expect(emailHeader).toHaveAttribute('aria-sort', 'none');
    expect(screen.getByRole('columnheader', { name: 'Plain' })).not.toHaveAttribute('aria-sort');
    expect(within(screen.getByRole('columnheader', { name: 'Plain' })).queryByRole('button')).toBeNull();

    await userEvent.click(within(emailHeader).getByRole('button', { name: 'Email' }));
    expect(seen.at(-1)).toEqual({ key: 'Email', desc: false });
    expect(emailHeader).toHaveAttribute('aria-sort', 'ascending');
    expect(nameHeader).toHaveAttribute('aria-sort', 'none');

    await userEvent.click(within(emailHeader).getByRole('button'));
    expect(seen.at(-1)).toEqual({ key: 'Email', desc: true });
    expect(emailHeader).toHaveAttribute('aria-sort', 'descending');

    await userEvent.click(within(emailHeader).getByRole('button'));
    expect(seen.at(-1)).toEqual({ key: 'Email', desc: false });
  });

  it('rows per page offers 10, 25, 50, 100 and reports the change; page buttons page', async () => {
    const onPageSizeChange = vi.fn();
    const onPageChange = vi.fn();
    render(<Table rows={makeRows(10)} totalCount={57} page={1} pageSize={10} onPageChange={onPageChange} onPageSizeChange={onPageSizeChange} />);
    const select = screen.getByRole('combobox', { name: 'Rows per page' });
    expect(
      within(select)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['10', '25', '50', '100']);
    await userEvent.selectOptions(select, '25');
    expect(onPageSizeChange).toHaveBeenCalledWith(25);
    expect(screen.getByText('1–10 of 57')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Page 6' }));
    expect(onPageChange).toHaveBeenCalledWith(6);
    await userEvent.click(screen.getByRole('button', { name: 'Next page' }));
    expect(onPageChange).toHaveBeenLastCalledWith(2);
    expect(screen.getByRole('button', { name: 'Previous page' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Page 1' })).toHaveAttribute('aria-current', 'page');
  });

  it('j / k / arrows move the active row, Enter opens it, Ctrl+Enter opens it beside', async () => {
    const onOpen = vi.fn();
    render(<Table rows={makeRows(5)} onOpen={onOpen} />);
    const grid = screen.getByRole('grid');
    act(() => grid.focus());
    const active = () => document.getElementById(grid.getAttribute('aria-activedescendant')!);
    expect(active()).toHaveTextContent('Name 0');
    await userEvent.keyboard('jj');
    expect(active()).toHaveTextContent('Name 2');
    await userEvent.keyboard('k');
    expect(active()).toHaveTextContent('Name 1');
    await userEvent.keyboard('{ArrowDown}{ArrowDown}{ArrowDown}{ArrowDown}');
    expect(active()).toHaveTextContent('Name 4'); // stops at the last row
    await userEvent.keyboard('{Home}');
    expect(active()).toHaveTextContent('Name 0');
    await userEvent.keyboard('j{Enter}');
    expect(onOpen).toHaveBeenLastCalledWith(expect.objectContaining({ id: 'r1' }), { beside: false });
    await userEvent.keyboard('{Control>}{Enter}{/Control}');
    expect(onOpen).toHaveBeenLastCalledWith(expect.objectContaining({ id: 'r1' }), { beside: true });
    expect(onOpen).toHaveBeenCalledTimes(2);
  });

  it('j / k / Enter are commands of the one key listener: without it the list has no handler of its own for them', async () => {
    const onOpen = vi.fn();
    render(<DataTable<Row> label="People" columns={columns} getRowKey={(r) => r.id} totalCount={5} rows={makeRows(5)} onOpen={onOpen} />);
    const grid = screen.getByRole('grid');
    act(() => grid.focus());
    const active = () => document.getElementById(grid.getAttribute('aria-activedescendant')!);
    await userEvent.keyboard('jj{Enter}');
    expect(active()).toHaveTextContent('Name 0');
    expect(onOpen).not.toHaveBeenCalled();
    await userEvent.keyboard('{ArrowDown}'); // grid navigation keys stay with the grid
    expect(active()).toHaveTextContent('Name 1');
  });

  it('Enter on a header button sorts and opens nothing; Enter on the grid opens', async () => {
    const onOpen = vi.fn();
    const onSortChange = vi.fn();
    render(<Table rows={makeRows(3)} onOpen={onOpen} sort={{ key: 'Name', desc: false }} onSortChange={onSortChange} />);
    const button = within(screen.getByRole('columnheader', { name: 'Email' })).getByRole('button');
    act(() => button.focus());
    await userEvent.keyboard('{Enter}');
    expect(onSortChange).toHaveBeenCalledWith({ key: 'Email', desc: false });
    expect(onOpen).not.toHaveBeenCalled();
    await userEvent.keyboard('j'); // j from inside the grid moves its rows
    act(() => screen.getByRole('grid').focus());
    await userEvent.keyboard('{Enter}');
    expect(onOpen).toHaveBeenCalledWith(expect.objectContaining({ id: 'r1' }), { beside: false });
  });

  it('rows with rowHref are links over the whole row; a plain click opens in the workspace, a modified click is left to the browser', async () => {
    const onOpen = vi.fn();
    const user = userEvent.setup();
    render(<Table rows={makeRows(3)} onOpen={onOpen} canOpen={(r) => r.id !== 'r2'} rowHref={(r) => `/people/${r.id}`} />);
    const link = screen.getByRole('link', { name: 'Name 1' });
    expect(link).toHaveAttribute('href', '/people/r1');
    expect(link).toHaveAttribute('tabindex', '-1');
    expect(screen.queryByRole('link', { name: 'Name 2' })).toBeNull(); // cannot open: no link
    await user.click(screen.getByText('user1@example.com')); // anywhere on the row (the stretched link)
    expect(onOpen).toHaveBeenLastCalledWith(expect.objectContaining({ id: 'r1' }), { beside: false });
    const clicks: boolean[] = [];
    const onWindowClick = (e: Event) => clicks.push(e.defaultPrevented); // after React's handlers
    window.addEventListener('click', onWindowClick);
    await user.click(link);
    expect(clicks.at(-1)).toBe(true); // plain click: the workspace opens it, the browser does not navigate
    await user.keyboard('{Control>}');
    await user.click(link);
    await user.keyboard('{/Control}');
    expect(clicks.at(-1)).toBe(false); // Ctrl-click: the browser's new tab
    window.removeEventListener('click', onWindowClick);
    expect(onOpen).toHaveBeenCalledTimes(2);
  });

  it('mouse: a click opens the row, Ctrl+click opens it beside; rows that cannot open do nothing', async () => {
    const onOpen = vi.fn();
    const user = userEvent.setup();
    render(<Table rows={makeRows(3)} onOpen={onOpen} canOpen={(r) => r.id !== 'r2'} />);
    await user.click(screen.getByText('Name 1'));
    expect(onOpen).toHaveBeenLastCalledWith(expect.objectContaining({ id: 'r1' }), { beside: false });
    await user.keyboard('{Control>}');
    await user.click(screen.getByText('Name 0'));
    await user.keyboard('{/Control}');
    expect(onOpen).toHaveBeenLastCalledWith(expect.objectContaining({ id: 'r0' }), { beside: true });
    await user.click(screen.getByText('Name 2'));
    expect(onOpen).toHaveBeenCalledTimes(2);
  });

  it('`/` focuses the filter box; single keys do nothing while typing in it', async () => {
    function WithFilter() {
      const ref = useRef<HTMLInputElement>(null);
      return (
        <>
          <input ref={ref} aria-label="Filter" />
          <Table rows={makeRows(5)} filterRef={ref} keyboardActive />
        </>
      );
    }
    render(<WithFilter />);
    const grid = screen.getByRole('grid');
    const filter = screen.getByRole('textbox', { name: 'Filter' });
    // Nothing focused: j moves into the list.
    await userEvent.keyboard('j');
    expect(grid).toHaveFocus();
    const active = () => document.getElementById(grid.getAttribute('aria-activedescendant')!);
    expect(active()).toHaveTextContent('Name 1');
    // From the list, / goes to the filter and is not typed into it.
    await userEvent.keyboard('/');
    expect(filter).toHaveFocus();
    expect(filter).toHaveValue('');
    // Typing j/k there types; the active row stays.
    await userEvent.keyboard('jkx/');
    expect(filter).toHaveValue('jkx/');
    expect(active()).toHaveTextContent('Name 1');
    // From the page body, / focuses the filter too.
    act(() => (document.activeElement as HTMLElement).blur());
    fireEvent.keyDown(document.body, { key: '/' });
    expect(filter).toHaveFocus();
  });

  it('without keyboardActive, keys outside the grid are left alone', async () => {
    render(<Table rows={makeRows(5)} />);
    await userEvent.keyboard('j');
    expect(screen.getByRole('grid')).not.toHaveFocus();
  });

  it('x toggles the active row when the table is selectable', async () => {
    const onSelectionChange = vi.fn();
    function Selectable() {
      const [sel, setSel] = useState<Set<string>>(new Set());
      return (
        <Table
          rows={makeRows(3)}
          selectable
          selectedKeys={sel}
          onSelectionChange={(s) => {
            onSelectionChange(s);
            setSel(s);
          }}
        />
      );
    }
    render(<Selectable />);
    const grid = screen.getByRole('grid');
    expect(grid).toHaveAttribute('aria-multiselectable', 'true');
    act(() => grid.focus());
    await userEvent.keyboard('jx');
    expect([...onSelectionChange.mock.calls.at(-1)![0]]).toEqual(['r1']);
    expect(dataRows()[1]).toHaveAttribute('aria-selected', 'true');
    expect(dataRows()[0]).toHaveAttribute('aria-selected', 'false');
    await userEvent.keyboard('x');
    expect([...onSelectionChange.mock.calls.at(-1)![0]]).toEqual([]);
    await userEvent.click(screen.getByRole('checkbox', { name: 'Select all rows on this page' }));
    expect([...onSelectionChange.mock.calls.at(-1)![0]]).toEqual(['r0', 'r1', 'r2']);
  });

  it('shows the empty state when the total count is 0, and no pagination', () => {
    render(<Table rows={[]} totalCount={0} page={1} pageSize={10} onPageChange={() => {}} />);
    expect(screen.getByText(MSG.noResultsFound)).toBeInTheDocument();
    expect(dataRows()).toHaveLength(0);
    expect(screen.queryByRole('navigation')).toBeNull();
  });

  it('shows loading, then an error with Retry', async () => {
    const onRetry = vi.fn();
    const { rerender } = render(<Table rows={[]} totalCount={0} loading />);
    expect(screen.getByRole('status')).toHaveTextContent('Loading');
    expect(screen.queryByText(MSG.noResultsFound)).toBeNull();
    rerender(<Table rows={[]} totalCount={0} error="Boom." onRetry={onRetry} />);
    expect(screen.getByRole('alert')).toHaveTextContent('Boom.');
    await userEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(onRetry).toHaveBeenCalled();
  });

  it('"all rows" mode asks for more when the end of the loaded rows comes into view', async () => {
    const onEndReached = vi.fn();
    const { rerender } = render(<Table rows={makeRows(100)} totalCount={20_000} hasMore onEndReached={onEndReached} />);
    const grid = screen.getByRole('grid');
    expect(grid).toHaveAttribute('aria-rowcount', '20001');
    expect(onEndReached).not.toHaveBeenCalled();
    act(() => grid.focus());
    await userEvent.keyboard('{End}'); // last loaded row
    expect(onEndReached).toHaveBeenCalled();
    expect(dataRows().length).toBeLessThan(60);
    rerender(<Table rows={makeRows(200)} totalCount={20_000} hasMore onEndReached={onEndReached} />);
    expect(screen.getByText('Name 99')).toBeInTheDocument();
  });
});
