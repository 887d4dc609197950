// The frame of the three bulk management tabs (spec document 2 §2 "Bulk management tabs"): the
// shared page title 'Configure & Test Devices', the tab strip (each tab its own route; the strip
// highlights the current one and switches within the same workspace tab), the selected devices
// of the bulk list they work on, and a loader while those load; the list of a tab (filters and
// table) and its CSV download.
import { useEffect, type ReactNode } from 'react';
import { useAtomValue } from 'jotai';
import { useMutation, type QueryKey, type UseQueryOptions } from '@tanstack/react-query';
import { Button, Callout, Flex, Heading, Spinner, TabNav, Text } from '@radix-ui/themes';
import { useTab } from '../../workspace/tab-context';
import { ListFilters, ListTable, openDeviceRows, useListPage, type AnyListPage } from '../../workspace/list-page';
import type { FilterDef, FilterValues } from '../../ui/filter-bar';
import type { DataTableColumn, SortState } from '../../ui/data-table/types';
import { toast } from '../../ui/toast';
import { useCan } from '../../state/session';
import { errorStatus } from '../../api/query-client';
import { saveBlob } from '../../api/devices';
import { csvFileName } from './manage-filters';
import { bulkAtom, isPlaceholder, type BulkDevice } from '../../state/bulk';
import { getHref, type RouteId } from '../../paths';
import { MSG, PAGE_TITLES } from '../../../shared/messages';
import './bulk-manage.css';
import { formatCount } from '../../../shared/numbers';
import { ActionButton } from '../../ui/action-button';

export const MANAGE_TABS = [
  { route: 'bulkCurrentConfig', label: 'Current Configuration' },
  { route: 'bulkDeviceTesting', label: 'Device Testing' },
  { route: 'bulkChangeConfig', label: 'Change Configuration' },
] as const satisfies readonly { route: RouteId; label: string }[];
export type ManageRoute = (typeof MANAGE_TABS)[number]['route'];
export const MANAGE_ROUTES: readonly RouteId[] = MANAGE_TABS.map((t) => t.route);

/** The selected devices of the bulk list (never placeholders), in list order. */
export function useSelectedDevices(): BulkDevice[] {
  const bulk = useAtomValue(bulkAtom);
  return bulk.selected.map((id) => bulk.devices[id]).filter((d): d is BulkDevice => !!d && !isPlaceholder(d));
}

/** The list state of a page of the selected devices. */
export type SelectedListState = { page: number; pageSize: number; sort: SortState; filters: FilterValues };
type Paged<T> = { Items: T[]; TotalCount: number };

/**
 * The list of a page of the selected devices (Current Configuration, Device Testing): the filter
 * of the devices `ids` with the list's filters, sort and page, read while any device is selected;
 * `filter` is the request without its page (what the page's CSV asks for).
 */
export function useSelectedList<F extends object, T, K extends QueryKey>(o: {
  initial: SelectedListState;
  ids: readonly string[];
  toFilter: (ids: readonly string[], values: FilterValues, sort: SortState) => F;
  query: (request: F & { page: number; pageSize: number }) => UseQueryOptions<Paged<T>, Error, Paged<T>, K>;
}) {
  const { ids, toFilter } = o;
  const list = useListPage({
    initial: o.initial,
    request: (s: SelectedListState) => ({ ...toFilter(ids, s.filters, s.sort), page: s.page, pageSize: s.pageSize }),
    query: o.query,
    enabled: () => ids.length > 0,
    rows: (d) => d.Items,
    count: (d) => d.TotalCount,
  });
  const { page: _page, pageSize: _size, ...filter } = list.request;
  return { list, filter };
}

