// Customer view, Devices tab (spec document 2 §2 "Customer devices tab"): filter bar, the
// customer's devices (table, paging, sorting; rows open the device), export with 'Are you sure you
// want to export data for N devices?' (disabled at 0), Import (the file's name with a remove icon,
// then its devices go to Allocate Devices) and Allocate Devices.
import { ExportProgressBar } from '../../ui/export-progress';
import { useImportJob } from '../../api/export-jobs';
import { useMemo, useRef, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Button, Flex, IconButton, Text } from '@radix-ui/themes';
import { yesNoFilter, type FilterDef, type FilterValues } from '../../ui/filter-bar';
import type { DataTableColumn, SortState } from '../../ui/data-table/types';
import { ListExportButton, ListFilters, ListTable, openDeviceRows, useListPage } from '../../workspace/list-page';
import { yesNoColumn } from '../../ui/data-table/yes-no-mark';
import { isCsvFile } from '../../ui/serials/csv';
import { toast } from '../../ui/toast';
import { useTab } from '../../workspace/tab-context';
import { useCan } from '../../state/session';
import { errorMessage } from '../../api/query-client';
import { assetStatusesQuery, deviceListFilterOf, deviceTypesQuery, type DeviceDto } from '../../api/devices';
import { FLEET_FILTER } from '../../api/fleet';
import { customerDeviceListQuery, exportCustomerDevices, importDevicesToAllocate, type CustomerDetails } from '../../api/customers';
import { getHref, ROUTES } from '../../paths';
import { MSG } from '../../../shared/messages';
import { DEFAULT_PAGE_SIZE } from '../../../shared/codes';
import { P } from '../../../shared/permissions';
import { formatPhone } from '../../../shared/phone';
import { CustomerView } from './customer-view';
import { handOver } from './allocation-handoff';
import { dash, exportFileName } from './customer-format';
import { CUSTOMER_UI_TEXT } from './text';
import { ActionButton } from '../../ui/action-button';
import { CsvFileInput } from '../../ui/serials/csv-file-input';

type ListState = { page: number; pageSize: number; sort: SortState; filters: FilterValues };
const INITIAL: ListState = { page: 1, pageSize: DEFAULT_PAGE_SIZE, sort: { key: 'SerialNumber', desc: false }, filters: {} };

const COLUMNS: DataTableColumn<DeviceDto>[] = [
  { id: 'type', header: 'Type', sortKey: 'Type', width: 'minmax(72px, 0.6fr)', cell: (d) => dash(d.type.name) },
  { id: 'serial', header: 'Serial Number', sortKey: 'SerialNumber', width: 'minmax(120px, 1fr)', cell: (d) => d.serialNumber },
  { id: 'imei', header: 'IMEI', sortKey: 'Imei', width: 'minmax(140px, 1fr)', cell: (d) => dash(d.imei) },
  { id: 'phone', header: 'Phone number', sortKey: 'PhoneNumber', width: 'minmax(130px, 1fr)', cell: (d) => formatPhone(d.phoneNumber) },
  { id: 'order', header: 'Order Number', sortKey: 'OrderNumber', width: 'minmax(110px, 0.8fr)', cell: (d) => dash(d.orderNumber) },
  { id: 'status', header: 'Status', sortKey: 'Status', width: 'minmax(110px, 1fr)', cell: (d) => dash(d.status.name.replace(/_/g, ' ')) },
  yesNoColumn<DeviceDto>({ id: 'assigned', header: 'Assigned', width: '94px', value: (d) => d.isUserAssigned, label: (d) => `Assigned ${d.serialNumber}` }),
];

export function CustomerDevicesPage() {
  return <CustomerView current="customerDevices">{(customer) => <DevicesPanel customer={customer} />}</CustomerView>;
}

function DevicesPanel({ customer }: { customer: CustomerDetails }) {
  const tab = useTab();
  const can = useCan();
  const list = useListPage({
    initial: INITIAL,
    request: (s: ListState) => deviceListFilterOf(s.filters, s.page, s.pageSize, s.sort),
    query: (filter) => customerDeviceListQuery(customer.Id, filter),
    rows: (d) => d.devices,
    count: (d) => d.totalCount,
    exporter: {
      allowed: can(P.DeviceExport),
      start: ({ page: _p, pageSize: _s, ...filter }, o) => exportCustomerDevices(customer.Id, filter, o),
      fileName: () => exportFileName(`${customer.Name} devices`),
      failMessage: MSG.deviceExportFailed,
      confirm: { title: 'Export devices', message: CUSTOMER_UI_TEXT.exportDevicesConfirm },
    },
  });
  const types = useQuery(deviceTypesQuery()).data;
  const statuses = useQuery(assetStatusesQuery()).data;
  const filterDefs: FilterDef[] = useMemo(
    () => [
      { id: 'types', type: 'multiselect', label: 'Device type', options: (types ?? []).map((t) => ({ value: String(t.Value), label: t.Name })) },
      {
        id: 'statuses',
        type: 'multiselect',
        label: 'Status',
        options: (statuses ?? []).map((s) => ({ value: String(s.Value), label: s.Name.replace(/_/g, ' ') })),
      },
      yesNoFilter('assigned', 'Assigned'),
      FLEET_FILTER,
    ],
    [types, statuses],
  );
  const fileRef = useRef<HTMLInputElement>(null);
  const [file, setFile] = useState<File | null>(null);
  const allocateHref = getHref('customerAllocate', { customerId: customer.Id });

  // A job of the server's pool: rows looked up of total while it runs, with Cancel.
  const importer = useImportJob((f, o) => importDevicesToAllocate(customer.Id, f, o), {
    onSuccess: (res) => {
      handOver(customer.Id, res.devices);
      setFile(null);
      tab.navigate(allocateHref);
    },
    onError: (err) => toast.error(errorMessage(err)),
  });

  return (
    <Flex direction="column" gap="3" pt="2" style={{ height: '100%', minHeight: 0 }}>
      <Flex gap="2" align="center" justify="end" wrap="wrap">
        <ExportProgressBar job={importer} />
        <ListExportButton list={list} />
        {can(ROUTES.customerAllocate.permission) && (
          <>
            <CsvFileInput
              ref={fileRef}
              label="Import devices to allocate from a CSV file"
              // Spec §5: the import file must be a CSV.
              onFile={(f) => (isCsvFile(f) ? setFile(f) : toast.error(MSG.wrongFileType))}
            />
            {file ? (
              <Flex gap="1" align="center" className="cu-file">
                <Text size="2">{file.name}</Text>
                <IconButton size="1" variant="ghost" color="gray" aria-label={`Remove ${file.name}`} onClick={() => setFile(null)}>
                  ✕
                </IconButton>
                <ActionButton size="2" busy={importer.isPending} onClick={() => importer.mutate(file)}>
                  Upload
                </ActionButton>
              </Flex>
            ) : (
              <Button variant="soft" onClick={() => fileRef.current?.click()}>
                Import
              </Button>
            )}
            <Button onClick={() => tab.navigate(allocateHref)}>Allocate Devices</Button>
          </>
        )}
      </Flex>
      <ListFilters
        list={list}
        label="Customer device filters"
        filters={filterDefs}
        search={{ id: 'search', label: 'Search customer devices', placeholder: 'Search serial, IMEI or phone' }}
      />
      <ListTable<DeviceDto>
        list={list}
        boxStyle={{ minHeight: '16rem' }}
        label="Customer devices"
        columns={COLUMNS}
        getRowKey={(d) => d.id}
        {...openDeviceRows(can, (d: DeviceDto) => d.id)}
        minWidth="860px"
      />
    </Flex>
  );
}
