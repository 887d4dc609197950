// The shared list: server paging and sorting, a virtualised body (only the rows in view are in
// the DOM, so a page of 100 or 20,000 rows in "all rows" mode costs the same), a sticky header,
// grid semantics (aria-rowcount counts every row on the server plus the header) and keyboard
// row navigation. Devices, customers and alarm reports reuse it; nothing here knows about persons.
// Keys: the grid itself handles the WAI-ARIA grid keys (arrows, Home/End, PageUp/PageDown); the
// shortcuts j / k / Enter / Ctrl+Enter / x / `/` are commands (commands/list-nav.ts) that reach
// this list through the list registry, via the app's one key dispatcher.
// Rows that open a record (rowHref) are real links: middle click, Ctrl/⌘/Shift-click and "copy
// link" do what they do on any link, while a plain click or Enter opens the workspace tab.
import {
  memo,
  useCallback,
  useEffect,
  useId,
  useMemo,
  useRef,
  useState,
  type CSSProperties,
  type KeyboardEvent,
  type MouseEvent,
  type ReactNode,
  type RefObject,
} from 'react';
import { useVirtualizer } from '@tanstack/react-virtual';
import { MSG } from '../../../shared/messages';
import { EmptyState } from '../empty-state';
import { Pagination } from '../pagination';
import { isBareKey } from './keys';
import { isTypingTarget } from '../../keyboard/keys';
import { registerList } from './list-registry';
import type { DataTableColumn, OpenOptions, SortState } from './types';
import './list-widgets.css';

export const HEADER_HEIGHT = 56;
export const DEFAULT_ROW_HEIGHT = 44;

export type DataTableProps<T> = {
  /** Accessible name of the grid ('Users', 'Devices' ...). */
  label: string;
  columns: DataTableColumn<T>[];
  /** The rows loaded: the current page, or everything loaded so far in "all rows" mode. */
  rows: readonly T[];
  getRowKey: (row: T) => string;
  /**
   * The row's identity on screen (default getRowKey): a row whose key changes but which stays the
   * same line of the list (the bulk list's "looking up" row, filled when its lookup answers) keeps
   * its DOM instead of being removed and drawn anew.
   */
  getRenderKey?: (row: T) => string;
  /** Rows on the server for the current query (aria-rowcount, pagination, empty state). */
  totalCount: number;

  // ---- server paging (page mode). Omit page/pageSize and pass onEndReached for "all rows" mode.
  page?: number;
  pageSize?: number;
  onPageChange?: (page: number) => void;
  onPageSizeChange?: (pageSize: number) => void;
  pageSizes?: readonly number[];

  // ---- "all rows" mode: rows load in chunks as the user scrolls; unloaded rows show a placeholder.
  onEndReached?: () => void;
  hasMore?: boolean;

  sort?: SortState;
  onSortChange?: (sort: SortState) => void;

  /** First load (no rows yet). */
  loading?: boolean;
  /** A refetch is under way while old rows stay visible. */
  fetching?: boolean;
  /** Message to show instead of the rows. */
  error?: string | null;
  onRetry?: () => void;
  emptyMessage?: ReactNode;

  /**
   * Enter / click on a row. `beside` is true for Ctrl/⌘+Enter (and, for rows without rowHref,
   * Ctrl/⌘-click and middle click).
   */
  onOpen?: (row: T, opts: OpenOptions) => void;
  canOpen?: (row: T) => boolean;
  /**
   * The route a row opens (getHref(...)): the row's first cell becomes a link stretched over the
   * whole row, so middle click, Ctrl/⌘/Shift-click and "copy link" work as on any link.
   */
  rowHref?: (row: T) => string | null | undefined;

  selectable?: boolean;
  /** With `selectable`: rows this returns false for have no checkbox and are left out of select-all and `x`. */
  canSelect?: (row: T) => boolean;
  selectedKeys?: ReadonlySet<string>;
  onSelectionChange?: (keys: Set<string>) => void;
  /**
   * Whether every selectable row is selected (the select-all box), when the page keeps that itself:
   * else the table works it out on every render, a pass over all its rows.
   */
  allSelected?: boolean;

  /** The list's filter box: `/` focuses it. */
  filterRef?: RefObject<HTMLElement | null>;
  /**
   * j, k and / work from anywhere in the page while nothing else claims them (the page passes
   * useTab().active so only the focused tab's list reacts). Keys inside the grid always work.
   */
  keyboardActive?: boolean;

  rowHeight?: number;
  /** CSS height of the scrolling area; default: fill the parent, at most 70vh. */
  height?: string;
  /** The table's width until its box is measured (then it shows the columns that fit the box instead). */
  minWidth?: string;
  /** The focusable grid element (pages move focus to it, e.g. Escape or ArrowDown in their search box). */
  gridRef?: RefObject<HTMLDivElement | null>;
  /** The active (keyboard) row changed, e.g. j / k: a preview in another pane can follow it. */
  onActiveChange?: (row: T | undefined) => void;
  /** Where the scroll position is kept (sessionStorage), so it comes back after a reload (useListState gives it). */
  scrollKey?: string;
};

