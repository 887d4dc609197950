// The monthly management report as one printable document (A4): shown on screen in its tab and
// copied by react-to-print into the print frame, with the Closed Alarm Report's print approach
// (print-report.tsx): a named page whose @page rules carry the running header (customer and month
// on continuation pages, 'Page N of M' on every page) and the footer; the charts are SVG drawn
// from the numbers (the doughnuts of the alarm list, bars for the counts), so paper and screen
// show the same. Sections, top to bottom: MANAGEMENT_SECTIONS.
import type { ReactNode, Ref } from 'react';
import type { ManagementReport } from '../../api/alarm-reports';
import { monthLabel } from '../../../shared/management-report';
import { MANAGEMENT_SECTIONS, MANAGEMENT_TEXT } from '../../../shared/schemas/management-report';
import { formatCount, formatPercent, formatShare } from '../../../shared/numbers';
import { Donut } from './alarm-charts';
import { formatDateTime } from './alarm-format';
import { MonthlyPrint } from '../../ui/monthly-print';

const STARTED_COLORS = ['#30a46c', '#ffb224', '#e5484d'];
const COMPLETED_COLORS = ['#30a46c', '#3e63dd', '#ffb224', '#e5484d'];
const BAR_COLOR = '#3e63dd';

/** '+2.5 pts', '-1 pts', 'no change', or '-' when either month had no alarms. */
export function changeText(points: number | null): string {
  if (points === null) return '-';
  if (points === 0) return 'no change';
  return `${points > 0 ? '+' : '−'}${Math.abs(points).toLocaleString('en-GB', { maximumFractionDigits: 2 })} pts`;
}

/** Horizontal bars drawn as SVG (prints as drawn), with each count written beside its bar. */
export function BarChart({ title, rows }: { title: string; rows: readonly { label: string; count: number }[] }) {
  const max = Math.max(1, ...rows.map((r) => r.count));
  const rowH = 20;
  // Room for the longest label at 11px (about 6.5px a character) and a gap before its bar:
  // 'Domestic Violence (Precautionary)' never runs into the bar.
  const labelW = Math.max(120, Math.ceil(Math.max(0, ...rows.map((r) => r.label.length)) * 6.5) + 14);
  const barW = 260;
  const height = rows.length * rowH + 4;
  return (
    <figure className="mr-bars" aria-label={title}>
      <svg width={labelW + barW + 70} height={height} role="img" aria-label={`${title}: ${rows.map((r) => `${r.label} ${r.count}`).join(', ')}`}>
        {rows.map((r, i) => {
          const y = i * rowH + 2;
          const w = Math.round((r.count / max) * barW);
          return (
            <g key={r.label}>
              <text x={0} y={y + 14} className="mr-bars__label">
                {r.label}
              </text>
              <rect x={labelW} y={y + 3} width={Math.max(w, r.count > 0 ? 2 : 0)} height={rowH - 6} fill={BAR_COLOR} rx={2} />
              <text x={labelW + w + 6} y={y + 14} className="mr-bars__value">
                {formatCount(r.count)}
              </text>
            </g>
          );
        })}
      </svg>
    </figure>
  );
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section className="mr-section" aria-label={title}>
      <h2>{title}</h2>
      {children}
    </section>
  );
}

