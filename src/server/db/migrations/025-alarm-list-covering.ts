// 025_alarm_list_covering: the alarm list's name counts and the response targets' missed list at
// volume (docs/decisions.md 470–479).
//
// - PostgreSQL: the (lower(name), closed date) indexes of migration 002 carry the name and the id
//   (INCLUDE). PostgreSQL answers a query from an expression index alone only when the columns
//   inside the expression are in the index too; with them, counting the reports of the names a
//   contains-filter or search found is an index-only scan instead of a heap read per report, and
//   the page of a small match is sorted from the index as well. SQLite already counts from these
//   indexes alone (its index entries end with the rowid).
// - Both: (controller, verification started seconds, closed date), so the missed list of one
//   controller walks that controller's slowest reports first instead of sorting all of them or
//   walking every controller's slowest.
//
// Does not import migrations.ts (which imports this file): `isPg` is the same test as `isPostgres` there.
import { type Kysely, type Migration, PostgresAdapter, sql } from 'kysely';

const isPg = (db: Kysely<any>) => db.getExecutor().adapter instanceof PostgresAdapter;
const run = (db: Kysely<any>, text: string) => sql.raw(text).execute(db);

/** The name indexes of migration 002 on PostgreSQL: [name, column]. */
const NAME_INDEXES = [
  ['search_alarmReports_person', 'personFullName'],
  ['search_alarmReports_account', 'customerAccountFullName'],
] as const;

export const CONTROLLER_STARTED_INDEX = 'alarmReports_controller_started_idx';

export const m025: Migration = {
  async up(db) {
    const pg = isPg(db);
    if (pg)
      for (const [name, col] of NAME_INDEXES) {
        await run(db, `drop index if exists "${name}"`);
        await run(db, `create index "${name}" on "alarmReports" (lower("${col}") collate "C", "alarmClosed" desc) include ("${col}", "id")`);
      }
    await run(db, `create index "${CONTROLLER_STARTED_INDEX}" on "alarmReports" ("arcControllerId", "verificationStartedSeconds", "alarmClosed")`);
    await run(db, `analyze "alarmReports"`);
  },
};
