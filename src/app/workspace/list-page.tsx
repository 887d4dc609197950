// One list page: the list's state in the tab's link (useListState: filters, search, sort, page,
// page size), the request that state names, the query of one page (react-query, under the area's
// keys), the table's paging, sorting, loading and error props, the export of what the filters
// match, and the filter bar that writes the state. Every list page is built from these:
//
//   const list = useListPage({ title, initial, request, query, rows, count, exporter });
//   <ListPageFrame title={title} actions={<ListExportButton list={list} />}>
//     <ListFilters list={list} label="…" filters={defs} search={{ id: 'search', … }} />
//     <ListTable list={list} label="…" columns={columns} getRowKey={…} {...openRowProps(…)} />
//   </ListPageFrame>
//
// A page adds what is its own (cards, charts, selection, import) around these; a prop given to
// ListTable overrides the list's own (e.g. `loading` or `emptyMessage`).
import {
  useCallback,
  useEffect,
  useMemo,
  useRef,
  useState,
  type AnchorHTMLAttributes,
  type CSSProperties,
  type Dispatch,
  type MouseEvent,
  type ReactNode,
  type Ref,
  type RefObject,
  type SetStateAction,
} from 'react';
import { useQuery, type QueryKey, type UseQueryOptions, type UseQueryResult } from '@tanstack/react-query';
import { DataTable, type DataTableProps } from '../ui/data-table/data-table';
import { FilterBar, type FilterBarProps, type FilterValues } from '../ui/filter-bar';
import { listQueryProps, pagingProps } from '../ui/data-table/list-props';
import { useDebouncedValue } from '../ui/data-table/use-debounced-value';
import { ExportProgressBar } from '../ui/export-progress';
import { useExportJob, type ExportJob } from '../api/export-jobs';
import { confirm } from '../ui/confirm-dialog';
import { errorMessage, queryClient } from '../api/query-client';
import type { ExportCall } from '../api/exports';
import { MSG } from '../../shared/messages';
import { decodeListState, searchOf, useListState, type ListState } from './list-state';
import { useTab } from './tab-context';
import { openRoute, openRowProps } from './actions';
import { getHref } from '../paths';
import { P } from '../../shared/permissions';
import './list-page.css';
import { PageFrame } from './page-frame';
import { ActionButton } from '../ui/action-button';

/** The export of a list: every row the filters match, as a file (the page strips its paging from the request). */
export type ListExportOptions<Req> = {
  /** The user may export (the area's export permission); without it there is no Export button. */
  allowed: boolean;
  start: (request: Req, o: ExportCall) => Promise<Blob>;
  fileName: () => string;
  /** What a failure says (a 403 says the permission message). */
  failMessage: string;
  /** Asked before the export starts, with the count of rows the filters match. */
  confirm?: { title: string; message: (count: number) => string; cancelLabel?: string };
};

export type ListPageOptions<S extends ListState, Req, Data, Row, K extends QueryKey = QueryKey> = {
  /** The tab's title; left out where a shell around the list names the tab. */
  title?: string;
  /** The defaults: what an empty link means. */
  initial: S;
  /** The request the list state names (with whatever else the page filters by). */
  request: (state: S) => Req;
  /** The query of one page (the area's queryOptions). */
  query: (request: Req) => UseQueryOptions<Data, Error, Data, K>;
  /** Whether the request is sent; default always (not e.g. for a search too short, or nothing selected). */
  enabled?: (state: S) => boolean;
  rows: (data: Data) => readonly Row[];
  /** How many rows the filters match (the table's total). */
  count: (data: Data) => number;
  /** The text the table shows for a failed query; default: the server's message. */
  errorText?: (error: unknown) => string;
  exporter?: ListExportOptions<Req>;
  /**
   * A row's id, for lists whose endpoint reads Next and Previous from the edge row (`after` /
   * `before`, shared/schemas/common.ts edgeEntries): going to the next (previous) page sends the id
   * of the last (first) row on screen with the page number, so the server reads the page from that
   * row's sort key instead of skipping the pages before it. The answer is the same page.
   */
  edgeId?: (row: Row) => string;
  /** Filters a link may name without the 'f.' prefix ('/audit-trail?entity=device'). */
  linkFilters?: readonly string[];
};

export type ListPage<S extends ListState, Req, Data, Row> = {
  state: S;
  setState: (next: SetStateAction<S>) => void;
  request: Req;
  query: UseQueryResult<Data>;
  rows: readonly Row[];
  count: number;
  /** The filter bar's search box and the grid: `/` goes to the one, Escape / ArrowDown from it to the other. */
  searchRef: RefObject<HTMLInputElement | null>;
  gridRef: RefObject<HTMLDivElement | null>;
  /** A filter bar's Apply: the new filters, from page 1. */
  applyFilters: (filters: FilterValues) => void;
  /** The DataTable props that come from the list. */
  table: Pick<
    DataTableProps<Row>,
    | 'rows'
    | 'totalCount'
    | 'page'
    | 'pageSize'
    | 'onPageChange'
    | 'onPageSizeChange'
    | 'sort'
    | 'onSortChange'
    | 'loading'
    | 'fetching'
    | 'error'
    | 'onRetry'
    | 'scrollKey'
    | 'filterRef'
    | 'gridRef'
    | 'keyboardActive'
    | 'emptyMessage'
  >;
  export: { job: ExportJob; allowed: boolean; run: () => Promise<void> };
};

