// A monthly report's printable document (the management report, the usage report): a named page
// with the running header and footer of ui/print.ts, the header (title, customer, a line about the
// month), then the report, then the footer. `block` is the report's CSS block (its classes are
// `<block>__header`, `__name`, `__meta` and `__footer`).
import type { ReactNode, Ref } from 'react';
import { printPageName, printPageRules } from './print';
import { monthLabel } from '../../shared/management-report';

export function MonthlyPrint(props: {
  ref?: Ref<HTMLDivElement>;
  title: string;
  customerName: string;
  /** YYYY-MM */
  month: string;
  /** Names the printed page (with the month): one per report and customer. */
  pageId: string;
  block: string;
  className?: string;
  testId: string;
  /** The line under the customer's name. */
  meta: ReactNode;
  children: ReactNode;
}) {
  const { ref, title, customerName, month, pageId, block, className, testId, meta, children } = props;
  const label = monthLabel(month);
  const pageName = printPageName(`${pageId}-${month}`);
  const footer = `${title} · ${customerName} · ${label}`;
  return (
    <div ref={ref} className={className ? `${block} ${className}` : block} data-testid={testId} style={{ page: pageName }}>
      <style>{printPageRules(pageName, `${customerName} · ${label}`, footer)}</style>
      <header className={`${block}__header`}>
        <h1>{title}</h1>
        <p className={`${block}__name`}>{customerName}</p>
        <p className={`${block}__meta`}>{meta}</p>
      </header>
      {children}
      <footer className={`${block}__footer`}>{footer}</footer>
    </div>
  );
}
