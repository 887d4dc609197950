// The signed-in workspace: panes of tabs, the palette, the shortcut listener and the cheat sheet.
// The commands they offer come in as `commands` (the app root passes the registry).
//
// URL sync (the workspace owns the browser URL while signed in):
// - On load the user's saved layout comes back first, then the URL is opened as a tab (a deep
//   link focuses or adds its tab). `/` (or an unknown path) keeps the restored focus, and opens
//   the user's landing area when nothing is open at all.
// - The URL follows the focused tab. Focusing or opening a tab pushes a history entry
//   (pushState), so the browser's and the shell's Back return to the previously focused tab;
//   start-up, closing a tab and an empty pane replace the entry instead (replaceState), so Back
//   never resurrects a tab just closed.
// - A URL change made elsewhere (Back/Forward, a link) opens or focuses that route's tab.
// - A list tab's state is the query of its href (list-state.ts): a change of it pushes a history
//   entry, and Back/Forward to the same record hands the tab that entry's query (even none).
import { useEffect, useLayoutEffect, useRef } from 'react';
import { useAtomValue, useStore } from 'jotai';
import { usePathname, useSearch, navigate } from 'wouter/use-browser-location';
import { can, LANDING_ORDER, landingHref, userIdAtom } from '../state/session';
import { getHref } from '../paths';
import { peekReturnPath } from '../shell/return-to';
import { appStore } from '../state/store';
import { MSG } from '../../shared/messages';
import { ensureWorkspaceLoaded, focusedTabAtom, focusedTabTitleAtom, loadWorkspace, workspaceAtom } from './state';
import { findTab, focusTab, hrefKey, paneOrder, sameRecord, setTabSearch } from './model';
import { focusFocusedPaneSoon, openRoute } from './actions';
import { searchOf } from './list-state';
import { resolveHref } from './url';
import { LayoutView } from './layout-view';
import { useUnsavedChangesGuard } from './unload-guard';
import { TabContentHost } from './tab-content';
import { prefetchViewData, preloadView } from './views';
import { START_REQUESTS_KEY, type EarlyRequest, type StartRequests } from '../api/early-requests';
import { Palette } from '../palette/palette';
import { KeyListener } from '../keyboard/key-listener';
import { CheatSheet } from '../keyboard/cheat-sheet';
import type { Command } from '../keyboard/define';
import type { RouteId } from '../paths';
import { BulkWorkspace } from '../features/bulk-update/bulk-global';
import './workspace.css';

type Store = typeof appStore;

/** Opens the URL the app was loaded with, after the saved layout has been restored. */
/** The browser location as an href: path and query. */
const locationHref = () => window.location.pathname + window.location.search;

export function openInitialLocation(pathname: string, store: Store = appStore) {
  const state = ensureWorkspaceLoaded(store);
  if (resolveHref(pathname)) {
    openRoute(pathname, {}, store);
    return;
  }
  const anyTab = Object.values(state.panes).some((p) => p.tabs.length > 0);
  if (!anyTab) openRoute('/', {}, store);
}

/**
 * Starts loading the pages the workspace will show first, while the current user is still being
 * fetched: the active tab of each pane of the saved layout, and the tab the start-up opens (the
 * URL's route; after a sign-in the remembered link or the landing area; the landing area when
 * nothing was open). Without it each page's chunk is only requested once the workspace has
 * rendered, one more round trip before the page can ask for its data. Resolves when they have
 * loaded (or failed).
 */
export function preloadInitialViews(store: Store = appStore): Promise<unknown> {
  const userId = store.get(userIdAtom);
  if (!userId) return Promise.resolve();
  const saved = loadWorkspace(userId);
  const panes = Object.values(saved.panes);
  const hrefs = panes.map((p) => p.tabs.find((t) => t.id === p.activeTabId)?.href);
  const here = locationHref();
  if (resolveHref(here)) hrefs.push(here);
  else if (window.location.pathname !== '/') hrefs.push(peekReturnPath() ?? landingHref()); // signing in: where the sign-in goes next
  else if (!panes.some((p) => p.tabs.length > 0)) hrefs.push(landingHref());
  const routes = new Set(hrefs.map((h) => (h ? resolveHref(h)?.route : undefined)));
  // Their data too, asked for while the workspace renders its first frame, not after it, and not
  // after the server has answered for the user: what the app shows waits for that answer (the app
  // root renders the workspace only then), and the server refuses a revoked session's requests.
  const shown = new Map<string, RouteId>();
  for (const h of hrefs) {
    const route = h ? resolveHref(h)?.route : undefined;
    if (h && route) shown.set(h, route);
  }
  // What they ask for is kept for the next start, which sends it before its modules have loaded
  // (early-start.ts). A start on a page of its own keeps it for that link; any other (the root, the
  // sign-in page) for the root, where the next visit opens.
  const startedAt = resolveHref(here) ? here : '/';
  const sameUser = () => store.get(userIdAtom) === userId;
  void Promise.all([...shown].map(([href, route]) => prefetchViewData(route, href, can, sameUser))).then((lists) =>
    keepStartRequests(store, userId, startedAt, lists.flat()),
  );
  return Promise.all([...routes].map((route) => route && preloadView(route, can)));
}

