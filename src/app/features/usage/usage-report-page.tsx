// The usage report of a customer: /customers/{id}/usage-report, the month in the tab's link
// (?month=YYYY-MM; last month when missing, so a reload or a copied link shows the same month).
// A month picker with previous / next, Print (Export to PDF) through react-to-print with the
// document shown on screen (usage-report-print.tsx), and Export (.xlsx through the export pool,
// with its progress and Cancel). Rules: src/shared/usage-report.ts; docs/fleet-health.md.
import { useEffect } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Flex, Spinner, Text } from '@radix-ui/themes';
import { useTab } from '../../workspace/tab-context';
import { useTabMonth } from '../../workspace/tab-month';
import { PageMessage } from '../../workspace/page-message';
import { exportUsageReport, usageReportQuery } from '../../api/fleet';
import { useExportJob } from '../../api/export-jobs';
import { errorMessage, errorStatus } from '../../api/query-client';
import { ActionButton } from '../../ui/action-button';
import { ExportProgressBar } from '../../ui/export-progress';
import { MonthReportHeader } from '../../ui/month-report-header';
import { usePrint } from '../../ui/print';
import { isValidId } from '../../../shared/codes';
import { MSG, USAGE_TEXT } from '../../../shared/messages';
import { londonMonthOf, monthLabel } from '../../../shared/management-report';
import { PrintableUsageReport } from './usage-report-print';
import './usage.css';

/** The month of a tab link's query (?month=YYYY-MM), or null. */
export function UsageReportPage() {
  const { params, setTitle } = useTab();
  const customerId = params.customerId ?? '';
  const valid = isValidId(customerId);
  const [month, setMonth] = useTabMonth();
  const report = useQuery({ ...usageReportQuery({ customerId, month }), enabled: valid });
  const name = report.data?.CustomerName;
  useEffect(() => setTitle(name ? `${USAGE_TEXT.title}: ${name}` : USAGE_TEXT.title), [name, setTitle]);
  const { printRef, printing, print } = usePrint(`${USAGE_TEXT.title} ${name ?? ''} ${monthLabel(month)}`.replace(/\s+/g, ' ').trim());
  const job = useExportJob(
    (o) => exportUsageReport({ customerId, month }, o),
    () => `UsageReport_${(name ?? customerId).replace(/[^A-Za-z0-9]+/g, '-')}_${month}.xlsx`,
    USAGE_TEXT.exportFailed,
  );

  if (!valid) return <PageMessage message={MSG.badUrl} />;
  const current = londonMonthOf(Date.now());
  return (
    <Flex direction="column" gap="3" p="4" style={{ height: '100%', minHeight: 0, boxSizing: 'border-box' }}>
      <MonthReportHeader
        title={USAGE_TEXT.title}
        name={name}
        month={month}
        setMonth={setMonth}
        max={current}
        nextDisabled={month >= current}
        printing={printing}
        print={print}
        canPrint={!!report.data}
      >
        <ActionButton variant="soft" onClick={() => job.mutate()} busy={job.isPending} disabled={!report.data || report.data.Rows.length === 0}>
          Export
        </ActionButton>
      </MonthReportHeader>
      <ExportProgressBar job={job} />
      <div style={{ flex: '1 1 auto', minHeight: 0, overflow: 'auto' }}>
        {report.isPending ? (
          <Flex gap="2" align="center" role="status">
            <Spinner /> <Text>Loading…</Text>
          </Flex>
        ) : report.isError ? (
          <PageMessage message={errorStatus(report.error) === 404 ? MSG.badUrl : errorMessage(report.error)} />
        ) : (
          <div className="month-report-screen">
            <PrintableUsageReport r={report.data} ref={printRef} />
          </div>
        )}
      </div>
    </Flex>
  );
}