/**
 * Asks for the page of the list a link names before the list has rendered (start-up, beside the
 * workspace's first render): the state useListPage reads from that link, its request and its
 * query, so the page finds the answer, or the request under way, in the query cache.
 */
export function prefetchListPage<S extends ListState, Req, Data, K extends QueryKey>(
  o: Pick<ListPageOptions<S, Req, Data, unknown, K>, 'initial' | 'request' | 'query' | 'enabled' | 'linkFilters'>,
  href: string,
) {
  const state = decodeListState(searchOf(href), o.initial, o.linkFilters);
  if (o.enabled && !o.enabled(state)) return;
  const { queryKey, queryFn, meta, retry } = o.query(o.request(state));
  void queryClient.prefetchQuery({ queryKey, queryFn, meta, retry });
}

const sameJson = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
const noExport = () => Promise.reject(new Error('This list has no export.'));

export function useListPage<S extends ListState, Req, Data, Row, K extends QueryKey>(o: ListPageOptions<S, Req, Data, Row, K>): ListPage<S, Req, Data, Row> {
  const tab = useTab();
  const { setTitle } = tab;
  const { title } = o;
  useEffect(() => {
    if (title) setTitle(title);
  }, [setTitle, title]);

  const [state, setState, scrollKey] = useListState<S>(o.initial, o.linkFilters);
  // The same request (by value) while nothing it names changes: effects and callbacks keyed on it stay put.
  const built = o.request(state);
  const requestKey = JSON.stringify(built);
  // eslint-disable-next-line react-hooks/exhaustive-deps -- the request is the same while its JSON is
  const request = useMemo(() => built, [requestKey]);
  const enabled = o.enabled ? o.enabled(state) : true;
  // Next / Previous: the edge row of the page that was on screen, for the page next to it under
  // the same filters and sort (a jump, a Back through the link or any other change sends none).
  const [e, setEdge] = useState<{ page: number; rest: string; key: 'after' | 'before'; id: string } | null>(null);
  const rest = JSON.stringify({ ...(built as object), page: 0 });
  const sent = useMemo(
    () => (e && e.page === state.page && e.rest === rest ? ({ ...(request as object), [e.key]: e.id } as Req) : request),
    [e, state.page, rest, request],
  );
  const query = useQuery({ ...o.query(sent), enabled });
  const data = query.data;
  const rows = data ? o.rows(data) : [];
  const count = data ? o.count(data) : 0;
  const paging = pagingProps(state, setState);
  const { edgeId } = o;
  const onPageChange = (page: number) => {
    const onScreen = !query.isPlaceholderData && rows.length > 0;
    setEdge(
      edgeId && onScreen && Math.abs(page - state.page) === 1
        ? page > state.page
          ? { page, rest, key: 'after', id: edgeId(rows[rows.length - 1]!) }
          : { page, rest, key: 'before', id: edgeId(rows[0]!) }
        : null,
    );
    paging.onPageChange(page);
  };

  const searchRef = useRef<HTMLInputElement>(null);
  const gridRef = useRef<HTMLDivElement>(null);
  const applyFilters = useCallback((filters: FilterValues) => setState((s) => ({ ...s, filters, page: 1 })), [setState]);

  const ex = o.exporter;
  const job = useExportJob(
    (call) => (ex ? ex.start(request, call) : noExport()),
    () => ex?.fileName() ?? '',
    ex?.failMessage ?? '',
  );
  const allowed = !!ex?.allowed;
  const runNow = async () => {
    // Nothing to export when nothing matches.
    if (!ex || !allowed || count === 0 || job.isPending) return;
    const ask = ex.confirm;
    if (ask && !(await confirm({ title: ask.title, message: ask.message(count), confirmLabel: 'Export', cancelLabel: ask.cancelLabel }))) return;
    job.mutate();
  };
  // A command (e.g. 'export assets') holds on to `run`: it always runs with the list as it is now.
  const latestRun = useRef(runNow);
  useEffect(() => {
    latestRun.current = runNow;
  });
  const run = useCallback(() => latestRun.current(), []);

  return {
    state,
    setState,
    request,
    query,
    rows,
    count,
    searchRef,
    gridRef,
    applyFilters,
    table: {
      rows,
      totalCount: count,
      ...paging,
      onPageChange,
      ...listQueryProps(query, o.errorText ?? errorMessage),
      loading: query.isPending && enabled,
      scrollKey,
      filterRef: searchRef,
      gridRef,
      keyboardActive: tab.active,
      emptyMessage: MSG.noResultsFound,
    },
    export: { job, allowed, run },
  };
}

/** Any list page, as the components below read it. */
export type AnyListPage<Row = unknown> = ListPage<ListState, unknown, unknown, Row>;

