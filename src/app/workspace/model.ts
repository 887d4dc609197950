// The workspace as plain data, and every change to it as a pure function (state in, state out).
// React, jotai, the URL and localStorage live elsewhere; this module is unit-tested on its own.
import type { RouteId } from '../paths';

export type Tab = {
  id: string;
  /** The spec route this tab shows, e.g. /persons/edit/{userId}. Also the browser URL when focused. */
  href: string;
  route: RouteId;
  params: Record<string, string>;
  /** Spec page title; starts as the route's static title, pages refine it (customer name ...). */
  title: string;
  pinned: boolean;
  /** Unsaved changes (never persisted: the form state behind it is gone after a reload). */
  dirty: boolean;
  /** Earlier hrefs of this tab, newest last: `back()` walks them. */
  history: string[];
};

export type Pane = { id: string; tabs: Tab[]; activeTabId: string | null };

export type Orientation = 'horizontal' | 'vertical';
export type LayoutNode = { type: 'pane'; id: string } | { type: 'split'; id: string; orientation: Orientation; children: LayoutNode[]; sizes: number[] };

export type ClosedTab = { tab: Tab; paneId: string; index: number };

export type WorkspaceState = {
  version: 1;
  layout: LayoutNode;
  panes: Record<string, Pane>;
  focusedPaneId: string;
  /** Recently closed tabs, newest last (reopen pops). */
  closed: ClosedTab[];
};

/** A route resolved from an href: what a new tab needs. */
export type TabTarget = { href: string; route: RouteId; params: Record<string, string>; title: string };

export const MAX_CLOSED = 20;
export const MIN_PANE_SIZE = 10; // percent

let counter = 0;
export function newId(prefix: string): string {
  counter += 1;
  const rnd = Math.random().toString(36).slice(2, 8);
  return `${prefix}-${rnd}${counter.toString(36)}`;
}

// ---------------------------------------------------------------- queries

export function emptyWorkspace(): WorkspaceState {
  const paneId = newId('pane');
  return {
    version: 1,
    layout: { type: 'pane', id: paneId },
    panes: { [paneId]: { id: paneId, tabs: [], activeTabId: null } },
    focusedPaneId: paneId,
    closed: [],
  };
}

/** Panes in reading order (depth-first through the layout): the order "focus next pane" walks. */
export function paneOrder(state: WorkspaceState): string[] {
  const out: string[] = [];
  const walk = (n: LayoutNode) => {
    if (n.type === 'pane') out.push(n.id);
    else n.children.forEach(walk);
  };
  walk(state.layout);
  return out;
}

/**
 * The pane with this id. Every pane the layout names, and the focused one, is in `panes` (every
 * change below keeps it so); a missing one is a bug, not a state to carry on from.
 */
export function paneAt(state: WorkspaceState, paneId: string): Pane {
  const pane = state.panes[paneId];
  if (!pane) throw new Error(`Workspace has no pane ${paneId}`);
  return pane;
}

export function focusedPane(state: WorkspaceState): Pane {
  return paneAt(state, state.focusedPaneId);
}

export function focusedTab(state: WorkspaceState): Tab | null {
  const pane = state.panes[state.focusedPaneId];
  return pane?.tabs.find((t) => t.id === pane.activeTabId) ?? null;
}

export function findTab(state: WorkspaceState, tabId: string): { pane: Pane; tab: Tab; index: number } | null {
  for (const pane of Object.values(state.panes)) {
    const index = pane.tabs.findIndex((t) => t.id === tabId);
    const tab = pane.tabs[index];
    if (tab) return { pane, tab, index };
  }
  return null;
}

/**
 * What the tab strip shows for a title: the spec's page titles of edit pages all start with
 * 'Edit ' ('Edit Ann Smith'), which only repeats itself across a strip of such tabs; the strip
 * drops it (the page heading and the browser title keep the full title).
 */
export function tabLabel(title: string): string {
  const short = title.replace(/^Edit\s+/, '');
  return short.trim() ? short : title;
}

