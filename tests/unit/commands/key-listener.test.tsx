import { afterEach, describe, expect, it, vi } from 'vitest';
import { first } from '../../helpers/lists';
import { act, cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { KeyListener, isTypingTarget } from '../../../src/app/keyboard/key-listener';
import { COMMANDS } from '../../../commands/index';
import type { CommandContext } from '../../../src/app/keyboard/define';
import { appStore } from '../../../src/app/state/store';
import { defineCommand, runCommand } from '../../../src/app/keyboard/define';
import { createCommandContext } from '../../../src/app/keyboard/context';
import { dismissAll, getToasts } from '../../../src/app/ui/toast';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fakeCommandContext } from '../../helpers/command-context';
import { WAIT } from '../../helpers/wait';

function fakeContext(over: Partial<CommandContext> = {}) {
  return fakeCommandContext({
    store: appStore,
    focusedTab: {
      id: 't1',
      href: '/persons',
      route: 'persons',
      params: {},
      title: 'Manage Users',
      pinned: false,
      dirty: false,
      history: [],
    } as CommandContext['focusedTab'],
    tabCount: 5,
    paneCount: 2,
    closedCount: 1,
    ...over,
  });
}

function setup(ctx = fakeContext()) {
  const user = userEvent.setup();
  render(
    <div>
      <KeyListener commands={COMMANDS} makeContext={() => ctx} />
      <input aria-label="Name" />
      <div role="dialog" aria-label="Some dialog">
        <button>In dialog</button>
      </div>
    </div>,
  );
  return { user, ctx };
}

afterEach(cleanup);