/** Rows that open their device's tab (Enter or a click; Ctrl+Enter beside) for a reader who may view devices. */
export function openDeviceRows<Row>(can: (access: string) => boolean, deviceIdOf: (row: Row) => string) {
  return openRowProps(can(P.DeviceView), (row: Row) => getHref('device', { deviceId: deviceIdOf(row) }));
}

/** A list tab: its heading with the page's actions, then the list. */
export const ListPageFrame = PageFrame;

/** The running export's progress (with Cancel) and the Export button: disabled while nothing matches or an export runs. */
export function ListExportButton({ list }: { list: Pick<AnyListPage, 'export' | 'count'> }) {
  const { job, allowed, run } = list.export;
  return (
    <>
      <ExportProgressBar job={job} />
      {allowed && (
        <ActionButton variant="soft" disabled={list.count === 0} busy={job.isPending} onClick={() => void run()}>
          Export
        </ActionButton>
      )}
    </>
  );
}

/** Returns the keyboard from a search box to the list: Escape (keeping the text) or ArrowDown, so j/k/Enter work at once. */
export function toListFromSearch(list: Pick<AnyListPage, 'searchRef' | 'gridRef'>) {
  return (e: { target: EventTarget; key: string; preventDefault: () => void }) => {
    if (e.target === list.searchRef.current && (e.key === 'Escape' || e.key === 'ArrowDown')) {
      e.preventDefault();
      list.gridRef.current?.focus();
    }
  };
}

/** The list's filter bar: its values are the list's filters, Apply writes them (from page 1). `children` go below it. */
export function ListFilters({
  list,
  children,
  ...bar
}: Omit<FilterBarProps, 'value' | 'onApply' | 'searchRef'> & {
  list: Pick<AnyListPage, 'state' | 'applyFilters' | 'searchRef' | 'gridRef'>;
  children?: ReactNode;
}) {
  return (
    <div onKeyDown={toListFromSearch(list)}>
      <FilterBar {...bar} value={list.state.filters ?? {}} onApply={list.applyFilters} searchRef={list.searchRef} />
      {children}
    </div>
  );
}

/** The list's table in the space left below the filters; props given here override the list's own. */
export function ListTable<Row>({
  list,
  boxStyle,
  boxClassName,
  ...props
}: Omit<DataTableProps<Row>, keyof AnyListPage<Row>['table']> &
  Partial<AnyListPage<Row>['table']> & {
    list: Pick<AnyListPage<Row>, 'table'>;
    /** The box the table fills: a class of the page's, or a style beside the default one. */
    boxClassName?: string;
    boxStyle?: CSSProperties;
  }) {
  return (
    <div className={boxClassName ?? 'lw-list-page__table'} style={boxStyle}>
      <DataTable<Row> {...list.table} {...props} />
    </div>
  );
}

/**
 * A filter typed straight into the list, without Apply (a search box, the Audit Trail's fields):
 * the fields show the draft; once it has not changed for `delayMs` the list takes it (`apply`, which
 * goes back to page 1). When the list's value changes from elsewhere (Back, a pasted link) the draft
 * follows it. `same` says whether a draft is what the list already shows.
 */
export function useLiveFilter<T>(
  applied: T,
  apply: (value: T) => void,
  { same = sameJson, delayMs = 300 }: { same?: (draft: T, applied: T) => boolean; delayMs?: number } = {},
): [T, Dispatch<SetStateAction<T>>] {
  const [draft, setDraft] = useState(applied);
  const latest = useRef({ applied, apply, same });
  useEffect(() => {
    latest.current = { applied, apply, same };
  });
  // The draft last handed to the list: when it comes back as the list's value, the fields keep
  // what was typed since.
  const sent = useRef<{ value: T } | null>(null);
  const shown = useRef(applied);
  useEffect(() => {
    if (latest.current.same(shown.current, applied)) return; // the same value, rebuilt
    shown.current = applied;
    const mine = sent.current && latest.current.same(sent.current.value, applied);
    sent.current = null;
    if (!mine) setDraft((d) => (latest.current.same(d, applied) ? d : applied));
  }, [applied]);
  const debounced = useDebouncedValue(draft, delayMs);
  useEffect(() => {
    const l = latest.current;
    if (l.same(debounced, l.applied)) return;
    sent.current = { value: debounced };
    l.apply(debounced);
  }, [debounced]);
  return [draft, setDraft];
}

/**
 * A link to a record that opens in a workspace tab, the way the palette opens it; Ctrl/⌘/Shift or
 * a middle click are the browser's (a new browser tab, a copied link).
 */
export function RouteLink({ href, onClick, children, ...rest }: AnchorHTMLAttributes<HTMLAnchorElement> & { href: string; ref?: Ref<HTMLAnchorElement> }) {
  const open = (e: MouseEvent<HTMLAnchorElement>) => {
    onClick?.(e);
    e.stopPropagation();
    if (e.defaultPrevented || e.ctrlKey || e.metaKey || e.shiftKey || e.altKey || e.button !== 0) return;
    e.preventDefault();
    openRoute(href, { focus: true });
  };
  return (
    <a {...rest} href={href} onClick={open}>
      {children}
    </a>
  );
}
