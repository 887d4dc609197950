// 022_alarm_list_lookups: the alarm list's name filters and the charts' narrower statistics at
// volume (docs/decisions.md 420–429).
//
// - alarmReportNames (modules/alarm-reports/names.ts): the distinct lower-cased person and account
//   names of the reports with their report counts, kept by triggers in the writing transaction;
//   the "contains" filters look names up there and read the matching reports through the
//   (lower(name), closed date) indexes of migration 002.
// - Statistics grains 4 (tier, device type) and 5 (verification category, alarm type) added to
//   alarmStats (aggregates.ts): the triggers are created again over every grain and the two
//   grains counted from the reports; an index by controller and day for grain 3.
//
// Does not import migrations.ts (which imports this file): `isPg` is the same test as `isPostgres` there.
import { type Kysely, type Migration, PostgresAdapter, sql } from 'kysely';
import { rebuildGrainsSql } from '../../modules/alarm-reports/aggregates.js';
import { NAME_WATCHED_COLS, NAMES_TABLE, namesApplySql, rebuildNamesSql } from '../../modules/alarm-reports/names.js';
import { createStatsTriggers } from './013-alarm-stats.js';

const isPg = (db: Kysely<any>) => db.getExecutor().adapter instanceof PostgresAdapter;
const run = (db: Kysely<any>, text: string) => sql.raw(text).execute(db);
const quoted = (cols: readonly string[]) => cols.map((c) => `"${c}"`).join(', ');
/** The grains this migration adds (aggregates.ts GRAINS). */
const ADDED_GRAINS = [4, 5];
export const STATS_CONTROLLER_INDEX = `create index "alarmStats_controller_idx" on "alarmStats" ("grain", "arcControllerId", "day")`;

async function namesTable(db: Kysely<any>, pg: boolean) {
  await run(
    db,
    `create table "${NAMES_TABLE}" ("kind" text not null, "key" text not null, "n" ${pg ? 'bigint' : 'integer'} not null, primary key ("kind", "key"))${pg ? '' : ' without rowid'}`,
  );
  const body = (r: 'new' | 'old', sign: 1 | -1) =>
    namesApplySql(r, sign)
      .map((s) => `${s};`)
      .join('\n');
  if (!pg) {
    await run(db, `create trigger "${NAMES_TABLE}_ai" after insert on "alarmReports" begin\n${body('new', 1)}\nend`);
    await run(db, `create trigger "${NAMES_TABLE}_ad" after delete on "alarmReports" begin\n${body('old', -1)}\nend`);
    await run(
      db,
      `create trigger "${NAMES_TABLE}_au" after update of ${quoted(NAME_WATCHED_COLS)} on "alarmReports" begin\n${body('old', -1)}\n${body('new', 1)}\nend`,
    );
  } else {
    await run(
      db,
      `create or replace function alarm_report_names_apply() returns trigger language plpgsql as $fn$
      begin
        if tg_op in ('DELETE', 'UPDATE') then
          ${body('old', -1)}
        end if;
        if tg_op in ('INSERT', 'UPDATE') then
          ${body('new', 1)}
        end if;
        return null;
      end
      $fn$`,
    );
    await run(db, `create trigger "${NAMES_TABLE}_aiud" after insert or delete on "alarmReports" for each row execute function alarm_report_names_apply()`);
    await run(
      db,
      `create trigger "${NAMES_TABLE}_au" after update of ${quoted(NAME_WATCHED_COLS)} on "alarmReports" for each row execute function alarm_report_names_apply()`,
    );
  }
  for (const s of rebuildNamesSql()) await run(db, s);
  // A provider with hundreds of thousands of names still finds them without reading each.
  if (pg) await run(db, `create index "${NAMES_TABLE}_key_trgm" on "${NAMES_TABLE}" using gin ("key" gin_trgm_ops)`);
}

export const m022: Migration = {
  async up(db) {
    const pg = isPg(db);
    await namesTable(db, pg);
    if (pg) for (const t of ['alarmStats_aiud', 'alarmStats_au']) await run(db, `drop trigger if exists "${t}" on "alarmReports"`);
    else for (const t of ['alarmStats_ai', 'alarmStats_ad', 'alarmStats_au']) await run(db, `drop trigger if exists "${t}"`);
    await createStatsTriggers(db);
    for (const s of rebuildGrainsSql(pg, ADDED_GRAINS)) await run(db, s);
    // A controller filter reads its controller's rows of grain 3, not every controller's of the range.
    await run(db, STATS_CONTROLLER_INDEX);
    // statistics for the planner on what changed
    for (const t of [NAMES_TABLE, 'alarmStats']) await run(db, `analyze "${t}"`);
  },
};
