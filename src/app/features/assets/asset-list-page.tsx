// Asset Management: the device list (spec document 2 §2 "Assets device list", §4 filters, §5 asset
// search and import rules, §8 messages, §9 defaults). The 'All Assets' card shows the total and the
// filtered count; rows open the device tab; export (with its permission and a confirmation) and
// import sit above.
import { useEffect, useMemo, useRef } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Card, Flex, Text } from '@radix-ui/themes';
import { yesNoFilter, type FilterDef, type FilterValues } from '../../ui/filter-bar';
import type { SortState } from '../../ui/data-table/types';
import { ListExportButton, ListFilters, ListPageFrame, ListTable, openDeviceRows, prefetchListPage, useListPage } from '../../workspace/list-page';
import { queryClient } from '../../api/query-client';
import { useTab } from '../../workspace/tab-context';
import { useCan } from '../../state/session';
import { MSG } from '../../../shared/messages';
import { DEFAULT_PAGE_SIZE, deviceTypeDisplayName } from '../../../shared/codes';
import { formatCount } from '../../../shared/numbers';
import { P } from '../../../shared/permissions';
import {
  assetStatusesQuery,
  deviceListQuery,
  deviceTypesQuery,
  exportDevicesWithFilters,
  lastConfigFiltersQuery,
  listedSerials,
  type DeviceDto,
} from '../../api/devices';
import { MAX_BULK } from '../../../shared/schemas/devices';
import { confirm } from '../../ui/confirm-dialog';
import { toast } from '../../ui/toast';
import { assetColumns } from './asset-columns';
import { DEFAULT_DEVICE_SORT, EMPTY_ASSET_FILTERS, exportFileName, searchTooShort, statusLabel, toListFilter, ASSET_SEARCH_MIN } from './asset-format';
import { ImportDevicesButton } from './import-dialog';
import './assets.css';
import { registerAssetExport, registerAssetSerials, type CollectSerials } from './asset-events';
import { FLEET_FILTER } from './asset-format';

type ListState = { page: number; pageSize: number; sort: SortState; filters: FilterValues };
const INITIAL: ListState = { page: 1, pageSize: DEFAULT_PAGE_SIZE, sort: DEFAULT_DEVICE_SORT, filters: EMPTY_ASSET_FILTERS };

const searchText = (s: ListState) => (typeof s.filters.search === 'string' ? s.filters.search.trim() : '');

/** The list's state, its request and its query: what the page shows, and what a start-up asks for ahead. */
const LIST = {
  initial: INITIAL,
  request: (s: ListState) => toListFilter(s.filters, s.page, s.pageSize, s.sort),
  query: deviceListQuery,
  // Spec §5: the query runs only if the search is empty or at least 5 characters long.
  enabled: (s: ListState) => !searchTooShort(searchText(s)),
};

/**
 * Start-up, once the current user is known: the page of devices the tab's link names and the
 * filter bar's lookups, asked for while the workspace renders its first frame.
 */
export function prefetchAssetList(href: string) {
  prefetchListPage(LIST, href);
  void queryClient.prefetchQuery(deviceTypesQuery());
  void queryClient.prefetchQuery(assetStatusesQuery());
  void queryClient.prefetchQuery(lastConfigFiltersQuery());
}

