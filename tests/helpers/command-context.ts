// A command context (src/app/keyboard/define.ts) for running commands and the key listener in
// tests: one tab in one pane, nothing closed, every permission, and every action a mock.
import { vi } from 'vitest';
import { createStore } from 'jotai';
import type { CommandContext } from '../../src/app/keyboard/define';

/** The context with a store of its own and no focused tab; `over` replaces any part of it. */
export function fakeCommandContext(over: Partial<CommandContext> = {}): CommandContext {
  return {
    store: createStore() as CommandContext['store'],
    focusedTab: null,
    tabCount: 1,
    paneCount: 1,
    closedCount: 0,
    beside: false,
    openRoute: vi.fn(() => true),
    can: vi.fn(() => true),
    workspace: {
      closeTab: vi.fn(async () => true),
      reopenClosedTab: vi.fn(),
      cycleTab: vi.fn(),
      goToTab: vi.fn(),
      togglePinTab: vi.fn(),
      splitPane: vi.fn(),
      focusNextPane: vi.fn(),
      moveTabToOtherPane: vi.fn(),
      resizeFocusedPane: vi.fn(),
    },
    ui: { togglePalette: vi.fn(), openCheatSheet: vi.fn() },
    logout: vi.fn(),
    ...over,
  };
}
