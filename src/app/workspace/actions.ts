// Workspace operations usable anywhere (commands, the palette, pages, the shell): each one reads
// the jotai store, applies a pure change from model.ts and writes it back. Closing or leaving a
// tab with unsaved changes asks the spec's question first, over the pane holding that tab.
import { appStore } from '../state/store';
import { landingHref, onLogout } from '../state/session';
import { confirm } from '../ui/confirm-dialog';
import { MSG, RECORD_LIVE_TEXT } from '../../shared/messages';
import * as M from './model';
import { ensureWorkspaceLoaded, resetWorkspace, workspaceAtom } from './state';
import { resolveHref } from './url';
import { focusSoon, paneDialogLayer, paneDomId, tabDomId } from './dom';

type Store = typeof appStore;

function update(fn: (s: M.WorkspaceState) => M.WorkspaceState, store: Store = appStore) {
  ensureWorkspaceLoaded(store);
  store.set(workspaceAtom, fn);
}
const current = (store: Store = appStore) => {
  ensureWorkspaceLoaded(store);
  return store.get(workspaceAtom);
};

/**
 * Moves keyboard focus to what the focused pane now shows (its active tab, or the empty pane); not
 * if another pane has become the focused one by the time the move is due (a click there, a focus).
 */
export function focusFocusedPaneSoon(store: Store = appStore) {
  const s = current(store);
  const tab = M.focusedTab(s);
  const paneId = s.focusedPaneId;
  focusSoon(tab ? tabDomId(tab.id) : paneDomId(paneId), () => current(store).focusedPaneId === paneId);
}

/** After a tab or pane went away, focus may have gone with it: give it to what is shown now. */
function refocusIfLost(store: Store) {
  const run = () => {
    if (typeof document === 'undefined') return; // the page (or a test's DOM) has gone meanwhile
    const el = document.activeElement;
    if (!el || el === document.body || !el.isConnected) focusFocusedPaneSoon(store);
  };
  if (typeof requestAnimationFrame === 'function') requestAnimationFrame(() => setTimeout(run, 0));
  else setTimeout(run, 0);
}

export type OpenRouteOptions = {
  /** Open in the other pane, splitting the workspace when there is only one. */
  beside?: boolean;
  /** 'other' is the same as beside: true. */
  pane?: 'focused' | 'other';
  /** Move keyboard focus to the opened tab in the strip (default false: callers decide). */
  focus?: boolean;
};

/**
 * Opens a route (spec path, e.g. /persons/edit/{userId}) as a tab. `/` opens the user's landing
 * area. The same record already open is focused instead, unless it is opened beside.
 * Returns false for paths that are not workspace routes.
 */
