// Tab contents live in portals rendered at one stable place in the React tree, each into its own
// DOM element that the owning pane's tabpanel adopts. So a tab keeps its state (scroll, filters,
// unsaved form) when it is hidden, when panes split or close, and when it moves to another pane.
// A tab is mounted the first time it is shown, then stays mounted until it is closed.
import { memo, useEffect, useLayoutEffect, useMemo, useRef } from 'react';
import { createPortal } from 'react-dom';
import { TabContext, type TabApi } from './tab-context';
import type { Tab, WorkspaceState } from './model';
import { hrefKey, paneOrder } from './model';
import { backTab, closeTab, navigateTab, setTabDirty, setTabTitle } from './actions';
import { RouteView } from './views';
import { TabErrorBoundary } from './panels';
import { dropTabState } from '../ui/data-table/use-tab-state';
import { DialogLayerContext, dialogLayerOf } from '../ui/dialog';

const hosts = new Map<string, HTMLDivElement>();

/** The element a tab's content renders into (created on first use). */
export function tabHostElement(tabId: string): HTMLDivElement {
  let el = hosts.get(tabId);
  if (!el) {
    el = document.createElement('div');
    el.className = 'ws-tab-host';
    el.dataset.tabId = tabId;
    hosts.set(tabId, el);
  }
  return el;
}

/** A pane's tabpanel: adopts the tab's content element. */
export function TabSlot({ tabId, selected, labelledBy, id }: { tabId: string; selected: boolean; labelledBy: string; id: string }) {
  const ref = useRef<HTMLDivElement>(null);
  useLayoutEffect(() => {
    const slot = ref.current;
    const el = tabHostElement(tabId);
    if (slot && el.parentElement !== slot) slot.appendChild(el);
  }, [tabId]);
  // In the Tab order (WAI-ARIA tabs): a page without a focusable element can still be reached and scrolled by keyboard.
  return <div ref={ref} role="tabpanel" id={id} aria-labelledby={labelledBy} hidden={!selected} className="ws-tabpanel" tabIndex={0} />;
}

type TabViewProps = { id: string; route: Tab['route']; params: Tab['params']; href: string; paneId: string; active: boolean };

// Props are the tab's identity and route only, so title or dirty changes do not re-render the page.
const TabView = memo(function TabView({ id, route, params, href, paneId, active }: TabViewProps) {
  const api = useMemo<TabApi>(
    () => ({
      tabId: id,
      paneId,
      route,
      params,
      active,
      setTitle: (title) => setTabTitle(id, title),
      setDirty: (dirty) => setTabDirty(id, dirty),
      navigate: (to) => void navigateTab(id, to),
      back: () => void backTab(id),
      close: () => void closeTab(id),
    }),
    [id, paneId, route, params, active],
  );
  // The page's dialogs open over the pane that holds the tab now (found when a dialog renders).
  // eslint-disable-next-line react-hooks/exhaustive-deps -- a new pane gives a new finder, so open dialogs follow the tab
  const dialogLayer = useMemo(() => () => dialogLayerOf(tabHostElement(id)), [id, paneId]);
  return (
    <TabContext.Provider value={api}>
      <DialogLayerContext.Provider value={dialogLayer}>
        {/* Keyed by the record, not the list state in the query: a new sort or page keeps the page mounted. */}
        <TabErrorBoundary key={hrefKey(href)}>
          <RouteView route={route} href={href} />
        </TabErrorBoundary>
      </DialogLayerContext.Provider>
    </TabContext.Provider>
  );
});

export function TabContentHost({ state }: { state: WorkspaceState }) {
  const mounted = useRef(new Set<string>());
  const entries: { tab: Tab; paneId: string; active: boolean }[] = [];
  const present = new Set<string>();
  for (const paneId of paneOrder(state)) {
    const pane = state.panes[paneId];
    if (!pane) continue;
    for (const tab of pane.tabs) {
      present.add(tab.id);
      // Mounting on first show is idempotent, so recording it while rendering is safe.
      if (tab.id === pane.activeTabId) mounted.current.add(tab.id);
      if (mounted.current.has(tab.id)) entries.push({ tab, paneId, active: paneId === state.focusedPaneId && tab.id === pane.activeTabId });
    }
  }
  useEffect(() => {
    for (const id of [...mounted.current]) {
      if (present.has(id)) continue;
      mounted.current.delete(id);
      hosts.get(id)?.remove();
      hosts.delete(id);
      dropTabState(id);
    }
  });
  return (
    <>
      {entries.map((e) =>
        createPortal(
          <TabView id={e.tab.id} route={e.tab.route} params={e.tab.params} href={e.tab.href} paneId={e.paneId} active={e.active} />,
          tabHostElement(e.tab.id),
          e.tab.id,
        ),
      )}
    </>
  );
}