export function ManageShell({
  current,
  loading,
  count,
  actions,
  children,
}: {
  current: ManageRoute;
  /** The tab's data is loading: the loader shows instead of the content. */
  loading?: boolean;
  count: number;
  actions?: ReactNode;
  children: ReactNode;
}) {
  const tab = useTab();
  const { setTitle } = tab;
  const label = MANAGE_TABS.find((t) => t.route === current)?.label ?? '';
  useEffect(() => setTitle(`${PAGE_TITLES[current]} · ${label}`), [setTitle, current, label]);
  return (
    <Flex direction="column" gap="3" p="4" className="lw-manage">
      <Flex align="center" justify="between" gap="3" wrap="wrap">
        <Flex direction="column" gap="1">
          <Heading as="h1" size="5">
            {PAGE_TITLES[current]}
          </Heading>
          <Text size="2" color="gray" data-testid="manage-count">
            {formatCount(count)} selected device{count === 1 ? '' : 's'} from the bulk list
          </Text>
        </Flex>
        {actions && <Flex gap="2">{actions}</Flex>}
      </Flex>
      <TabNav.Root aria-label="Configure & Test Devices">
        {MANAGE_TABS.map((t) => {
          const href = getHref(t.route);
          return (
            <TabNav.Link
              key={t.route}
              href={href}
              active={t.route === current}
              aria-current={t.route === current ? 'page' : undefined}
              onClick={(e) => {
                if (e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
                e.preventDefault();
                if (t.route !== current) tab.navigate(href);
              }}
            >
              {t.label}
            </TabNav.Link>
          );
        })}
      </TabNav.Root>
      {count === 0 ? (
        <Callout.Root color="amber" role="alert">
          <Flex align="center" gap="3" wrap="wrap">
            <Callout.Text>{MSG.selectOneDevice}</Callout.Text>
            <Button size="1" variant="soft" onClick={() => tab.navigate(getHref('bulkUpdate'))}>
              {PAGE_TITLES.bulkUpdate}
            </Button>
          </Flex>
        </Callout.Root>
      ) : loading ? (
        <Flex gap="2" align="center" p="4" role="status" data-testid="manage-loader">
          <Spinner /> <Text>Loading selected devices…</Text>
        </Flex>
      ) : (
        children
      )}
    </Flex>
  );
}

/** A tab's list of the selected devices: its filter bar (search by serial or IMEI) and its table; a row opens its device. */
export function ManageList<Row>({
  list,
  name,
  filters,
  columns,
  getRowKey,
  deviceIdOf,
}: {
  list: Pick<AnyListPage<Row>, 'table' | 'state' | 'applyFilters' | 'searchRef' | 'gridRef'>;
  /** The table's accessible name; the filter bar's is '{name} filters'. */
  name: string;
  filters: FilterDef[];
  columns: DataTableColumn<Row>[];
  getRowKey: (row: Row) => string;
  deviceIdOf: (row: Row) => string;
}) {
  const can = useCan();
  return (
    <>
      <ListFilters
        list={list}
        label={`${name} filters`}
        filters={filters}
        search={{ id: 'search', label: 'Search serial or IMEI', placeholder: 'Search serial or IMEI' }}
      />
      <ListTable<Row>
        list={list}
        boxClassName="lw-manage__table"
        label={name}
        columns={columns}
        getRowKey={getRowKey}
        {...openDeviceRows(can, deviceIdOf)}
        minWidth="1080px"
      />
    </>
  );
}

/** Download CSV: the rows the filters match as `{prefix}_<date>.csv`; disabled while nothing is listed. */
export function DownloadCsvButton({
  disabled,
  download,
  prefix,
}: {
  disabled: boolean;
  download: () => Promise<Blob>;
  prefix: Parameters<typeof csvFileName>[0];
}) {
  const job = useMutation({
    mutationFn: async () => saveBlob(await download(), csvFileName(prefix)),
    onError: (err) => toast.error(errorStatus(err) === 403 ? MSG.forbidden : MSG.cannotExportDevices),
  });
  return (
    <ActionButton variant="soft" disabled={disabled} busy={job.isPending} onClick={() => job.mutate()}>
      Download CSV
    </ActionButton>
  );
}
