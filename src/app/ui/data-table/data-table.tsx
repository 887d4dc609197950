// The shared list: server paging and sorting, a virtualised body (only the rows in view are in
// the DOM, so a page of 100 or 20,000 rows in "all rows" mode costs the same), a sticky header,
// grid semantics (aria-rowcount counts every row on the server plus the header) and keyboard
// row navigation. Devices, customers and alarm reports reuse it; nothing here knows about persons.
import { useCallback, useEffect, useId, useMemo, useRef, useState, type CSSProperties, type KeyboardEvent, type MouseEvent, type ReactNode, type RefObject } from 'react';
import { useVirtualizer } from '@tanstack/react-virtual';
import { MSG } from '../../../shared/messages';
import { EmptyState } from '../empty-state';
import { Pagination } from '../pagination';
import { isBareKey, isInOverlay, isTypingTarget } from './keys';
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

  /** Enter / click on a row. `beside` is true for Ctrl/⌘+Enter, Ctrl/⌘-click and middle click. */
  onOpen?: (row: T, opts: OpenOptions) => void;
  canOpen?: (row: T) => boolean;

  selectable?: boolean;
  selectedKeys?: ReadonlySet<string>;
  onSelectionChange?: (keys: Set<string>) => void;

  /** The list's filter box: `/` focuses it. */
  filterRef?: RefObject<HTMLElement | null>;
  /**
   * Listen for j, k and / on the whole document while nothing else claims them (the page passes
   * useTab().active so only the focused tab's list reacts). Keys inside the grid always work.
   */
  keyboardActive?: boolean;

  rowHeight?: number;
  /** CSS height of the scrolling area; default: fill the parent, at most 70vh. */
  height?: string;
  /** Below this width the table scrolls sideways. */
  minWidth?: string;
  /** The focusable grid element (pages move focus to it, e.g. Escape or ArrowDown in their search box). */
  gridRef?: RefObject<HTMLDivElement | null>;
};

const cellAlign = (a?: 'start' | 'center' | 'end') => (a === 'center' ? 'lw-cell--center' : a === 'end' ? 'lw-cell--end' : '');
const INTERACTIVE = 'a,button,input,select,textarea,label,[role="checkbox"],[role="button"]';