describe('key listener', () => {
  it('g then u opens User Management', async () => {
    const { user, ctx } = setup();
    await user.keyboard('gu');
    expect(ctx.openRoute).toHaveBeenCalledTimes(1);
    expect(ctx.openRoute).toHaveBeenCalledWith('/persons', { beside: false, focus: true });
  });

  it('each navigation sequence goes to its own area', async () => {
    const { user, ctx } = setup();
    await user.keyboard('ga');
    await user.keyboard('gc');
    await user.keyboard('gr');
    await user.keyboard('gb');
    expect(vi.mocked(ctx.openRoute).mock.calls.map((c) => c[0])).toEqual([
      '/asset-management',
      '/customers',
      '/alarm-reports',
      '/asset-management/device-bulk-update',
    ]);
  });

  it('does not fire while typing in an input', async () => {
    const { user, ctx } = setup();
    await user.click(screen.getByLabelText('Name'));
    await user.keyboard('gu{Shift>}[Slash]{/Shift}');
    expect(screen.getByLabelText('Name')).toHaveValue('gu');
    expect(ctx.openRoute).not.toHaveBeenCalled();
    expect(ctx.ui.openCheatSheet).not.toHaveBeenCalled();
  });

  it('modifier shortcuts do fire in an input', async () => {
    const { user, ctx } = setup();
    await user.click(screen.getByLabelText('Name'));
    await user.keyboard('{Alt>}w{/Alt}');
    expect(ctx.workspace.closeTab).toHaveBeenCalledTimes(1);
    await user.keyboard('{Control>}k{/Control}');
    expect(ctx.ui.togglePalette).toHaveBeenCalledTimes(1);
  });

  it('the sequence expires after about a second', async () => {
    const { user, ctx } = setup();
    await user.keyboard('g');
    await act(() => new Promise((r) => setTimeout(r, 1100)));
    await user.keyboard('u');
    expect(ctx.openRoute).not.toHaveBeenCalled();
  });

  it('pane and tab chords run their workspace actions', async () => {
    const { user, ctx } = setup();
    await user.keyboard('{Alt>}{Shift>}t{/Shift}{/Alt}');
    expect(ctx.workspace.reopenClosedTab).toHaveBeenCalledTimes(1);
    await user.keyboard('{Alt>}3{/Alt}');
    expect(ctx.workspace.goToTab).toHaveBeenCalledWith(3);
    await user.keyboard('{Alt>}]{/Alt}');
    expect(ctx.workspace.cycleTab).toHaveBeenCalledWith(1);
    // user-event's US key map has no code for \ - ` and /, so those keys are named by code.
    await user.keyboard('{Alt>}[Backslash]{/Alt}');
    expect(ctx.workspace.splitPane).toHaveBeenCalledWith('horizontal');
    await user.keyboard('{Alt>}[Minus]{/Alt}');
    expect(ctx.workspace.splitPane).toHaveBeenCalledWith('vertical');
    await user.keyboard('{Alt>}m{/Alt}');
    expect(ctx.workspace.moveTabToOtherPane).toHaveBeenCalledTimes(1);
    await user.keyboard('{Alt>}[Backquote]{/Alt}');
    expect(ctx.workspace.focusNextPane).toHaveBeenCalledTimes(1);
  });

  it('? opens the cheat sheet', async () => {
    const { user, ctx } = setup();
    await user.keyboard('{Shift>}[Slash]{/Shift}');
    expect(ctx.ui.openCheatSheet).toHaveBeenCalledTimes(1);
    await user.keyboard('[Slash]'); // plain / is not ?
    expect(ctx.ui.openCheatSheet).toHaveBeenCalledTimes(1);
  });

  it('respects when and permission', async () => {
    const ctx = fakeContext({ paneCount: 1, can: vi.fn((p: string) => p !== 'AdminPanel.Person.ListView') });
    const { user } = setup(ctx);
    await user.keyboard('{Alt>}[Backquote]{/Alt}'); // only one pane: focus-next does not apply
    expect(ctx.workspace.focusNextPane).not.toHaveBeenCalled();
    await user.keyboard('gu'); // no permission for the person list
    expect(ctx.openRoute).not.toHaveBeenCalled();
  });

  it('inside a dialog only the palette toggle works', async () => {
    const { user, ctx } = setup();
    screen.getByRole('button', { name: 'In dialog' }).focus();
    await user.keyboard('{Alt>}w{/Alt}');
    expect(ctx.workspace.closeTab).not.toHaveBeenCalled();
    await user.keyboard('{Control>}k{/Control}');
    expect(ctx.ui.togglePalette).toHaveBeenCalledTimes(1);
  });

  it('knows what a typing target is', () => {
    const el = (html: string) => {
      const d = document.createElement('div');
      d.innerHTML = html;
      return d.firstElementChild!;
    };
    expect(isTypingTarget(el('<input>'))).toBe(true);
    expect(isTypingTarget(el('<input type="checkbox">'))).toBe(false);
    expect(isTypingTarget(el('<textarea></textarea>'))).toBe(true);
    expect(isTypingTarget(el('<select></select>'))).toBe(true);
    expect(isTypingTarget(el('<div role="combobox"></div>'))).toBe(true);
    expect(isTypingTarget(el('<button></button>'))).toBe(false);
    expect(isTypingTarget(document.body)).toBe(false);
  });

  it('a command whose promise rejects is reported, never dropped', async () => {
    const failing = defineCommand({
      id: 'test.fail',
      title: 'Fail',
      group: 'General',
      keys: 'alt+q',
      run: async () => {
        throw new Error('boom');
      },
    });
    const reportError = vi.fn();
    const ctx = fakeContext({ reportError });
    const user = userEvent.setup();
    render(<KeyListener commands={[failing]} makeContext={() => ctx} />);
    await user.keyboard('{Alt>}q{/Alt}');
    await vi.waitFor(() => expect(reportError).toHaveBeenCalledTimes(1), WAIT);
    const [error, command] = first(reportError.mock.calls);
    expect((error as Error).message).toBe('boom');
    expect(command).toBe(failing);
    // runCommand itself resolves false instead of rejecting
    await expect(runCommand(failing, ctx)).resolves.toBe(false);
  });

  it("in the app a failing command shows an error toast with the server's message", async () => {
    dismissAll();
    const failing = defineCommand({
      id: 'test.fail',
      title: 'Fail',
      group: 'General',
      run: () => Promise.reject({ data: { Content: { Message: 'Server said no.' } } }),
    });
    const spy = vi.spyOn(console, 'error').mockImplementation(() => {});
    await expect(runCommand(failing, createCommandContext())).resolves.toBe(false);
    spy.mockRestore();
    expect(getToasts().map((t) => [t.kind, t.message])).toEqual([['error', 'Server said no.']]);
    dismissAll();
  });

  it('j and k never fire while typing; isTypingTarget exists once in the code', () => {
    const files: string[] = [];
    const walk = (dir: string) => {
      for (const f of readdirSync(dir)) {
        const p = join(dir, f);
        if (statSync(p).isDirectory()) walk(p);
        else if (/\.tsx?$/.test(f)) files.push(p);
      }
    };
    walk('src');
    walk('commands');
    walk('bin');
    const defining = files.filter((f) => /function isTypingTarget\b|const isTypingTarget\b/.test(readFileSync(f, 'utf8')));
    expect(defining).toEqual(['src/app/keyboard/keys.ts']);
    // and no list has its own window/document keydown listener
    const dataTable = readFileSync('src/app/ui/data-table/data-table.tsx', 'utf8');
    expect(dataTable).not.toMatch(/addEventListener\('keydown'/);
  });
});
