// Customers (spec document 2 §2 "Customer list", §5 exports, §9 defaults): Reference, Name, Tier,
// Migrated, Status; filters search / tier / status / migrated only; export (export-customers
// permission, confirmation with the count, disabled at 0) and Create Account (create-customer
// permission). Rows are links to the customer's Account tab; j/k/Enter work through the list keys.
import { ExportProgressBar } from '../../ui/export-progress';
import { useExportJob } from '../../api/export-jobs';
import { useEffect, useMemo, useRef } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Button, Flex, Heading, Text } from '@radix-ui/themes';
import { DataTable } from '../../ui/data-table/data-table';
import { FilterBar, type FilterDef, type FilterValues } from '../../ui/filter-bar';
import type { DataTableColumn, SortState } from '../../ui/data-table/types';
import { useListState } from '../../workspace/list-state';
import { YesNoMark } from '../../ui/data-table/yes-no-mark';
import { confirm } from '../../ui/confirm-dialog';
import { useTab } from '../../workspace/tab-context';
import { openRoute } from '../../workspace/actions';
import { useCan } from '../../state/session';
import { errorMessage } from '../../api/query-client';
import { customerFiltersQuery, customerListQuery, exportCustomersWithFilters, type CustomerListItem } from '../../api/customers';
import { getHref } from '../../paths';
import { MSG } from '../../../shared/messages';
import { DEFAULT_PAGE_SIZE } from '../../../shared/codes';
import { P } from '../../../shared/permissions';
import { CUSTOMER_UI_TEXT } from './text';
import { DEFAULT_CUSTOMER_SORT, dash, exportFileName, toCustomerListFilter } from './customer-format';
import { listQueryProps, pagingProps } from '../../ui/data-table/list-props';

type ListState = { page: number; pageSize: number; sort: SortState; filters: FilterValues };
const INITIAL: ListState = { page: 1, pageSize: DEFAULT_PAGE_SIZE, sort: DEFAULT_CUSTOMER_SORT, filters: {} };

const COLUMNS: DataTableColumn<CustomerListItem>[] = [
  { id: 'reference', header: 'Reference', sortKey: 'Reference', width: 'minmax(110px, 0.6fr)', cell: (c) => dash(c.reference) },
  { id: 'name', header: 'Name', sortKey: 'Name', width: 'minmax(220px, 2fr)', primary: true, cell: (c) => <span title={c.name}>{c.name}</span> },
  { id: 'tier', header: 'Tier', sortKey: 'Tier', width: 'minmax(100px, 0.7fr)', cell: (c) => dash(c.tier?.name) },
  {
    id: 'migrated',
    header: 'Migrated',
    sortKey: 'Migrated',
    width: '110px',
    align: 'center',
    cell: (c) => <YesNoMark value={c.migrated} label={`Migrated ${c.name}`} />,
  },
  { id: 'status', header: 'Status', sortKey: 'Status', width: 'minmax(110px, 0.8fr)', cell: (c) => dash(c.status?.name) },
];

export function CustomerListPage() {
  const tab = useTab();
  const can = useCan();
  const { setTitle } = tab;
  useEffect(() => setTitle(MSG.navCustomers), [setTitle]);

  const [state, setState, scrollKey] = useListState<ListState>(INITIAL);
  const options = useQuery(customerFiltersQuery()).data;
  const filterDefs: FilterDef[] = useMemo(
    () => [
      { id: 'tiers', type: 'multiselect', label: 'Tier', options: (options?.Tiers ?? []).map((t) => ({ value: String(t.Value), label: t.Name })) },
      { id: 'statuses', type: 'multiselect', label: 'Status', options: (options?.Statuses ?? []).map((s) => ({ value: String(s.Value), label: s.Name })) },
      { id: 'migratedOnly', type: 'check-filter', label: 'Migrated only' },
    ],
    [options],
  );

  const filter = useMemo(() => toCustomerListFilter(state.filters, state.page, state.pageSize, state.sort), [state]);
  const list = useQuery(customerListQuery(filter));
  const data = list.data;
  const filtered = data?.totalCount ?? 0;

  const searchRef = useRef<HTMLInputElement>(null);
  const gridRef = useRef<HTMLDivElement>(null);

  const { page: _page, pageSize: _size, ...exportFilter } = filter;
  // Spec §8: a 403 is the permission message, other failures 'Failed to export customers.'
  const exporter = useExportJob(
    (o) => exportCustomersWithFilters(exportFilter, o),
    () => exportFileName('Customers'),
    MSG.customerExportFailed,
  );
  const canExport = can(P.CustomerExport);
  const runExport = async () => {
    if (!canExport || filtered === 0 || exporter.isPending) return;
    const ok = await confirm({ title: 'Export customers', message: CUSTOMER_UI_TEXT.exportConfirm(filtered), confirmLabel: 'Export' });
    if (ok) exporter.mutate();
  };

  return (
    <Flex direction="column" gap="3" p="4" style={{ height: '100%', minHeight: 0, boxSizing: 'border-box' }}>
      <Flex align="center" justify="between" gap="3" wrap="wrap">
        <Heading as="h1" size="5">
          {MSG.navCustomers}
        </Heading>
        <Flex gap="2" align="center">
          <Text size="2" color="gray" data-testid="customers-count">
            {filtered.toLocaleString('en-GB')} of {(data?.generalTotalCount ?? 0).toLocaleString('en-GB')}
          </Text>
          <ExportProgressBar job={exporter} />
          {canExport && (
            <Button variant="soft" disabled={filtered === 0 || exporter.isPending} loading={exporter.isPending} onClick={() => void runExport()}>
              Export
            </Button>
          )}
          {can(P.CustomerCreate) && (
            <Button asChild>
              <a
                href={getHref('customerCreate')}
                onClick={(e) => {
                  if (e.ctrlKey || e.metaKey || e.shiftKey || e.button !== 0) return;
                  e.preventDefault();
                  openRoute(getHref('customerCreate'), { focus: true });
                }}
              >
                Create Account
              </a>
            </Button>
          )}
        </Flex>
      </Flex>
      <div
        onKeyDown={(e) => {
          if (e.target === searchRef.current && (e.key === 'Escape' || e.key === 'ArrowDown')) {
            e.preventDefault();
            gridRef.current?.focus();
          }
        }}
      >
        <FilterBar
          label="Customer filters"
          filters={filterDefs}
          value={state.filters}
          search={{ id: 'search', label: 'Search customers', placeholder: 'Search reference or name' }}
          searchRef={searchRef}
          onApply={(filters) => setState((s) => ({ ...s, filters, page: 1 }))}
        />
      </div>
      <div style={{ flex: '1 1 auto', minHeight: 0, display: 'flex', flexDirection: 'column' }}>
        <DataTable<CustomerListItem>
          label="Customers"
          columns={COLUMNS}
          rows={data?.customers ?? []}
          getRowKey={(c) => c.id}
          totalCount={filtered}
          {...pagingProps(state, setState)}
          scrollKey={scrollKey}
          {...listQueryProps(list, errorMessage)}
          emptyMessage={MSG.noResultsFound}
          canOpen={() => can(P.CustomerView)}
          onOpen={(c, { beside }) => openRoute(getHref('customerAccount', { customerId: c.id }), beside ? { beside: true } : undefined)}
          rowHref={(c) => (can(P.CustomerView) ? getHref('customerAccount', { customerId: c.id }) : null)}
          filterRef={searchRef}
          gridRef={gridRef}
          keyboardActive={tab.active}
          minWidth="640px"
        />
      </div>
    </Flex>
  );
}
