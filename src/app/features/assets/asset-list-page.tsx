// Asset Management: the device list (spec document 2 §2 "Assets device list", §4 filters, §5 asset
// search and import rules, §8 messages, §9 defaults). The 'All Assets' card shows the total and the
// filtered count; rows open the device tab; export (with its permission and a confirmation) and
// import sit above.
import { ExportProgressBar } from '../../ui/export-progress';
import { useExportJob } from '../../api/export-jobs';
import { useEffect, useMemo, useRef } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Button, Card, Flex, Heading, Text } from '@radix-ui/themes';
import { DataTable } from '../../ui/data-table/data-table';
import { FilterBar, type FilterDef, type FilterValues } from '../../ui/filter-bar';
import type { SortState } from '../../ui/data-table/types';
import { useListState } from '../../workspace/list-state';
import { useTab } from '../../workspace/tab-context';
import { openRowProps } from '../../workspace/actions';
import { useCan } from '../../state/session';
import { errorMessage } from '../../api/query-client';
import { confirm } from '../../ui/confirm-dialog';
import { getHref } from '../../paths';
import { MSG } from '../../../shared/messages';
import { DEFAULT_PAGE_SIZE, deviceTypeDisplayName } from '../../../shared/codes';
import { formatCount } from '../../../shared/numbers';
import { P } from '../../../shared/permissions';
import { assetStatusesQuery, deviceListQuery, deviceTypesQuery, exportDevicesWithFilters, lastConfigFiltersQuery, type DeviceDto } from '../../api/devices';
import { assetColumns } from './asset-columns';
import { DEFAULT_DEVICE_SORT, EMPTY_ASSET_FILTERS, exportFileName, searchTooShort, statusLabel, toListFilter, ASSET_SEARCH_MIN } from './asset-format';
import { ImportDevicesButton } from './import-dialog';
import './assets.css';
import { registerAssetExport } from './asset-events';
import { listQueryProps, pagingProps } from '../../ui/data-table/list-props';

type ListState = { page: number; pageSize: number; sort: SortState; filters: FilterValues };
const INITIAL: ListState = { page: 1, pageSize: DEFAULT_PAGE_SIZE, sort: DEFAULT_DEVICE_SORT, filters: EMPTY_ASSET_FILTERS };

