// The alarm statistics table (`alarmStats`): bucket counts of the alarm reports per closed day in
// Europe/London, kept by database triggers in the same transaction as every insert, update and
// delete of a report (the seed, imports, tests and the app alike), so its sums always equal a count
// of the raw rows. Each report is counted once in each grain; a grain keeps the closed day and the
// verification type (the Type of Alarms chart's series) plus its own dimensions, the others hold
// the roll-up value (-1 / ''):
//   1  day, verification type                                   (no other filter)
//   2  … + verification category, alarm type, tier, device type (any of these filters)
//   3  … + ARC controller                                        (controller filter)
//   4  … + tier, device type                                     (either or both of these filters)
//   5  … + verification category, alarm type                     (either or both of these filters)
//  12  grain 2 per London month                                  (the whole months of a range)
// A filter is read from the grain with the fewest dimensions that holds all it filters by: grains
// 4 and 5 have about 140 and 50 rows a day where grain 2 has up to 1,700, so a filter by one of
// these dimensions (or tier with device type) reads a tenth of the rows (migration 022).
// A filter that needs dimensions of two grains, an account or person contains-filter or a search
// is answered from the raw rows instead (through the trigram and date indexes): an account or
// person grain would hold about one row per report, costing a write for nothing.
//
// The table and its triggers are what migrations 013 and 022 installed, so the definitions are
// theirs: this module re-exports the frozen ones (db/migrations/lib/alarm-stats.ts, bands written
// out equal to the shared STARTED_BANDS / COMPLETED_BANDS) and adds the triggers' description the
// bulk load sets aside and rebuilds by. A change of the table or its triggers is a new migration
// with its own frozen copy, which this module then re-exports instead.
import { GRAINS, upsertSql, WATCHED_COLS } from '../../db/migrations/lib/alarm-stats.js';
import type { CountingTriggers } from '../../db/counting-triggers.js';

export {
  bandSql,
  COMPLETED_COLS,
  COUNT_COLS,
  DIMS,
  GRAINS,
  grainValues,
  INT_DIMS,
  KEY_COLS,
  londonDaySql,
  MONTH_GRAIN,
  rebuildGrainsSql,
  rebuildSql,
  STARTED_COLS,
  STATS_TABLE,
  TEXT_DIMS,
  upsertSql,
  WATCHED_COLS,
} from '../../db/migrations/lib/alarm-stats.js';

/** The triggers that keep alarmStats over every grain of GRAINS (the bulk load sets them aside and rebuilds). */
export const STATS_TRIGGERS: CountingTriggers = {
  name: 'alarmStats',
  table: 'alarmReports',
  watched: WATCHED_COLS,
  fn: 'alarm_stats_apply',
  body: (pg, r, sign) => Object.keys(GRAINS).map((g) => upsertSql(pg, Number(g), r, sign)),
};
