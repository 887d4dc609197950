// UK calendar arithmetic for the alarm report date ranges and chart labels (Europe/London, with
// its summer time), without a time-zone library: Intl gives the wall-clock parts of an instant.
import { DATE_RANGE } from '../../../shared/schemas/alarm-reports.js';

const TZ = 'Europe/London';
const partsFormat = new Intl.DateTimeFormat('en-GB', {
  timeZone: TZ,
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
  hourCycle: 'h23',
});

export type Wall = { y: number; m: number; d: number; h: number };

/** Wall-clock date and hour in London of an instant (m 1–12). */
export function londonWall(ms: number): Wall {
  const p = Object.fromEntries(partsFormat.formatToParts(new Date(ms)).map((x) => [x.type, x.value]));
  return { y: Number(p.year), m: Number(p.month), d: Number(p.day), h: Number(p.hour) };
}

/** London's offset from UTC (ms) at an instant. */
function offsetAt(ms: number) {
  const p = Object.fromEntries(partsFormat.formatToParts(new Date(ms)).map((x) => [x.type, x.value]));
  const asUtc = Date.UTC(Number(p.year), Number(p.month) - 1, Number(p.day), Number(p.hour), Number(p.minute), Number(p.second));
  return asUtc - Math.floor(ms / 1000) * 1000;
}

/** The instant London's day y-m-d (m 1–12; out-of-range days and months roll over) begins. */
export function londonDayStart(y: number, m: number, d: number): number {
  const guess = Date.UTC(y, m - 1, d);
  let t = guess - offsetAt(guess);
  t = guess - offsetAt(t);
  return t;
}

const p2 = (n: number) => String(n).padStart(2, '0');
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** [from, to) instants of a filter: the option's range narrowed by the custom UK days; null = open. */
export function closedRange(
  option: number,
  fromDay: string | null,
  toDay: string | null,
  nowMs: number,
): { from: number | null; to: number | null; futureDay: boolean } {
  const now = londonWall(nowMs);
  const starts: Record<number, number | null> = {
    [DATE_RANGE.Today]: londonDayStart(now.y, now.m, now.d),
    [DATE_RANGE.Last7Days]: londonDayStart(now.y, now.m, now.d - 6),
    [DATE_RANGE.Last30Days]: londonDayStart(now.y, now.m, now.d - 29),
    [DATE_RANGE.Last3Months]: londonDayStart(now.y, now.m - 3, now.d),
    [DATE_RANGE.Last6Months]: londonDayStart(now.y, now.m - 6, now.d),
    [DATE_RANGE.Last12Months]: londonDayStart(now.y, now.m - 12, now.d),
    [DATE_RANGE.AllTime]: null,
  };
  let from = starts[option] ?? null;
  let to: number | null = null;
  const today = `${now.y}-${p2(now.m)}-${p2(now.d)}`;
  const futureDay = (fromDay !== null && fromDay > today) || (toDay !== null && toDay > today);
  const day = (s: string) => s.split('-').map(Number) as [number, number, number];
  if (fromDay) {
    const [y, m, d] = day(fromDay);
    const f = londonDayStart(y, m, d);
    from = from === null ? f : Math.max(from, f);
  }
  if (toDay) {
    const [y, m, d] = day(toDay);
    to = londonDayStart(y, m, d + 1);
  }
  return { from, to, futureDay };
}

/**
 * The chart label of a London hour for a date-range option: 1 'HH:00'; 2, 3 'dd/MM/yyyy';
 * 4 the week's Monday 'dd/MM/yyyy'; 5, 6 'MMM yyyy'.
 */
export function timeLabel(option: number, w: Wall): string {
  if (option === DATE_RANGE.Today) return `${p2(w.h)}:00`;
  if (option === DATE_RANGE.Last6Months || option === DATE_RANGE.Last12Months) return `${MONTHS[w.m - 1]} ${w.y}`;
  if (option === DATE_RANGE.Last3Months) {
    const date = new Date(Date.UTC(w.y, w.m - 1, w.d));
    const back = (date.getUTCDay() + 6) % 7; // days since Monday
    const monday = new Date(Date.UTC(w.y, w.m - 1, w.d - back));
    return `${p2(monday.getUTCDate())}/${p2(monday.getUTCMonth() + 1)}/${monday.getUTCFullYear()}`;
  }
  return `${p2(w.d)}/${p2(w.m)}/${w.y}`;
}

/** Every label of [from, to) in order (hour by hour, duplicates dropped). */
export function labelsBetween(option: number, from: number, to: number): string[] {
  const out: string[] = [];
  const HOUR = 3_600_000;
  for (let t = Math.floor(from / HOUR) * HOUR; t < to; t += HOUR) {
    const l = timeLabel(option, londonWall(Math.max(t, from)));
    if (out[out.length - 1] !== l && !out.includes(l)) out.push(l);
  }
  return out;
}
