// UK calendar arithmetic for the alarm report date ranges and chart labels (Europe/London, with
// its summer time), without a time-zone library: Intl gives the wall-clock parts of an instant.
import { DATE_RANGE } from '../../../shared/schemas/alarm-reports.js';
import { londonOffsetAt as offsetAt, londonWallOf } from '../../../shared/london-wall.js';

export type Wall = { y: number; m: number; d: number; h: number };

/** Wall-clock date and hour in London of an instant (m 1–12). */
export function londonWall(ms: number): Wall {
  const w = londonWallOf(ms);
  return { y: w.y, m: w.m, d: w.d, h: w.h };
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

const dayKey = (y: number, m: number, d: number) => `${y}-${p2(m)}-${p2(d)}`;

/** London's calendar day 'YYYY-MM-DD' at an instant. */
export function londonDayOf(ms: number): string {
  const w = londonWall(ms);
  return dayKey(w.y, w.m, w.d);
}

/** The wall date of a 'YYYY-MM-DD' day (hour 0). */
export const dayWall = (day: string): Wall => {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  return { y, m, d, h: 0 };
};

/** Every label of the London days first…last ('YYYY-MM-DD', inclusive) in order, duplicates dropped. */
export function dayLabelsBetween(option: number, first: string, last: string): string[] {
  const out: string[] = [];
  const { y, m, d } = dayWall(first);
  for (let k = 0; ; k++) {
    const t = new Date(Date.UTC(y, m - 1, d + k));
    const day = dayKey(t.getUTCFullYear(), t.getUTCMonth() + 1, t.getUTCDate());
    if (day > last) break;
    const l = timeLabel(option, dayWall(day));
    if (out[out.length - 1] !== l) out.push(l);
  }
  return out;
}

/**
 * London wall clocks of UTC hours ('YYYY-MM-DDTHH'), one Intl lookup pair per UTC day instead of
 * one per hour: the UK offset changes at most once a day (at 01:00 UTC), so a day whose first and
 * last hour share an offset has it throughout.
 */
export function hourWalls(): (hour: string) => Wall {
  const days = new Map<string, [number, number]>();
  const HOUR = 3_600_000;
  return (hour) => {
    const ms = Date.parse(`${hour}:00:00Z`);
    const day = hour.slice(0, 10);
    let offs = days.get(day);
    if (!offs) {
      const start = Date.parse(`${day}T00:00:00Z`);
      offs = [offsetAt(start), offsetAt(start + 23 * HOUR)];
      days.set(day, offs);
    }
    const off = offs[0] === offs[1] ? offs[0] : offsetAt(ms);
    const t = new Date(ms + off);
    return { y: t.getUTCFullYear(), m: t.getUTCMonth() + 1, d: t.getUTCDate(), h: t.getUTCHours() };
  };
}
