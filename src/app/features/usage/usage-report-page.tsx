// The usage report of a customer: /customers/{id}/usage-report, the month in the tab's link
// (?month=YYYY-MM; last month when missing, so a reload or a copied link shows the same month).
// A month picker with previous / next, Print (Export to PDF) through react-to-print with the
// document shown on screen (usage-report-print.tsx), and Export (.xlsx through the export pool,
// with its progress and Cancel). Rules: src/shared/usage-report.ts; docs/fleet-health.md.
import { useQuery } from '@tanstack/react-query';
import { useTab } from '../../workspace/tab-context';
import { useTabMonth } from '../../workspace/tab-month';
import { MonthReportFrame, useMonthReportTitle } from '../../workspace/month-report';
import { PageMessage } from '../../workspace/page-message';
import { exportUsageReport, usageReportQuery } from '../../api/fleet';
import { useExportJob } from '../../api/export-jobs';
import { ActionButton } from '../../ui/action-button';
import { ExportProgressBar } from '../../ui/export-progress';
import { isValidId } from '../../../shared/codes';
import { MSG, USAGE_TEXT } from '../../../shared/messages';
import { londonMonthOf } from '../../../shared/management-report';
import { PrintableUsageReport } from './usage-report-print';
import './usage.css';

export function UsageReportPage() {
  const { params } = useTab();
  const customerId = params.customerId ?? '';
  const valid = isValidId(customerId);
  const [month, setMonth] = useTabMonth();
  const report = useQuery({ ...usageReportQuery({ customerId, month }), enabled: valid });
  const name = report.data?.CustomerName;
  useMonthReportTitle(USAGE_TEXT.title, name);
  const job = useExportJob(
    (o) => exportUsageReport({ customerId, month }, o),
    () => `UsageReport_${(name ?? customerId).replace(/[^A-Za-z0-9]+/g, '-')}_${month}.xlsx`,
    USAGE_TEXT.exportFailed,
  );

  if (!valid) return <PageMessage message={MSG.badUrl} />;
  const current = londonMonthOf(Date.now());
  const exportButton = (
    <ActionButton variant="soft" onClick={() => job.mutate()} busy={job.isPending} disabled={!report.data || report.data.Rows.length === 0}>
      Export
    </ActionButton>
  );
  return (
    <MonthReportFrame
      title={USAGE_TEXT.title}
      name={name}
      month={[month, setMonth]}
      max={current}
      nextDisabled={month >= current}
      actions={exportButton}
      above={<ExportProgressBar job={job} />}
      report={report}
    >
      {(r, ref) => <PrintableUsageReport r={r} ref={ref} />}
    </MonthReportFrame>
  );
}
