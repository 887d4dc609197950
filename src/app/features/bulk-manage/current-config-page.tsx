// Bulk management tab Current Configuration (spec document 2 §2): the configuration of the bulk
// list's selected devices (POST ps-admin/devices/get-configurations), every filter of the spec,
// 'On - N minutes', 'On - settings', '-', 'No configuration for this device', and the CSV
// download CurrentConfiguration_<date>.csv (POST ps-admin/devices/download-configurations-csv).
import { useEffect, useMemo } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { DataTableColumn } from '../../ui/data-table/types';
import { yesNoFilter, type FilterDef } from '../../ui/filter-bar';
import { deviceTypesQuery } from '../../api/devices';
import { configurationListQuery, configurationTypesQuery, downloadConfigurationsCsv, liveKeys, useDeviceLive } from '../../api/live';
import type { ConfigurationRow } from '../../../shared/schemas/live';
import { DEFAULT_PAGE_SIZE } from '../../../shared/codes';
import { fallDetectionLabel, formatInstant as formatDateTime } from '../../../shared/device-config-format';
import { deviceIdentityOf, trackingLabel } from '../../../shared/schemas/live';
import { DownloadCsvButton, ManageList, ManageShell, useSelectedDevices, useSelectedList, type SelectedListState } from './manage-shell';
import { toConfigurationsFilter } from './manage-filters';

export const NO_CONFIGURATION = 'No configuration for this device';
export const PENDING = 'Pending';

const INITIAL: SelectedListState = { page: 1, pageSize: DEFAULT_PAGE_SIZE, sort: { key: 'Serial', desc: false }, filters: {} };

export function configurationColumns(): DataTableColumn<ConfigurationRow>[] {
  const none = (r: ConfigurationRow) => !r.LastUpdated;
  return [
    { id: 'serial', header: 'Serial Number', sortKey: 'Serial', width: 'minmax(140px, 1fr)', cell: (r) => r.Serial },
    { id: 'type', header: 'Type', sortKey: 'Type', width: '80px', cell: (r) => r.Type?.Name ?? '-' },
    {
      id: 'tracking',
      header: 'Tracking',
      sortKey: 'Tracking',
      width: 'minmax(220px, 1.2fr)',
      cell: (r) => (none(r) ? <span className="lw-manage__none">{NO_CONFIGURATION}</span> : trackingLabel(r.IsTracking, r.TrackingSeconds)),
    },
    {
      id: 'fall',
      header: 'Fall Detection',
      sortKey: 'FallDetection',
      width: 'minmax(220px, 1.3fr)',
      cell: (r) => (none(r) ? '-' : fallDetectionLabel(r.IsFallDetection, r.FallDetectionSettings, r.FirmwareVersion ?? null)),
    },
    { id: 'call1', header: 'Call 1', sortKey: 'Call1Type', width: 'minmax(150px, 1fr)', cell: (r) => (none(r) ? '-' : (r.Call1Type?.Name ?? '-')) },
    { id: 'call2', header: 'Call 2', sortKey: 'Call2Type', width: 'minmax(120px, 1fr)', cell: (r) => (none(r) ? '-' : (r.Call2Type?.Name ?? '-')) },
    {
      id: 'updated',
      header: 'Last Updated',
      sortKey: 'LastUpdated',
      width: '150px',
      // A queued change not applied yet reads 'Pending' (the device applies it when it is turned on).
      cell: (r) => (r.PendingChanges > 0 ? <span title={`${r.PendingChanges} change(s) queued`}>{PENDING}</span> : formatDateTime(r.LastUpdated)),
    },
  ];
}

export function CurrentConfigPage() {
  const qc = useQueryClient();
  const devices = useSelectedDevices();
  const serials = useMemo(() => devices.map((d) => d.serialNumber), [devices]);
  const { list, filter } = useSelectedList({ initial: INITIAL, ids: serials, toFilter: toConfigurationsFilter, query: configurationListQuery });
  const types = useQuery(deviceTypesQuery()).data;
  const callTypes = useQuery(configurationTypesQuery()).data;
  // Arriving from Change Configuration: show what the server has now.
  useEffect(() => void qc.invalidateQueries({ queryKey: [...liveKeys.all, 'configurations'] }), [qc]);
  // A selected device applied a configuration (it was turned on): fetch the list again, so the
  // stock person watches a queued change arrive.
  const identities = useMemo(() => devices.map((d) => deviceIdentityOf({ imei: d.imei ?? null, serialNumber: d.serialNumber })), [devices]);
  useDeviceLive(identities, { DeviceConfigurationUpdated: () => void qc.invalidateQueries({ queryKey: [...liveKeys.all, 'configurations'] }) });

  const selectedTypes = useMemo(() => new Set(devices.map((d) => d.type.value)), [devices]);
  const filterDefs: FilterDef[] = useMemo(() => {
    const callOptions = (callTypes?.EnumValues ?? []).map((t) => ({ value: String(t.Value), label: t.Name }));
    return [
      {
        id: 'types',
        type: 'multiselect',
        label: 'Device type',
        options: (types ?? []).filter((t) => selectedTypes.has(t.Value)).map((t) => ({ value: String(t.Value), label: t.Name })),
      },
      { id: 'call1', type: 'multiselect', label: 'Call 1 type', options: callOptions },
      { id: 'call2', type: 'multiselect', label: 'Call 2 type', options: callOptions },
      yesNoFilter('fallDetection', 'Fall detection'),
      yesNoFilter('tracking', 'Tracking'),
    ];
  }, [types, callTypes, selectedTypes]);

  const columns = useMemo(() => configurationColumns(), []);
  return (
    <ManageShell
      current="bulkCurrentConfig"
      count={devices.length}
      loading={list.query.isPending}
      actions={<DownloadCsvButton disabled={!list.rows.length} download={() => downloadConfigurationsCsv(filter)} prefix="CurrentConfiguration" />}
    >
      <ManageList<ConfigurationRow>
        list={list}
        name="Current configuration"
        filters={filterDefs}
        columns={columns}
        getRowKey={(r) => r.Serial}
        deviceIdOf={(r) => r.Id}
      />
    </ManageShell>
  );
}