export function AssetListPage() {
  const tab = useTab();
  const can = useCan();
  const list = useListPage({
    title: MSG.navAssetManagement,
    ...LIST,
    rows: (d) => d.devices,
    count: (d) => d.totalCount,
    edgeId: (d) => d.id,
    exporter: {
      allowed: can(P.DeviceExport),
      start: ({ page: _page, pageSize: _size, ...filters }, o) => exportDevicesWithFilters(filters, o),
      fileName: () => exportFileName('Assets'),
      // Spec §6/§8: a 403 is the permission message; other failures 'Failed to export devices.'
      failMessage: MSG.deviceExportFailed,
      confirm: { title: 'Export assets', message: (n) => `Export ${formatCount(n)} device(s) matching the current filters to an .xlsx file?` },
    },
  });
  // The 'export assets' command reaches this list through the registration.
  const runExport = list.export.run;
  useEffect(() => registerAssetExport(tab.tabId, runExport), [tab.tabId, runExport]);
  // The 'put the listed devices on the bulk list' command (`b l`) collects this list's serials, as
  // it is when the command runs: every page of the current filters, after the user says yes.
  const { count, request } = list;
  const collect = useRef<CollectSerials>(async () => null);
  useEffect(() => {
    collect.current = async () => {
      if (count === 0) {
        toast.info(MSG.listToBulkNone);
        return null;
      }
      if (count > MAX_BULK) {
        toast.warning(MSG.listToBulkTooMany(MAX_BULK));
        return null;
      }
      if (!(await confirm({ title: 'Bulk Update', message: MSG.listToBulkConfirm(count), confirmLabel: 'Put on the bulk list' }))) return null;
      return (await listedSerials(request)).serials;
    };
  });
  useEffect(() => registerAssetSerials(tab.tabId, () => collect.current()), [tab.tabId]);

  const types = useQuery(deviceTypesQuery()).data;
  const statuses = useQuery(assetStatusesQuery()).data;
  const lastConfigs = useQuery(lastConfigFiltersQuery()).data;
  const filterDefs: FilterDef[] = useMemo(
    () => [
      {
        id: 'types',
        type: 'multiselect',
        label: 'Device type',
        options: (types ?? []).map((t) => ({ value: String(t.Value), label: deviceTypeDisplayName(t) })),
      },
      { id: 'statuses', type: 'multiselect', label: 'Status', options: (statuses ?? []).map((s) => ({ value: String(s.Value), label: statusLabel(s.Name) })) },
      { id: 'orderNumber', type: 'input', label: 'Order number', placeholder: 'Order number' },
      yesNoFilter('assigned', 'Assigned'),
      {
        id: 'lastConfig',
        type: 'dropdown',
        label: 'Last config',
        placeholder: 'All',
        options: (lastConfigs ?? []).filter((o) => o.Value !== 0).map((o) => ({ value: String(o.Value), label: o.Name })),
      },
      FLEET_FILTER,
    ],
    [types, statuses, lastConfigs],
  );
  const columns = useMemo(() => assetColumns(), []);
  const total = list.query.data?.generalTotalCount ?? 0;

  return (
    <ListPageFrame
      title={MSG.navAssetManagement}
      actions={
        <>
          <ListExportButton list={list} />
          {can(P.DeviceManage) && <ImportDevicesButton />}
        </>
      }
    >
      <Card size="1" style={{ maxWidth: '24rem' }} aria-label="All Assets">
        <Flex direction="column" gap="1">
          <Text weight="bold">All Assets</Text>
          <Flex gap="5">
            <Text size="2">
              Total: <strong data-testid="assets-total">{formatCount(total)}</strong>
            </Text>
            <Text size="2">
              Filtered: <strong data-testid="assets-filtered">{formatCount(list.count)}</strong>
            </Text>
          </Flex>
        </Flex>
      </Card>
      <ListFilters
        list={list}
        label="Asset filters"
        filters={filterDefs}
        emptyValue={EMPTY_ASSET_FILTERS}
        search={{ id: 'search', label: 'Search devices', placeholder: 'Search serial, IMEI or phone (min. 5 characters)' }}
      />
      {searchTooShort(searchText(list.state)) && (
        <Text size="2" color="orange" role="status">
          Enter at least {ASSET_SEARCH_MIN} characters to search.
        </Text>
      )}
      <ListTable<DeviceDto>
        list={list}
        boxClassName="lw-list-page__table lw-assets"
        label="Assets"
        columns={columns}
        getRowKey={(d) => d.id}
        {...openDeviceRows(can, (d: DeviceDto) => d.id)}
        minWidth="1100px"
      />
    </ListPageFrame>
  );
}
