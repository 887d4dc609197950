// Paging a sorted list by its sort key instead of an offset (the lists of devices, customers,
// persons and alarm reports). A list's order is a list of keys (SQL expressions, each ascending or
// descending, the last one unique); Next and Previous name the edge row of the page on screen
// (`after`: its last row, `before`: its first) and the server reads that row's keys, then the rows
// after (before) them from the index range, never reading and discarding the earlier pages. A jump
// to page N reads with an offset from the nearer end of the selection (nearerEnd).
//
// "After the edge" in a lexicographic order of mixed directions is a union of ranges: with the
// keys split into runs of one direction (r0, r1, …), the rows after the edge are those equal on r0
// and after it on r1, …, then those after it on r0; each part is one row-value comparison
// (`(a, b) > (?, ?)`) that both databases read as an index range, and the parts are read in that
// order until the page is full (two parts at most for a sort with missing values last).
//
// A key whose value is missing (null) for the edge row is missing for every row equal to it on
// the keys before it: the lists put a "missing last" key (0 or 1) before every nullable key. Such a
// key is compared as `is null` and splits the runs. A "missing last" key is a run of its own
// (`alone`): its part is then `missing = ? and (b, c) > (?, ?)`, which SQLite reads as a range of an
// index beginning with the key; a row-value comparison whose first term is an expression is not
// one for SQLite, so a run of several keys also bounds its first key alone
// (`a >= ? and (a, b) > (?, ?)`; decision "A Next or Previous part is an index range on both
// databases", docs/decisions/devices-and-stock.md).
import { sql, type RawBuilder } from 'kysely';

/** One key of a list's order. */
export type SortKey = { expr: RawBuilder<unknown>; desc: boolean; alone?: boolean };

/** Next or Previous: the id of the edge row of the page on screen. */
export type Edge = { id: string; backwards: boolean };

/** The edge named by a list's body (after: Next, before: Previous), if any. */
export function edgeOf(b: { after?: string | null; before?: string | null }): Edge | undefined {
  if (b.after) return { id: b.after, backwards: false };
  if (b.before) return { id: b.before, backwards: true };
  return undefined;
}

/** `qb` ordered by `keys`, every direction turned round when `reversed`. */
export function orderByKeys<QB extends { orderBy: (e: RawBuilder<unknown>) => QB }>(qb: QB, keys: readonly SortKey[], reversed = false): QB {
  let o = qb;
  for (const k of keys) o = o.orderBy(sql`${k.expr} ${sql.raw(k.desc !== reversed ? 'desc' : 'asc')}`);
  return o;
}

/** The keys as columns k0, k1, … of a select (to read the edge row's values). */
export const keyColumns = (keys: readonly SortKey[]) => keys.map((k, i) => k.expr.as(`k${i}`));

/** The values of keyColumns' row in key order. */
export const keyValues = (row: Record<string, unknown>, keys: readonly SortKey[]) => keys.map((_, i) => row[`k${i}`]);

/**
 * One part of the rows after the edge: its condition, and the keys that order it — the list's keys
 * less those the condition holds equal to the edge row's (constant within the part).
 */
export type KeysetPart = { where: RawBuilder<boolean>; order: readonly SortKey[] };

/**
 * The conditions "after the edge" (before it when `backwards`), in the order their rows come:
 * read each with its order (reversed when backwards) until the page is full. A part orders by the
 * keys after those it holds equal: SQLite walks an index in order for `a = ? and (b, c) > (?, ?)
 * order by b, c`, but sorts the whole range when the ORDER BY names `a` too and `a` is an
 * expression (the "missing last" keys are).
 */
export function keysetParts(keys: readonly SortKey[], values: readonly unknown[], backwards: boolean): KeysetPart[] {
  type Run = { start: number; keys: number[] };
  const runs: Run[] = [];
  keys.forEach((k, i) => {
    if (values[i] === null || values[i] === undefined) return;
    const last = runs.at(-1);
    const prev = last && last.keys.at(-1)!;
    if (last && prev === i - 1 && keys[prev]!.desc === k.desc && !k.alone && !keys[prev]!.alone) last.keys.push(i);
    else runs.push({ start: i, keys: [i] });
  });
  const equal = (i: number) =>
    values[i] === null || values[i] === undefined ? sql<boolean>`${keys[i]!.expr} is null` : sql<boolean>`${keys[i]!.expr} = ${values[i]}`;
  const tuple = (xs: RawBuilder<unknown>[]) => (xs.length === 1 ? xs[0]! : sql`(${sql.join(xs)})`);
  const parts = runs.map((run) => {
    const ahead = keys[run.start]!.desc === backwards ? '>' : '<';
    const rows = sql<boolean>`${tuple(run.keys.map((i) => keys[i]!.expr))} ${sql.raw(ahead)} ${tuple(run.keys.map((i) => sql`${values[i]}`))}`;
    const compare = run.keys.length > 1 ? sql<boolean>`${keys[run.start]!.expr} ${sql.raw(ahead)}= ${values[run.start]} and ${rows}` : rows;
    const before = Array.from({ length: run.start }, (_, i) => equal(i));
    const where = before.length ? sql<boolean>`${sql.join([...before, compare], sql` and `)}` : compare;
    return { where, order: keys.slice(run.start) };
  });
  return parts.reverse();
}

/**
 * A page after (before) the edge: `read(condition, reversed, limit, order)` reads the rows of one
 * part in `order` (the part's keys of the list's order, reversed when going backwards); the parts
 * are read until `limit` rows are found. Returns the rows in the list's order.
 */
export async function keysetPage<R>(
  keys: readonly SortKey[],
  values: readonly unknown[],
  backwards: boolean,
  limit: number,
  read: (where: RawBuilder<boolean>, reversed: boolean, limit: number, order: readonly SortKey[]) => Promise<R[]>,
): Promise<R[]> {
  const out: R[] = [];
  for (const { where, order } of keysetParts(keys, values, backwards)) {
    if (out.length >= limit) break;
    out.push(...(await read(where, backwards, limit - out.length, order)));
  }
  return backwards ? out.reverse() : out;
}

/**
 * Whether a page that reaches `upTo` rows into a selection of `matches` rows out of `total` reads
 * the matches and sorts them rather than walking the sort's index and testing each row: the walk
 * passes about upTo × total / matches rows, and when that is more than the matches, sorting them
 * reads fewer. The rule of every list that can do either (alarm reports, devices, customers, a
 * role's holders among persons).
 */
export const sortsMatches = (upTo: number, total: number, matches: number): boolean => (upTo * total) / Math.max(matches, 1) > matches;

/**
 * Where a jump to `page` reads from when the selection's size is known: forward with the offset of
 * the pages before it, or backwards (the order reversed) with the offset of the pages after it,
 * whichever skips fewer rows; the last page reads like the first. `limit` rows from `offset`
 * (none past the end); reversed rows come last first.
 */
export function nearerEnd(page: number, pageSize: number, total: number): { reversed: boolean; offset: number; limit: number } {
  const from = (page - 1) * pageSize;
  if (from >= total) return { reversed: false, offset: from, limit: 0 };
  const end = Math.min(from + pageSize, total);
  return total - end < from ? { reversed: true, offset: total - end, limit: end - from } : { reversed: false, offset: from, limit: pageSize };
}