/** Two hrefs name the same record when their paths are equal (query and trailing slash ignored). */
export function sameRecord(a: string, b: string): boolean {
  return hrefKey(a) === hrefKey(b);
}
export function hrefKey(href: string): string {
  const [path = ''] = href.split(/[?#]/);
  return path.replace(/\/+$/, '') || '/';
}

function findByHref(state: WorkspaceState, href: string, paneIds: string[]): { pane: Pane; tab: Tab } | null {
  for (const id of paneIds) {
    const pane = state.panes[id];
    const tab = pane?.tabs.find((t) => sameRecord(t.href, href));
    if (pane && tab) return { pane, tab };
  }
  return null;
}

// ---------------------------------------------------------------- small helpers

function withPane(state: WorkspaceState, pane: Pane): WorkspaceState {
  return { ...state, panes: { ...state.panes, [pane.id]: pane } };
}

function updateTab(state: WorkspaceState, tabId: string, fn: (t: Tab) => Tab): WorkspaceState {
  const hit = findTab(state, tabId);
  if (!hit) return state;
  const next = fn(hit.tab);
  if (next === hit.tab) return state;
  const tabs = hit.pane.tabs.slice();
  tabs[hit.index] = next;
  return withPane(state, { ...hit.pane, tabs });
}

/** Pinned tabs stay in front; a new tab goes right after the active one (or after the pinned group). */
function insertIndex(pane: Pane): number {
  const pinnedCount = pane.tabs.filter((t) => t.pinned).length;
  const active = pane.tabs.findIndex((t) => t.id === pane.activeTabId);
  return Math.max(active + 1, pinnedCount);
}

function makeTab(target: TabTarget): Tab {
  return { id: newId('tab'), href: target.href, route: target.route, params: target.params, title: target.title, pinned: false, dirty: false, history: [] };
}

function otherPaneId(state: WorkspaceState, fromPaneId: string): string | null {
  const order = paneOrder(state);
  if (order.length < 2) return null;
  const i = order.indexOf(fromPaneId);
  return order[(i + 1) % order.length] ?? null;
}

// ---------------------------------------------------------------- focus

export function focusPaneById(state: WorkspaceState, paneId: string): WorkspaceState {
  if (!state.panes[paneId] || state.focusedPaneId === paneId) return state;
  return { ...state, focusedPaneId: paneId };
}

export function focusTab(state: WorkspaceState, tabId: string): WorkspaceState {
  const hit = findTab(state, tabId);
  if (!hit) return state;
  if (hit.pane.activeTabId === tabId && state.focusedPaneId === hit.pane.id) return state;
  const s = hit.pane.activeTabId === tabId ? state : withPane(state, { ...hit.pane, activeTabId: tabId });
  return { ...s, focusedPaneId: hit.pane.id };
}

export function focusNextPane(state: WorkspaceState, delta = 1): WorkspaceState {
  const order = paneOrder(state);
  if (order.length < 2) return state;
  const i = order.indexOf(state.focusedPaneId);
  const next = order[(i + delta + order.length) % order.length];
  return next ? { ...state, focusedPaneId: next } : state;
}

/** Switch to tab N (1-based) of the focused pane; 9 always means the last tab, as in browsers. */
export function switchToTab(state: WorkspaceState, n: number): WorkspaceState {
  const pane = focusedPane(state);
  if (!pane.tabs.length) return state;
  const tab = n >= 9 ? pane.tabs[pane.tabs.length - 1] : pane.tabs[n - 1];
  return tab ? focusTab(state, tab.id) : state;
}

export function cycleTab(state: WorkspaceState, delta: number): WorkspaceState {
  const pane = focusedPane(state);
  if (pane.tabs.length < 2) return state;
  const i = Math.max(
    0,
    pane.tabs.findIndex((t) => t.id === pane.activeTabId),
  );
  const next = pane.tabs[(i + delta + pane.tabs.length) % pane.tabs.length];
  return next ? focusTab(state, next.id) : state;
}

// ---------------------------------------------------------------- open

export type OpenOptions = {
  /** Open in the other pane (splitting right if there is only one), even if the record is open elsewhere. */
  beside?: boolean;
  /** Open in this pane (no de-duplication across other panes). */
  paneId?: string;
};

/**
 * Opens a route as a tab. The same record already open anywhere gets focused instead, unless it
 * is opened beside (then only the target pane is searched for it).
 */
export function openTab(state: WorkspaceState, target: TabTarget, opts: OpenOptions = {}): WorkspaceState {
  let s = state;
  let paneId = opts.paneId && s.panes[opts.paneId] ? opts.paneId : s.focusedPaneId;
  if (opts.beside) {
    const other = otherPaneId(s, s.focusedPaneId);
    if (other) paneId = other;
    else {
      s = splitPane(s, 'horizontal');
      paneId = s.focusedPaneId;
    }
  }
  const searchPanes = opts.beside || opts.paneId ? [paneId] : [s.focusedPaneId, ...paneOrder(s).filter((p) => p !== s.focusedPaneId)];
  const existing = findByHref(s, target.href, searchPanes);
  if (existing) {
    // A link that names a list state (its query) brings that state to the open tab.
    const query = target.href.includes('?') ? target.href.slice(target.href.indexOf('?')) : '';
    return focusTab(query ? setTabSearch(s, existing.tab.id, query) : s, existing.tab.id);
  }
  const pane = paneAt(s, paneId);
  const tab = makeTab(target);
  const tabs = pane.tabs.slice();
  tabs.splice(insertIndex(pane), 0, tab);
  return { ...withPane(s, { ...pane, tabs, activeTabId: tab.id }), focusedPaneId: paneId };
}

// ---------------------------------------------------------------- close / reopen

/** The tab a pane shows after `removedIndex` goes: the one to its right, else to its left. */
function neighbourAfterRemoval(tabs: Tab[], removedIndex: number): string | null {
  const rest = tabs.filter((_, i) => i !== removedIndex);
  return (rest[removedIndex] ?? rest.at(-1))?.id ?? null;
}

export function closeTab(state: WorkspaceState, tabId: string): WorkspaceState {
  const hit = findTab(state, tabId);
  if (!hit) return state;
  const { pane, tab, index } = hit;
  const tabs = pane.tabs.filter((t) => t.id !== tabId);
  const activeTabId = pane.activeTabId === tabId ? neighbourAfterRemoval(pane.tabs, index) : pane.activeTabId;
  const closed = [...state.closed, { tab: { ...tab, dirty: false }, paneId: pane.id, index }].slice(-MAX_CLOSED);
  let s: WorkspaceState = { ...withPane(state, { ...pane, tabs, activeTabId }), closed };
  // An emptied pane goes away when another pane can take over; the last pane stays (with its hint).
  if (!tabs.length && paneOrder(s).length > 1) s = removePane(s, pane.id);
  return s;
}

export function reopenClosed(state: WorkspaceState): WorkspaceState {
  const last = state.closed[state.closed.length - 1];
  if (!last) return state;
  let s: WorkspaceState = { ...state, closed: state.closed.slice(0, -1) };
  const existing = findByHref(s, last.tab.href, paneOrder(s));
  if (existing) return focusTab(s, existing.tab.id);
  const oldPane = s.panes[last.paneId];
  const samePane = !!oldPane;
  const pane = oldPane ?? focusedPane(s);
  const tab: Tab = { ...last.tab, id: newId('tab') };
  const tabs = pane.tabs.slice();
  const pinnedCount = tabs.filter((t) => t.pinned).length;
  // Back at its old place in its old pane; when that pane is gone, like a newly opened tab.
  const wanted = samePane ? last.index : insertIndex(pane);
  const at = tab.pinned ? Math.min(wanted, pinnedCount) : Math.max(pinnedCount, Math.min(wanted, tabs.length));
  tabs.splice(at, 0, tab);
  s = withPane(s, { ...pane, tabs, activeTabId: tab.id });
  return { ...s, focusedPaneId: pane.id };
}

/** Closing a pane with no tabs (tab.close on an empty pane); the only pane is never removed. */
export function closeEmptyPane(state: WorkspaceState, paneId: string): WorkspaceState {
  const pane = state.panes[paneId];
  if (!pane || pane.tabs.length || paneOrder(state).length < 2) return state;
  return removePane(state, paneId);
}

// ---------------------------------------------------------------- move / split / resize

export function moveTabToOtherPane(state: WorkspaceState, tabId?: string): WorkspaceState {
  const id = tabId ?? focusedTab(state)?.id;
  if (!id) return state;
  const hit = findTab(state, id);
  if (!hit) return state;
  let s = state;
  let target = otherPaneId(s, hit.pane.id);
  if (!target) {
    if (hit.pane.tabs.length < 2) return state; // moving the only tab of the only pane changes nothing
    s = splitPane(focusPaneById(s, hit.pane.id), 'horizontal');
    target = s.focusedPaneId;
  }
  const source = paneAt(s, hit.pane.id);
  const sourceTabs = source.tabs.filter((t) => t.id !== id);
  const activeTabId = source.activeTabId === id ? neighbourAfterRemoval(source.tabs, hit.index) : source.activeTabId;
  s = withPane(s, { ...source, tabs: sourceTabs, activeTabId });
  const dest = paneAt(s, target);
  const duplicate = dest.tabs.find((t) => sameRecord(t.href, hit.tab.href));
  if (duplicate) {
    // The record is already open there: keep that tab, drop the moved one.
    s = { ...withPane(s, { ...dest, activeTabId: duplicate.id }), focusedPaneId: dest.id };
  } else {
    const tabs = dest.tabs.slice();
    tabs.splice(insertIndex(dest), 0, hit.tab);
    s = { ...withPane(s, { ...dest, tabs: sortPinnedFirst(tabs), activeTabId: id }), focusedPaneId: dest.id };
  }
  if (!sourceTabs.length && paneOrder(s).length > 1) s = removePane(s, source.id);
  return s;
}

/**
 * Splits the focused pane: a new empty pane appears to its right ('horizontal') or below it
 * ('vertical') and takes the focus; the focused pane's size is shared between the two.
 */
export function splitPane(state: WorkspaceState, orientation: Orientation): WorkspaceState {
  const fromId = state.focusedPaneId;
  const newPaneId = newId('pane');
  const leaf: LayoutNode = { type: 'pane', id: newPaneId };
  const replace = (node: LayoutNode): LayoutNode => {
    if (node.type === 'pane') {
      if (node.id !== fromId) return node;
      return { type: 'split', id: newId('split'), orientation, children: [node, leaf], sizes: [50, 50] };
    }
    const i = node.children.findIndex((c) => c.type === 'pane' && c.id === fromId);
    const size = node.sizes[i]; // sizes run parallel to children
    if (size !== undefined && node.orientation === orientation) {
      const children = node.children.slice();
      children.splice(i + 1, 0, leaf);
      const sizes = node.sizes.slice();
      const half = size / 2;
      sizes.splice(i, 1, half, half);
      return { ...node, children, sizes };
    }
    return { ...node, children: node.children.map(replace) };
  };
  return {
    ...state,
    layout: replace(state.layout),
    panes: { ...state.panes, [newPaneId]: { id: newPaneId, tabs: [], activeTabId: null } },
    focusedPaneId: newPaneId,
  };
}

function removePane(state: WorkspaceState, paneId: string): WorkspaceState {
  const order = paneOrder(state);
  if (order.length < 2) return state;
  const remove = (node: LayoutNode): LayoutNode | null => {
    if (node.type === 'pane') return node.id === paneId ? null : node;
    return keepChildren(
      node.children,
      (i) => node.sizes[i] ?? 0,
      remove,
      (children, sizes) => ({ ...node, children, sizes }),
    );
  };
  const layout = remove(state.layout) ?? state.layout;
  const panes = { ...state.panes };
  delete panes[paneId];
  let focusedPaneId = state.focusedPaneId;
  if (focusedPaneId === paneId) {
    const i = order.indexOf(paneId);
    // order has at least two panes (checked above), so both i - 1 (when i > 0) and 1 are in range.
    focusedPaneId = order[i > 0 ? i - 1 : 1]!;
  }
  return { ...state, layout, panes, focusedPaneId };
}

/**
 * A split's children after `keep` (null: the child goes), each kept one with its size: a split
 * left with two or more children is `split(children, sizes)` with the sizes normalised, with one
 * child that child, with none null.
 */
function keepChildren<C>(
  children: readonly C[],
  sizeOf: (i: number) => number,
  keep: (child: C) => LayoutNode | null,
  split: (children: LayoutNode[], sizes: number[]) => LayoutNode,
): LayoutNode | null {
  const kept: LayoutNode[] = [];
  const sizes: number[] = [];
  children.forEach((c, i) => {
    const k = keep(c);
    if (k) {
      kept.push(k);
      sizes.push(sizeOf(i));
    }
  });
  if (kept.length < 2) return kept[0] ?? null;
  return split(kept, normaliseSizes(sizes));
}

export function normaliseSizes(sizes: number[]): number[] {
  const total = sizes.reduce((a, b) => a + (b > 0 ? b : 0), 0);
  if (!(total > 0)) return sizes.map(() => 100 / sizes.length);
  return sizes.map((s) => ((s > 0 ? s : 0) / total) * 100);
}

export function setSplitSizes(state: WorkspaceState, splitId: string, sizes: number[]): WorkspaceState {
  let changed = false;
  const walk = (node: LayoutNode): LayoutNode => {
    if (node.type === 'pane') return node;
    if (node.id === splitId) {
      if (sizes.length !== node.children.length || sizes.some((s) => !Number.isFinite(s))) return node;
      if (
        sizes.every((s, i) => {
          const old = node.sizes[i];
          return old !== undefined && Math.abs(s - old) < 0.01;
        })
      )
        return node;
      changed = true;
      return { ...node, sizes: normaliseSizes(sizes) };
    }
    const children = node.children.map(walk);
    return children.some((c, i) => c !== node.children[i]) ? { ...node, children } : node;
  };
  const layout = walk(state.layout);
  return changed ? { ...state, layout } : state;
}

/** Grows (delta > 0) or shrinks the focused pane within its split, taking space from its neighbours. */
export function resizeFocusedPane(state: WorkspaceState, delta: number): WorkspaceState {
  const paneId = state.focusedPaneId;
  const walk = (node: LayoutNode): LayoutNode => {
    if (node.type === 'pane') return node;
    const i = node.children.findIndex((c) => c.type === 'pane' && c.id === paneId);
    if (i < 0) {
      const children = node.children.map(walk);
      return children.some((c, j) => c !== node.children[j]) ? { ...node, children } : node;
    }
    const sizes = node.sizes;
    const current = sizes[i]; // sizes run parallel to children
    if (current === undefined) return node;
    const others = sizes.length - 1;
    const max = 100 - MIN_PANE_SIZE * others;
    const target = Math.min(max, Math.max(MIN_PANE_SIZE, current + delta));
    const change = target - current;
    if (Math.abs(change) < 0.01) return node;
    // Spread the change over the other panes in proportion to what each can give or take.
    const room = (s: number) => (change > 0 ? s - MIN_PANE_SIZE : 100 - s);
    const totalRoom = sizes.reduce((a, s, j) => a + (j === i ? 0 : room(s)), 0);
    if (totalRoom <= 0) return node;
    const next = sizes.map((s, j) => (j === i ? target : s - (change * room(s)) / totalRoom));
    return { ...node, sizes: next };
  };
  const layout = walk(state.layout);
  return layout === state.layout ? state : { ...state, layout };
}

// ---------------------------------------------------------------- tab attributes

function sortPinnedFirst(tabs: Tab[]): Tab[] {
  return [...tabs.filter((t) => t.pinned), ...tabs.filter((t) => !t.pinned)];
}

export function togglePin(state: WorkspaceState, tabId?: string): WorkspaceState {
  const id = tabId ?? focusedTab(state)?.id;
  const hit = id ? findTab(state, id) : null;
  if (!hit) return state;
  const pinned = !hit.tab.pinned;
  const others = hit.pane.tabs.filter((t) => t.id !== hit.tab.id);
  const pinnedCount = others.filter((t) => t.pinned).length;
  const tabs = others.slice();
  // Pinning puts the tab at the end of the pinned group; unpinning at the start of the rest.
  tabs.splice(pinnedCount, 0, { ...hit.tab, pinned });
  return withPane(state, { ...hit.pane, tabs });
}

export function setTabTitle(state: WorkspaceState, tabId: string, title: string): WorkspaceState {
  return updateTab(state, tabId, (t) => (t.title === title ? t : { ...t, title }));
}

export function setTabDirty(state: WorkspaceState, tabId: string, dirty: boolean): WorkspaceState {
  return updateTab(state, tabId, (t) => (t.dirty === dirty ? t : { ...t, dirty }));
}

/** The tab's list state (the query of its href, '' for the defaults) changed; the route stays. */
export function setTabSearch(state: WorkspaceState, tabId: string, search: string): WorkspaceState {
  return updateTab(state, tabId, (t) => {
    const href = hrefKey(t.href) + (search && search !== '?' ? (search.startsWith('?') ? search : `?${search}`) : '');
    return t.href === href ? t : { ...t, href };
  });
}

/** The tab shows another route; the old one is remembered for back(). */
export function navigateTab(state: WorkspaceState, tabId: string, target: TabTarget): WorkspaceState {
  return updateTab(state, tabId, (t) =>
    sameRecord(t.href, target.href)
      ? t
      : { ...t, href: target.href, route: target.route, params: target.params, title: target.title, dirty: false, history: [...t.history, t.href].slice(-50) },
  );
}

/** Previous route of the tab; `null` when it has none (the caller closes the tab then). */
export function backTab(state: WorkspaceState, tabId: string, resolve: (href: string) => TabTarget | null): WorkspaceState | null {
  const hit = findTab(state, tabId);
  if (!hit) return state;
  const history = hit.tab.history.slice();
  while (history.length) {
    const href = history.pop()!;
    const target = resolve(href);
    if (target) {
      return updateTab(state, tabId, (t) => ({
        ...t,
        href: target.href,
        route: target.route,
        params: target.params,
        title: target.title,
        dirty: false,
        history,
      }));
    }
  }
  return null;
}

// ---------------------------------------------------------------- persistence

/**
 * Rebuilds a workspace from stored JSON, dropping whatever no longer makes sense (routes that
 * no longer exist, panes missing from the layout ...). Returns null when nothing is usable.
 */
export function restoreWorkspace(raw: unknown, resolve: (href: string) => TabTarget | null): WorkspaceState | null {
  if (!raw || typeof raw !== 'object') return null;
  const r = raw as Partial<WorkspaceState>;
  if (r.version !== 1 || !r.layout || !r.panes || typeof r.panes !== 'object') return null;
  const panes: Record<string, Pane> = {};
  const seenTabIds = new Set<string>();
  const cleanTab = (t: unknown): Tab | null => {
    const x = t as Partial<Tab> | null;
    if (!x || typeof x.id !== 'string' || typeof x.href !== 'string' || seenTabIds.has(x.id)) return null;
    const target = resolve(x.href);
    if (!target) return null;
    seenTabIds.add(x.id);
    return {
      id: x.id,
      href: target.href,
      route: target.route,
      params: target.params,
      title: typeof x.title === 'string' && x.title ? x.title : target.title,
      pinned: x.pinned === true,
      dirty: false,
      history: Array.isArray(x.history) ? x.history.filter((h): h is string => typeof h === 'string').slice(-50) : [],
    };
  };
  const cleanNode = (n: unknown): LayoutNode | null => {
    const x = n as (Partial<LayoutNode> & { children?: unknown[]; sizes?: unknown[] }) | null;
    if (!x || typeof x.id !== 'string') return null;
    if (x.type === 'pane') {
      const p = (r.panes as Record<string, Partial<Pane>>)[x.id];
      if (!p || panes[x.id]) return null;
      const tabs = sortPinnedFirst((Array.isArray(p.tabs) ? p.tabs : []).map(cleanTab).filter((t): t is Tab => !!t));
      const activeTabId = tabs.some((t) => t.id === p.activeTabId) ? (p.activeTabId as string) : (tabs[0]?.id ?? null);
      panes[x.id] = { id: x.id, tabs, activeTabId };
      return { type: 'pane', id: x.id };
    }
    if (x.type === 'split' && Array.isArray(x.children)) {
      const id = x.id;
      const orientation: Orientation = x.orientation === 'vertical' ? 'vertical' : 'horizontal';
      return keepChildren(
        x.children,
        (i) => Number((x.sizes ?? [])[i]) || 0,
        cleanNode,
        (children, sizes): LayoutNode => ({ type: 'split', id, orientation, children, sizes }),
      );
    }
    return null;
  };
  const layout = cleanNode(r.layout);
  if (!layout) return null;
  // A layout that survived cleaning holds at least one pane.
  const focusedPaneId = panes[r.focusedPaneId as string] ? (r.focusedPaneId as string) : paneOrder({ layout } as WorkspaceState)[0];
  if (!focusedPaneId) return null;
  let s: WorkspaceState = { version: 1, layout, panes, focusedPaneId, closed: [] };
  // Empty panes left over from dropped tabs go, except the last one.
  for (const id of paneOrder(s)) if (!s.panes[id]?.tabs.length && paneOrder(s).length > 1) s = removePane(s, id);
  const closed = Array.isArray(r.closed) ? r.closed : [];
  s.closed = closed
    .map((c) => {
      const tab = c && typeof c === 'object' ? cleanTab((c as ClosedTab).tab) : null;
      return tab ? { tab, paneId: String((c as ClosedTab).paneId), index: Number((c as ClosedTab).index) || 0 } : null;
    })
    .filter((c): c is ClosedTab => !!c)
    .slice(-MAX_CLOSED);
  return s;
}

/** What is stored: the state minus transient flags. */
export function serialiseWorkspace(state: WorkspaceState): string {
  const panes = Object.fromEntries(Object.entries(state.panes).map(([id, p]) => [id, { ...p, tabs: p.tabs.map((t) => ({ ...t, dirty: false })) }]));
  return JSON.stringify({ ...state, panes });
}