export function AssetListPage() {
  const tab = useTab();
  const can = useCan();
  const { setTitle } = tab;
  useEffect(() => setTitle(MSG.navAssetManagement), [setTitle]);

  const [state, setState, scrollKey] = useListState<ListState>(INITIAL);
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
      {
        id: 'assigned',
        type: 'dropdown',
        label: 'Assigned',
        placeholder: 'All',
        options: [
          { value: 'yes', label: 'Yes' },
          { value: 'no', label: 'No' },
        ],
      },
      {
        id: 'lastConfig',
        type: 'dropdown',
        label: 'Last config',
        placeholder: 'All',
        options: (lastConfigs ?? []).filter((o) => o.Value !== 0).map((o) => ({ value: String(o.Value), label: o.Name })),
      },
    ],
    [types, statuses, lastConfigs],
  );

  const search = typeof state.filters.search === 'string' ? state.filters.search.trim() : '';
  const tooShort = searchTooShort(search);
  const filter = useMemo(() => toListFilter(state.filters, state.page, state.pageSize, state.sort), [state]);
  // Spec §5: the query runs only if the search is empty or at least 5 characters long.
  const list = useQuery({ ...deviceListQuery(filter), enabled: !tooShort });

  const searchRef = useRef<HTMLInputElement>(null);
  const gridRef = useRef<HTMLDivElement>(null);
  const columns = useMemo(() => assetColumns(), []);

  const data = list.data;
  const filtered = data?.totalCount ?? 0;
  const total = data?.generalTotalCount ?? 0;

  const { page: _page, pageSize: _size, ...exportFilters } = filter;
  // Spec §6/§8: a 403 is the permission message; other failures 'Failed to export devices.'
  const exporter = useExportJob(
    (o) => exportDevicesWithFilters(exportFilters, o),
    () => exportFileName('Assets'),
    MSG.deviceExportFailed,
  );
  const canExport = can(P.DeviceExport);
  const runExport = async () => {
    // Spec §5: nothing to export when the count is 0.
    if (!canExport || filtered === 0 || exporter.isPending) return;
    const ok = await confirm({
      title: 'Export assets',
      message: `Export ${formatCount(filtered)} device(s) matching the current filters to an .xlsx file?`,
      confirmLabel: 'Export',
    });
    if (ok) exporter.mutate();
  };
  // The 'export assets' command reaches this list through the registration (the latest runExport).
  const runExportRef = useRef(runExport);
  useEffect(() => {
    runExportRef.current = runExport;
  });
  useEffect(() => registerAssetExport(tab.tabId, () => runExportRef.current()), [tab.tabId]);

  return (
    <Flex direction="column" gap="3" p="4" style={{ height: '100%', minHeight: 0, boxSizing: 'border-box' }}>
      <Flex align="center" justify="between" gap="3" wrap="wrap">
        <Heading as="h1" size="5">
          {MSG.navAssetManagement}
        </Heading>
        <Flex gap="2" align="center">
          <ExportProgressBar job={exporter} />
          {canExport && (
            <Button variant="soft" disabled={filtered === 0 || exporter.isPending} loading={exporter.isPending} onClick={() => void runExport()}>
              Export
            </Button>
          )}
          {can(P.DeviceManage) && <ImportDevicesButton />}
        </Flex>
      </Flex>
      <Card size="1" style={{ maxWidth: '24rem' }} aria-label="All Assets">
        <Flex direction="column" gap="1">
          <Text weight="bold">All Assets</Text>
          <Flex gap="5">
            <Text size="2">
              Total: <strong data-testid="assets-total">{total.toLocaleString('en-GB')}</strong>
            </Text>
            <Text size="2">
              Filtered: <strong data-testid="assets-filtered">{filtered.toLocaleString('en-GB')}</strong>
            </Text>
          </Flex>
        </Flex>
      </Card>
      <div
        onKeyDown={(e) => {
          // From the search box, Escape (keeping the text) or ArrowDown goes to the list, so j/k/Enter work at once.
          if (e.target === searchRef.current && (e.key === 'Escape' || e.key === 'ArrowDown')) {
            e.preventDefault();
            gridRef.current?.focus();
          }
        }}
      >
        <FilterBar
          label="Asset filters"
          filters={filterDefs}
          value={state.filters}
          emptyValue={EMPTY_ASSET_FILTERS}
          search={{ id: 'search', label: 'Search devices', placeholder: 'Search serial, IMEI or phone (min. 5 characters)' }}
          searchRef={searchRef}
          // Spec §4: filter changes reset the page to 1.
          onApply={(filters) => setState((s) => ({ ...s, filters, page: 1 }))}
        />
      </div>
      {tooShort && (
        <Text size="2" color="orange" role="status">
          Enter at least {ASSET_SEARCH_MIN} characters to search.
        </Text>
      )}
      <div className="lw-assets" style={{ flex: '1 1 auto', minHeight: 0, display: 'flex', flexDirection: 'column' }}>
        <DataTable<DeviceDto>
          label="Assets"
          columns={columns}
          rows={data?.devices ?? []}
          getRowKey={(d) => d.id}
          totalCount={filtered}
          {...pagingProps(state, setState)}
          scrollKey={scrollKey}
          {...listQueryProps(list, errorMessage)}
          loading={list.isPending && !tooShort}
          emptyMessage={MSG.noResultsFound}
          // Enter (or a click) on a row opens the device tab; Ctrl+Enter beside.
          {...openRowProps(can(P.DeviceView), (d: DeviceDto) => getHref('device', { deviceId: d.id }))}
          filterRef={searchRef}
          gridRef={gridRef}
          keyboardActive={tab.active}
          minWidth="1100px"
        />
      </div>
    </Flex>
  );
}
