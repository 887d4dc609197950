// The asset list's columns (spec document 2 §2 "Assets device list"): Type, Serial Number, IMEI,
// SIM Serial, Phone number, Order Number, Last Config, Status, Assigned. Each column's least width
// holds its whole value ('badge (140)', '+44 7700 900123', a 20-digit SIM serial) so nothing of a
// number is cut; a narrower pane drops SIM Serial, then Order Number, instead of cutting them (a
// long status or type keeps its whole text in its title).
import type { DataTableColumn } from '../../ui/data-table/types';
import { yesNoColumn } from '../../ui/data-table/yes-no-mark';
import type { DeviceDto } from '../../api/devices';
import { deviceTypeDisplayName } from '../../../shared/codes';
import { formatPhone } from '../../../shared/phone';
import { dash, formatDate, formatDateTime, statusLabel } from './asset-format';

export function assetColumns(): DataTableColumn<DeviceDto>[] {
  return [
    { id: 'type', header: 'Type', sortKey: 'Type', width: 'minmax(100px, 0.5fr)', cell: (d) => dash(d.type ? deviceTypeDisplayName(d.type) : null) },
    { id: 'serial', header: 'Serial Number', sortKey: 'SerialNumber', width: 'minmax(120px, 0.9fr)', cell: (d) => d.serialNumber },
    { id: 'imei', header: 'IMEI', sortKey: 'Imei', width: 'minmax(152px, 1fr)', cell: (d) => dash(d.imei) },
    { id: 'simSerial', header: 'SIM Serial', sortKey: 'SimSerial', width: 'minmax(184px, 1.2fr)', hideBelow: 1000, cell: (d) => dash(d.simSerial) },
    { id: 'phone', header: 'Phone number', sortKey: 'PhoneNumber', width: 'minmax(148px, 0.9fr)', cell: (d) => formatPhone(d.phoneNumber) },
    { id: 'order', header: 'Order Number', sortKey: 'OrderNumber', width: 'minmax(110px, 0.8fr)', hideBelow: 900, cell: (d) => dash(d.orderNumber) },
    {
      id: 'lastConfig',
      header: 'Last Config',
      sortKey: 'LastConfig',
      width: 'minmax(104px, 0.7fr)',
      cell: (d) => <span title={formatDateTime(d.lastConfigurationDate)}>{formatDate(d.lastConfigurationDate)}</span>,
    },
    {
      id: 'status',
      header: 'Status',
      sortKey: 'Status',
      width: 'minmax(112px, 1fr)',
      cell: (d) => <span title={statusLabel(d.status?.name)}>{statusLabel(d.status?.name)}</span>,
    },
    yesNoColumn<DeviceDto>({ id: 'assigned', header: 'Assigned', width: '94px', value: (d) => d.isUserAssigned, label: (d) => `Assigned ${d.serialNumber}` }),
  ];
}
