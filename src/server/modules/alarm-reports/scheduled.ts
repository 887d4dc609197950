// The scheduled reports of the alarm reports area, registered with the scheduler
// (lib/scheduled-reports.ts): the alarm list .xlsx of the saved filters, closed dates of the run's
// period, built through the export pool; and the monthly management report .xlsx of the last full
// London month (its customer or all; the feature ExportManagementReportPDF off: the run fails and
// nothing is sent).
import * as v from 'valibot';
import { registerScheduledReport } from '../../lib/scheduled-reports.js';
import { XLSX_TYPE, exportFileName } from '../../exports/routes.js';
import { EXPORT_LABEL } from '../../../shared/export-format.js';
import { DATE_RANGE, DEFAULT_TARGETS, alarmReportFilterBody, type AlarmReportExportBody } from '../../../shared/schemas/alarm-reports.js';
import { managementPeriod, runPeriod } from '../../../shared/schedules.js';
import { monthLabel } from '../../../shared/management-report.js';
import { MANAGEMENT_TEXT } from '../../../shared/schemas/management-report.js';
import { SCHEDULE_TEXT } from '../../../shared/schemas/schedules.js';
import { formatShown, DATE_FORMAT } from '../../../shared/dates.js';
import { managementReport, managementReportOn } from './management-report.js';
import { managementFileName, managementReportXlsx } from './management-export.js';

const day = (iso: string) => formatShown(`${iso}T12:00:00Z`, DATE_FORMAT);

registerScheduledReport('alarmList', {
  async build({ exports, schedule: s, rule, dueAt, now, scope }) {
    const period = runPeriod(rule, 'alarmList', dueAt);
    // Through the filter schema: what was stored (or seeded) gets every default of the list's filters.
    const filters = v.parse(alarmReportFilterBody, JSON.parse(s.filters));
    const filter: AlarmReportExportBody = {
      ...filters,
      alarmClosedDateRangeOption: DATE_RANGE.AllTime,
      alarmClosedDateFrom: period.from,
      alarmClosedDateTo: period.to,
      sortBy: 'AlarmClosedDate',
      sortDescending: true,
    };
    // Every schedule is its own export "user": one build per schedule at a time, within the pool's queue.
    const started = await exports.start(`schedule:${s.id}`, { kind: 'alarmReports', filter, now: now.toISOString(), scope });
    const bytes = started.total > 0 ? new Uint8Array(await new Response(started.body).arrayBuffer()) : null;
    const rows = started.total - started.omitted;
    const periodText = period.from === period.to ? day(period.from) : `${day(period.from)} to ${day(period.to)}`;
    const when = `${period.from === period.to ? 'on' : 'from'} ${periodText}`;
    return {
      file: bytes ? { fileName: exportFileName(EXPORT_LABEL.alarmReports, dueAt), contentType: XLSX_TYPE, content: bytes } : null,
      rows,
      subject: `Scheduled report: ${s.name} (${periodText})`,
      text:
        (bytes
          ? `The attached file lists the ${rows} alarm report${rows === 1 ? '' : 's'} closed ${when} that match the saved filters.`
          : `No alarm reports closed ${when} match the saved filters, so no file is attached.`) +
        (started.omitted ? `\n${started.omitted} more matched and were left out of the file.` : ''),
    };
  },
});

registerScheduledReport('managementReport', {
  async build({ db, schedule: s, dueAt }) {
    if (!(await managementReportOn(db))) throw new Error(`not sent: ${SCHEDULE_TEXT.managementOff}`);
    const { month } = managementPeriod(dueAt);
    const report = await managementReport(db, { month, customerId: s.customerId, targets: DEFAULT_TARGETS });
    if (!report) throw new Error(MANAGEMENT_TEXT.customerNotFound);
    const n = report.TotalCount;
    return {
      file: { fileName: managementFileName(month), contentType: XLSX_TYPE, content: await managementReportXlsx(report) },
      rows: n,
      subject: `Scheduled report: ${s.name} (${report.CustomerName}, ${monthLabel(month)})`,
      text: `The attached file is the management report of ${report.CustomerName} for ${monthLabel(month)}: ${n} alarm report${n === 1 ? '' : 's'} closed in the month.`,
    };
  },
  available: managementReportOn,
});
