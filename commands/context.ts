// Builds the CommandContext the app's commands run with: live workspace actions and a snapshot
// of the state they decide on (focused tab, pane and tab counts).
import { appStore } from '../src/app/state/store';
import { can, logout } from '../src/app/state/session';
import { workspaceAtom, ensureWorkspaceLoaded } from '../src/app/workspace/state';
import { focusedPane, focusedTab, paneOrder } from '../src/app/workspace/model';
import * as actions from '../src/app/workspace/actions';
import { paletteOpenAtom } from '../src/app/palette/state';
import { cheatSheetOpenAtom } from './cheat-sheet-state';
import type { CommandContext } from './define';

export function createCommandContext(opts: { beside?: boolean } = {}, store = appStore): CommandContext {
  ensureWorkspaceLoaded(store);
  const s = store.get(workspaceAtom);
  return {
    store,
    focusedTab: focusedTab(s),
    tabCount: focusedPane(s)?.tabs.length ?? 0,
    paneCount: paneOrder(s).length,
    closedCount: s.closed.length,
    beside: !!opts.beside,
    openRoute: (href, o) => actions.openRoute(href, o, store),
    can,
    workspace: {
      closeTab: (id) => actions.closeTab(id, store),
      reopenClosedTab: () => actions.reopenClosedTab(store),
      cycleTab: (d) => actions.cycleTab(d, store),
      goToTab: (n) => actions.goToTab(n, store),
      togglePinTab: (id) => actions.togglePinTab(id, store),
      splitPane: (o) => actions.splitPane(o, store),
      focusNextPane: () => actions.focusNextPane(store),
      moveTabToOtherPane: (id) => actions.moveTabToOtherPane(id, store),
      resizeFocusedPane: (d) => actions.resizeFocusedPane(d, store),
    },
    ui: {
      togglePalette: () => store.set(paletteOpenAtom, !store.get(paletteOpenAtom)),
      openCheatSheet: () => {
        store.set(paletteOpenAtom, false);
        store.set(cheatSheetOpenAtom, true);
      },
    },
    logout: () => logout('user'),
  };
}
