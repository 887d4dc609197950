// The state of a list tab (filters, search, sort, page, page size) lives in the tab's link: the
// query string of the tab's href. So it survives a reload (the saved layout keeps the href), a
// copied link opens the same list, and the browser's Back walks the changes (each one is a history
// entry of the focused tab). The scroll position is kept per tab in sessionStorage (it is not part
// of a shared link). Every list page uses useListState (through useListPage); nothing else stores
// list state.
//
// Query format (only what differs from the page's defaults is written):
//   page=3  size=50  sort=Name | sort=-Name (descending)  q=<search>  f.<filterId>=<value>
// A filter value is the text itself, or JSON for lists, options and switches. `f=` alone marks
// "filters cleared" when the defaults are not empty.
import { useCallback, useEffect, useMemo, useRef, useState, type SetStateAction } from 'react';
import { useAtomValue } from 'jotai';
import { selectAtom } from 'jotai/utils';
import type { SortState } from '../ui/data-table/types';
import { isEmptyValue, type FilterValue, type FilterValues } from '../ui/filter-bar';
import { useTab } from './tab-context';
import { workspaceAtom } from './state';
import { findTab } from './model';
import { setTabSearch } from './actions';

/** What a list page keeps: paging and sort, and its filters (with their search box) or a bare search. */
export type ListState = { page: number; pageSize: number; sort?: SortState; filters?: FilterValues; search?: string };

const FILTER_PREFIX = 'f.';

/** A filter value in the query: plain text stays as typed; anything that would read back as non-text is JSON. */
export function encodeFilterValue(v: FilterValue): string {
  if (typeof v === 'string') {
    try {
      const back: unknown = JSON.parse(v);
      return typeof back === 'number' ? v : JSON.stringify(v);
    } catch {
      return v;
    }
  }
  return JSON.stringify(v);
}

export function decodeFilterValue(raw: string): FilterValue {
  try {
    const v: unknown = JSON.parse(raw);
    if (typeof v === 'number') return raw;
    if (typeof v === 'string' || typeof v === 'boolean' || Array.isArray(v)) return v as FilterValue;
    if (v && typeof v === 'object' && 'value' in v && 'label' in v) return v as FilterValue;
    return raw;
  } catch {
    return raw;
  }
}

const sameJson = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** The list state as a query string ('' when it is the defaults), e.g. '?page=2&sort=-Name&f.search=ann'. */
export function encodeListState<S extends ListState>(state: S, initial: S): string {
  const q = new URLSearchParams();
  if (state.page !== initial.page) q.set('page', String(state.page));
  if (state.pageSize !== initial.pageSize) q.set('size', String(state.pageSize));
  if (state.sort && !sameJson(state.sort, initial.sort)) q.set('sort', `${state.sort.desc ? '-' : ''}${state.sort.key}`);
  if (state.search !== undefined && state.search !== initial.search) q.set('q', state.search);
  if (state.filters && !sameJson(clean(state.filters), clean(initial.filters ?? {}))) {
    const entries = Object.entries(clean(state.filters));
    if (!entries.length) q.set('f', '');
    for (const [id, v] of entries) q.set(FILTER_PREFIX + id, encodeFilterValue(v));
  }
  const s = q.toString();
  return s ? `?${s}` : '';
}

/**
 * The list state a query string names; whatever is missing or unreadable is the default. `bare`
 * names the filters a link may also give without the prefix ('?entity=device' as 'f.entity=device';
 * the prefixed one wins), so a hand-written link filters as it reads.
 */
export function decodeListState<S extends ListState>(query: string, initial: S, bare: readonly string[] = []): S {
  const q = new URLSearchParams(query);
  const out: S = { ...initial };
  const page = Number(q.get('page'));
  if (Number.isInteger(page) && page >= 1) out.page = page;
  const size = Number(q.get('size'));
  if (Number.isInteger(size) && size >= 1 && size <= 1000) out.pageSize = size;
  const sort = q.get('sort');
  if (sort && sort !== '-') out.sort = sort.startsWith('-') ? { key: sort.slice(1), desc: true } : { key: sort, desc: false };
  const search = q.get('q');
  if (search !== null && initial.search !== undefined) out.search = search;
  const filterKeys = [...q.keys()].filter((k) => k.startsWith(FILTER_PREFIX));
  const bareKeys = bare.filter((k) => q.has(k) && !q.has(FILTER_PREFIX + k));
  if (initial.filters && (filterKeys.length || bareKeys.length || q.has('f'))) {
    const filters: FilterValues = {};
    for (const k of bareKeys) filters[k] = decodeFilterValue(q.get(k) ?? '');
    for (const k of filterKeys) filters[k.slice(FILTER_PREFIX.length)] = decodeFilterValue(q.get(k) ?? '');
    out.filters = filters;
  }
  return out;
}

function clean(values: FilterValues): FilterValues {
  return Object.fromEntries(Object.entries(values).filter(([, v]) => !isEmptyValue(v)));
}

/** The query part of an href ('' when none). */
export const searchOf = (href: string): string => {
  const i = href.indexOf('?');
  return i < 0 ? '' : href.slice(i).split('#')[0]!;
};

/**
 * A list page's state, kept in its tab's link. Outside a workspace tab (unit tests, a page
 * rendered on its own) it is plain component state.
 */
export function useListState<S extends ListState>(initial: S, bare: readonly string[] = []): [S, (next: SetStateAction<S>) => void, string] {
  const { tabId } = useTab();
  const hrefAtom = useMemo(() => selectAtom(workspaceAtom, (ws) => findTab(ws, tabId)?.tab.href ?? null), [tabId]);
  const href = useAtomValue(hrefAtom);
  const initialRef = useRef(initial);
  const bareRef = useRef(bare);
  const [local, setLocal] = useState<S>(initial);
  const search = href === null ? null : searchOf(href);
  const state = useMemo(() => (search === null ? local : decodeListState(search, initialRef.current, bareRef.current)), [search, local]);
  const stateRef = useRef(state);
  const inTab = useRef(href !== null);
  useEffect(() => {
    stateRef.current = state;
    inTab.current = href !== null;
  }, [state, href]);
  // The setter stays the same while the link changes: effects that set the state run on their own
  // changes, not on every step of the list (a stale value of theirs would undo a Back).
  const set = useCallback(
    (next: SetStateAction<S>) => {
      const prev = stateRef.current;
      const v = typeof next === 'function' ? (next as (p: S) => S)(prev) : next;
      stateRef.current = v;
      if (!inTab.current) setLocal(v);
      else setTabSearch(tabId, encodeListState(v, initialRef.current));
    },
    [tabId],
  );
  return [state, set, `${tabId}::scroll`];
}
