// The one definition of how dates read and are typed (spec documents 1 §5, 3 §5): DD/MM/YYYY and
// DD/MM/YYYY HH:mm, 24-hour, whatever the browser's locale; the product's time zone.
//
// Two formats, one per kind of date, and no other on screen (tests/unit/shared/house-dates.test.tsx
// walks every place):
// - The house format (documents 1 and 2: en-GB, 24-hour; the date pickers' DD/MM/YYYY HH:mm):
//   every date-time of a record — lists, history, the audit trail, schedules, devices, persons,
//   the error screen — reads DD/MM/YYYY HH:mm (DATE_TIME_FORMAT), a calendar date DD/MM/YYYY.
// - An alarm's dates, wherever they are shown (the alarm list, the report and its print, the
//   analysis, the management report, response targets, the palette's alarm hits), use the format
//   document 3 §9 gives them: "24-hour, day / short month / 2-digit year, with seconds",
//   '22 Nov 26 21:47:05' (ALARM_DATE_TIME_FORMAT).
// One module per function, not the package's index: on the server (and in each export thread) the
// index loads every date-fns function, 2 MB more heap for three of them.
import { format } from 'date-fns/format';
import { isValid } from 'date-fns/isValid';
import { parseISO } from 'date-fns/parseISO';
import { TZDate } from '@date-fns/tz';

/** date-fns patterns of the typed and shown values. */
export const DATE_FORMAT = 'dd/MM/yyyy';
export const DATE_TIME_FORMAT = 'dd/MM/yyyy HH:mm';
/** An alarm's dates (spec document 3 §9): '22 Nov 26 21:47:05'. */
export const ALARM_DATE_TIME_FORMAT = 'dd MMM yy HH:mm:ss';
/** What a date box shows while empty. */
export const DATE_PLACEHOLDER = 'DD/MM/YYYY';
export const DATE_TIME_PLACEHOLDER = 'DD/MM/YYYY HH:mm';
/** The time zone dates are shown in. */
export const TIME_ZONE = 'Europe/London';

type Wall = { y: number; mo: number; d: number; h: number; mi: number };

/** The wall-clock fields of a typed date (or date-time), strictly in the format, checked without any time zone; or null. */
function typedWall(text: string, withTime: boolean): Wall | null {
  const t = text.trim().replace(/\s+/g, ' ');
  const m = withTime ? /^(\d{1,2})\/(\d{1,2})\/(\d{2}|\d{4}) (\d{1,2}):(\d{2})$/.exec(t) : /^(\d{1,2})\/(\d{1,2})\/(\d{2}|\d{4})$/.exec(t);
  if (!m) return null;
  const [, d, mo, y, h = '0', mi = '0'] = m;
  const w = { y: y!.length === 2 ? 2000 + Number(y) : Number(y), mo: Number(mo), d: Number(d), h: Number(h), mi: Number(mi) };
  if (w.h > 23 || w.mi > 59) return null;
  const check = new Date(Date.UTC(w.y, w.mo - 1, w.d));
  return check.getUTCFullYear() === w.y && check.getUTCMonth() === w.mo - 1 && check.getUTCDate() === w.d ? w : null;
}

/**
 * A typed date (or date-time), strictly in the format, as a Date of the browser's calendar (what a
 * calendar widget shows as that day), or null. '1/2/2026' and '01/02/26' are accepted as 01/02/2026.
 * What it means as an instant is londonInstant's answer, never this Date's.
 */
export function parseTypedDate(text: string, withTime: boolean): Date | null {
  const w = typedWall(text, withTime);
  return w ? new Date(w.y, w.mo - 1, w.d, w.h, w.mi) : null;
}

export function formatTypedDate(date: Date, withTime: boolean): string {
  return format(date, withTime ? DATE_TIME_FORMAT : DATE_FORMAT);
}

/** The instant a Europe/London wall-clock time names (month 1-12; days and months past their end roll over). */
export function londonWallInstant(y: number, month: number, d: number, h = 0, mi = 0): Date {
  return new Date(new TZDate(y, month - 1, d, h, mi, TIME_ZONE).getTime());
}

