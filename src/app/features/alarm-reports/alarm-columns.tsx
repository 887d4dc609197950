// The alarm report list's columns (spec §2): Date / Time, Account Name, Tier, Trigger, Type,
// Category, User Name, Device, Controller. Sort keys are the contract's sortBy values. Widths fit the content's format (the
// date-time is always 'dd MMM yy HH:mm'); Tier, Device, Type and Category are secondary and leave a
// narrow pane first.
import type { DataTableColumn } from '../../ui/data-table/types';
import type { AlarmReportRow } from '../../../shared/schemas/alarm-reports';
import { dash, formatDateTime } from './alarm-format';

const text = (v: string | null | undefined) => <span title={dash(v)}>{dash(v)}</span>;

export function alarmColumns(): DataTableColumn<AlarmReportRow>[] {
  return [
    {
      id: 'closed',
      header: 'Date / Time',
      sortKey: 'AlarmClosedDate',
      width: 'minmax(10.5rem, 0.9fr)',
      primary: true,
      cell: (r) => <span className="lw-nums">{formatDateTime(r.AlarmClosedDate)}</span>,
    },
    { id: 'account', header: 'Account Name', sortKey: 'CustomerAccountFullName', width: 'minmax(150px, 1.2fr)', cell: (r) => text(r.CustomerAccountFullName) },
    { id: 'tier', header: 'Tier', sortKey: 'Tier', width: 'minmax(80px, 0.5fr)', hideBelow: 1000, cell: (r) => dash(r.Tier?.Name) },
    { id: 'trigger', header: 'Trigger', sortKey: 'AlarmType', width: 'minmax(120px, 0.9fr)', cell: (r) => text(r.AlarmType.Name) },
    {
      id: 'type',
      header: 'Type',
      sortKey: 'AlarmVerificationType',
      width: 'minmax(120px, 0.9fr)',
      hideBelow: 760,
      cell: (r) => text(r.AlarmVerificationType.Name),
    },
    {
      id: 'category',
      header: 'Category',
      sortKey: 'AlarmVerificationCategory',
      width: 'minmax(130px, 1fr)',
      hideBelow: 860,
      cell: (r) => text(r.AlarmVerificationCategory.Name),
    },
    { id: 'user', header: 'User Name', sortKey: 'PersonFullName', width: 'minmax(130px, 1fr)', primary: true, cell: (r) => text(r.PersonFullName) },
    { id: 'device', header: 'Device', sortKey: 'DeviceType', width: 'minmax(100px, 0.7fr)', hideBelow: 1100, cell: (r) => dash(r.DeviceType?.Name) },
    { id: 'controller', header: 'Controller', sortKey: 'ArcControllerFullName', width: 'minmax(10rem, 1fr)', cell: (r) => text(r.ArcControllerFullName) },
  ];
}