export function DataTable<T>(props: DataTableProps<T>) {
  const {
    label, columns, rows, getRowKey, totalCount, page, pageSize, onPageChange, onPageSizeChange, pageSizes,
    onEndReached, hasMore, sort, onSortChange, loading, fetching, error, onRetry, emptyMessage,
    onOpen, canOpen, selectable, selectedKeys, onSelectionChange, filterRef, keyboardActive,
    rowHeight = DEFAULT_ROW_HEIGHT, height, minWidth = '720px', gridRef,
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
  const activeIndex = Math.min(active, Math.max(count - 1, 0));

  const rowKeyRef = useRef(getRowKey);
  rowKeyRef.current = getRowKey;
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
  const lastRendered = items.length ? items[items.length - 1].index : -1;
  useEffect(() => {
    if (!infinite || !hasMore || fetching) return;
    if (lastRendered >= rows.length - 1 - 10 && requestedAt.current !== rows.length) {
      requestedAt.current = rows.length;
      onEndReached?.();
    }
  }, [infinite, hasMore, fetching, lastRendered, rows.length, onEndReached]);

  const gridTemplate = useMemo(
    () => [...(selectable ? ['44px'] : []), ...columns.map((c) => c.width ?? 'minmax(120px, 1fr)')].join(' '),
    [columns, selectable],
  );
  const colCount = columns.length + (selectable ? 1 : 0);
  const rowStyle: CSSProperties = { gridTemplateColumns: gridTemplate, height: rowHeight };

  const rowId = (i: number) => `${baseId}-row-${i}`;
  const openable = (row: T | undefined): row is T => !!row && !!onOpen && (canOpen ? canOpen(row) : true);

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
      if (!selectable || !onSelectionChange) return;
      const key = getRowKey(row);
      const next = new Set(selectedKeys ?? []);
      if (next.has(key)) next.delete(key);
      else next.add(key);
      onSelectionChange(next);
    },
    [selectable, onSelectionChange, selectedKeys, getRowKey],
  );

  const pageStep = Math.max(1, Math.floor(((scrollRef.current?.clientHeight ?? 0) - HEADER_HEIGHT) / rowHeight) - 1);

  const onGridKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    if (e.defaultPrevented || isTypingTarget(e.target)) return;
    const onGrid = e.target === e.currentTarget;
    const bare = isBareKey(e);
    let handled = true;
    switch (e.key) {
      case 'j':
      case 'ArrowDown':
        if (!bare) return;
        moveTo(activeIndex + 1);
        break;
      case 'k':
      case 'ArrowUp':
        if (!bare) return;
        moveTo(activeIndex - 1);
        break;
      case 'Home':
        if (!bare) return;
        moveTo(0);
        break;
      case 'End':
        if (!bare) return;
        moveTo(count - 1);
        break;
      case 'PageDown':
        moveTo(activeIndex + pageStep);
        break;
      case 'PageUp':
        moveTo(activeIndex - pageStep);
        break;
      case 'Enter': {
        // Enter on a header button sorts; only Enter on the grid itself opens the active row.
        if (!onGrid || e.altKey) return;
        const row = rows[activeIndex];
        if (!openable(row)) return;
        onOpen!(row, { beside: e.ctrlKey || e.metaKey });
        break;
      }
      case 'x':
        if (!bare || !selectable || !rows[activeIndex]) return;
        toggleSelected(rows[activeIndex]);
        break;
      case '/':
        if (!bare || !filterRef?.current) return;
        filterRef.current.focus();
        break;
      default:
        handled = false;
    }
    if (handled) e.preventDefault();
  };

  // j / k / '/' from anywhere in the focused tab while nothing else is being typed into.
  const keyState = useRef({ moveTo, activeIndex, filterRef });
  keyState.current = { moveTo, activeIndex, filterRef };
  useEffect(() => {
    if (!keyboardActive) return;
    const onKey = (e: globalThis.KeyboardEvent) => {
      if (e.defaultPrevented || !isBareKey(e) || isTypingTarget(e.target) || isInOverlay(e.target)) return;
      if (e.target instanceof Element && e.target.closest('[role="grid"]')) return; // another list owns it
      const s = keyState.current;
      if (e.key === '/' && s.filterRef?.current) {
        e.preventDefault();
        s.filterRef.current.focus();
      } else if (e.key === 'j' || e.key === 'k') {
        e.preventDefault();
        scrollRef.current?.focus({ preventScroll: true });
        s.moveTo(s.activeIndex + (e.key === 'j' ? 1 : -1));
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [keyboardActive]);

  const onRowClick = (e: MouseEvent, index: number) => {
    const target = e.target as Element;
    if (target.closest(INTERACTIVE) && target.closest(INTERACTIVE) !== e.currentTarget) return;
    setActive(index);
    scrollRef.current?.focus({ preventScroll: true });
    const row = rows[index];
    if (openable(row)) onOpen!(row, { beside: e.ctrlKey || e.metaKey });
  };
  const onRowAuxClick = (e: MouseEvent, index: number) => {
    if (e.button !== 1) return;
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

  const allOnPageSelected = selectable && rows.length > 0 && rows.every((r) => selectedKeys?.has(getRowKey(r)));
  const toggleAll = () => {
    if (!onSelectionChange) return;
    const next = new Set(selectedKeys ?? []);
    for (const r of rows) {
      if (allOnPageSelected) next.delete(getRowKey(r));
      else next.add(getRowKey(r));
    }
    onSelectionChange(next);
  };

  const showRows = !error && !showEmpty && !(loading && rows.length === 0);
  const activeRowRendered = showRows && items.some((it) => it.index === activeIndex) && !!rows[activeIndex];

  return (
    <div className="lw-dt" data-fetching={fetching || undefined}>
      <div
        ref={setScrollEl}
        role="grid"
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
      >
        <div className="lw-dt__content" style={{ minWidth }}>
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
                const selected = selectable ? !!selectedKeys?.has(key) : undefined;
                return (
                  <div
                    key={item.key}
                    id={rowId(index)}
                    role="row"
                    aria-rowindex={rowOffset + index + 2}
                    aria-selected={selected}
                    data-active={index === activeIndex || undefined}
                    data-openable={openable(row) || undefined}
                    className="lw-dt__row"
                    style={style}
                    onClick={(e) => onRowClick(e, index)}
                    onAuxClick={(e) => onRowAuxClick(e, index)}
                  >
                    {selectable && (
                      <div role="gridcell" className="lw-cell lw-cell--center">
                        <input type="checkbox" aria-label="Select row" checked={!!selected} onChange={() => toggleSelected(row)} />
                      </div>
                    )}
                    {columns.map((col) => (
                      <div key={col.id} role="gridcell" className={`lw-cell ${cellAlign(col.align)}`}>
                        {col.cell(row, index)}
                      </div>
                    ))}
                  </div>
                );
              })}
            </div>
          )}
        </div>

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
