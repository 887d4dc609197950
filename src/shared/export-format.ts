// How exported files (.xlsx and CSV) show time, and how many rows one export holds. Every date in
// an export is Europe/London wall-clock time, the zone the screens use: a real date cell with
// EXPORT_DATE_FORMAT in .xlsx, en-GB text in CSV; the column header names the zone.

import { londonOffsetAt } from './london-wall.js';

/** The label a file name starts with (spec §9: a label plus a timestamp, 'Devices_20261122_203000.xlsx'). */
export const EXPORT_LABEL = { devices: 'Devices', customers: 'Customers', alarmReports: 'AlarmReports', audit: 'AuditTrail' } as const;

/** The number format of date cells in .xlsx exports. */
export const EXPORT_DATE_FORMAT = 'dd/mm/yyyy hh:mm:ss';
/** What a date column's header says after its name: '… (UK time)'. */
export const EXPORT_ZONE_NOTE = 'UK time';
export const withZone = (header: string) => `${header} (${EXPORT_ZONE_NOTE})`;

/**
 * The most rows one export holds (an .xlsx sheet holds 1,048,576). Rows beyond it are left out
 * and the file (last row) and the progress answer say how many.
 */
export const EXPORT_ROW_CAP = 1_000_000;

const HOUR = 3_600_000;
/**
 * London's offset from UTC (ms) during the UTC hour an instant falls in: the clocks change on a
 * UTC hour, so one Intl lookup per hour serves every row of it (an export writes millions of dates).
 */
const offsets = new Map<number, number>();
function offsetAt(ms: number): number {
  const hour = Math.floor(ms / HOUR);
  let o = offsets.get(hour);
  if (o === undefined) {
    o = londonOffsetAt(hour * HOUR);
    if (offsets.size > 50_000) offsets.clear();
    offsets.set(hour, o);
  }
  return o;
}

/**
 * The London wall-clock time of an instant as a Date whose UTC fields hold it: what a spreadsheet
 * date cell (which has no zone) must store so that it shows London time. Undefined for no date.
 */
export function londonCellDate(value: string | number | Date | null | undefined): Date | undefined {
  if (value === null || value === undefined || value === '') return undefined;
  const ms = (value instanceof Date ? value : new Date(value)).getTime();
  return Number.isNaN(ms) ? undefined : new Date(ms + offsetAt(ms));
}

const DAY = 86_400_000;
/** 1899-12-30, day 0 of a spreadsheet's (1900 date system) serial dates, in days before 1970-01-01. */
const SERIAL_EPOCH_DAYS = 25_569;

/**
 * The London wall-clock time of an instant as a spreadsheet serial date (days since 1899-12-30,
 * the time as the fraction): what an .xlsx date cell stores, as londonCellDate's Date would be
 * written, without making a Date of an ISO text. Undefined for no date.
 */
export function londonCellSerial(value: string | number | Date | null | undefined): number | undefined {
  if (value === null || value === undefined || value === '') return undefined;
  const ms = typeof value === 'string' ? Date.parse(value) : typeof value === 'number' ? value : value.getTime();
  return Number.isNaN(ms) ? undefined : SERIAL_EPOCH_DAYS + (ms + offsetAt(ms)) / DAY;
}

const p2 = (n: number) => String(n).padStart(2, '0');
/** en-GB London text of an instant for CSV: '22/07/2026 13:05:09'; '' for no date. */
export function londonText(value: string | number | Date | null | undefined): string {
  const w = londonCellDate(value);
  return w
    ? `${p2(w.getUTCDate())}/${p2(w.getUTCMonth() + 1)}/${w.getUTCFullYear()} ${p2(w.getUTCHours())}:${p2(w.getUTCMinutes())}:${p2(w.getUTCSeconds())}`
    : '';
}

/** A CSV cell: text a spreadsheet would run as a formula gets a leading apostrophe; '' for none. */
export const csvCell = (s: string | number | null | undefined) => {
  if (s == null) return '';
  const t = String(s);
  return /^[=+\-@\t\r]/.test(t) ? `'${t}` : t;
};