/**
 * Below this width of its box (a pane of a third of a 1024–1440 px window) a table is compact
 * (data-compact): a lone column left is squeezed into the box. At any width a table shows the
 * columns that fit its box (fitColumns) and never scrolls sideways.
 */
export const COMPACT_TABLE_WIDTH = 400;
const SELECT_TRACK = 44;
const DEFAULT_TRACK = 'minmax(120px, 1fr)';

/** The least width of a grid track in px: '160px' → 160, 'minmax(140px, 1fr)' → 140, '10.5rem' → 168; a bare fraction → 0. */
export function trackMinPx(track: string): number {
  const t = track.trim();
  const least = /^minmax\(\s*([^,]+),/.exec(t)?.[1]?.trim() ?? t;
  const m = /^(\d+(?:\.\d+)?)(px|rem)$/.exec(least);
  return m ? Number(m[1]) * (m[2] === 'rem' ? 16 : 1) : 0;
}

/** The least width of a set of columns beside `reserved` px. */
const leastWidth = (columns: readonly { width?: string }[], reserved: number) =>
  columns.reduce((sum, c) => sum + trackMinPx(c.width ?? DEFAULT_TRACK), reserved);

/**
 * The columns a table in a box of `width` px shows, so it never scrolls sideways (the box less
 * `reserved` px, the selection column). All of them while their least widths fit. Else the
 * secondary columns (hideBelow) go first, in the order a narrowing pane drops them (the highest
 * hideBelow first; of equal ones the later column), until the rest fit. If they still do not,
 * the primary columns (or the first) stay, then the others, each while its least width still
 * fits; in their own order. The first one taken always stays, squeezed into the box if it must.
 */
export function fitColumns<C extends { width?: string; primary?: boolean; hideBelow?: number }>(columns: readonly C[], width: number, reserved = 0): C[] {
  if (leastWidth(columns, reserved) <= width) return columns.slice();
  const secondary = columns
    .map((c, i) => ({ c, i }))
    .filter(({ c }) => c.hideBelow !== undefined && !c.primary)
    .sort((a, b) => b.c.hideBelow! - a.c.hideBelow! || b.i - a.i)
    .map(({ c }) => c);
  let left = columns.slice();
  for (const c of secondary) {
    left = left.filter((k) => k !== c);
    if (leastWidth(left, reserved) <= width) return left;
  }
  return fitLeading(left, width, reserved);
}

/** The primary columns (or the first), then the others in their order while each still fits. */
function fitLeading<C extends { width?: string; primary?: boolean }>(columns: readonly C[], width: number, reserved: number): C[] {
  const first = columns.some((c) => c.primary) ? columns.filter((c) => c.primary) : columns.slice(0, 1);
  const rest = columns.filter((c) => !first.includes(c));
  const kept = new Set<C>();
  let used = reserved;
  for (const c of [...first, ...rest]) {
    const least = trackMinPx(c.width ?? DEFAULT_TRACK);
    if (kept.size > 0 && used + least > width) continue;
    kept.add(c);
    used += least;
  }
  return columns.filter((c) => kept.has(c));
}

/** The width of an element's box, following resizes (null until measured). */
function useBoxWidth(ref: RefObject<HTMLElement | null>): number | null {
  const [width, setWidth] = useState<number | null>(null);
  useEffect(() => {
    const el = ref.current;
    if (!el || typeof ResizeObserver === 'undefined') return;
    const ro = new ResizeObserver(([entry]) => {
      // Tabs hidden in their pane measure 0: keep the last real width.
      const w = Math.floor(entry?.contentRect.width ?? 0);
      if (w > 0) setWidth((prev) => (prev === w ? prev : w));
    });
    ro.observe(el);
    return () => ro.disconnect();
  }, [ref]);
  return width;
}

function readScroll(key: string): string | null {
  try {
    return sessionStorage.getItem(key);
  } catch {
    return null;
  }
}
function writeScroll(key: string, top: string) {
  try {
    sessionStorage.setItem(key, top);
  } catch {
    // storage full or blocked: the position is simply not kept
  }
}

/** A cell whose text is cut off gets its full text as a tooltip when hovered or focused. */
function revealTruncated(e: { target: EventTarget }) {
  const cell = e.target instanceof Element ? e.target.closest<HTMLElement>('.lw-cell') : null;
  if (!cell) return;
  const clipped = cell.scrollWidth > cell.clientWidth || [...cell.querySelectorAll<HTMLElement>('*')].some((c) => c.scrollWidth > c.clientWidth);
  const text = cell.textContent?.trim() ?? '';
  if (clipped && text) cell.title = text;
  else cell.removeAttribute('title');
}

const cellAlign = (a?: 'start' | 'center' | 'end') => (a === 'center' ? 'lw-cell--center' : a === 'end' ? 'lw-cell--end' : '');

type RowCellsProps<T> = {
  row: T;
  columns: readonly DataTableColumn<T>[];
  selectable: boolean;
  /** undefined: the row cannot be selected (no checkbox). */
  selected: boolean | undefined;
  href: string | null | undefined;
  onToggle: (row: T) => void;
};

/**
 * A row's cells. Memoised on the row itself (and its selection and link), not on its place: when
 * rows are added above (the bulk list puts each scan on top), the rows already shown move down
 * without their cells being drawn again.
 */
const RowCells = memo(function RowCells<T>({ row, columns, selectable, selected, href, onToggle }: RowCellsProps<T>) {
  return (
    <>
      {selectable && (
        <div role="gridcell" className="lw-cell lw-cell--center">
          {selected !== undefined && <input type="checkbox" aria-label="Select row" checked={selected} onChange={() => onToggle(row)} />}
        </div>
      )}
      {columns.map((col, ci) => (
        <div key={col.id} role="gridcell" className={`lw-cell ${cellAlign(col.align)}`}>
          {href && ci === 0 ? (
            // Out of the Tab order: the grid moves the focus (aria-activedescendant).
            <a href={href} className="lw-row-link" tabIndex={-1}>
              {col.cell(row)}
            </a>
          ) : (
            col.cell(row)
          )}
        </div>
      ))}
    </>
  );
}) as <T>(props: RowCellsProps<T>) => ReactNode;

const INTERACTIVE = 'a,button,input,select,textarea,label,[role="checkbox"],[role="button"]';

export function DataTable<T>(props: DataTableProps<T>) {
  const {
    label,
    columns: allColumns,
    rows,
    getRowKey,
    getRenderKey,
    totalCount,
    page,
    pageSize,
    onPageChange,
    onPageSizeChange,
    pageSizes,
    onEndReached,
    hasMore,
    sort,
    onSortChange,
    loading,
    fetching,
    error,
    onRetry,
    emptyMessage,
    onOpen,
    canOpen,
    rowHref,
    selectable,
    canSelect,
    selectedKeys,
    onSelectionChange,
    allSelected,
    filterRef,
    keyboardActive,
    rowHeight = DEFAULT_ROW_HEIGHT,
    height,
    minWidth = '720px',
    gridRef,
    onActiveChange,
    scrollKey,
  } = props;

  const baseId = useId();
  const scrollRef = useRef<HTMLDivElement>(null);
  const setScrollEl = useCallback(
    (el: HTMLDivElement | null) => {
      scrollRef.current = el;
      if (gridRef) gridRef.current = el;
    },
    [gridRef],
  );
  // Secondary columns go when the table's own box (its pane) is too narrow for them (hideBelow);
  // then, whatever the width, the columns that still do not fit the box go too (fitColumns): a
  // list never scrolls sideways once its box is measured. Open a row or widen the pane for the rest.
  const boxWidth = useBoxWidth(scrollRef);
  const compact = boxWidth !== null && boxWidth < COMPACT_TABLE_WIDTH;
  const columns = useMemo(() => {
    if (boxWidth === null) return allColumns;
    const shown = allColumns.filter((c) => !c.hideBelow || boxWidth >= c.hideBelow);
    return fitColumns(shown, boxWidth, selectable ? SELECT_TRACK : 0);
  }, [allColumns, boxWidth, selectable]);
  // Until the box is measured (the first paint, or no ResizeObserver) the table keeps its full width.
  const contentMinWidth = boxWidth === null ? minWidth : undefined;
  const infinite = !!onEndReached;
  const paged = page !== undefined && pageSize !== undefined;
  const rowOffset = paged ? (page - 1) * pageSize : 0;
  const count = infinite && hasMore ? Math.max(rows.length, totalCount) : rows.length;
  const showEmpty = !loading && !error && totalCount === 0;

  const [active, setActive] = useState(0);
  // A new page (or a new sort) starts at its first row, scrolled to the top.
  useEffect(() => {
    setActive(0);
    scrollRef.current?.scrollTo?.({ top: 0 });
  }, [rowOffset, sort?.key, sort?.desc]);
  // The kept scroll position comes back once, when the first rows are there.
  const scrollRestored = useRef(false);
  useEffect(() => {
    if (scrollRestored.current || !scrollKey || rows.length === 0) return;
    scrollRestored.current = true;
    const top = Number(readScroll(scrollKey));
    if (top > 0) scrollRef.current?.scrollTo?.({ top });
  }, [rows.length, scrollKey]);
  const scrollSave = useRef(0);
  const onScroll = () => {
    if (!scrollKey || !scrollRestored.current || scrollSave.current) return;
    scrollSave.current = requestAnimationFrame(() => {
      scrollSave.current = 0;
      writeScroll(scrollKey, String(Math.round(scrollRef.current?.scrollTop ?? 0)));
    });
  };
  const activeIndex = Math.min(active, Math.max(count - 1, 0));
  const activeRow = rows[activeIndex];
  const onActiveChangeRef = useRef(onActiveChange);
  onActiveChangeRef.current = onActiveChange;
  useEffect(() => onActiveChangeRef.current?.(activeRow), [activeRow]);

  const rowKeyRef = useRef(getRenderKey ?? getRowKey);
  rowKeyRef.current = getRenderKey ?? getRowKey;
  const getItemKey = useCallback((i: number) => (rows[i] ? rowKeyRef.current(rows[i]) : `__placeholder-${i}`), [rows]);
  const virtualizer = useVirtualizer({
    count,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => rowHeight,
    overscan: 8,
    scrollMargin: HEADER_HEIGHT,
    scrollPaddingStart: HEADER_HEIGHT,
    // Stable between renders: a new function makes the virtualiser re-measure every row
    // (20,000 rows: ~1.2 s of script per 300 scroll steps, against ~50 ms with a stable one).
    getItemKey,
    // React 19 batches scroll updates well enough; flushSync inside layout effects only warns.
    useFlushSync: false,
  });
  const items = virtualizer.getVirtualItems();

  // "All rows" mode: ask for more when the rendered window reaches the last loaded row.
  const requestedAt = useRef(-1);
  const lastRendered = items.at(-1)?.index ?? -1;
  useEffect(() => {
    if (!infinite || !hasMore || fetching) return;
    if (lastRendered >= rows.length - 1 - 10 && requestedAt.current !== rows.length) {
      requestedAt.current = rows.length;
      onEndReached?.();
    }
  }, [infinite, hasMore, fetching, lastRendered, rows.length, onEndReached]);

  const gridTemplate = useMemo(() => {
    // A compact table's lone column may be wider than the box: it shrinks (its text is cut off, with the full text on hover).
    const squeeze = compact && columns.length === 1;
    return [...(selectable ? [`${SELECT_TRACK}px`] : []), ...columns.map((c) => (squeeze ? 'minmax(0, 1fr)' : (c.width ?? DEFAULT_TRACK)))].join(' ');
  }, [columns, selectable, compact]);
  const colCount = columns.length + (selectable ? 1 : 0);
  const rowStyle: CSSProperties = { gridTemplateColumns: gridTemplate, height: rowHeight };

  const rowId = (i: number) => `${baseId}-row-${i}`;
  const openable = (row: T | undefined): row is T => !!row && !!onOpen && (canOpen ? canOpen(row) : true);
  const rowSelectable = (row: T | undefined): row is T => !!selectable && !!row && (canSelect ? canSelect(row) : true);

  const moveTo = useCallback(
    (i: number) => {
      const last = infinite ? rows.length - 1 : count - 1;
      if (last < 0) return;
      const next = Math.min(Math.max(i, 0), last);
      setActive(next);
      virtualizer.scrollToIndex(next, { align: 'auto' });
      if (infinite && hasMore && next >= rows.length - 1) onEndReached?.();
    },
    [count, infinite, hasMore, rows.length, onEndReached, virtualizer],
  );

  const toggleSelected = useCallback(
    (row: T) => {
      if (!selectable || !onSelectionChange || (canSelect && !canSelect(row))) return;
      const key = getRowKey(row);
      const next = new Set(selectedKeys ?? []);
      if (next.has(key)) next.delete(key);
      else next.add(key);
      onSelectionChange(next);
    },
    [selectable, canSelect, onSelectionChange, selectedKeys, getRowKey],
  );
  // The rows' checkboxes call the latest toggleSelected through one stable function, so a
  // selection change redraws only the rows whose checkbox changed.
  const toggleRef = useRef(toggleSelected);
  toggleRef.current = toggleSelected;
  const onToggleRow = useCallback((row: T) => toggleRef.current(row), []);

  const pageStep = Math.max(1, Math.floor(((scrollRef.current?.clientHeight ?? 0) - HEADER_HEIGHT) / rowHeight) - 1);

  // WAI-ARIA grid keys stay with the grid; j / k / Enter / x / `/` are commands (list-nav.ts).
  const onGridKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    if (e.defaultPrevented || isTypingTarget(e.target) || !isBareKey(e)) return;
    switch (e.key) {
      case 'ArrowDown':
        moveTo(activeIndex + 1);
        break;
      case 'ArrowUp':
        moveTo(activeIndex - 1);
        break;
      case 'Home':
        moveTo(0);
        break;
      case 'End':
        moveTo(count - 1);
        break;
      case 'PageDown':
        moveTo(activeIndex + pageStep);
        break;
      case 'PageUp':
        moveTo(activeIndex - pageStep);
        break;
      default:
        return;
    }
    e.preventDefault();
  };

  // What the list.* commands act on. Read through a ref: the registration lives as long as the table.
  const live = useRef({ moveTo, activeIndex, rows, openable, onOpen, rowSelectable, toggleSelected, filterRef, keyboardActive });
  live.current = { moveTo, activeIndex, rows, openable, onOpen, rowSelectable, toggleSelected, filterRef, keyboardActive };
  useEffect(
    () =>
      registerList({
        element: () => scrollRef.current,
        active: () => !!live.current.keyboardActive,
        move: (delta) => {
          const s = live.current;
          if (document.activeElement !== scrollRef.current && !scrollRef.current?.contains(document.activeElement)) {
            scrollRef.current?.focus({ preventScroll: true });
          }
          s.moveTo(s.activeIndex + delta);
        },
        canOpen: () => live.current.openable(live.current.rows[live.current.activeIndex]),
        open: (beside) => {
          const s = live.current;
          const row = s.rows[s.activeIndex];
          if (s.openable(row)) s.onOpen!(row, { beside });
        },
        selectable: () => live.current.rowSelectable(live.current.rows[live.current.activeIndex]),
        toggleSelect: () => {
          const s = live.current;
          const row = s.rows[s.activeIndex];
          if (row) s.toggleSelected(row);
        },
        hasFilter: () => !!live.current.filterRef?.current,
        focusFilter: () => live.current.filterRef?.current?.focus(),
      }),
    [],
  );

  const onRowClick = (e: MouseEvent, index: number) => {
    const target = e.target as Element;
    const control = target.closest(INTERACTIVE);
    const onRowLink = !!control?.matches('.lw-row-link');
    if (control && control !== e.currentTarget && !onRowLink) return;
    // A modified click on a row link is the browser's (new tab / window, download).
    if (onRowLink && (e.ctrlKey || e.metaKey || e.shiftKey || e.altKey || e.button !== 0)) return;
    if (onRowLink) e.preventDefault();
    setActive(index);
    scrollRef.current?.focus({ preventScroll: true });
    const row = rows[index];
    if (openable(row)) onOpen!(row, { beside: !onRowLink && (e.ctrlKey || e.metaKey) });
  };
  const onRowAuxClick = (e: MouseEvent, index: number) => {
    if (e.button !== 1) return;
    if ((e.target as Element).closest('.lw-row-link')) return; // the link opens a browser tab
    const row = rows[index];
    if (openable(row)) {
      e.preventDefault();
      onOpen!(row, { beside: true });
    }
  };

  const clickSort = (key: string) => {
    if (!onSortChange) return;
    onSortChange(sort?.key === key ? { key, desc: !sort.desc } : { key, desc: false });
  };

  const selectableRows = () => (selectable ? (canSelect ? rows.filter(canSelect) : rows) : []);
  const allOnPageSelected =
    allSelected ??
    (() => {
      const all = selectableRows();
      return all.length > 0 && all.every((r) => selectedKeys?.has(getRowKey(r)));
    })();
  const toggleAll = () => {
    if (!onSelectionChange) return;
    const next = new Set(selectedKeys ?? []);
    for (const r of selectableRows()) {
      if (allOnPageSelected) next.delete(getRowKey(r));
      else next.add(getRowKey(r));
    }
    onSelectionChange(next);
  };

  const showRows = !error && !showEmpty && !(loading && rows.length === 0);
  const activeRowRendered = showRows && items.some((it) => it.index === activeIndex) && !!rows[activeIndex];
  // The keyboard's active row is "focused": while the grid has the focus, its cut-off cells carry
  // their full text too. Only then: measuring the row forces a layout, and a list that changes many
  // times a second while the focus is elsewhere (a scanner typing into the bulk page) must not pay it.
  const revealActiveRow = () => {
    const grid = scrollRef.current;
    if (!activeRowRendered || !grid?.contains(document.activeElement)) return;
    const row = document.getElementById(rowId(activeIndex));
    row?.querySelectorAll('.lw-cell').forEach((cell) => revealTruncated({ target: cell }));
  };
  useEffect(revealActiveRow);

  return (
    <div className="lw-dt" data-fetching={fetching || undefined}>
      <div
        ref={setScrollEl}
        role="grid"
        data-compact={compact || undefined}
        aria-label={label}
        aria-rowcount={(showRows ? Math.max(totalCount, count) : 0) + 1}
        aria-colcount={colCount}
        aria-busy={loading || fetching || undefined}
        aria-multiselectable={selectable || undefined}
        aria-activedescendant={activeRowRendered ? rowId(activeIndex) : undefined}
        tabIndex={0}
        className="lw-dt__scroll"
        style={height ? { height, maxHeight: 'none' } : undefined}
        onKeyDown={onGridKeyDown}
        onScroll={onScroll}
        onPointerOver={revealTruncated}
        onFocus={(e) => {
          revealTruncated(e);
          revealActiveRow();
        }}
      >
        <div className="lw-dt__content" style={{ minWidth: contentMinWidth }}>
          <div role="rowgroup" className="lw-dt__head">
            <div role="row" aria-rowindex={1} className="lw-dt__row lw-dt__row--head" style={{ gridTemplateColumns: gridTemplate, height: HEADER_HEIGHT }}>
              {selectable && (
                <div role="columnheader" aria-colindex={1} className="lw-cell lw-cell--center">
                  <input type="checkbox" aria-label="Select all rows on this page" checked={!!allOnPageSelected} onChange={toggleAll} />
                </div>
              )}
              {columns.map((col, ci) => {
                const isSorted = !!col.sortKey && sort?.key === col.sortKey;
                const ariaSort = col.sortKey ? (isSorted ? (sort!.desc ? 'descending' : 'ascending') : 'none') : undefined;
                return (
                  <div
                    key={col.id}
                    role="columnheader"
                    aria-colindex={ci + 1 + (selectable ? 1 : 0)}
                    aria-sort={ariaSort}
                    className={`lw-cell lw-cell--head ${cellAlign(col.align)}`}
                  >
                    {col.sortKey && onSortChange ? (
                      <button type="button" className="lw-sort-btn" onClick={() => clickSort(col.sortKey!)}>
                        <span>{col.renderHeader ? col.renderHeader() : col.header}</span>
                        <span className="lw-sort-icon" aria-hidden="true" data-state={isSorted ? (sort!.desc ? 'desc' : 'asc') : 'none'}>
                          {isSorted ? (sort!.desc ? '▼' : '▲') : '↕'}
                        </span>
                      </button>
                    ) : (
                      <span>{col.renderHeader ? col.renderHeader() : col.header}</span>
                    )}
                  </div>
                );
              })}
            </div>
          </div>

          {showRows && (
            <div role="rowgroup" className="lw-dt__body" style={{ height: virtualizer.getTotalSize() }}>
              {items.map((item) => {
                const row = rows[item.index];
                const index = item.index;
                const style: CSSProperties = { ...rowStyle, transform: `translateY(${item.start - HEADER_HEIGHT}px)` };
                if (!row) {
                  return (
                    <div key={item.key} role="row" aria-rowindex={rowOffset + index + 2} className="lw-dt__row lw-dt__row--placeholder" style={style}>
                      <div role="gridcell" className="lw-cell" style={{ gridColumn: `1 / span ${colCount}` }}>
                        <span className="lw-skeleton" aria-hidden="true" />
                        <span className="lw-sr-only">Loading…</span>
                      </div>
                    </div>
                  );
                }
                const key = getRowKey(row);
                const selected = rowSelectable(row) ? !!selectedKeys?.has(key) : undefined;
                const href = rowHref && openable(row) ? rowHref(row) : null;
                return (
                  <div
                    key={item.key}
                    id={rowId(index)}
                    role="row"
                    aria-rowindex={rowOffset + index + 2}
                    aria-selected={selected}
                    data-active={index === activeIndex || undefined}
                    data-openable={openable(row) || undefined}
                    data-linked={href ? true : undefined}
                    className="lw-dt__row"
                    style={style}
                    onClick={(e) => onRowClick(e, index)}
                    onAuxClick={(e) => onRowAuxClick(e, index)}
                  >
                    <RowCells row={row} columns={columns} selectable={!!selectable} selected={selected} href={href} onToggle={onToggleRow} />
                  </div>
                );
              })}
            </div>
          )}
        </div>

        {/* The states sit in a row of their own: a grid holds rows only. */}
        {((loading && rows.length === 0 && !error) || !!error || showEmpty) && (
          <div role="row" className="lw-dt__state-row">
            <div role="gridcell" aria-colspan={colCount} className="lw-dt__state-row">
              {loading && rows.length === 0 && !error && (
                <div className="lw-dt__state" role="status">
                  <span className="lw-spinner" aria-hidden="true" /> Loading…
                </div>
              )}
              {error && (
                <div className="lw-dt__state lw-dt__state--error" role="alert">
                  <p>{error}</p>
                  {onRetry && (
                    <button type="button" className="lw-btn" onClick={onRetry}>
                      Retry
                    </button>
                  )}
                </div>
              )}
              {showEmpty && <EmptyState message={emptyMessage ?? MSG.noResultsFound} />}
            </div>
          </div>
        )}
      </div>

      {paged && onPageChange && totalCount > 0 && (
        <Pagination
          page={page}
          pageSize={pageSize}
          totalCount={totalCount}
          onPageChange={onPageChange}
          onPageSizeChange={onPageSizeChange}
          pageSizes={pageSizes}
          label={`${label} pages`}
        />
      )}
    </div>
  );
}
