// 022_alarm_list_lookups: the alarm list's name filters and the charts' narrower statistics at
// volume (decisions "Name filters and the search find the names first" and "Two narrower statistics grains and a
// controller index serve narrow filters", docs/decisions/alarm-statistics.md).
//
// - alarmReportNames (modules/alarm-reports/names.ts): the distinct lower-cased person and account
//   names of the reports with their report counts, kept by triggers in the writing transaction;
//   the "contains" filters look names up there and read the matching reports through the
//   (lower(name), closed date) indexes of migration 002.
// - Statistics grains 4 (tier, device type) and 5 (verification category, alarm type) added to
//   alarmStats (aggregates.ts): the triggers are created again over every grain and the two
//   grains counted from the reports; an index by controller and day for grain 3.
//
// Imports nothing outside db/migrations/: `isPg` is the same test as `isPostgres` of db/dialect.ts.
import { type Kysely, type Migration, PostgresAdapter, sql } from 'kysely';
import { rebuildGrainsSql } from './lib/alarm-stats.js';
import { NAME_WATCHED_COLS, NAMES_TABLE, namesApplySql, rebuildNamesSql } from './lib/alarm-report-names.js';
import { createCountingTriggers, type CountingTriggers, dropCountingTriggers } from './lib/counting-triggers.js';
import { STATS_TRIGGERS } from './013-alarm-stats.js';

const isPg = (db: Kysely<any>) => db.getExecutor().adapter instanceof PostgresAdapter;
const run = (db: Kysely<any>, text: string) => sql.raw(text).execute(db);
/** The grains this migration adds (aggregates.ts GRAINS). */
const ADDED_GRAINS = [4, 5];
export const STATS_CONTROLLER_INDEX = `create index "alarmStats_controller_idx" on "alarmStats" ("grain", "arcControllerId", "day")`;

/** The names' counts, kept like the statistics. */
export const NAMES_TRIGGERS: CountingTriggers = {
  name: NAMES_TABLE,
  table: 'alarmReports',
  watched: NAME_WATCHED_COLS,
  fn: 'alarm_report_names_apply',
  body: (_pg, r, sign) => namesApplySql(r, sign),
};

async function namesTable(db: Kysely<any>, pg: boolean) {
  await run(
    db,
    `create table "${NAMES_TABLE}" ("kind" text not null, "key" text not null, "n" ${pg ? 'bigint' : 'integer'} not null, primary key ("kind", "key"))${pg ? '' : ' without rowid'}`,
  );
  await createCountingTriggers(db, NAMES_TRIGGERS);
  for (const s of rebuildNamesSql()) await run(db, s);
  // A provider with hundreds of thousands of names still finds them without reading each.
  if (pg) await run(db, `create index "${NAMES_TABLE}_key_trgm" on "${NAMES_TABLE}" using gin ("key" gin_trgm_ops)`);
}

export const m022: Migration = {
  async up(db) {
    const pg = isPg(db);
    await namesTable(db, pg);
    await dropCountingTriggers(db, STATS_TRIGGERS);
    await createCountingTriggers(db, STATS_TRIGGERS);
    for (const s of rebuildGrainsSql(pg, ADDED_GRAINS)) await run(db, s);
    // A controller filter reads its controller's rows of grain 3, not every controller's of the range.
    await run(db, STATS_CONTROLLER_INDEX);
    // statistics for the planner on what changed
    for (const t of [NAMES_TABLE, 'alarmStats']) await run(db, `analyze "${t}"`);
  },
};
