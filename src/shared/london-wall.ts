// London wall clocks without a time-zone library (the server's date ranges, schedules and export
// cells): Intl gives the wall-clock parts of an instant in Europe/London, with its summer time.
import { TIME_ZONE } from './dates.js';

const wallFormat = new Intl.DateTimeFormat('en-GB', {
  timeZone: TIME_ZONE,
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
  hourCycle: 'h23',
});

export type LondonWall = { y: number; m: number; d: number; h: number; mi: number; s: number };

/** London wall-clock parts of an instant (m 1–12). */
export function londonWallOf(ms: number): LondonWall {
  const p = Object.fromEntries(wallFormat.formatToParts(new Date(ms)).map((x) => [x.type, x.value]));
  return { y: Number(p.year), m: Number(p.month), d: Number(p.day), h: Number(p.hour), mi: Number(p.minute), s: Number(p.second) };
}

/** London's offset from UTC (ms) at an instant. */
export function londonOffsetAt(ms: number): number {
  const w = londonWallOf(ms);
  return Date.UTC(w.y, w.m - 1, w.d, w.h, w.mi, w.s) - Math.floor(ms / 1000) * 1000;
}
