// SQLite's INDEXED BY, named in a compiled query: a list's page whose plan the planner would get
// wrong (it sorts every match where walking an index in order passes few rows) names the index.
import { CompiledQuery } from 'kysely';
import type { DB } from './types.js';

/**
 * Runs `page` with `indexed by "<index>"` after the table reference `from` (the exact text the
 * query compiles to, e.g. 'from "devices" as "d"'): its first occurrence (the outer query) or its
 * last (the innermost, e.g. a page's serial numbers read inside the query that reads their rows).
 */
export async function withIndexedBy<R>(db: DB, page: CompiledQuery, from: string, index: string, which: 'first' | 'last'): Promise<R[]> {
  const at = which === 'first' ? page.sql.indexOf(from) : page.sql.lastIndexOf(from);
  if (at < 0) throw new Error(`withIndexedBy: '${from}' is not in the query`);
  const end = at + from.length;
  const text = `${page.sql.slice(0, end)} indexed by "${index}"${page.sql.slice(end)}`;
  return (await db.executeQuery<R>(CompiledQuery.raw(text, [...page.parameters]))).rows;
}
