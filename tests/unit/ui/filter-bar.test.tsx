import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { format, addDays } from 'date-fns';
import { useState } from 'react';
import { FilterBar, fromInputDate, toInputDate, type FilterDef, type FilterValues } from '../../../src/app/ui/filter-bar';
import { MSG } from '../../../src/shared/messages';
import { slowMachine } from './slow-machine';

slowMachine();

afterEach(cleanup);

const statusOptions = [
  { value: '1', label: 'New' },
  { value: '2', label: 'Reserved' },
  { value: '3', label: 'Allocated' },
  { value: '5', label: 'Returned' },
];
const filters: FilterDef[] = [
  { type: 'input', id: 'serial', label: 'Serial' },
  { type: 'multiselect', id: 'status', label: 'Status', options: statusOptions },
  {
    type: 'dropdown',
    id: 'type',
    label: 'Type',
    options: [
      { value: '10', label: 'Identicom' },
      { value: '20', label: 'TwigEx' },
    ],
  },
  { type: 'check-filter', id: 'unallocated', label: 'Unallocated only' },
  { type: 'date', id: 'from', label: 'From' },
  { type: 'date-time', id: 'seen', label: 'Last seen' },
  {
    type: 'autocomplete',
    id: 'customer',
    label: 'Customer',
    options: [
      { value: 'c1', label: 'Acme Ltd' },
      { value: 'c2', label: 'Borders plc' },
    ],
  },
];

function Harness({ onApply, initial = {} }: { onApply: (v: FilterValues) => void; initial?: FilterValues }) {
  const [value, setValue] = useState<FilterValues>(initial);
  return (
    <FilterBar
      filters={filters}
      value={value}
      search={{ id: 'q' }}
      onApply={(v) => {
        onApply(v);
        setValue(v);
      }}
    />
  );
}

