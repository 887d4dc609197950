// 025_alarm_list_covering: the alarm list's name filters and search, and the response targets'
// missed list, at volume (decisions "The name indexes carry what the list, the charts and the targets read",
// "The sort indexes carry the closed date" and "One controller's missed list walks its own slowest",
// docs/decisions/alarm-statistics.md).
//
// - The (lower(name), closed date) indexes of migration 002 carry what the list's count and page,
//   the charts, Type of Alarms and the response targets' counts read of a report: the name and the
//   id, the verification type and the started and completed seconds. A name filter or search is
//   then answered from the index alone instead of a row read per matching report. PostgreSQL:
//   INCLUDE (it answers from an expression index alone only when the columns inside the expression
//   are in the index too). SQLite: trailing key columns (its index entries end with the rowid,
//   and it computes lower(name) from the index).
// - The sort indexes of migration 013 (list-order.ts) carry the closed date (PostgreSQL: INCLUDE;
//   SQLite: after the id, which leaves their order as it is): a sorted page walks one of them and
//   keeps the reports of the list's range, and that test no longer reads each report's row.
// - Both: (controller, verification started seconds, closed date), so the missed list of one
//   controller walks that controller's slowest reports first instead of sorting all of them or
//   walking every controller's slowest.
//
// Imports nothing outside db/migrations/: `isPg` is the same test as `isPostgres` of db/dialect.ts.
import { type Kysely, type Migration, PostgresAdapter, sql } from 'kysely';
import { CONTROLLER_STARTED_INDEX, SORT_INDEXES } from './lib/alarm-list-sort-indexes.js';

const isPg = (db: Kysely<any>) => db.getExecutor().adapter instanceof PostgresAdapter;
const run = (db: Kysely<any>, text: string) => sql.raw(text).execute(db);

/** The name indexes of migration 002: [name, column]. */
const NAME_INDEXES = [
  ['search_alarmReports_person', 'personFullName'],
  ['search_alarmReports_account', 'customerAccountFullName'],
] as const;
/** What the list, the charts and the targets read of a report besides its name and closed date. */
const CARRIED = ['verificationType', 'verificationStartedSeconds', 'verificationCompletedSeconds'];

/**
 * PostgreSQL: what a sort index includes — the closed date, and the columns its key uses only
 * inside an expression (the code a rank is computed from), without which PostgreSQL would read
 * the row to compute the sort key again.
 */
function sortIncludes(sortKeys: string) {
  const keys = sortKeys.replaceAll('collate "C"', '');
  const plain = new Set(keys.split(',').flatMap((k) => /^\s*"(\w+)"(\s+desc)?\s*$/.exec(k)?.[1] ?? []));
  const used = new Set([...keys.matchAll(/"(\w+)"/g)].map((m) => m[1]!));
  return [...used, 'alarmClosed']
    .filter((c, i, all) => !plain.has(c) && all.indexOf(c) === i)
    .map((c) => `"${c}"`)
    .join(', ');
}

export const m025: Migration = {
  async up(db) {
    const pg = isPg(db);
    const carried = CARRIED.map((c) => `"${c}"`).join(', ');
    for (const [name, col] of NAME_INDEXES) {
      await run(db, `drop index if exists "${name}"`);
      await run(
        db,
        pg
          ? `create index "${name}" on "alarmReports" (lower("${col}") collate "C", "alarmClosed" desc) include ("${col}", "id", ${carried})`
          : `create index "${name}" on "alarmReports" (lower("${col}"), "alarmClosed" desc, "id", ${carried})`,
      );
    }
    for (const [name, keys] of SORT_INDEXES(pg)) {
      await run(db, `drop index if exists "${name}"`);
      await run(db, `create index "${name}" on "alarmReports" (${keys}${pg ? `) include (${sortIncludes(keys)})` : `, "alarmClosed")`}`);
    }
    await run(
      db,
      `create index if not exists "${CONTROLLER_STARTED_INDEX}" on "alarmReports" ("arcControllerId", "verificationStartedSeconds", "alarmClosed")`,
    );
    await run(db, `analyze "alarmReports"`);
  },
};
