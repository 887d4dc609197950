import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { Theme } from '@radix-ui/themes';
import type { BulkDevice } from '../../../src/app/state/bulk';

const opened: { href: string; opts: unknown }[] = [];
vi.mock('../../../src/app/workspace/actions', () => ({ openRoute: (href: string, opts: unknown) => (opened.push({ href, opts }), true) }));
// The signed-in user's permissions (a provider admin unless a test says otherwise).
let permitted: (p: string) => boolean = () => true;
vi.mock('../../../src/app/state/session', async (orig) => ({
  ...(await orig<typeof import('../../../src/app/state/session')>()),
  useCan: () => (p: string) => permitted(p),
}));
const { BulkActions } = await import('../../../src/app/features/bulk-update/bulk-actions');
const { ROLE_PERMISSIONS } = await import('../../../src/shared/permissions');

const device: BulkDevice = {
  id: 'd1',
  etag: 'e',
  serialNumber: 'S1',
  type: { name: 'T4', value: 30 },
  status: { name: 'New', value: 1 },
  isUserAssigned: false,
};

afterEach(() => {
  cleanup();
  permitted = () => true;
});

describe('Bulk Update actions (spec §2)', () => {
  it('in the spec order; Change Configuration opens the current-configuration tab', () => {
    render(
      <Theme>
        <BulkActions selected={[device]} />
      </Theme>,
    );
    expect(screen.getAllByRole('button').map((b) => b.textContent)).toEqual(['Change type', 'Change Configuration', 'Change order number', 'Change Status']);
    fireEvent.click(screen.getByRole('button', { name: 'Change Configuration' }));
    expect(opened).toEqual([{ href: '/asset-management/device-bulk-update/manage/current-configuration', opts: { focus: true } }]);
  });
  it('a read-only admin sees no change they cannot make: only Change Configuration (which opens the read-only configuration tabs)', () => {
    const readOnly = new Set<string>(ROLE_PERMISSIONS.SuperAdminReadonlyRole);
    permitted = (p) => readOnly.has(p);
    render(
      <Theme>
        <BulkActions selected={[device]} />
      </Theme>,
    );
    expect(screen.getAllByRole('button').map((b) => b.textContent)).toEqual(['Change Configuration']);
  });
  it("Change Status: 'Please select a status.' goes once a status is chosen; the list shows names, not codes", () => {
    render(
      <Theme>
        <BulkActions selected={[device]} />
      </Theme>,
    );
    fireEvent.click(screen.getByRole('button', { name: 'Change Status' }));
    const drawer = screen.getByRole('dialog', { name: 'Change Status' });
    fireEvent.click(within(drawer).getByRole('button', { name: 'Change Status' }));
    expect(within(drawer).getByRole('alert').textContent).toBe('Please select a status.');
    const select = within(drawer).getByLabelText('Status') as HTMLSelectElement;
    const labels = [...select.options].map((o) => o.textContent ?? '');
    expect(labels.some((l) => /_|[a-z][A-Z]/.test(l))).toBe(false);
    fireEvent.change(select, { target: { value: select.options[1]!.value } });
    expect(within(drawer).queryByRole('alert')).toBeNull();
  });
  it("Change type: 'Please select a device type.' goes once a type is chosen", () => {
    render(
      <Theme>
        <BulkActions selected={[device]} />
      </Theme>,
    );
    fireEvent.click(screen.getByRole('button', { name: 'Change type' }));
    const dialog = screen.getByRole('dialog');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Change type' }));
    expect(within(dialog).getByRole('alert').textContent).toBe('Please select a device type.');
    const select = within(dialog).getByRole('combobox') as HTMLSelectElement;
    fireEvent.change(select, { target: { value: select.options[1]!.value } });
    expect(within(dialog).queryByText('Please select a device type.')).toBeNull();
  });
  it('needs a selection', () => {
    render(
      <Theme>
        <BulkActions selected={[]} />
      </Theme>,
    );
    expect((screen.getByRole('button', { name: 'Change Configuration' }) as HTMLButtonElement).disabled).toBe(true);
  });
});
