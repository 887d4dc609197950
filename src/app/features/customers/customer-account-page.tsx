// Customer view, Account tab (spec document 2 §2 "Customer account tab"): Account details and the
// Administrators section (Id, first name, last name, email; page size 10, UserName descending, by
// the customer's tenant) with the Add administrator dialog.
import { HistoryPanel } from '../../ui/history-panel';
import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Button, Card, Flex, Heading } from '@radix-ui/themes';
import { DataTable } from '../../ui/data-table/data-table';
import type { DataTableColumn } from '../../ui/data-table/types';
import { YesNoMark } from '../../ui/data-table/yes-no-mark';
import { useTab } from '../../workspace/tab-context';
import { useCan } from '../../state/session';
import { errorMessage } from '../../api/query-client';
import { useRecordHistory } from '../../api/admin';
import { customerAdminListQuery, type CustomerAdmin, type CustomerDetails } from '../../api/customers';
import { getHref } from '../../paths';
import { P } from '../../../shared/permissions';
import { MSG } from '../../../shared/messages';
import { ADMIN_PAGE_SIZE } from '../../../shared/schemas/customers';
import { formatPhone } from '../../../shared/phone';
import { CustomerView } from './customer-view';
import { AddAdministratorDialog } from './add-administrator-dialog';
import { dash } from './customer-format';

export function CustomerAccountPage() {
  const tab = useTab();
  const can = useCan();
  return (
    <CustomerView
      current="customerAccount"
      actions={
        can(P.CustomerManage) && tab.params.customerId ? (
          <Button variant="soft" onClick={() => tab.navigate(getHref('customerAccountEdit', { customerId: tab.params.customerId! }))}>
            Edit account
          </Button>
        ) : null
      }
    >
      {(customer) => (
        <Flex direction="column" gap="4" pt="2">
          <AccountDetails customer={customer} />
          <Administrators customer={customer} />
          <CustomerHistory customerId={customer.Id} />
        </Flex>
      )}
    </CustomerView>
  );
}

function CustomerHistory({ customerId }: { customerId: string }) {
  const history = useRecordHistory('customer', customerId);
  return <HistoryPanel history={history} />;
}

export function AccountDetails({ customer: c }: { customer: CustomerDetails }) {
  // The URN links to the Salesforce account when the server knows its page (SalesforceLink; null with the embedded CRM directory).
  const rows: [string, React.ReactNode][] = [
    ['Name', c.Name],
    ['Portal id', dash(c.PortalId)],
    ['Phone number', formatPhone(c.PhoneNumber)],
    ['Tier', dash(c.Tier?.Name)],
    ['Status', dash(c.Status?.Name)],
    ['Migrated', <YesNoMark key="m" value={c.IsMigratedAccount} label="Migrated account" />],
    [
      'Salesforce URN',
      c.SalesforceLink && c.SalesforceUrn ? (
        <a href={c.SalesforceLink} target="_blank" rel="noreferrer noopener">
          {c.SalesforceUrn}
        </a>
      ) : (
        dash(c.SalesforceUrn)
      ),
    ],
    ['Account manager', dash(c.AccountManagerFullName)],
    ['Customer success manager', dash(c.CustomerSuccessManagerFullName)],
    ['Address line 1', dash(c.Address.AddressLine1)],
    ['Address line 2', dash(c.Address.AddressLine2)],
    ['City', dash(c.Address.City)],
    ['County', dash(c.Address.County)],
    ['Post code', dash(c.Address.PostCode)],
    ['Country', dash(c.Address.Country)],
  ];
  return (
    <Card size="2">
      <Heading as="h2" size="3" mb="3">
        Account details
      </Heading>
      <dl className="cu-details" aria-label="Account details">
        {rows.map(([label, value]) => (
          <div key={label}>
            <dt>{label}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>
    </Card>
  );
}

const ADMIN_COLUMNS: DataTableColumn<CustomerAdmin>[] = [
  { id: 'id', header: 'Id', width: 'minmax(120px, 1.2fr)', cell: (a) => <span title={a.Id}>{a.Id}</span> },
  { id: 'first', header: 'First name', width: 'minmax(100px, 1fr)', cell: (a) => a.FirstName },
  { id: 'last', header: 'Last name', width: 'minmax(100px, 1fr)', cell: (a) => a.LastName },
  { id: 'email', header: 'Email', width: 'minmax(160px, 1.5fr)', cell: (a) => a.Email },
];

function Administrators({ customer }: { customer: CustomerDetails }) {
  const can = useCan();
  const [page, setPage] = useState(1);
  const [adding, setAdding] = useState(false);
  const list = useQuery(customerAdminListQuery({ tenantId: customer.TenantId, page, pageSize: ADMIN_PAGE_SIZE, desc: true, orderBy: 'UserName' }));
  return (
    <Card size="2">
      <Flex justify="between" align="center" mb="3">
        <Heading as="h2" size="3">
          Administrators
        </Heading>
        {can(P.CustomerManage) && (
          <Button variant="soft" onClick={() => setAdding(true)}>
            Add administrator
          </Button>
        )}
      </Flex>
      <DataTable<CustomerAdmin>
        label="Administrators"
        columns={ADMIN_COLUMNS}
        rows={list.data?.Items ?? []}
        getRowKey={(a) => a.Id}
        totalCount={list.data?.TotalCount ?? 0}
        page={page}
        pageSize={ADMIN_PAGE_SIZE}
        pageSizes={[ADMIN_PAGE_SIZE]}
        onPageChange={setPage}
        loading={list.isPending}
        fetching={list.isFetching && !list.isPending}
        error={list.isError ? errorMessage(list.error) : null}
        onRetry={() => void list.refetch()}
        emptyMessage={MSG.noResultsFound}
        height="auto"
        minWidth="560px"
      />
      {adding && <AddAdministratorDialog tenantId={customer.TenantId} onClose={() => setAdding(false)} />}
    </Card>
  );
}