export function PrintableManagementReport({ r, ref }: { r: ManagementReport; ref?: Ref<HTMLDivElement> }) {
  const month = monthLabel(r.Month);
  const before = monthLabel(r.PreviousMonth);
  const targets = [
    { label: 'Verification started within 10 s', t: r.Within10 },
    { label: 'Verification started within 40 s', t: r.Within40 },
  ];
  const c = r.PlanCompliance;
  return (
    <MonthlyPrint
      ref={ref}
      title={MANAGEMENT_TEXT.title}
      customerName={r.CustomerName}
      month={r.Month}
      pageId={`management-${r.CustomerId ?? 'all'}`}
      block="ar-print"
      className="mr-report"
      testId="management-report"
      meta={`${month} · ${formatCount(r.TotalCount)} alarms (${before}: ${formatCount(r.PreviousTotalCount)})`}
    >
      <Section title={MANAGEMENT_SECTIONS[0]}>
        <BarChart title="Alarms by type" rows={r.ByAlarmType.map((t) => ({ label: t.Name, count: t.Count }))} />
        <BarChart title="Alarms by verification type" rows={r.ByVerificationType.map((t) => ({ label: t.Name, count: t.Count }))} />
      </Section>
      <Section title={MANAGEMENT_SECTIONS[1]}>
        {r.ByCategory.length ? <BarChart title="Alarms by category" rows={r.ByCategory.map((t) => ({ label: t.Name, count: t.Count }))} /> : <p>No alarms.</p>}
      </Section>
      <Section title={MANAGEMENT_SECTIONS[2]}>
        <div className="mr-donuts">
          <Donut
            title="Verification Started"
            slices={r.VerificationStarted.map((b, i) => ({ label: b.TimeFrame, count: b.Count, color: STARTED_COLORS[i] ?? '#8d8d8d' }))}
          />
          <Donut
            title="Verification Completed"
            slices={r.VerificationCompleted.map((b, i) => ({ label: b.TimeFrame, count: b.Count, color: COMPLETED_COLORS[i] ?? '#8d8d8d' }))}
          />
        </div>
      </Section>
      <Section title={MANAGEMENT_SECTIONS[3]}>
        <table className="mr-table" aria-label="Response targets">
          <thead>
            <tr>
              <th scope="col">Target</th>
              <th scope="col">{month}</th>
              <th scope="col">Goal</th>
              <th scope="col">{before}</th>
              <th scope="col">Change</th>
            </tr>
          </thead>
          <tbody>
            {targets.map(({ label, t }) => (
              <tr key={label}>
                <th scope="row">{label}</th>
                <td>
                  {formatShare(t.Count, r.TotalCount, t.TargetPercent)}
                  {t.Percent === null ? '' : t.Met ? ' · Met' : ' · Missed'}
                </td>
                <td>{formatPercent(t.TargetPercent / 100)}</td>
                <td>{formatShare(t.PreviousCount, r.PreviousTotalCount, t.TargetPercent)}</td>
                <td>{changeText(t.Change)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </Section>
      <Section title={MANAGEMENT_SECTIONS[4]}>
        <p>
          {formatCount(r.MissedTotal)} {r.MissedTotal === 1 ? 'alarm' : 'alarms'} missed the 10 s target
          {r.MissedTotal > r.Missed.length ? `; the ${formatCount(r.Missed.length)} slowest are listed` : ''}.
        </p>
        {r.Missed.length > 0 && (
          <table className="mr-table" aria-label="Missed alarms">
            <thead>
              <tr>
                <th scope="col">Closed</th>
                <th scope="col">User</th>
                {r.CustomerId === null && <th scope="col">Account</th>}
                <th scope="col">Started after</th>
              </tr>
            </thead>
            <tbody>
              {r.Missed.map((m) => (
                <tr key={m.AlarmReportId}>
                  <td>{formatDateTime(m.AlarmClosedDate)}</td>
                  <td>{m.PersonFullName}</td>
                  {r.CustomerId === null && <td>{m.CustomerAccountFullName}</td>}
                  <td className="mr-nowrap">
                    {m.VerificationStartedSeconds} s{m.Over40 ? ' (over 40 s)' : ''}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </Section>
      <Section title={MANAGEMENT_SECTIONS[5]}>
        {r.BusiestPersons.length ? (
          <BarChart title="Busiest users" rows={r.BusiestPersons.map((p) => ({ label: p.FullName, count: p.Count }))} />
        ) : (
          <p>No alarms.</p>
        )}
      </Section>
      <Section title={MANAGEMENT_SECTIONS[6]}>
        {r.BusiestDevices.length ? (
          <BarChart title="Busiest devices" rows={r.BusiestDevices.map((d) => ({ label: `${d.Serial} (${d.DeviceType})`, count: d.Count }))} />
        ) : (
          <p>No alarms.</p>
        )}
      </Section>
      {c && (
        <Section title={MANAGEMENT_SECTIONS[7]}>
          <p data-testid="plan-compliance">
            {formatCount(c.Analysed)} of {formatCount(r.TotalCount)} alarms analysed; {formatCount(c.WithPlan)} had an escalation plan, followed in{' '}
            {formatShare(c.Followed, c.WithPlan)}. The check agrees with the controller's tick in {formatCount(c.Agrees)} and questions it in{' '}
            {formatCount(c.Questions)}.
          </p>
        </Section>
      )}
    </MonthlyPrint>
  );
}
