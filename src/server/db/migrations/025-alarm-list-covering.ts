// 025_alarm_list_covering: the alarm list's name filters and search, and the response targets'
// missed list, at volume (docs/decisions.md 470–479).
//
// - The (lower(name), closed date) indexes of migration 002 carry what the list's count and page,
//   the charts, Type of Alarms and the response targets' counts read of a report: the name and the
//   id, the verification type and the started and completed seconds. A name filter or search is
//   then answered from the index alone instead of a row read per matching report. PostgreSQL:
//   INCLUDE (it answers from an expression index alone only when the columns inside the expression
//   are in the index too). SQLite: trailing key columns (its index entries end with the rowid,
//   and it computes lower(name) from the index).
// - Both: (controller, verification started seconds, closed date), so the missed list of one
//   controller walks that controller's slowest reports first instead of sorting all of them or
//   walking every controller's slowest.
//
// Does not import migrations.ts (which imports this file): `isPg` is the same test as `isPostgres` there.
import { type Kysely, type Migration, PostgresAdapter, sql } from 'kysely';

const isPg = (db: Kysely<any>) => db.getExecutor().adapter instanceof PostgresAdapter;
const run = (db: Kysely<any>, text: string) => sql.raw(text).execute(db);

/** The name indexes of migration 002: [name, column]. */
const NAME_INDEXES = [
  ['search_alarmReports_person', 'personFullName'],
  ['search_alarmReports_account', 'customerAccountFullName'],
] as const;
/** What the list, the charts and the targets read of a report besides its name and closed date. */
const CARRIED = ['verificationType', 'verificationStartedSeconds', 'verificationCompletedSeconds'];

export const CONTROLLER_STARTED_INDEX = 'alarmReports_controller_started_idx';

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
    await run(db, `create index "${CONTROLLER_STARTED_INDEX}" on "alarmReports" ("arcControllerId", "verificationStartedSeconds", "alarmClosed")`);
    await run(db, `analyze "alarmReports"`);
  },
};
