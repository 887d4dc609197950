// The alarm report list as a real .xlsx (spec §7 export-list, §9: xlsx named by a label and a
// timestamp), written with write-excel-file like the device export. Columns: the list's, in its
// order, plus the alarm id and device serial an auditor looks reports up by; and, when any exported
// report has an Analysis shown (alarm report intelligence on for its customer), the Analysis column
// group: plan check verdict, number of anomalies and the summary (blank for reports without one).
import writeXlsxFile, { type Column } from 'write-excel-file/node';
import type { AlarmReportRow } from '../../../shared/schemas/alarm-reports.js';

export type ExportAnalysis = { PlanCheck: 'Agrees' | 'Questions' | 'No plan'; Anomalies: number; Summary: string };
export type ExportRow = AlarmReportRow & { DeviceSerial: string | null; Analysis?: ExportAnalysis | null };

const COLUMNS: Column<ExportRow>[] = [
  { header: 'Date / Time', cell: (r) => ({ value: new Date(r.AlarmClosedDate), format: 'dd/mm/yyyy hh:mm:ss' }), width: 20 },
  { header: 'Account Name', cell: (r) => ({ value: r.CustomerAccountFullName }), width: 30 },
  { header: 'Tier', cell: (r) => ({ value: r.Tier?.Name ?? '' }), width: 10 },
  { header: 'Trigger', cell: (r) => ({ value: r.AlarmType.Name }), width: 20 },
  { header: 'Type', cell: (r) => ({ value: r.AlarmVerificationType.Name }), width: 22 },
  { header: 'Category', cell: (r) => ({ value: r.AlarmVerificationCategory.Name }), width: 26 },
  { header: 'User Name', cell: (r) => ({ value: r.PersonFullName }), width: 24 },
  { header: 'Device', cell: (r) => ({ value: r.DeviceType?.Name ?? '' }), width: 20 },
  { header: 'Controller', cell: (r) => ({ value: r.ArcControllerFullName ?? '' }), width: 24 },
  { header: 'Alarm Id', cell: (r) => ({ value: r.AlarmId }), width: 38 },
  { header: 'Device Serial', cell: (r) => ({ value: r.DeviceSerial ?? '' }), width: 22 },
];
const ANALYSIS_COLUMNS: Column<ExportRow>[] = [
  { header: 'Analysis: Plan Check', cell: (r) => ({ value: r.Analysis?.PlanCheck ?? '' }), width: 18 },
  { header: 'Analysis: Anomalies', cell: (r) => (r.Analysis ? { value: r.Analysis.Anomalies, type: Number } : { value: '' }), width: 12 },
  { header: 'Analysis: Summary', cell: (r) => ({ value: r.Analysis?.Summary ?? '' }), width: 80 },
];

export const ALARM_EXPORT_SHEET = 'Alarm Reports';
export const ALARM_EXPORT_LABEL = 'AlarmReports';

export async function alarmReportsWorkbook(rows: ExportRow[]): Promise<Buffer> {
  const columns = rows.some((r) => r.Analysis) ? [...COLUMNS, ...ANALYSIS_COLUMNS] : COLUMNS;
  return writeXlsxFile(rows, { columns, sheet: ALARM_EXPORT_SHEET, stickyRowsCount: 1 }).toBuffer();
}