describe('FilterBar', () => {
  it('Apply emits the draft: text, check, dropdown, multiselect and formatted dates', async () => {
    const user = userEvent.setup();
    const onApply = vi.fn();
    render(<Harness onApply={onApply} />);
    expect(screen.getByRole('searchbox')).toHaveAttribute('placeholder', MSG.filterSearchPlaceholder);
    expect(screen.getByRole('searchbox')).toHaveAttribute('maxlength', '255');
    await user.type(screen.getByRole('searchbox'), 'abc');
    await user.type(screen.getByRole('textbox', { name: 'Serial' }), 'SN-1');
    await user.click(screen.getByRole('checkbox', { name: 'Unallocated only' }));
    await user.selectOptions(screen.getByRole('combobox', { name: 'Type' }), '20');
    fireEvent.change(screen.getByLabelText('From'), { target: { value: '2024-03-05' } });
    fireEvent.change(screen.getByLabelText('Last seen'), { target: { value: '2024-03-05T14:07' } });

    // Multiselect: three picked, the trigger shows two chips and "+1".
    await user.click(screen.getByRole('button', { name: /Status/ }));
    const list = screen.getByRole('listbox', { name: 'Status' });
    await user.click(within(list).getByRole('option', { name: 'New' }));
    await user.click(within(list).getByRole('option', { name: 'Reserved' }));
    await user.keyboard('{ArrowDown}{ArrowDown}{ArrowDown} '); // keyboard picks 'Returned'
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('listbox')).toBeNull();
    const trigger = screen.getByRole('button', { name: /Status/ });
    expect(trigger).toHaveTextContent('New');
    expect(trigger).toHaveTextContent('Reserved');
    expect(trigger).not.toHaveTextContent('Returned');
    expect(trigger).toHaveTextContent('+1');

    expect(onApply).not.toHaveBeenCalled();
    await user.click(screen.getByRole('button', { name: MSG.uiApply }));
    expect(onApply).toHaveBeenCalledWith({
      q: 'abc',
      serial: 'SN-1',
      unallocated: true,
      type: '20',
      status: ['1', '2', '5'],
      from: '05/03/2024',
      seen: '05/03/2024 14:07',
    });
  });

  it('Enter in a text box applies too', async () => {
    const onApply = vi.fn();
    render(<Harness onApply={onApply} />);
    await userEvent.type(screen.getByRole('searchbox'), 'xyz{Enter}');
    expect(onApply).toHaveBeenCalledWith({ q: 'xyz' });
  });

  it('Clear Filters resets every control and emits the empty value', async () => {
    const user = userEvent.setup();
    const onApply = vi.fn();
    render(<Harness onApply={onApply} initial={{ q: 'old', serial: 'S1', unallocated: true, type: '10', status: ['1'], from: '01/02/2024' }} />);
    expect(screen.getByRole('searchbox')).toHaveValue('old');
    expect(screen.getByLabelText('From')).toHaveValue('2024-02-01');
    await user.click(screen.getByRole('button', { name: MSG.uiClearFilters }));
    expect(onApply).toHaveBeenLastCalledWith({});
    expect(screen.getByRole('searchbox')).toHaveValue('');
    expect(screen.getByRole('textbox', { name: 'Serial' })).toHaveValue('');
    expect(screen.getByRole('checkbox', { name: 'Unallocated only' })).not.toBeChecked();
    expect(screen.getByRole('combobox', { name: 'Type' })).toHaveValue('');
    expect(screen.getByLabelText('From')).toHaveValue('');
    expect(screen.getByRole('button', { name: /Status/ })).not.toHaveTextContent('New');
  });

  it('dates: future days are disabled by default (max = today), allowFuture lifts it', () => {
    render(
      <FilterBar
        filters={[
          { type: 'date', id: 'a', label: 'Past only' },
          { type: 'date', id: 'b', label: 'Any day', allowFuture: true },
        ]}
        value={{}}
        onApply={() => {}}
      />,
    );
    expect(screen.getByLabelText('Past only')).toHaveAttribute('max', format(new Date(), 'yyyy-MM-dd'));
    expect(screen.getByLabelText('Any day')).not.toHaveAttribute('max');
    expect(fromInputDate(format(addDays(new Date(), 1), 'yyyy-MM-dd'), false)).toMatch(/^\d{2}\/\d{2}\/\d{4}$/);
    expect(toInputDate('31/12/2023 23:59', true)).toBe('2023-12-31T23:59');
    expect(toInputDate('not a date', false)).toBe('');
  });

  it('autocomplete: "Type to show results", "No results", then picking an option', async () => {
    const user = userEvent.setup();
    const onApply = vi.fn();
    render(<Harness onApply={onApply} />);
    const box = screen.getByRole('combobox', { name: 'Customer' });
    await user.click(box);
    expect(screen.getByText(MSG.selectTypeToShow)).toBeInTheDocument();
    await user.type(box, 'zzz');
    expect(screen.getByText(MSG.selectNoResults)).toBeInTheDocument();
    await user.clear(box);
    await user.type(box, 'bor');
    await user.keyboard('{ArrowDown}{Enter}');
    expect(box).toHaveValue('Borders plc');
    await user.click(screen.getByRole('button', { name: MSG.uiApply }));
    expect(onApply).toHaveBeenCalledWith({ customer: { value: 'c2', label: 'Borders plc' } });
  });

  it('the toggle opens and closes the filters region (the pane-width fold itself is a container query, tested end to end)', async () => {
    render(<Harness onApply={() => {}} />);
    expect(screen.getByRole('searchbox')).toBeVisible();
    const toggle = screen.getByRole('button', { name: 'Show filters' });
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    const region = document.getElementById(toggle.getAttribute('aria-controls')!);
    expect(region).not.toHaveAttribute('data-open');
    await userEvent.click(toggle);
    expect(screen.getByRole('button', { name: 'Hide filters' })).toHaveAttribute('aria-expanded', 'true');
    expect(region).toHaveAttribute('data-open');
    expect(screen.getByRole('textbox', { name: 'Serial' })).toBeVisible();
  });
});