/**
 * A typed date (or date-time) read as Europe/London wall-clock time, whatever the browser's zone:
 * the instant it names ('26/11/2026' is the start of that London day), or null when not in the format.
 */
export function londonInstant(text: string, withTime: boolean): Date | null {
  const w = typedWall(text, withTime);
  return w ? londonWallInstant(w.y, w.mo, w.d, w.h, w.mi) : null;
}

/** A typed date as the calendar day it names, 'yyyy-MM-dd' (what day filters send), or null. */
export function typedIsoDay(text: string): string | null {
  const w = typedWall(text, false);
  return w ? `${w.y}-${String(w.mo).padStart(2, '0')}-${String(w.d).padStart(2, '0')}` : null;
}

/** The start of a London calendar day ('yyyy-MM-dd', plus some days) as an ISO instant, or null. */
export function londonDayStartIso(isoDay: string, plusDays = 0): string | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(isoDay.trim());
  if (!m) return null;
  return londonWallInstant(Number(m[1]), Number(m[2]), Number(m[3]) + plusDays).toISOString();
}

/** Today in London, 'yyyy-MM-dd' (a typed day after it is in the future). */
export function londonIsoToday(now: Date = new Date()): string {
  return format(new TZDate(now.getTime(), TIME_ZONE), 'yyyy-MM-dd');
}

/** Today in London as a Date of the browser's calendar, at its midnight (the last day a calendar offers). */
export function londonCalendarToday(now: Date = new Date()): Date {
  const t = new TZDate(now.getTime(), TIME_ZONE);
  return new Date(t.getFullYear(), t.getMonth(), t.getDate());
}

/**
 * Whether a typed date (or date-time) lies in the future, read in London: a day after London's
 * today, a date-time after now. Unreadable values are not future (their format is the problem).
 */
export function isTypedFuture(text: string, withTime: boolean, now: Date = new Date()): boolean {
  if (withTime) {
    const at = londonInstant(text, true);
    return !!at && at.getTime() > now.getTime();
  }
  const day = typedIsoDay(text);
  return !!day && day > londonIsoToday(now);
}

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;

/**
 * How every screen shows a stored date: an instant ('2026-07-01T12:00:00Z', a Date or epoch ms) as
 * Europe/London wall-clock time whatever the browser's zone; a calendar date ('2026-07-01', a date
 * of birth) as that day. `pattern` is a date-fns pattern (DATE_FORMAT, DATE_TIME_FORMAT, ...);
 * missing or unreadable values show as `empty`.
 */
export function formatShown(value: string | number | Date | null | undefined, pattern: string = DATE_TIME_FORMAT, empty = '-'): string {
  if (value === null || value === undefined || value === '') return empty;
  if (typeof value === 'string' && DATE_ONLY.test(value.trim())) {
    const day = parseISO(value.trim());
    return isValid(day) ? format(day, pattern) : empty;
  }
  const d = typeof value === 'string' ? parseISO(value) : new Date(value);
  return isValid(d) ? format(new TZDate(d.getTime(), TIME_ZONE), pattern) : empty;
}

/** A stored date-time in the house format, DD/MM/YYYY HH:mm, London time; '-' when missing. */
export const formatDateTime = (value: string | number | Date | null | undefined, empty = '-'): string => formatShown(value, DATE_TIME_FORMAT, empty);
/** An alarm's date-time, '22 Nov 26 21:47:05', London time (spec document 3 §9); '-' when missing. */
export const formatAlarmDateTime = (value: string | number | Date | null | undefined, empty = '-'): string => formatShown(value, ALARM_DATE_TIME_FORMAT, empty);
/** A stored date (or the London day of an instant), DD/MM/YYYY; '-' when missing. */
export const formatDate = (value: string | number | Date | null | undefined, empty = '-'): string => formatShown(value, DATE_FORMAT, empty);