export function openRoute(href: string, opts: OpenRouteOptions = {}, store: Store = appStore): boolean {
  const path = href.split(/[?#]/)[0] || '/';
  const target = resolveHref(path === '/' ? landingHref() : href);
  if (!target) return false;
  update((s) => M.openTab(s, target, { beside: opts.beside || opts.pane === 'other' }), store);
  if (opts.focus) focusFocusedPaneSoon(store);
  return true;
}

/**
 * A dirty tab asks before it is left. The question belongs to the pane holding the tab (like a
 * page's dialogs): it opens over that pane even when the tab's close button was clicked while
 * the focus was in another pane.
 */
async function mayLeave(hit: { tab: M.Tab; pane: M.Pane } | null): Promise<boolean> {
  if (!hit?.tab.dirty) return true;
  const before = typeof document !== 'undefined' ? (document.activeElement as HTMLElement | null) : null;
  const ok = await confirm({ message: MSG.unsavedChanges, layer: paneDialogLayer(hit.pane.id) ?? undefined });
  // Staying: put the keyboard back where the user was (e.g. the field they were editing).
  if (!ok && before && before !== document.body) {
    setTimeout(() => {
      if (before.isConnected && (document.activeElement === document.body || !document.activeElement)) before.focus();
    }, 0);
  }
  return ok;
}

/** Closes a tab (the focused one by default); a dirty tab asks first. Resolves whether it closed. */
export async function closeTab(tabId?: string, store: Store = appStore): Promise<boolean> {
  const s = current(store);
  const id = tabId ?? M.focusedTab(s)?.id;
  if (!id) {
    // Nothing to close in this pane: close the empty pane itself (never the last one).
    update((st) => M.closeEmptyPane(st, st.focusedPaneId), store);
    refocusIfLost(store);
    return false;
  }
  const hit = M.findTab(s, id);
  if (!hit) return false;
  if (!(await mayLeave(hit))) return false;
  // Re-read: the state may have moved on while the question was open.
  update((st) => M.closeTab(st, id), store);
  refocusIfLost(store);
  return true;
}

export function reopenClosedTab(store: Store = appStore) {
  update(M.reopenClosed, store);
  focusFocusedPaneSoon(store);
}

/** A list tab's state changed: it becomes the query of the tab's href (list-state.ts). */
export function setTabSearch(tabId: string, search: string, store: Store = appStore) {
  update((s) => M.setTabSearch(s, tabId, search), store);
}

export function selectTab(tabId: string, store: Store = appStore) {
  update((s) => M.focusTab(s, tabId), store);
}

export function focusPane(paneId: string, store: Store = appStore) {
  if (current(store).focusedPaneId === paneId) return;
  update((s) => M.focusPaneById(s, paneId), store);
}

export function cycleTab(delta: number, store: Store = appStore) {
  update((s) => M.cycleTab(s, delta), store);
  focusFocusedPaneSoon(store);
}

export function goToTab(n: number, store: Store = appStore) {
  update((s) => M.switchToTab(s, n), store);
  focusFocusedPaneSoon(store);
}

export function togglePinTab(tabId?: string, store: Store = appStore) {
  update((s) => M.togglePin(s, tabId), store);
}

export function splitPane(orientation: M.Orientation, store: Store = appStore) {
  update((s) => M.splitPane(s, orientation), store);
  focusFocusedPaneSoon(store);
}

export function focusNextPane(store: Store = appStore) {
  update((s) => M.focusNextPane(s), store);
  focusFocusedPaneSoon(store);
}

export function moveTabToOtherPane(tabId?: string, store: Store = appStore) {
  update((s) => M.moveTabToOtherPane(s, tabId), store);
  focusFocusedPaneSoon(store);
}

/** Grow (+) or shrink (-) the focused pane by `delta` percent of its split. */
export function resizeFocusedPane(delta: number, store: Store = appStore) {
  update((s) => M.resizeFocusedPane(s, delta), store);
}

export function setSplitSizes(splitId: string, sizes: number[], store: Store = appStore) {
  update((s) => M.setSplitSizes(s, splitId, sizes), store);
}

export function setTabTitle(tabId: string, title: string, store: Store = appStore) {
  update((s) => M.setTabTitle(s, tabId, title), store);
}

export function setTabDirty(tabId: string, dirty: boolean, store: Store = appStore) {
  update((s) => M.setTabDirty(s, tabId, dirty), store);
}

/**
 * Whether the tab may load the latest version of its record now (the "Changed by NAME — reload"
 * bar): at once without unsaved changes, else only when the user agrees to discard them.
 */
export async function mayReloadTab(tabId: string, store: Store = appStore): Promise<boolean> {
  const hit = M.findTab(current(store), tabId);
  if (!hit?.tab.dirty) return true;
  const ok = await confirm({
    message: RECORD_LIVE_TEXT.discardAndReload,
    confirmLabel: RECORD_LIVE_TEXT.discardConfirm,
    danger: true,
    layer: paneDialogLayer(hit.pane.id) ?? undefined,
  });
  if (ok) setTabDirty(tabId, false, store);
  return ok;
}

/** The tab shows another route (keeps the old one for back()); asks first when dirty. */
export async function navigateTab(tabId: string, href: string, store: Store = appStore): Promise<boolean> {
  const target = resolveHref(href === '/' ? landingHref() : href);
  if (!target) return false;
  const hit = M.findTab(current(store), tabId);
  if (!hit) return false;
  if (!(await mayLeave(hit))) return false;
  update((s) => M.navigateTab(s, tabId, target), store);
  return true;
}

/** Spec "navigates back": the tab's previous route, or closing the tab when it has none. */
export async function backTab(tabId: string, store: Store = appStore): Promise<boolean> {
  const hit = M.findTab(current(store), tabId);
  if (!hit) return false;
  if (!(await mayLeave(hit))) return false;
  const s = current(store);
  const back = M.backTab(s, tabId, resolveHref);
  if (back) update(() => back, store);
  else update((st) => M.closeTab(st, tabId), store);
  return true;
}

/** The shell's Back button: one step back in the focused tab. */
export function goBack(store: Store = appStore): Promise<boolean> {
  const tab = M.focusedTab(current(store));
  return tab ? backTab(tab.id, store) : Promise.resolve(false);
}

// The layout belongs to the signed-in user: drop it from memory on logout (storage is already
// cleared by then, and nothing is written without a user).
onLogout(() => resetWorkspace());

/**
 * DataTable props for rows that open a record's tab: Enter or a click opens it, Ctrl/⌘+Enter in the
 * other pane, and rows are real links. With `allowed` false (no permission) rows neither open nor link.
 */
export function openRowProps<T>(allowed: boolean, hrefOf: (row: T) => string) {
  return {
    canOpen: () => allowed,
    onOpen: (row: T, { beside }: { beside?: boolean }) => void openRoute(hrefOf(row), beside ? { beside: true } : undefined),
    rowHref: (row: T) => (allowed ? hrefOf(row) : null),
  };
}
