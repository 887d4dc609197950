// Spec document 2 §4 "Bulk selection": placeholder rows (unknown serials) cannot be selected. The
// bulk table gives them no checkbox; select-all and `x` leave them out; select-all shows checked
// once every selectable row is selected, and a second click clears the selection.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { act, cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { DataTable } from '../../../src/app/ui/data-table/data-table';
import type { DataTableColumn } from '../../../src/app/ui/data-table/types';
import { addMany, EMPTY_BULK, isPlaceholder, nextSelection, placeholderFor, type BulkDevice, type BulkState } from '../../../src/app/state/bulk';
import { KeyListener } from '../../../src/app/keyboard/key-listener';
import { stubGridLayout } from '../ui/layout';
import { COMMANDS } from '../../../commands/index';

const device = (serial: string): BulkDevice => ({
  id: `id-${serial}`,
  etag: `"${serial}"`,
  serialNumber: serial,
  type: { name: 'SG620', value: 620 },
  status: { name: 'New', value: 1 },
});
const columns: DataTableColumn<BulkDevice>[] = [
  { id: 'serial', header: 'Serial Number', cell: (d) => d.serialNumber },
  { id: 'status', header: 'Status', cell: (d) => (isPlaceholder(d) ? 'Not found' : d.status.name) },
];

let latest: BulkState = EMPTY_BULK;
function BulkTable({ initial }: { initial: BulkState }) {
  const [s, setS] = useState(initial);
  latest = s;
  const rows = s.list.map((id) => s.devices[id]!);
  return (
    <>
      <KeyListener commands={COMMANDS} />
      <DataTable<BulkDevice>
        label="Bulk list"
        columns={columns}
        rows={rows}
        getRowKey={(d) => d.id}
        totalCount={rows.length}
        selectable
        canSelect={(d) => !isPlaceholder(d)}
        selectedKeys={new Set(s.selected)}
        onSelectionChange={(keys) => setS((st) => nextSelection(st, keys))}
        keyboardActive
      />
    </>
  );
}

const rowOf = (serial: string) => screen.getAllByRole('row').find((r) => r.textContent?.includes(serial))!;
const selectAll = () => screen.getByRole('checkbox', { name: 'Select all rows on this page' });

let restore: () => void;
beforeEach(() => {
  restore = stubGridLayout(440);
});
afterEach(() => {
  cleanup();
  restore();
});

describe('bulk table placeholder rows', () => {
  // list order (newest first): A, ZZ-UNKNOWN, B
  const initial = addMany(EMPTY_BULK, [device('B'), placeholderFor('ZZ-UNKNOWN'), device('A')].reverse()).state;

  it('a placeholder row has no checkbox and is not selectable; device rows are', () => {
    render(<BulkTable initial={initial} />);
    expect(rowOf('ZZ-UNKNOWN')).toHaveTextContent('Not found');
    expect(rowOf('ZZ-UNKNOWN').querySelector('input[type="checkbox"]')).toBeNull();
    expect(rowOf('ZZ-UNKNOWN')).not.toHaveAttribute('aria-selected');
    expect(rowOf('A').querySelector('input[type="checkbox"]')).not.toBeNull();
    expect(rowOf('A')).toHaveAttribute('aria-selected', 'true');
    expect(screen.getAllByRole('checkbox', { name: 'Select row' })).toHaveLength(2);
  });

  it('select-all is checked with every device selected, clears on click and selects the devices only on the next', async () => {
    render(<BulkTable initial={initial} />);
    expect(latest.selected).toEqual(['id-A', 'id-B']);
    expect(selectAll()).toBeChecked();
    await userEvent.click(selectAll());
    expect(latest.selected).toEqual([]);
    expect(selectAll()).not.toBeChecked();
    await userEvent.click(selectAll());
    expect(latest.selected).toEqual(['id-A', 'id-B']);
    expect(selectAll()).toBeChecked();
  });

  it('x on a placeholder row changes nothing; on a device row it toggles it', async () => {
    render(<BulkTable initial={initial} />);
    const grid = screen.getByRole('grid', { name: 'Bulk list' });
    act(() => grid.focus());
    await userEvent.keyboard('j'); // second row: the placeholder
    await userEvent.keyboard('x');
    expect(latest.selected).toEqual(['id-A', 'id-B']);
    await userEvent.keyboard('jx'); // third row: B
    expect(latest.selected).toEqual(['id-A']);
    expect(selectAll()).not.toBeChecked();
  });
});
