// The one definition of how dates read and are typed (spec documents 1 §5, 3 §5): DD/MM/YYYY and
// DD/MM/YYYY HH:mm, 24-hour, whatever the browser's locale; the product's time zone.
import { format, isValid, parse, parseISO } from 'date-fns';
import { TZDate } from '@date-fns/tz';

/** date-fns patterns of the typed and shown values. */
export const DATE_FORMAT = 'dd/MM/yyyy';
export const DATE_TIME_FORMAT = 'dd/MM/yyyy HH:mm';
/** What a date box shows while empty. */
export const DATE_PLACEHOLDER = 'DD/MM/YYYY';
export const DATE_TIME_PLACEHOLDER = 'DD/MM/YYYY HH:mm';
/** The time zone dates are shown in. */
export const TIME_ZONE = 'Europe/London';

/** A typed date (or date-time), strictly in the format, or null. '1/2/2026' and '01/02/26' are accepted as 01/02/2026. */
export function parseTypedDate(text: string, withTime: boolean): Date | null {
  const t = text.trim().replace(/\s+/g, ' ');
  const m = withTime ? /^(\d{1,2})\/(\d{1,2})\/(\d{2}|\d{4}) (\d{1,2}):(\d{2})$/.exec(t) : /^(\d{1,2})\/(\d{1,2})\/(\d{2}|\d{4})$/.exec(t);
  if (!m) return null;
  const [, d, mo, y, h = '0', mi = '0'] = m;
  const year = y!.length === 2 ? 2000 + Number(y) : Number(y);
  const canonical = `${d!.padStart(2, '0')}/${mo!.padStart(2, '0')}/${year} ${h.padStart(2, '0')}:${mi.padStart(2, '0')}`;
  const date = parse(canonical, `${DATE_FORMAT} HH:mm`, new Date(2000, 0, 1));
  return isValid(date) && format(date, `${DATE_FORMAT} HH:mm`) === canonical ? date : null;
}

export function formatTypedDate(date: Date, withTime: boolean): string {
  return format(date, withTime ? DATE_TIME_FORMAT : DATE_FORMAT);
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
