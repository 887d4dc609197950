// The monthly management report as an .xlsx workbook: what a scheduled report of the management
// report attaches (decision "A scheduled management report is an .xlsx, not a PDF",
// docs/decisions/scheduled-reports-and-mail.md: no PDF library, so a spreadsheet of the same numbers as the
// printed report, section by section in its order and with its headings, MANAGEMENT_SECTIONS).
// One sheet, 'Management Report'; closed dates are London wall-clock times like every export.
// A report is a few hundred cells: written in memory, not through the export pool.
import { formatShown } from '../../../shared/dates.js';
import { monthLabel } from '../../../shared/management-report.js';
import { MANAGEMENT_SECTIONS, MANAGEMENT_TEXT, type ManagementReport } from '../../../shared/schemas/management-report.js';

export const MANAGEMENT_SHEET = 'Management Report';

/** 'ManagementReport_2026-10.xlsx' (the customer is in the e-mail's subject and the sheet). */
export const managementFileName = (month: string) => `ManagementReport_${month}.xlsx`;

type Cell = string | number | boolean | null;

/** The rows of the sheet, top to bottom (blank rows between sections). */
export function managementRows(r: ManagementReport): Cell[][] {
  const month = monthLabel(r.Month);
  const before = monthLabel(r.PreviousMonth);
  const rows: Cell[][] = [
    [MANAGEMENT_TEXT.title],
    ['Customer', r.CustomerName],
    ['Month', month],
    ['Alarms', r.TotalCount],
    [`Alarms in ${before}`, r.PreviousTotalCount],
  ];
  const section = (title: string, ...body: Cell[][]) => rows.push([], [title], ...body);
  /** A table of alarm counts: its heading, then a row per name or band. */
  type Counted = ({ Name: string } | { TimeFrame: string }) & { Count: number };
  const counts = (heading: string, of: readonly Counted[]): Cell[][] => [[heading, 'Alarms'], ...of.map((t) => ['Name' in t ? t.Name : t.TimeFrame, t.Count])];
  section(MANAGEMENT_SECTIONS[0], ...counts('Alarm type', r.ByAlarmType), [], ...counts('Verification type', r.ByVerificationType));
  section(MANAGEMENT_SECTIONS[1], ...counts('Category', r.ByCategory));
  section(MANAGEMENT_SECTIONS[2], ...counts('Verification Started', r.VerificationStarted), [], ...counts('Verification Completed', r.VerificationCompleted));
  section(
    MANAGEMENT_SECTIONS[3],
    ['Target', 'Alarms within', `${month} %`, 'Goal %', 'Met', `${before} %`, 'Change (points)'],
    ...[['Verification started within 10 s', r.Within10] as const, ['Verification started within 40 s', r.Within40] as const].map(([label, t]) => [
      label,
      t.Count,
      t.Percent,
      t.TargetPercent,
      t.Percent === null ? null : t.Met ? 'Met' : 'Missed',
      t.PreviousPercent,
      t.Change,
    ]),
  );
  section(
    MANAGEMENT_SECTIONS[4],
    ['Missed', r.MissedTotal, r.MissedTotal > r.Missed.length ? `the ${r.Missed.length} slowest are listed` : null],
    ['Alarm Id', 'Closed', 'User', 'Account', 'Verification started (s)', 'Over 40 s'],
    ...r.Missed.map((m) => [
      m.AlarmId,
      formatShown(m.AlarmClosedDate),
      m.PersonFullName,
      m.CustomerAccountFullName,
      m.VerificationStartedSeconds,
      m.Over40 ? 'Yes' : 'No',
    ]),
  );
  section(MANAGEMENT_SECTIONS[5], ['User', 'Alarms'], ...r.BusiestPersons.map((p) => [p.FullName, p.Count]));
  section(MANAGEMENT_SECTIONS[6], ['Serial', 'Device type', 'Alarms'], ...r.BusiestDevices.map((d) => [d.Serial, d.DeviceType, d.Count]));
  const c = r.PlanCompliance;
  section(
    MANAGEMENT_SECTIONS[7],
    ...(c
      ? [
          ['Analysed', c.Analysed],
          ['With an escalation plan', c.WithPlan],
          ['Plan followed', c.Followed],
          ['Plan not followed', c.NotFollowed],
          ['No plan', c.NoPlan],
          ["Check agrees with the controller's tick", c.Agrees],
          ["Check questions the controller's tick", c.Questions],
          ['Followed %', c.FollowedPercent],
        ]
      : [['Alarm report intelligence is off: no compliance figures.']]),
  );
  return rows;
}

/**
 * The workbook's bytes. The spreadsheet library is loaded on the first report, not with the
 * server: its in-memory workbook brings the whole package (8.7 MB of heap) that a server which
 * sends no scheduled management report never needs.
 */
export async function managementReportXlsx(r: ManagementReport): Promise<Uint8Array> {
  const { default: ExcelJS } = await import('@zurmokeeper/exceljs');
  const wb = new ExcelJS.Workbook();
  wb.creator = 'Safety Workspace';
  const ws = wb.addWorksheet(MANAGEMENT_SHEET);
  const headings = new Set<string>([MANAGEMENT_TEXT.title, ...MANAGEMENT_SECTIONS]);
  for (const values of managementRows(r)) {
    const row = ws.addRow(values);
    if (values.length === 1 && typeof values[0] === 'string' && headings.has(values[0]))
      row.font = { bold: true, size: values[0] === MANAGEMENT_TEXT.title ? 14 : 12 };
  }
  ws.getColumn(1).width = 40;
  for (const i of [2, 3, 4, 5, 6, 7]) ws.getColumn(i).width = 18;
  return new Uint8Array(await wb.xlsx.writeBuffer());
}