/**
 * Keeps a start-up's data requests for the next start of this user at `location`
 * (api/early-requests.ts), while the session is still this user's (a logout clears them).
 */
function keepStartRequests(store: Store, user: string, location: string, requests: EarlyRequest[]) {
  if (store.get(userIdAtom) !== user) return;
  const kept: StartRequests = { user, location, requests };
  try {
    if (requests.length) localStorage.setItem(START_REQUESTS_KEY, JSON.stringify(kept));
    // A start that asked for nothing forgets what was kept for its own location only.
    else if ((JSON.parse(localStorage.getItem(START_REQUESTS_KEY) ?? 'null') as StartRequests | null)?.location === location)
      localStorage.removeItem(START_REQUESTS_KEY);
  } catch {
    // A full or missing storage: the next start sends them after its modules have loaded.
  }
}

/**
 * Signed out, once the sign-in page is idle: loads the page a sign-in most likely opens first, the
 * link remembered while signed out or else the first landing area (Asset Management), so that after
 * Enter its chunks are already here and only the user and the page's data are waited for. The
 * permissions are not known yet: a page the user may not open is only downloaded, never shown.
 */
export function prefetchLikelyViews(): Promise<unknown> {
  const route = resolveHref(peekReturnPath() ?? getHref(LANDING_ORDER[0]!))?.route;
  return route ? preloadView(route, () => true) : Promise.resolve();
}

export function Workspace({ commands }: { commands: readonly Command[] }) {
  const store = useStore();
  const userId = useAtomValue(userIdAtom);
  const state = useAtomValue(workspaceAtom);
  const focused = useAtomValue(focusedTabAtom);
  const title = useAtomValue(focusedTabTitleAtom);
  const pathname = usePathname();
  const search = useSearch();
  useUnsavedChangesGuard();

  const ready = useRef<string | null | undefined>(undefined); // user id the URL sync is set up for
  const lastFocused = useRef<string | null>(null);
  const written = useRef<string | null>(null);

  // Restore the layout, then open the URL (once per signed-in user).
  useLayoutEffect(() => {
    if (ready.current === userId) return;
    openInitialLocation(locationHref(), store);
    const tab = store.get(focusedTabAtom);
    const href = tab?.href ?? '/';
    written.current = href;
    lastFocused.current = tab?.id ?? null;
    if (locationHref() !== href) navigate(href, { replace: true });
    ready.current = userId;
  }, [userId, store]);

  // State → URL. Values are read from the store and the location when the effect runs (not
  // from this render), so a render that is already stale can never write an old URL.
  const focusedHref = focused?.href ?? '/';
  const focusedId = focused?.id ?? null;
  useEffect(() => {
    if (ready.current !== userId) return;
    const tab = store.get(focusedTabAtom);
    const href = tab?.href ?? '/';
    const prev = lastFocused.current;
    lastFocused.current = tab?.id ?? null;
    const here = locationHref();
    if (here === href) return;
    const prevStillOpen = prev !== null && prev !== tab?.id && !!findTab(store.get(workspaceAtom), prev);
    // The same tab's list state changed (same record, another query): a history entry of its own.
    const listStep = !!tab && prev === tab.id && hrefKey(here) === hrefKey(href);
    written.current = href;
    navigate(href, { replace: !tab || !(prevStillOpen || listStep) });
  }, [focusedHref, focusedId, userId, store]);

  // URL → state (Back/Forward, links that change the URL themselves).
  useEffect(() => {
    if (ready.current !== userId) return;
    const path = locationHref();
    if (window.location.pathname !== pathname) return; // a newer location change is on its way
    const cur = store.get(focusedTabAtom);
    if (path === (cur?.href ?? '/') || path === written.current) return;
    written.current = path;
    // Back/Forward to a record already open: focus it and give it this entry's list state.
    const ws = store.get(workspaceAtom);
    const order = [ws.focusedPaneId, ...paneOrder(ws).filter((p) => p !== ws.focusedPaneId)];
    const open = order.flatMap((p) => ws.panes[p]?.tabs ?? []).find((t) => sameRecord(t.href, path));
    if (open) {
      store.set(workspaceAtom, (s) => focusTab(setTabSearch(s, open.id, searchOf(path)), open.id));
      if (open.id !== cur?.id) focusFocusedPaneSoon(store);
      return;
    }
    if (!openRoute(path, { focus: true }, store) && cur) navigate(cur.href, { replace: true });
  }, [pathname, search, userId, store]);

  useEffect(() => {
    document.title = title || MSG.productName;
  }, [title]);

  return (
    <div className="ws-root">
      <LayoutView node={state.layout} state={state} />
      <TabContentHost state={state} />
      <Palette commands={commands} />
      <CheatSheet commands={commands} />
      <KeyListener commands={commands} />
      <BulkWorkspace />
    </div>
  );
}
