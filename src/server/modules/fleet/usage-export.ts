// The usage report as an .xlsx sheet, through the export pool (src/server/exports): one row per
// device of the report (src/shared/schemas/usage-report.ts), in the report's order, last seen as
// a London-time date cell like every export. The page's Export and the scheduled usage report
// (./scheduled.ts) both run it. Run only inside the export pool.
import type { ExportColumn, ExportDefinition } from '../../exports/definition.js';
import type { TenantScope } from '../../auth/tenant-scope.js';
import { withZone } from '../../../shared/export-format.js';
import type { UsageReport, UsageReportRow } from '../../../shared/schemas/usage-report.js';
import { USAGE_TEXT } from '../../../shared/messages.js';
import { usageReport } from './usage-report.js';

export const USAGE_SHEET = 'Usage Report';
/** The export's file label: 'UsageReport_20261201_070000.xlsx'. */
export const USAGE_EXPORT_LABEL = 'UsageReport';

const COLUMNS: ExportColumn<UsageReportRow>[] = [
  { header: 'Person', value: (r) => r.PersonName ?? USAGE_TEXT.notAssigned, width: 28 },
  { header: 'Device Serial', value: (r) => r.Serial, width: 22 },
  { header: 'Device Type', value: (r) => r.DeviceType, width: 24 },
  { header: 'Days Used', value: (r) => r.DaysUsed, width: 12 },
  { header: 'Check-ins', value: (r) => r.CheckIns, width: 12 },
  { header: 'Alarms Raised', value: (r) => r.Alarms, width: 14 },
  { header: 'Low-battery Days', value: (r) => r.LowBatteryDays, width: 16 },
  { header: withZone('Last Seen'), value: (r) => r.LastSeen, width: 24, date: true },
];

/** The report's rows of the customer and month as read at `now`, within the scope (none outside it). */
export function usageReportExport(scope: TenantScope, input: { customerId: string; month: string; now: Date }): ExportDefinition<UsageReportRow> {
  let report: Promise<UsageReport | undefined> | null = null;
  const read = (db: Parameters<typeof usageReport>[0]) => (report ??= usageReport(db, scope, input));
  return {
    sheet: USAGE_SHEET,
    columns: COLUMNS,
    count: async (db) => (await read(db))?.Rows.length ?? 0,
    async *pages(db) {
      const rows = (await read(db))?.Rows ?? [];
      if (rows.length) yield rows;
    },
  };
}
