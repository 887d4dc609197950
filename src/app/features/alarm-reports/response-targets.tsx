// What supervisors are measured on (ours; decisions "Response targets are an endpoint of their own" and "One edge
// serves 'within 10 s' and 'Under 10 s'", docs/decisions/alarm-reports.md): the share of the filtered alarms
// whose verification started within 10 s and within 40 s — the Verification Started chart's bands
// below 10 s and 40 s, counted by the server from the same statistics — against targets the
// supervisor can set (default 80 % and 98.5 %, the BS 8484:2016 lone-worker ARC response figures),
// and the alarms that missed, each a real link to its detail tab. Targets persist in this browser (localStorage).
import { useId, useState, type MouseEvent } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Text } from '@radix-ui/themes';
import { responseTargetsQuery } from '../../api/alarm-reports';
import { openRoute } from '../../workspace/actions';
import { getHref } from '../../paths';
import { DEFAULT_TARGETS, STARTED_BANDS, type AlarmReportFilter } from '../../../shared/schemas/alarm-reports';
import { MSG } from '../../../shared/messages';
import { formatDateTime, formatPercent } from './alarm-format';
import { formatCount, formatShare } from '../../../shared/numbers';

export const TARGETS_STORAGE_KEY = 'alarmReports.responseTargets';
export type Targets = { within10: number; within40: number };

/** Stored targets, each a percentage 0–100; anything else falls back to the default. */
export function readTargets(raw: string | null): Targets {
  const ok = (n: unknown): n is number => typeof n === 'number' && Number.isFinite(n) && n >= 0 && n <= 100;
  try {
    const t = raw ? (JSON.parse(raw) as Partial<Targets>) : {};
    return { within10: ok(t.within10) ? t.within10 : DEFAULT_TARGETS.within10, within40: ok(t.within40) ? t.within40 : DEFAULT_TARGETS.within40 };
  } catch {
    return { ...DEFAULT_TARGETS };
  }
}

/** A typed target: a percentage from 0 to 100, or null (refused, and the input says why). */
export function parseTarget(value: string): number | null {
  const n = Number(value.trim());
  return value.trim() !== '' && Number.isFinite(n) && n >= 0 && n <= 100 ? n : null;
}

function useTargets(): [Targets, (t: Targets) => void] {
  const [targets, setTargets] = useState<Targets>(() => readTargets(typeof localStorage === 'undefined' ? null : localStorage.getItem(TARGETS_STORAGE_KEY)));
  return [
    targets,
    (t) => {
      setTargets(t);
      try {
        localStorage.setItem(TARGETS_STORAGE_KEY, JSON.stringify(t));
      } catch {
        /* private mode: the targets hold for this page only */
      }
    },
  ];
}

/** One target: '391 of 754 (51.9%)' within it, and whether the target (80%) was met or missed, said as such. */
function Bar({
  label,
  count,
  total,
  percent,
  target,
  met,
}: {
  label: string;
  count: number;
  total: number;
  percent: number | null;
  target: number;
  met: boolean;
}) {
  const color = met ? 'var(--green-9)' : 'var(--red-9)';
  return (
    <div className="ar-targets__row">
      <span>{label}</span>
      <div
        className="ar-bar"
        role="meter"
        aria-label={`${label}: ${percent == null ? 'no alarms' : formatPercent(percent / 100, target)}, target ${formatPercent(target / 100)}`}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent ?? 0}
      >
        <div className="ar-bar__fill" style={{ width: `${percent ?? 0}%`, background: color }} />
        <div className="ar-bar__target" style={{ left: `calc(${target}% - 1px)` }} title={`Target ${formatPercent(target / 100)}`} />
      </div>
      <span data-testid="target-share">
        {percent == null ? '-' : formatShare(count, total, target)}
        {percent != null && (
          <>
            {' · '}
            <span className={met ? 'ar-met' : 'ar-missed'}>
              target {formatPercent(target / 100)} {met ? 'met' : 'missed'}
            </span>
          </>
        )}
      </span>
    </div>
  );
}

