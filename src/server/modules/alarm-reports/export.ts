// The alarm report list export (spec §7 export-list, §9: xlsx named by a label and a timestamp):
// the list's columns plus the alarm id and device serial an auditor looks reports up by; reports
// in closed date + id order (keyset pages), newest first unless the list is sorted oldest first.
// Run only inside the export pool (src/server/exports).
import type { AlarmReportExportBody, AlarmReportRow } from '../../../shared/schemas/alarm-reports.js';
import { withZone } from '../../../shared/export-format.js';
import { keysetPages, type ExportColumn, type ExportDefinition } from '../../exports/definition.js';
import { countExportRows, exportPage, type ExportKey } from './repo.js';

export type ExportRow = AlarmReportRow & { DeviceSerial: string | null };

const COLUMNS: ExportColumn<ExportRow>[] = [
  { header: withZone('Date / Time'), value: (r) => r.AlarmClosedDate, width: 24, date: true },
  { header: 'Account Name', value: (r) => r.CustomerAccountFullName, width: 30 },
  { header: 'Tier', value: (r) => r.Tier?.Name, width: 10 },
  { header: 'Trigger', value: (r) => r.AlarmType.Name, width: 20 },
  { header: 'Type', value: (r) => r.AlarmVerificationType.Name, width: 22 },
  { header: 'Category', value: (r) => r.AlarmVerificationCategory.Name, width: 26 },
  { header: 'User Name', value: (r) => r.PersonFullName, width: 24 },
  { header: 'Device', value: (r) => r.DeviceType?.Name, width: 20 },
  { header: 'Controller', value: (r) => r.ArcControllerFullName, width: 24 },
  { header: 'Alarm Id', value: (r) => r.AlarmId, width: 38 },
  { header: 'Device Serial', value: (r) => r.DeviceSerial, width: 22 },
];

export const ALARM_EXPORT_SHEET = 'Alarm Reports';

export function alarmReportExport(b: AlarmReportExportBody, now: Date): ExportDefinition<ExportRow> {
  const ascending = b.sortBy === 'AlarmClosedDate' && !b.sortDescending;
  return {
    sheet: ALARM_EXPORT_SHEET,
    columns: COLUMNS,
    count: (db) => countExportRows(db, b, now),
    pages: (db) =>
      keysetPages(
        (after: ExportKey | null, size) => exportPage(db, b, now, ascending, after, size),
        (r) => ({ closed: r.AlarmClosedDate, id: r.AlarmReportId }),
      ),
  };
}
