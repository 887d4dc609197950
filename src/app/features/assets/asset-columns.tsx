// The asset list's columns (spec document 2 §2 "Assets device list"): Type, Serial Number, IMEI,
// SIM Serial, Phone number, Order Number, Last Config, Status, Assigned.
import type { DataTableColumn } from '../../ui/data-table/types';
import { YesNoMark } from '../../ui/data-table/yes-no-mark';
import type { DeviceDto } from '../../api/devices';
import { dash, formatDateTime, statusLabel } from './asset-format';

export function assetColumns(): DataTableColumn<DeviceDto>[] {
  return [
    { id: 'type', header: 'Type', sortKey: 'Type', width: 'minmax(110px, 0.9fr)', cell: (d) => dash(d.type?.name) },
    { id: 'serial', header: 'Serial Number', sortKey: 'SerialNumber', width: 'minmax(150px, 1.2fr)', cell: (d) => d.serialNumber },
    { id: 'imei', header: 'IMEI', sortKey: 'Imei', width: 'minmax(150px, 1.2fr)', cell: (d) => dash(d.imei) },
    { id: 'simSerial', header: 'SIM Serial', sortKey: 'SimSerial', width: 'minmax(170px, 1.3fr)', cell: (d) => dash(d.simSerial) },
    { id: 'phone', header: 'Phone number', sortKey: 'PhoneNumber', width: 'minmax(130px, 1fr)', cell: (d) => dash(d.phoneNumber) },
    { id: 'order', header: 'Order Number', sortKey: 'OrderNumber', width: 'minmax(110px, 0.9fr)', cell: (d) => dash(d.orderNumber) },
    { id: 'lastConfig', header: 'Last Config', sortKey: 'LastConfig', width: 'minmax(130px, 1fr)', cell: (d) => formatDateTime(d.lastConfigurationDate) },
    { id: 'status', header: 'Status', sortKey: 'Status', width: 'minmax(150px, 1.2fr)', cell: (d) => statusLabel(d.status?.name) },
    {
      id: 'assigned',
      header: 'Assigned',
      sortKey: 'Assigned',
      width: 'minmax(84px, 0.6fr)',
      align: 'center',
      cell: (d) => <YesNoMark value={d.isUserAssigned} label={`Assigned ${d.serialNumber}`} />,
    },
  ];
}
