// The three charts above the alarm report list (spec §2 "Charts"): Verification Started and
// Verification Completed as SVG doughnuts (uPlot has no pie type) with a custom legend, and Type of
// Alarms over time as a uPlot line chart with four series, a show/hide checkbox per series
// (unchecked series dim to low opacity), label thinning by date-range option, and the 'All Time'
// message instead of the chart. Sizes: doughnut 150 high and 200 wide with its legend beside it
// (260 wide otherwise), line chart 200 high.
import { useEffect, useId, useMemo, useRef, useState } from 'react';
import type uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { MSG } from '../../../shared/messages';
import { ALARM_SERIES, ALL_TIME_OPTION, labelStep, shortLabel } from './alarm-format';
import { formatCount, formatShare } from '../../../shared/numbers';

export const DONUT_HEIGHT = 150;
export const DONUT_WIDTH = 200;
export const DONUT_WIDTH_NO_LEGEND = 260;
export const LINE_HEIGHT = 200;
/** Opacity of an unchecked series. */
export const DIMMED = 0.12;

export type Slice = { label: string; count: number; color: string };

export function Donut({ title, slices, legend = true }: { title: string; slices: readonly Slice[]; legend?: boolean }) {
  const total = slices.reduce((n, s) => n + s.count, 0);
  const size = DONUT_HEIGHT;
  const r = size / 2 - 12;
  const c = 2 * Math.PI * r;
  let offset = 0;
  return (
    <figure className="ar-chart" aria-label={title} style={{ width: legend ? undefined : DONUT_WIDTH_NO_LEGEND }}>
      <figcaption className="ar-chart__title">{title}</figcaption>
      {total === 0 ? (
        <div className="ar-chart__empty" style={{ height: DONUT_HEIGHT, width: DONUT_WIDTH }} role="status">
          {MSG.noResultsFound}
        </div>
      ) : (
        <div className="ar-donut">
          <svg
            width={DONUT_WIDTH}
            height={DONUT_HEIGHT}
            viewBox={`${-(DONUT_WIDTH - size) / 2} 0 ${DONUT_WIDTH} ${size}`}
            role="img"
            aria-label={`${title}: ${formatCount(total)} alarms`}
          >
            <circle cx={size / 2} cy={size / 2} r={r} fill="none" stroke="var(--gray-4)" strokeWidth="22" />
            {slices.map((s) => {
              const len = (s.count / total) * c;
              const el = (
                <circle
                  key={s.label}
                  cx={size / 2}
                  cy={size / 2}
                  r={r}
                  fill="none"
                  stroke={s.color}
                  strokeWidth="22"
                  strokeDasharray={`${len} ${c - len}`}
                  strokeDashoffset={-offset}
                  transform={`rotate(-90 ${size / 2} ${size / 2})`}
                >
                  <title>{`${s.label}: ${formatShare(s.count, total)}`}</title>
                </circle>
              );
              offset += len;
              return el;
            })}
            <text x={size / 2} y={size / 2 + 6} textAnchor="middle" className="ar-donut__total">
              {formatCount(total)}
            </text>
          </svg>
          {legend && (
            <ul className="ar-legend">
              {slices.map((s) => (
                <li key={s.label}>
                  <span className="ar-legend__swatch" style={{ background: s.color }} aria-hidden="true" />
                  <span className="ar-legend__label">{s.label}</span>
                  <span className="ar-legend__value">{formatShare(s.count, total)}</span>
                </li>
              ))}
            </ul>
          )}
        </div>
      )}
    </figure>
  );
}

/** One point per time label: the count of each verification type (AlarmType.Value 1..4). */
export type TypePoint = { label: string; counts: Partial<Record<number, number>> };

const withAlpha = (hex: string, alpha: number) => {
  const a = Math.round(alpha * 255)
    .toString(16)
    .padStart(2, '0');
  return `${hex}${a}`;
};

