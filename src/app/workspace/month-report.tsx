// A monthly report tab (the management report, the usage report): the tab's title with what the
// report covers; a header with the title, a month picker with previous / next, Print (Export to
// PDF, through ui/print.ts) and the page's own actions; and the report's document on screen as it
// prints (A4 wide, white: month-report.css), or the loading line, or what went wrong (a 404 is a
// bad link).
import { useEffect, type ReactNode, type Ref } from 'react';
import { Button, Flex, Spinner, Text } from '@radix-ui/themes';
import { useTab } from './tab-context';
import { PageMessage } from './page-message';
import { PageFrame } from './page-frame';
import { errorMessage, errorStatus } from '../api/query-client';
import { ActionButton } from '../ui/action-button';
import { usePrint } from '../ui/print';
import { MSG } from '../../shared/messages';
import { monthLabel, parseMonth, shiftMonth } from '../../shared/management-report';
import './month-report.css';

/** Sets the tab's title: 'Title: Name' once the name is known. */
export function useMonthReportTitle(title: string, name: string | undefined) {
  const { setTitle } = useTab();
  useEffect(() => setTitle(name ? `${title}: ${name}` : title), [title, name, setTitle]);
}

export function MonthReportFrame<T>(props: {
  title: string;
  /** What the report covers (a customer's name); none while loading. */
  name: string | undefined;
  /** The tab's month (workspace/tab-month.ts) and its setter. */
  month: [string, (month: string) => void];
  /** The latest month the picker offers. */
  max: string;
  /** Next month is off (at the latest month with data). */
  nextDisabled?: boolean;
  /** The page's own actions, after Print. */
  actions?: ReactNode;
  /** Between the header and the document (an export's progress). */
  above?: ReactNode;
  report: { data: T | undefined; isPending: boolean; isError: boolean; error: unknown };
  /** The printable document of the loaded report, with the element Print prints. */
  children: (report: T, printRef: Ref<HTMLDivElement>) => ReactNode;
}) {
  const {
    title,
    name,
    month: [month, setMonth],
    max,
    nextDisabled,
    actions,
    above,
    report,
    children,
  } = props;
  const { printRef, printing, print } = usePrint(`${title} ${name ?? ''} ${monthLabel(month)}`.replace(/\s+/g, ' ').trim());
  return (
    <PageFrame
      title={name ? `${title}: ${name}` : title}
      actions={
        <>
          <Button variant="soft" onClick={() => setMonth(shiftMonth(month, -1))} aria-label="Previous month">
            ‹
          </Button>
          <label className="month-report-month">
            <Text size="2">Month</Text>{' '}
            <input
              type="month"
              value={month}
              max={max}
              onChange={(e) => {
                if (parseMonth(e.currentTarget.value)) setMonth(e.currentTarget.value);
              }}
            />
          </label>
          {/* when it turns off, the focus stays on it */}
          <ActionButton variant="soft" onClick={() => setMonth(shiftMonth(month, 1))} disabled={nextDisabled} aria-label="Next month">
            ›
          </ActionButton>
          <ActionButton onClick={() => print()} busy={printing} disabled={report.data === undefined}>
            Print (Export to PDF)
          </ActionButton>
          {actions}
        </>
      }
    >
      {above}
      <div style={{ flex: '1 1 auto', minHeight: 0, overflow: 'auto' }}>
        {report.isPending ? (
          <Flex gap="2" align="center" role="status">
            <Spinner /> <Text>Loading…</Text>
          </Flex>
        ) : report.isError ? (
          <PageMessage message={errorStatus(report.error) === 404 ? MSG.badUrl : errorMessage(report.error)} />
        ) : (
          report.data !== undefined && <div className="month-report-screen">{children(report.data, printRef)}</div>
        )}
      </div>
    </PageFrame>
  );
}
