// The monthly management report tab: /management-report (all customers) and
// /customers/{id}/management-report (one customer), the month in the tab's link (?month=YYYY-MM,
// last month when missing, so a reload or a copied link shows the same month). A month picker
// with previous / next, Print (Export to PDF) through react-to-print with the document shown on
// screen (management-report-print.tsx). With the feature ExportManagementReportPDF off the page
// says so and the server refuses (403).
import { useEffect } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Flex, Spinner, Text } from '@radix-ui/themes';
import { useTab } from '../../workspace/tab-context';
import { useTabMonth } from '../../workspace/tab-month';
import { PageMessage } from '../../workspace/page-message';
import { managementReportQuery } from '../../api/alarm-reports';
import { featuresQuery, isFeatureOn } from '../../api/reference';
import { errorMessage, errorStatus } from '../../api/query-client';
import { isValidId } from '../../../shared/codes';
import { MSG } from '../../../shared/messages';
import { defaultMonth, monthLabel, shiftMonth } from '../../../shared/management-report';
import { MANAGEMENT_FEATURE, MANAGEMENT_TEXT } from '../../../shared/schemas/management-report';
import { usePrint } from './print-report';
import { PrintableManagementReport } from './management-report-print';
import './alarm-reports.css';
import { MonthReportHeader } from '../../ui/month-report-header';

/** The month of a tab link's query (?month=YYYY-MM), or null. */
export function ManagementReportPage() {
  const { params, setTitle } = useTab();
  const customerId = params.customerId ?? null;
  const [month, setMonth] = useTabMonth();
  const features = useQuery(featuresQuery());
  const on = isFeatureOn(features.data, MANAGEMENT_FEATURE);
  const valid = customerId === null || isValidId(customerId);
  const report = useQuery({ ...managementReportQuery({ month, customerId }), enabled: on && valid });
  const name = report.data?.CustomerName;
  useEffect(() => setTitle(name ? `${MANAGEMENT_TEXT.title}: ${name}` : MANAGEMENT_TEXT.title), [name, setTitle]);

  const { printRef, printing, print } = usePrint(`${MANAGEMENT_TEXT.title} ${name ?? ''} ${monthLabel(month)}`.replace(/\s+/g, ' ').trim());

  if (!valid) return <PageMessage message={MSG.badUrl} />;
  if (features.isPending)
    return (
      <Flex p="5" gap="2" align="center" role="status">
        <Spinner /> <Text>Loading…</Text>
      </Flex>
    );
  if (!on || errorStatus(report.error) === 403) return <PageMessage message={MANAGEMENT_TEXT.disabled} />;

  const latest = defaultMonth(Date.now());
  return (
    <Flex direction="column" gap="3" p="4" style={{ height: '100%', minHeight: 0, boxSizing: 'border-box' }}>
      <MonthReportHeader
        title={MANAGEMENT_TEXT.title}
        name={name}
        month={month}
        setMonth={setMonth}
        max={shiftMonth(latest, 1)}
        printing={printing}
        print={print}
        canPrint={!!report.data}
      />
      <div style={{ flex: '1 1 auto', minHeight: 0, overflow: 'auto' }}>
        {report.isPending ? (
          <Flex gap="2" align="center" role="status">
            <Spinner /> <Text>Loading…</Text>
          </Flex>
        ) : report.isError ? (
          <PageMessage message={errorStatus(report.error) === 404 ? MSG.badUrl : errorMessage(report.error)} />
        ) : (
          <div className="month-report-screen">
            <PrintableManagementReport r={report.data} ref={printRef} />
          </div>
        )}
      </div>
    </Flex>
  );
}