/** What the chart says of one point: its time label and each shown series' count ('Mon: Fall 3, Medical 0'). */
export function pointSummary(points: readonly TypePoint[], series: readonly { value: number; label: string }[], index: number, rangeOption: number): string {
  const p = points[index];
  if (!p) return '';
  return `${shortLabel(p.label, rangeOption)}: ${series.map((s) => `${s.label} ${formatCount(p.counts[s.value] ?? 0)}`).join(', ')}`;
}

/** The point a key moves a focused chart to (arrows step, Home and End jump), or null for other keys. */
export function pointAfterKey(key: string, index: number | null, count: number): number | null {
  if (count < 1) return null;
  const last = count - 1;
  switch (key) {
    case 'ArrowRight':
    case 'ArrowUp':
      return index === null ? 0 : Math.min(last, index + 1);
    case 'ArrowLeft':
    case 'ArrowDown':
      return index === null ? last : Math.max(0, index - 1);
    case 'Home':
      return 0;
    case 'End':
      return last;
    default:
      return null;
  }
}

export function AlarmTypesChart({ points, rangeOption, loading }: { points: readonly TypePoint[]; rangeOption: number; loading?: boolean }) {
  const [visible, setVisible] = useState<Record<number, boolean>>({ 1: true, 2: true, 3: true, 4: true });
  const present = useMemo(() => ALARM_SERIES.filter((s) => points.some((p) => (p.counts[s.value] ?? 0) > 0)), [points]);
  const series = present.length ? present : ALARM_SERIES.slice();
  const title = 'Type of Alarms';

  if (rangeOption === ALL_TIME_OPTION) {
    return (
      <figure className="ar-chart ar-chart--line" aria-label={title}>
        <figcaption className="ar-chart__title">{title}</figcaption>
        <div className="ar-chart__empty" style={{ height: LINE_HEIGHT }} role="status">
          {MSG.allTimeGraph}
        </div>
      </figure>
    );
  }
  const empty = !loading && points.every((p) => ALARM_SERIES.every((s) => !(p.counts[s.value] ?? 0)));
  return (
    <figure className="ar-chart ar-chart--line" aria-label={title}>
      <figcaption className="ar-chart__title">{title}</figcaption>
      {/* Checkboxes only when there is more than one series. */}
      {series.length > 1 && !empty && (
        <div className="ar-series" role="group" aria-label="Series">
          {series.map((s) => (
            <label key={s.value} className="ar-series__item">
              <input type="checkbox" checked={visible[s.value] !== false} onChange={(e) => setVisible((v) => ({ ...v, [s.value]: e.target.checked }))} />
              <span className="ar-legend__swatch" style={{ background: s.color }} aria-hidden="true" />
              {s.label}
            </label>
          ))}
        </div>
      )}
      {empty ? (
        <div className="ar-chart__empty" style={{ height: LINE_HEIGHT }} role="status">
          {MSG.noResultsFound}
        </div>
      ) : (
        <LinePlot points={points} series={series} visible={visible} rangeOption={rangeOption} />
      )}
    </figure>
  );
}

