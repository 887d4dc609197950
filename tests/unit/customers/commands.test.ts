import { describe, expect, it, vi } from 'vitest';
import type { CommandContext } from '../../../src/app/keyboard/define';
import { runCommand } from '../../../src/app/keyboard/define';
import customerCreate from '../../../commands/customer-create';
import customerOpen from '../../../commands/customer-open';
import customerAllocate from '../../../commands/customer-allocate';
import customerTabSettings from '../../../commands/customer-tab-settings';
import { paletteOpenAtom, paletteOpenScopeAtom } from '../../../src/app/palette/state';
import { P } from '../../../src/shared/permissions';
import { fakeCommandContext } from '../../helpers/command-context';

const ID = 'aaaaaaaa-0000-4000-8000-000000000001';

function ctxOn(route: string, params: Record<string, string>, over: Partial<CommandContext> = {}): CommandContext {
  return fakeCommandContext({
    focusedTab: { id: 't1', href: '/', route, params, title: 'x', pinned: false, dirty: false, history: [] } as unknown as CommandContext['focusedTab'],
    ...over,
  });
}

describe('customer commands', () => {
  it('create customer opens Create Account, only with the create permission', async () => {
    const ctx = ctxOn('customers', {});
    expect(await runCommand(customerCreate, ctx)).toBe(true);
    expect(ctx.openRoute).toHaveBeenCalledWith('/customers/create', { beside: false, focus: true });
    const denied = ctxOn('customers', {}, { can: vi.fn((p: string) => p !== P.CustomerCreate) });
    expect(await runCommand(customerCreate, denied)).toBe(false);
    expect(denied.openRoute).not.toHaveBeenCalled();
  });

  it('tab switching and allocation apply only on a customer tab', async () => {
    const elsewhere = ctxOn('assets', {});
    expect(await runCommand(customerTabSettings, elsewhere)).toBe(false);
    expect(await runCommand(customerAllocate, elsewhere)).toBe(false);
    // beside: opens the customer's page in the other pane
    const beside = ctxOn('customerAccount', { customerId: ID }, { beside: true });
    expect(await runCommand(customerAllocate, beside)).toBe(true);
    expect(beside.openRoute).toHaveBeenCalledWith(`/customers/${ID}/devices/allocate`, { beside: true, focus: true });
    const fromSettings = ctxOn('customerSettings', { customerId: ID }, { beside: true });
    expect(await runCommand(customerTabSettings, fromSettings)).toBe(true);
    expect(fromSettings.openRoute).toHaveBeenCalledWith(`/customers/${ID}/settings`, { beside: true, focus: true });
  });

  it('open customer opens the palette in the Customers scope', async () => {
    const ctx = ctxOn('assets', {});
    expect(await runCommand(customerOpen, ctx)).toBe(true);
    expect(ctx.store.get(paletteOpenAtom)).toBe(true);
    expect(ctx.store.get(paletteOpenScopeAtom)).toBe('$');
  });
});
