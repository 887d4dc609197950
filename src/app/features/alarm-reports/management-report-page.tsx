// The monthly management report tab: /management-report (all customers) and
// /customers/{id}/management-report (one customer), the month in the tab's link (?month=YYYY-MM,
// last month when missing, so a reload or a copied link shows the same month). A month picker
// with previous / next, Print (Export to PDF) through react-to-print with the document shown on
// screen (management-report-print.tsx). With the feature ExportManagementReportPDF off the page
// says so and the server refuses (403).
import { useQuery } from '@tanstack/react-query';
import {} from '@radix-ui/themes';
import { useTab } from '../../workspace/tab-context';
import { useTabMonth } from '../../workspace/tab-month';
import { MonthReportFrame, useMonthReportTitle } from '../../workspace/month-report';
import { PageLoading, PageMessage } from '../../workspace/page-message';
import { managementReportQuery } from '../../api/alarm-reports';
import { featuresQuery, isFeatureOn } from '../../api/reference';
import { errorStatus } from '../../api/query-client';
import { isValidId } from '../../../shared/codes';
import { MSG } from '../../../shared/messages';
import { defaultMonth, shiftMonth } from '../../../shared/management-report';
import { MANAGEMENT_FEATURE, MANAGEMENT_TEXT } from '../../../shared/schemas/management-report';
import { PrintableManagementReport } from './management-report-print';
import './alarm-reports.css';

export function ManagementReportPage() {
  const { params } = useTab();
  const customerId = params.customerId ?? null;
  const [month, setMonth] = useTabMonth();
  const features = useQuery(featuresQuery());
  const on = isFeatureOn(features.data, MANAGEMENT_FEATURE);
  const valid = customerId === null || isValidId(customerId);
  const report = useQuery({ ...managementReportQuery({ month, customerId }), enabled: on && valid });
  const name = report.data?.CustomerName;
  useMonthReportTitle(MANAGEMENT_TEXT.title, name);

  if (!valid) return <PageMessage message={MSG.badUrl} />;
  if (features.isPending) return <PageLoading />;
  if (!on || errorStatus(report.error) === 403) return <PageMessage message={MANAGEMENT_TEXT.disabled} />;

  // The picker offers the month after last (the current one, its days so far).
  const max = shiftMonth(defaultMonth(Date.now()), 1);
  return (
    <MonthReportFrame title={MANAGEMENT_TEXT.title} name={name} month={[month, setMonth]} max={max} report={report}>
      {(r, ref) => <PrintableManagementReport r={r} ref={ref} />}
    </MonthReportFrame>
  );
}