function LinePlot({
  points,
  series,
  visible,
  rangeOption,
}: {
  points: readonly TypePoint[];
  series: readonly (typeof ALARM_SERIES)[number][];
  visible: Record<number, boolean>;
  rangeOption: number;
}) {
  const box = useRef<HTMLDivElement>(null);
  const plotRef = useRef<uPlot | null>(null);
  const [width, setWidth] = useState(0);
  // The point the keyboard is on: the chart is focusable and arrow keys move uPlot's cursor, so its
  // legend shows that point's values, as hovering does; the readout says them too.
  const [keyed, setFocused] = useState<number | null>(null);
  const focused = keyed !== null && keyed < points.length ? keyed : null;
  const readoutId = useId();
  useEffect(() => {
    const plot = plotRef.current;
    if (!plot || focused === null) return;
    const first = series.findIndex((s) => visible[s.value] !== false);
    const value = points[focused]?.counts[series[Math.max(0, first)]?.value ?? 0] ?? 0;
    plot.setCursor({ left: plot.valToPos(focused, 'x'), top: plot.valToPos(value, 'y') });
  }, [focused, points, series, visible]);
  useEffect(() => {
    const el = box.current;
    if (!el || typeof ResizeObserver === 'undefined') return;
    const ro = new ResizeObserver(([entry]) => setWidth(Math.floor(entry?.contentRect.width ?? 0)));
    ro.observe(el);
    return () => ro.disconnect();
  }, []);

  useEffect(() => {
    const el = box.current;
    if (!el || width < 50) return;
    const labels = points.map((p) => shortLabel(p.label, rangeOption));
    // Thinning by range option, and never more labels than fit (about 64 px each).
    const step = Math.max(labelStep(labels.length, rangeOption), Math.ceil(labels.length / Math.max(1, Math.floor(width / 64))));
    const data: uPlot.AlignedData = [points.map((_, i) => i), ...series.map((s) => points.map((p) => p.counts[s.value] ?? 0))];
    let plot: uPlot | null = null;
    let disposed = false;
    // uPlot loads with the chart (it reads matchMedia on import, which test DOMs lack).
    void import('uplot').then(({ default: UPlot }) => {
      if (disposed) return;
      try {
        plot = new UPlot(
          {
            width,
            height: LINE_HEIGHT,
            // Hovering the chart shows each series' value at that point in the legend below it.
            legend: { show: true, live: true },
            cursor: { drag: { x: false, y: false } },
            scales: { x: { time: false } },
            // Room on the right for the last x label.
            padding: [8, 28, 0, 0],
            axes: [
              {
                // Thinned from the end, so the last label always shows.
                values: (_u, splits) => splits.map((v) => (Number.isInteger(v) && (labels.length - 1 - v) % step === 0 ? (labels[v] ?? '') : '')),
                splits: () => labels.map((_, i) => i),
                size: 30,
              },
              {
                values: (_u, splits) => splits.map((v) => v.toLocaleString('en-GB')),
                // As wide as its longest label, so '1,500' is never cut to ',500'.
                size: (_u, values) => 18 + 8 * Math.max(1, ...(values ?? []).map((v) => String(v).length)),
              },
            ],
            series: [
              { label: 'Time', value: (_u, v) => (v == null ? '-' : (labels[v] ?? '-')) },
              ...series.map((s) => ({
                label: s.label,
                stroke: visible[s.value] === false ? withAlpha(s.color, DIMMED) : s.color,
                width: 2,
                points: { show: points.length < 40 },
              })),
            ],
          },
          data,
          el,
        );
        plotRef.current = plot;
      } catch {
        plot = null; // no canvas: the figure keeps its title and checkboxes
      }
    });
    return () => {
      disposed = true;
      if (plotRef.current === plot) plotRef.current = null;
      plot?.destroy();
    };
  }, [points, series, visible, rangeOption, width]);

  const shown = series.filter((s) => visible[s.value] !== false);
  return (
    <>
      <div
        ref={box}
        className="ar-line"
        style={{ minHeight: LINE_HEIGHT }}
        data-testid="alarm-types-plot"
        tabIndex={0}
        role="group"
        aria-label="Chart points: arrow keys move between them"
        aria-describedby={focused === null ? undefined : readoutId}
        onKeyDown={(e) => {
          const next = pointAfterKey(e.key, focused, points.length);
          if (next === null || e.altKey || e.ctrlKey || e.metaKey) return;
          e.preventDefault();
          setFocused(next);
        }}
        onBlur={() => setFocused(null)}
      />
      <p id={readoutId} className="ar-line__readout" aria-live="polite" data-testid="alarm-types-readout">
        {focused === null ? '' : pointSummary(points, shown, focused, rangeOption)}
      </p>
    </>
  );
}
