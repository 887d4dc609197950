// Customers (spec document 2 §2 "Customer list", §5 exports, §9 defaults): Reference, Name, Tier,
// Migrated, Status; filters search / tier / status / migrated only; export (export-customers
// permission, confirmation with the count, disabled at 0) and Create Account (create-customer
// permission). Rows are links to the customer's Account tab; j/k/Enter work through the list keys.
import { useMemo } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Button, Text } from '@radix-ui/themes';
import type { FilterDef, FilterValues } from '../../ui/filter-bar';
import type { DataTableColumn, SortState } from '../../ui/data-table/types';
import { yesNoColumn } from '../../ui/data-table/yes-no-mark';
import { ListExportButton, ListFilters, ListPageFrame, ListTable, RouteLink, useListPage } from '../../workspace/list-page';
import { openRowProps } from '../../workspace/actions';
import { useCan } from '../../state/session';
import { customerFiltersQuery, customerListQuery, exportCustomersWithFilters, type CustomerListItem } from '../../api/customers';
import { getHref } from '../../paths';
import { MSG } from '../../../shared/messages';
import { DEFAULT_PAGE_SIZE } from '../../../shared/codes';
import { P } from '../../../shared/permissions';
import { CUSTOMER_UI_TEXT } from './text';
import { DEFAULT_CUSTOMER_SORT, dash, exportFileName, toCustomerListFilter } from './customer-format';
import { formatCount } from '../../../shared/numbers';

type ListState = { page: number; pageSize: number; sort: SortState; filters: FilterValues };
const INITIAL: ListState = { page: 1, pageSize: DEFAULT_PAGE_SIZE, sort: DEFAULT_CUSTOMER_SORT, filters: {} };

const COLUMNS: DataTableColumn<CustomerListItem>[] = [
  { id: 'reference', header: 'Reference', sortKey: 'Reference', width: 'minmax(110px, 0.6fr)', cell: (c) => dash(c.reference) },
  { id: 'name', header: 'Name', sortKey: 'Name', width: 'minmax(220px, 2fr)', primary: true, cell: (c) => <span title={c.name}>{c.name}</span> },
  { id: 'tier', header: 'Tier', sortKey: 'Tier', width: 'minmax(100px, 0.7fr)', cell: (c) => dash(c.tier?.name) },
  yesNoColumn<CustomerListItem>({ id: 'migrated', header: 'Migrated', width: '110px', value: (c) => c.migrated, label: (c) => `Migrated ${c.name}` }),
  { id: 'status', header: 'Status', sortKey: 'Status', width: 'minmax(110px, 0.8fr)', cell: (c) => dash(c.status?.name) },
];

export function CustomerListPage() {
  const can = useCan();
  const list = useListPage({
    title: MSG.navCustomers,
    initial: INITIAL,
    request: (s: ListState) => toCustomerListFilter(s.filters, s.page, s.pageSize, s.sort),
    query: customerListQuery,
    rows: (d) => d.customers,
    count: (d) => d.totalCount,
    edgeId: (c) => c.id,
    exporter: {
      allowed: can(P.CustomerExport),
      start: ({ page: _page, pageSize: _size, ...filter }, o) => exportCustomersWithFilters(filter, o),
      fileName: () => exportFileName('Customers'),
      // Spec §8: a 403 is the permission message, other failures 'Failed to export customers.'
      failMessage: MSG.customerExportFailed,
      confirm: { title: 'Export customers', message: CUSTOMER_UI_TEXT.exportConfirm },
    },
  });
  const options = useQuery(customerFiltersQuery()).data;
  const filterDefs: FilterDef[] = useMemo(
    () => [
      { id: 'tiers', type: 'multiselect', label: 'Tier', options: (options?.Tiers ?? []).map((t) => ({ value: String(t.Value), label: t.Name })) },
      { id: 'statuses', type: 'multiselect', label: 'Status', options: (options?.Statuses ?? []).map((s) => ({ value: String(s.Value), label: s.Name })) },
      { id: 'migratedOnly', type: 'check-filter', label: 'Migrated only' },
    ],
    [options],
  );

  return (
    <ListPageFrame
      title={MSG.navCustomers}
      actions={
        <>
          <Text size="2" color="gray" data-testid="customers-count">
            {formatCount(list.count)} of {formatCount(list.query.data?.generalTotalCount ?? 0)}
          </Text>
          <ListExportButton list={list} />
          {can(P.CustomerCreate) && (
            <Button asChild>
              <RouteLink href={getHref('customerCreate')}>Create Account</RouteLink>
            </Button>
          )}
        </>
      }
    >
      <ListFilters
        list={list}
        label="Customer filters"
        filters={filterDefs}
        search={{ id: 'search', label: 'Search customers', placeholder: 'Search reference or name' }}
      />
      <ListTable<CustomerListItem>
        list={list}
        label="Customers"
        columns={COLUMNS}
        getRowKey={(c) => c.id}
        {...openRowProps(can(P.CustomerView), (c: CustomerListItem) => getHref('customerAccount', { customerId: c.id }))}
        minWidth="640px"
      />
    </ListPageFrame>
  );
}
