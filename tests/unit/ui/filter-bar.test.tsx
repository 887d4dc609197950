import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { format, addDays } from 'date-fns';
import { useState } from 'react';
import { FilterBar, dateFilterErrors, type FilterDef, type FilterValues } from '../../../src/app/ui/filter-bar';
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
    fireEvent.change(screen.getByLabelText('From'), { target: { value: '05/03/2024' } });
    fireEvent.change(screen.getByLabelText('Last seen'), { target: { value: '05/03/2024 14:07' } });

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
    expect(screen.getByLabelText('From')).toHaveValue('01/02/2024');
    await user.click(screen.getByRole('button', { name: MSG.uiClearFilters }));
    expect(onApply).toHaveBeenLastCalledWith({});
    expect(screen.getByRole('searchbox')).toHaveValue('');
    expect(screen.getByRole('textbox', { name: 'Serial' })).toHaveValue('');
    expect(screen.getByRole('checkbox', { name: 'Unallocated only' })).not.toBeChecked();
    expect(screen.getByRole('combobox', { name: 'Type' })).toHaveValue('');
    expect(screen.getByLabelText('From')).toHaveValue('');
    expect(screen.getByRole('button', { name: /Status/ })).not.toHaveTextContent('New');
  });

  it('dates read and are typed DD/MM/YYYY whatever the locale; the calendar disables future days unless allowed', async () => {
    const user = userEvent.setup();
    const onApply = vi.fn();
    render(
      <FilterBar
        filters={[
          { type: 'date', id: 'a', label: 'Past only' },
          { type: 'date', id: 'b', label: 'Any day', allowFuture: true },
        ]}
        value={{}}
        onApply={onApply}
      />,
    );
    const box = screen.getByLabelText('Past only');
    expect(box).toHaveAttribute('placeholder', 'DD/MM/YYYY');
    await user.type(box, '31/12/2023');
    await user.click(screen.getByRole('button', { name: MSG.uiApply }));
    expect(onApply).toHaveBeenLastCalledWith({ a: '31/12/2023' });

    // the calendar: keyboard-operable, tomorrow disabled
    await user.click(screen.getByRole('button', { name: 'Choose Past only' }));
    const cal = screen.getByRole('dialog', { name: 'Choose Past only' });
    // The calendar is a chunk of its own (asked for as the box mounted): its days once it is there.
    await within(cal).findAllByRole('button');
    const tomorrow = addDays(new Date(), 1);
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(box).toHaveFocus();
    expect(cal).not.toBeInTheDocument();
    await user.clear(box);
    await user.click(screen.getByRole('button', { name: 'Choose Past only' }));
    await within(screen.getByRole('dialog')).findAllByRole('button');
    const days = within(screen.getByRole('dialog'))
      .getAllByRole('button')
      .filter((b) => b.textContent === String(tomorrow.getDate()));
    if (tomorrow.getMonth() === new Date().getMonth()) expect(days.some((d) => d.hasAttribute('disabled'))).toBe(true);
    const today = within(screen.getByRole('dialog'))
      .getAllByRole('button')
      .find((b) => b.textContent === String(new Date().getDate()) && !b.hasAttribute('disabled'))!;
    await user.click(today);
    expect(box).toHaveValue(format(new Date(), 'dd/MM/yyyy'));
  });

  it('a refused date says why beside its field and nothing is applied', async () => {
    const user = userEvent.setup();
    const onApply = vi.fn();
    const defs: FilterDef[] = [
      { type: 'date', id: 'from', label: 'From', notAfter: 'to' },
      { type: 'date', id: 'to', label: 'To' },
    ];
    render(<FilterBar filters={defs} value={{}} onApply={onApply} />);
    await user.type(screen.getByLabelText('To'), format(addDays(new Date(), 2), 'dd/MM/yyyy'));
    await user.click(screen.getByRole('button', { name: MSG.uiApply }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Dates in the future can not be chosen.');
    expect(onApply).not.toHaveBeenCalled();

    const now = new Date(2026, 5, 15, 12);
    expect(dateFilterErrors(defs, { from: '20/05/2026', to: '19/05/2026' }, now)).toEqual({ from: MSG.dateFromAfterTo });
    expect(dateFilterErrors(defs, { from: '05/31/2026' }, now)).toEqual({ from: MSG.dateFormatHint });
    expect(dateFilterErrors(defs, { from: '1/5/26', to: '15/06/2026' }, now)).toEqual({});
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
