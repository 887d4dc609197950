// Bulk management tab Device Testing (spec document 2 §2, §4 "Live updates on Device Testing"):
// the last message of each selected device (POST /devices/get-last-messages), every filter of the
// spec, 'No communication received from this device', the CSV download
// TestingConfiguration_<date>.csv, and live rows: the devices are subscribed on the hub and a row
// changes as its device reports (SOS, fall, heartbeat ...). 'Failed to establish connection for
// live updates.' shows when the hub cannot be reached.
import { useMemo, useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { DataTableColumn } from '../../ui/data-table/types';
import { yesNoFilter, type FilterDef } from '../../ui/filter-bar';
import { LiveBadge } from '../../ui/live-badge';
import { toast } from '../../ui/toast';
import { deviceTypesQuery } from '../../api/devices';
import { downloadLastMessagesCsv, lastMessagesQuery, useDeviceLive, type LastMessages } from '../../api/live';
import { MSG } from '../../../shared/messages';
import { DEFAULT_PAGE_SIZE } from '../../../shared/codes';
import * as v from 'valibot';
import { deviceIdentityOf, HUB_EVENT_SCHEMAS, type DeviceMessageDto, type HubEventPayloads, type LastMessageDto } from '../../../shared/schemas/live';
import { formatInstant } from '../../../shared/device-config-format';
import { DownloadCsvButton, ManageList, ManageShell, useSelectedDevices, useSelectedList, type SelectedListState } from './manage-shell';
import { toLastMessagesFilter } from './manage-filters';

export const NO_COMMUNICATION = 'No communication received from this device';
/** How long a row that just reported stays highlighted. */
const RECENT_MS = 5000;

const INITIAL: SelectedListState = { page: 1, pageSize: DEFAULT_PAGE_SIZE, sort: { key: 'SerialNumber', desc: false }, filters: {} };

type Live =
  | { kind: 'message'; m: DeviceMessageDto }
  | { kind: 'monitoring'; row: LastMessageDto }
  | { kind: 'connected'; e: HubEventPayloads['DeviceConnected'] };

/** Whether a hub event has the contract's shape (a bad one must not break the rows). */
export function isValidLive(ev: Live): boolean {
  if (ev.kind === 'message') return v.safeParse(HUB_EVENT_SCHEMAS.MessageStream, ev.m).success;
  if (ev.kind === 'monitoring') return v.safeParse(HUB_EVENT_SCHEMAS.DeviceMonitoring, ev.row).success;
  return v.safeParse(HUB_EVENT_SCHEMAS.DeviceConnected, ev.e).success;
}

/** A live event applied to the row of its device (by identity); other rows unchanged. */
export function applyLive(rows: readonly LastMessageDto[], ev: Live): LastMessageDto[] {
  return rows.map((r) => {
    if (ev.kind === 'monitoring') return r.DeviceIdentity === ev.row.DeviceIdentity ? ev.row : r;
    if (ev.kind === 'connected') return r.DeviceIdentity === ev.e.DeviceIdentity ? { ...r, IsConnected: ev.e.IsConnected } : r;
    const m = ev.m;
    if (r.DeviceIdentity !== m.DeviceIdentity) return r;
    // An older message than the row's (out of order delivery) leaves the row as it is.
    if (r.Date && Date.parse(r.Date) > Date.parse(m.Date)) return r;
    return { ...r, Date: m.Date, Message: m.Message, Battery: m.Battery, Signal: m.Signal, MessageId: m.MessageId, IsEmpty: false, IsConnected: true };
  });
}

export function testingColumns(recent: ReadonlySet<string>): DataTableColumn<LastMessageDto>[] {
  return [
    {
      id: 'serial',
      header: 'Serial Number',
      sortKey: 'SerialNumber',
      width: 'minmax(140px, 1.1fr)',
      cell: (r) => (
        <span data-live={recent.has(r.DeviceIdentity) || undefined} className="lw-manage__serial">
          {r.SerialNumber}
        </span>
      ),
    },
    { id: 'type', header: 'Type', sortKey: 'DeviceType', width: 'minmax(90px, 0.7fr)', cell: (r) => r.DeviceType.Name || '-' },
    { id: 'date', header: 'Date', sortKey: 'Date', width: '180px', cell: (r) => (r.IsEmpty ? '-' : formatInstant(r.Date, true)) },
    {
      id: 'message',
      header: 'Message',
      sortKey: 'Message',
      width: 'minmax(300px, 2fr)',
      cell: (r) => (r.IsEmpty ? <span className="lw-manage__none">{NO_COMMUNICATION}</span> : (r.Message ?? '-')),
    },
    {
      id: 'battery',
      header: 'Battery',
      sortKey: 'Battery',
      width: '90px',
      align: 'end',
      cell: (r) => (r.IsEmpty || r.Battery === null ? '-' : `${r.Battery}%`),
    },
    { id: 'signal', header: 'Signal', sortKey: 'Signal', width: '80px', align: 'end', cell: (r) => (r.IsEmpty || r.Signal === null ? '-' : String(r.Signal)) },
    { id: 'connected', header: 'Connected', sortKey: 'IsConnected', width: '110px', cell: (r) => (r.IsConnected ? 'Yes' : 'No') },
  ];
}

export function DeviceTestingPage() {
  const qc = useQueryClient();
  const devices = useSelectedDevices();
  const identities = useMemo(() => devices.map((d) => deviceIdentityOf({ imei: d.imei ?? null, serialNumber: d.serialNumber })), [devices]);
  const { list, filter } = useSelectedList({ initial: INITIAL, ids: identities, toFilter: toLastMessagesFilter, query: lastMessagesQuery });
  const types = useQuery(deviceTypesQuery()).data;
  const [recent, setRecent] = useState<ReadonlySet<string>>(new Set());

  const apply = (ev: Live, identity: string) => {
    // Spec §8: a live message the list cannot use says 'Failed to update list.' (the row stays).
    if (!isValidLive(ev)) {
      toast.error(MSG.badLiveMessage, { key: 'bulk-manage.bad-live' });
      return;
    }
    qc.setQueryData<LastMessages>(lastMessagesQuery(list.request).queryKey, (old) => (old ? { ...old, Items: applyLive(old.Items, ev) } : old));
    if (ev.kind === 'connected') return;
    setRecent((s) => new Set(s).add(identity));
    setTimeout(
      () =>
        setRecent((s) => {
          const n = new Set(s);
          n.delete(identity);
          return n;
        }),
      RECENT_MS,
    );
  };
  // Spec §4: rows update when a message event arrives for a device on the list. (After a
  // reconnect the hub client refetches the ['live'] queries, so nothing missed stays missing.)
  const status = useDeviceLive(identities, {
    MessageStream: (m) => apply({ kind: 'message', m }, m.DeviceIdentity),
    DeviceMonitoring: (row) => apply({ kind: 'monitoring', row }, row.DeviceIdentity),
    DeviceConnected: (e) => apply({ kind: 'connected', e }, e.DeviceIdentity),
  });
  const selectedTypes = useMemo(() => new Set(devices.map((d) => d.type.value)), [devices]);
  const filterDefs: FilterDef[] = useMemo(
    () => [
      {
        id: 'types',
        type: 'multiselect',
        label: 'Device type',
        options: (types ?? []).filter((t) => selectedTypes.has(t.Value)).map((t) => ({ value: String(t.Value), label: t.Name })),
      },
      yesNoFilter('connected', 'Connected'),
      { id: 'withNoMessagesOnly', type: 'check-filter', label: 'No messages only' },
    ],
    [types, selectedTypes],
  );

  const columns = useMemo(() => testingColumns(recent), [recent]);
  return (
    <ManageShell
      current="bulkDeviceTesting"
      count={devices.length}
      loading={list.query.isPending}
      actions={
        <>
          <LiveBadge state={status} />
          <DownloadCsvButton disabled={!list.rows.length} download={() => downloadLastMessagesCsv(filter)} prefix="TestingConfiguration" />
        </>
      }
    >
      <ManageList<LastMessageDto>
        list={list}
        name="Device testing"
        filters={filterDefs}
        columns={columns}
        getRowKey={(r) => r.DeviceIdentity}
        deviceIdOf={(r) => r.DeviceId}
      />
    </ManageShell>
  );
}
