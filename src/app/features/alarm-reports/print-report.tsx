// The printable Closed Alarm Report (spec §2 "Printable Closed Alarm Report, top to bottom"):
// header, alarm summary, profile snapshot date, user information, emergency contacts, device
// details, escalation plans per team, alarm instructions, controller notes, the Analysis (when
// alarm report intelligence is on for the customer), activity journal.
// Every section expanded, the map as a drawn position (no live map in print), and print styles
// (alarm-reports.css, @media print and PRINT_PAGE_STYLE) that keep a call, note or journal entry
// on one page of A4. Each report is a named page (CSS paged media): continuation pages carry a
// running header (person, alarm id, 'Page N of M') and every page carries the footer in its bottom
// margin, so no page holds only the footer.
import type { Ref } from 'react';
import { printPageName, printPageRules } from '../../ui/print';
import { DrawnPosition } from './alarm-map';
import { ALARM_TEXT, EMPTY, formatDateTime, headerName, nameOf } from './alarm-format';
import {
  ContactsSection,
  DevicesSection,
  InstructionsSection,
  JournalSection,
  NotesSection,
  SnapshotDate,
  SummarySection,
  TeamsSection,
  UserSection,
} from './report-sections';
import type { Detail } from './detail-types';
import type { StoredAnalysis } from '../../../shared/schemas/alarm-intelligence';
import { AnalysisSection } from './analysis-section';

export const PRINT_TITLE = 'Closed Alarm Report';

export { PRINT_PAGE_STYLE, printPageName, printPageRules, usePrint } from '../../ui/print';

/** Section order of the printable report, top to bottom (the e2e test reads the printed text in this order); 'analysis' only when intelligence is on. */
export const PRINT_SECTIONS = ['summary', 'snapshot', 'user', 'contacts', 'devices', 'teams', 'instructions', 'notes', 'analysis', 'journal'] as const;

/** `analysis`: undefined when intelligence is off for the report (no section), null when none was generated yet. */
export function PrintableReport({ d, ref, analysis }: { d: Detail; ref?: Ref<HTMLDivElement>; analysis?: StoredAnalysis | null }) {
  const p = d.ProfileSnapshot?.Person;
  const name = headerName(p, d.AlarmIncomingCallPhoneNumber);
  const company = nameOf(p?.Company);
  const pageName = printPageName(d.Id);
  const running = [name !== EMPTY ? name : null, `Alarm ${d.AlarmId}`].filter(Boolean).join(' · ');
  const footer = `${PRINT_TITLE} · ${ALARM_TEXT.escalationFollowed}: ${d.EscalationPlanFollowed ? 'Yes' : 'No'}`;
  return (
    <div ref={ref} className="ar-print" data-testid="printable-report" style={{ page: pageName }}>
      <style>{printPageRules(pageName, running, footer)}</style>
      <header className="ar-print__header">
        <h1>{PRINT_TITLE}</h1>
        {name !== EMPTY && <p className="ar-print__name">{name}</p>}
        {company !== EMPTY && <p className="ar-print__company">{company}</p>}
        <p className="ar-print__meta">
          Alarm {d.AlarmId} · closed {formatDateTime(d.AlarmClosed)}
        </p>
      </header>
      <SummarySection
        d={d}
        collapsible={false}
        escalation={d.EscalationPlanFollowed ? 'Yes' : 'No'}
        map={<DrawnPosition location={d.Location} height={160} />}
      />
      <SnapshotDate d={d} />
      <UserSection d={d} collapsible={false} />
      <ContactsSection d={d} collapsible={false} />
      <DevicesSection d={d} collapsible={false} />
      <TeamsSection d={d} collapsible={false} />
      <InstructionsSection d={d} collapsible={false} />
      <NotesSection d={d} collapsible={false} title="Controller notes" showRoles />
      {analysis !== undefined && <AnalysisSection analysis={analysis} collapsible={false} />}
      <JournalSection d={d} collapsible={false} />
      <footer className="ar-print__footer">{footer}</footer>
    </div>
  );
}
