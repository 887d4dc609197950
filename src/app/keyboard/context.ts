// Builds the CommandContext the app's commands run with: live workspace actions and a snapshot
// of the state they decide on (focused tab, pane and tab counts).
import { appStore } from '../state/store';
import { can, logout } from '../state/session';
import { workspaceAtom, ensureWorkspaceLoaded } from '../workspace/state';
import { focusedPane, focusedTab, paneOrder } from '../workspace/model';
import * as actions from '../workspace/actions';
import { paletteOpenAtom } from '../palette/state';
import { listFor } from '../ui/data-table/list-registry';
import { toast } from '../ui/toast';
import { errorMessage } from '../api/query-client';
import { cheatSheetOpenAtom } from './cheat-sheet-state';
import { setFeatureLookup, type CommandContext } from './define';
import { queryClient } from '../api/query-client';
import { featuresQuery, isFeatureOn } from '../api/reference';

// Commands behind a feature follow the feature list (public, refreshed every 30 s): read from the
// query cache, fetched once at start so the first palette already knows.
setFeatureLookup((name) => isFeatureOn(queryClient.getQueryData(featuresQuery().queryKey), name));
void queryClient.prefetchQuery(featuresQuery()).catch(() => undefined);

/**
 * `target`: the element a key was pressed on. Its pane becomes the focused pane first, so a
 * shortcut always acts on the pane that holds the keyboard focus; its list (if any) is ctx.list.
 */
export function createCommandContext(opts: { beside?: boolean; target?: EventTarget | null } = {}, store = appStore): CommandContext {
  ensureWorkspaceLoaded(store);
  const paneId = paneIdOf(opts.target);
  if (paneId) actions.focusPane(paneId, store);
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
    list: opts.target !== undefined ? listFor(opts.target ?? null) : listFor(typeof document === 'undefined' ? null : document.activeElement),
    // A failed command says so (the server's message for a failed request), never silently.
    reportError: (err, cmd) => {
      console.error(`command ${cmd.id} failed`, err);
      toast.error(errorMessage(err));
    },
  };
}

/** The workspace pane an element sits in (panes carry data-pane-id), or null. */
function paneIdOf(target: EventTarget | null | undefined): string | null {
  const el = target as Element | null | undefined;
  if (!el || typeof el.closest !== 'function') return null;
  return el.closest<HTMLElement>('[data-pane-id]')?.dataset.paneId ?? null;
}
