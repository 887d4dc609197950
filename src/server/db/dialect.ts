// Which database a connection talks to, for the code that writes SQL differently for each.
// (Migrations keep their own copy of this test: they import nothing outside db/migrations/.)
import { type Kysely, PostgresAdapter } from 'kysely';

/** True when `db` talks to PostgreSQL, false for SQLite. */
export const isPostgres = (db: Kysely<any>) => db.getExecutor().adapter instanceof PostgresAdapter;

/**
 * A query made a fence for the query around it: its rows are read first and sorted after. An OFFSET
 * of 0 keeps each planner from merging the subquery into the outer one (PostgreSQL would push the
 * outer ORDER BY into it and walk the sort's index instead of reading the matches from the search
 * or role index; SQLite would flatten it). SQLite takes an OFFSET only after a LIMIT: -1 is none.
 * `db.selectFrom(fence(db, matches).as('c')).selectAll('c')`, then the order and the page.
 */
export const fence = <Q extends { limit: (n: number) => Q; offset: (n: number) => Q }>(db: Kysely<any>, q: Q): Q =>
  isPostgres(db) ? q.offset(0) : q.limit(-1).offset(0);