export function ResponseTargets({ filter }: { filter: AlarmReportFilter }) {
  const [targets, setTargets] = useTargets();
  const q = useQuery(responseTargetsQuery({ ...filter, targetWithin10Percent: targets.within10, targetWithin40Percent: targets.within40 }));
  const data = q.data;
  const open = (e: MouseEvent<HTMLAnchorElement>, alarmId: string) => {
    if (e.ctrlKey || e.metaKey || e.shiftKey || e.altKey || e.button !== 0) return; // the browser's own (new tab ...)
    e.preventDefault();
    openRoute(getHref('alarmReport', { alarmId }));
  };
  const setTarget = (key: keyof Targets, value: string): boolean => {
    const n = parseTarget(value);
    if (n !== null) setTargets({ ...targets, [key]: n });
    return n !== null;
  };

  const inputs = <TargetInputs targets={targets} onChange={setTarget} />;
  return (
    <figure className="ar-chart ar-targets" aria-label="Response targets">
      <figcaption className="ar-chart__title">Response targets (verification started)</figcaption>
      {q.isError ? (
        <Text size="2" color="red" role="alert">
          {MSG.reportGenerationFailed}
        </Text>
      ) : !data ? (
        <Text size="2" color="gray" role="status">
          Loading…
        </Text>
      ) : data.TotalCount === 0 ? (
        <div className="ar-chart__empty" role="status">
          {MSG.noResultsFound}
        </div>
      ) : (
        <div className="ar-targets__body">
          <div className="ar-targets__main">
            {([data.Within10, data.Within40] as const).map((w, i) => (
              <Bar
                key={i}
                label={i === 0 ? 'Within 10 s' : 'Within 40 s'}
                count={w.Count}
                total={data.TotalCount}
                percent={w.Percent}
                target={w.TargetPercent}
                met={w.Met}
              />
            ))}
            <Text size="1" color="gray">
              {formatCount(data.Within10.Count)} of {formatCount(data.TotalCount)} within 10 s (the chart&apos;s &lsquo;
              {STARTED_BANDS[0].TimeFrame}&rsquo;), {formatCount(data.Within40.Count)} within 40 s. Missed 10 s: {formatCount(data.MissedTotal)}
              {data.Missed.length < data.MissedTotal ? ` (slowest ${formatCount(data.Missed.length)} listed)` : ''}.
            </Text>
            {inputs}
          </div>
          {data.Missed.length > 0 && (
            <ul className="ar-missed-list" aria-label="Alarms that missed the 10 s target">
              {data.Missed.map((m) => (
                <li key={m.AlarmReportId}>
                  <a href={getHref('alarmReport', { alarmId: m.AlarmId })} onClick={(e) => open(e, m.AlarmId)}>
                    {m.PersonFullName}
                  </a>
                  <span className="ar-muted">
                    {formatDateTime(m.AlarmClosedDate)} · {m.CustomerAccountFullName}
                  </span>
                  <span className={m.Over40 ? 'ar-missed' : undefined}>{m.VerificationStartedSeconds} s</span>
                </li>
              ))}
            </ul>
          )}
        </div>
      )}
      {(!data || data.TotalCount === 0) && inputs}
    </figure>
  );
}

function TargetInputs({ targets, onChange }: { targets: Targets; onChange: (key: keyof Targets, value: string) => boolean }) {
  // A refused value (over 100 %, negative, empty) stays in its box, marked invalid, with the reason;
  // the chart keeps the last accepted target.
  const [refused, setRefused] = useState<Partial<Record<keyof Targets, boolean>>>({});
  const errorId = useId();
  const input = (key: keyof Targets) => (
    <input
      type="number"
      min={0}
      max={100}
      step={0.5}
      defaultValue={targets[key]}
      aria-invalid={refused[key] || undefined}
      aria-describedby={refused[key] ? errorId : undefined}
      onBlur={(e) => {
        const ok = onChange(key, e.target.value);
        setRefused((r) => ({ ...r, [key]: !ok }));
      }}
    />
  );
  return (
    <div className="ar-targets__inputs">
      <label>Target within 10 s (%) {input('within10')}</label>
      <label>Target within 40 s (%) {input('within40')}</label>
      {(refused.within10 || refused.within40) && (
        <Text id={errorId} size="1" color="red" role="alert">
          {MSG.targetOutOfRange}
        </Text>
      )}
    </div>
  );
}
