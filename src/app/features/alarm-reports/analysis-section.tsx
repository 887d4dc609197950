// The Analysis section of a Closed Alarm Report (alarm report intelligence): the stored analysis —
// summary, timeline with its bands, the escalation plan check and the anomalies — as the server
// generated it, on the detail tab (with Generate / Regenerate for users with the note permission)
// and in the printable report after the controller notes. Times are on the UK clock, as in the
// summary. Shown only when intelligence is on for the report's customer.
import type { ReactNode } from 'react';
import { ukDateTime } from '../../../shared/alarm-intelligence';
import type { StoredAnalysis } from '../../../shared/schemas/alarm-intelligence';
import { EMPTY, formatDuration } from './alarm-format';
import { formatPhone } from '../../../shared/phone';
import { Section } from './report-sections';
import { TableHead } from '../../ui/table-head';

export const ANALYSIS_UI_TEXT = {
  title: 'Analysis',
  generate: 'Generate analysis',
  regenerate: 'Regenerate analysis',
  generated: 'Analysis generated.',
  none: 'No analysis has been generated for this report yet.',
  agrees: "Agrees with the controller's tick",
  questions: "Questions the controller's tick",
  noPlan: 'No escalation plan was in force.',
  noAnomalies: 'No anomalies were found.',
  automatically: 'automatically',
} as const;

const yesNo = (b: boolean) => (b ? 'Yes' : 'No');

export function AnalysisSection({ analysis, action, collapsible }: { analysis: StoredAnalysis | null; action?: ReactNode; collapsible?: boolean }) {
  const a = analysis;
  return (
    <Section id="analysis" title={ANALYSIS_UI_TEXT.title} collapsible={collapsible}>
      {action}
      {!a ? (
        <p className="ar-muted">{ANALYSIS_UI_TEXT.none}</p>
      ) : (
        <div className="ar-analysis" data-testid="analysis">
          <p className="ar-analysis__summary" data-testid="analysis-summary">
            {a.Summary}
          </p>
          <p className="ar-muted">
            Generated {ukDateTime(a.GeneratedAt)} {a.GeneratedBy ? `by ${a.GeneratedBy}` : ANALYSIS_UI_TEXT.automatically}
          </p>

          <h3 className="ar-analysis__heading">Timeline</h3>
          <table className="ar-table" aria-label="Timeline">
            <TableHead columns={['Step', 'Time (UK)', 'After raised', 'Since previous', 'Band', 'Response target']} />
            <tbody>
              {a.Timeline.map((s) => (
                <tr key={s.Step}>
                  <td>{s.Step}</td>
                  <td>{ukDateTime(s.At)}</td>
                  <td>{formatDuration(s.Seconds)}</td>
                  <td>{formatDuration(s.SincePrevious)}</td>
                  <td>{s.Band ?? EMPTY}</td>
                  <td>{s.WithinTarget === null ? EMPTY : s.WithinTarget ? 'Met' : 'Missed'}</td>
                </tr>
              ))}
            </tbody>
          </table>

          <h3 className="ar-analysis__heading">Escalation plan check</h3>
          {a.PlanCheck ? (
            <>
              <p>
                {a.PlanCheck.PlanName} ({a.PlanCheck.TeamName}) · followed by the calls: {yesNo(a.PlanCheck.Followed)} · ticked: {yesNo(a.PlanCheck.Ticked)} ·{' '}
                <strong className={a.PlanCheck.Verdict === 'Questions' ? 'ar-failed' : undefined}>
                  {a.PlanCheck.Verdict === 'Agrees' ? ANALYSIS_UI_TEXT.agrees : ANALYSIS_UI_TEXT.questions}
                </strong>
              </p>
              {a.PlanCheck.Instructions.length > 0 && (
                <table className="ar-table" aria-label="Escalation plan check">
                  <TableHead columns={['Instruction', 'Contact', 'Outcome', 'First call (UK)']} />
                  <tbody>
                    {a.PlanCheck.Instructions.map((i, k) => (
                      <tr key={k}>
                        <td>{i.Instruction}</td>
                        <td>
                          {i.ContactName} · {formatPhone(i.Number)}
                        </td>
                        <td className={i.Outcome === 'Answered' ? undefined : 'ar-failed'}>{i.Outcome}</td>
                        <td>{i.CalledAt ? ukDateTime(i.CalledAt) : EMPTY}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              )}
            </>
          ) : (
            <p>{ANALYSIS_UI_TEXT.noPlan}</p>
          )}

          <h3 className="ar-analysis__heading">Anomalies</h3>
          {a.Anomalies.length ? (
            <ul className="ar-list" aria-label="Anomalies">
              {a.Anomalies.map((x, k) => (
                <li key={k} data-kind={x.Kind}>
                  {x.Text}
                </li>
              ))}
            </ul>
          ) : (
            <p>{ANALYSIS_UI_TEXT.noAnomalies}</p>
          )}
        </div>
      )}
    </Section>
  );
}
