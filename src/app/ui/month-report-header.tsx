// The top of a monthly report page (the management report, the usage report): the report's title
// with the name of what it covers, a month picker with previous / next, Print (Export to PDF), and
// the page's own actions after it. The printable document sits below in a `month-report-screen`
// box (A4 wide, white, as it prints).
import type { ReactNode } from 'react';
import { Button, Flex, Heading, Text } from '@radix-ui/themes';
import { ActionButton } from './action-button';
import { parseMonth, shiftMonth } from '../../shared/management-report';
import './month-report.css';

export function MonthReportHeader(props: {
  title: string;
  /** What the report covers (a customer's name), after the title; none while loading. */
  name?: string;
  /** YYYY-MM */
  month: string;
  setMonth: (month: string) => void;
  /** The latest month the picker offers. */
  max: string;
  /** Next month is off (at the latest month with data); the focus stays on it. */
  nextDisabled?: boolean;
  printing: boolean;
  print: () => void;
  /** Print is off until the report is loaded. */
  canPrint: boolean;
  /** The page's own actions, after Print. */
  children?: ReactNode;
}) {
  const { title, name, month, setMonth, max, nextDisabled = false, printing, print, canPrint, children } = props;
  return (
    <Flex align="center" justify="between" gap="3" wrap="wrap">
      <Heading as="h1" size="5">
        {title}
        {name ? `: ${name}` : ''}
      </Heading>
      <Flex gap="2" align="center" wrap="wrap">
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
        <ActionButton variant="soft" onClick={() => setMonth(shiftMonth(month, 1))} disabled={nextDisabled} aria-label="Next month">
          ›
        </ActionButton>
        <ActionButton onClick={() => print()} busy={printing} disabled={!canPrint}>
          Print (Export to PDF)
        </ActionButton>
        {children}
      </Flex>
    </Flex>
  );
}
