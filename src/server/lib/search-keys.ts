// Normalisation shared by the search queries and the ranking (a server library: any module's search and repository use it). The phone key rule must match the
// SQL of modules/search/fts.ts and migration 002 (sqlitePhoneKey) and of migration 026
// (search_phone_key on PostgreSQL); the integration test checks that they agree.

const PHONE_JUNK_RE = /[ +\-()./]/g;

/**
 * Phone search key: digits only; an international prefix (leading + or 00) dropped, then the UK
 * country code 44 (when international, or when what remains is at least 12 digits long), then
 * one trunk 0. '+44 7700 900123', '0044 7700 900123', '07700 900123' and '447700900123' all
 * give '7700900123'.
 */
export function phoneKey(raw: string | null | undefined): string | null {
  if (raw == null) return null;
  const d0 = raw.replace(PHONE_JUNK_RE, '');
  const intl = d0.startsWith('00') || raw.replace(/^ +/, '').startsWith('+');
  let d = d0.startsWith('00') ? d0.slice(2) : d0;
  if (d.startsWith('44') && (intl || d.length >= 12)) d = d.slice(2);
  if (d.startsWith('0')) d = d.slice(1);
  return d;
}

/** Longest phone key searched for: E.164 numbers have at most 15 digits with the country code. */
export const MAX_PHONE_KEY = 13;

/**
 * The phone key of a query, when the query looks like (part of) a phone number: digits and
 * phone punctuation only, 1..13 digits once normalised (a 15-digit IMEI is not a phone number).
 */
export function queryPhoneKey(q: string): string | null {
  if (!/^[+\d(][\d +\-()./]*$/.test(q)) return null;
  const k = phoneKey(q);
  return k && /^\d+$/.test(k) && k.length <= MAX_PHONE_KEY ? k : null;
}

/** SQLite's lower() folds ASCII only; fold the query the same way so B-tree keys compare equal. */
export const asciiLower = (s: string) => s.replace(/[A-Z]/g, (c) => c.toLowerCase());

/**
 * Smallest string greater than every string starting with `s` (byte/code-point order): the last
 * code point incremented. `key >= s AND key < prefixEnd(s)` is a prefix range an index can use.
 */
export function prefixEnd(s: string): string {
  const cps = Array.from(s);
  while (cps.length) {
    const last = cps.pop()!.codePointAt(0)!;
    if (last < 0x10ffff) {
      const next = last + 1 === 0xd800 ? 0xe000 : last + 1;
      return cps.join('') + String.fromCodePoint(next);
    }
  }
  return '\u{10ffff}\u{10ffff}';
}

/** An FTS5 string literal (one phrase; the trigram tokenizer makes it a substring match). */
export const ftsPhrase = (s: string) => `"${s.replace(/"/g, '""')}"`;

/** Length in code points (what the trigram tokenizer counts). */
export const cpLength = (s: string) => Array.from(s).length;
