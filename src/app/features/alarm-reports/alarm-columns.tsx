// The alarm report list's columns (spec §2): Date / Time, Account Name, Tier, Trigger, Type,
// Category, User Name, Device, Controller. Sort keys are the contract's sortBy values.
import type { DataTableColumn } from '../../ui/data-table/types';
import type { AlarmReportRow } from '../../../shared/schemas/alarm-reports';
import { dash, formatDateTime } from './alarm-format';

const text = (v: string | null | undefined) => <span title={dash(v)}>{dash(v)}</span>;

export function alarmColumns(): DataTableColumn<AlarmReportRow>[] {
  return [
    { id: 'closed', header: 'Date / Time', sortKey: 'AlarmClosedDate', width: 'minmax(150px, 0.9fr)', cell: (r) => formatDateTime(r.AlarmClosedDate) },
    { id: 'account', header: 'Account Name', sortKey: 'CustomerAccountFullName', width: 'minmax(150px, 1.2fr)', cell: (r) => text(r.CustomerAccountFullName) },
    { id: 'tier', header: 'Tier', sortKey: 'Tier', width: 'minmax(80px, 0.5fr)', cell: (r) => dash(r.Tier?.Name) },
    { id: 'trigger', header: 'Trigger', sortKey: 'AlarmType', width: 'minmax(120px, 0.9fr)', cell: (r) => text(r.AlarmType.Name) },
    { id: 'type', header: 'Type', sortKey: 'AlarmVerificationType', width: 'minmax(120px, 0.9fr)', cell: (r) => text(r.AlarmVerificationType.Name) },
    {
      id: 'category',
      header: 'Category',
      sortKey: 'AlarmVerificationCategory',
      width: 'minmax(130px, 1fr)',
      cell: (r) => text(r.AlarmVerificationCategory.Name),
    },
    { id: 'user', header: 'User Name', sortKey: 'PersonFullName', width: 'minmax(130px, 1fr)', cell: (r) => text(r.PersonFullName) },
    { id: 'device', header: 'Device', sortKey: 'DeviceType', width: 'minmax(100px, 0.7fr)', cell: (r) => dash(r.DeviceType?.Name) },
    { id: 'controller', header: 'Controller', sortKey: 'ArcControllerFullName', width: 'minmax(130px, 1fr)', cell: (r) => text(r.ArcControllerFullName) },
  ];
}
