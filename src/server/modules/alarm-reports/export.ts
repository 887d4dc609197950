// The alarm report list export (spec §7 export-list, §9: xlsx named by a label and a timestamp):
// the list's columns plus the alarm id and device serial an auditor looks reports up by; reports
// in closed date + id order (keyset pages), newest first unless the list is sorted oldest first.
// When alarm report intelligence is on, the Analysis column group follows: plan check verdict,
// number of anomalies and the summary (blank for reports without one). Run only inside the export
// pool (src/server/exports).
import type { AlarmReportExportBody, AlarmReportRow } from '../../../shared/schemas/alarm-reports.js';
import { withZone } from '../../../shared/export-format.js';
import { keysetPages, type ExportColumn, type ExportDefinition } from '../../exports/definition.js';
import { countExportRows, exportPage, type ExportKey } from './repo.js';
import { exportAnalyses, type ExportAnalysis } from './analysis.js';
import type { TenantScope } from '../../auth/tenant-scope.js';

export type ExportRow = AlarmReportRow & { DeviceSerial: string | null; Analysis?: ExportAnalysis | null };

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
const ANALYSIS_COLUMNS: ExportColumn<ExportRow>[] = [
  { header: 'Analysis: Plan Check', value: (r) => r.Analysis?.PlanCheck, width: 18 },
  { header: 'Analysis: Anomalies', value: (r) => r.Analysis?.Anomalies, width: 12 },
  { header: 'Analysis: Summary', value: (r) => r.Analysis?.Summary, width: 80 },
];

export const ALARM_EXPORT_SHEET = 'Alarm Reports';

/** The filtered reports within the scope. */
export function alarmReportExport(scope: TenantScope, b: AlarmReportExportBody, now: Date, withAnalysis = false): ExportDefinition<ExportRow> {
  const ascending = b.sortBy === 'AlarmClosedDate' && !b.sortDescending;
  return {
    sheet: ALARM_EXPORT_SHEET,
    columns: withAnalysis ? [...COLUMNS, ...ANALYSIS_COLUMNS] : COLUMNS,
    count: (db) => countExportRows(db, scope, b, now),
    pages: (db) =>
      keysetPages(
        async (after: ExportKey | null, size) => {
          const rows = await exportPage(db, scope, b, now, ascending, after, size);
          if (!withAnalysis) return rows;
          const analyses = await exportAnalyses(
            db,
            rows.map((r) => r.AlarmReportId),
          );
          // Object.assign: a property added after a spread takes V8's slow path (decision "Hub payloads are built with
          // Object.assign, not a spread plus names", docs/decisions/live-and-hub.md)
          return rows.map((r) => Object.assign({}, r, { Analysis: analyses.get(r.AlarmReportId) ?? null }));
        },
        (r) => ({ closed: r.AlarmClosedDate, id: r.AlarmReportId }),
      ),
  };
}
