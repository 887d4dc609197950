// The alarm reports' distinct names (`alarmReportNames`): each lower-cased person and customer
// account name the reports carry, with how many reports carry it, kept by database triggers in
// the same transaction as every insert, update and delete of a report (like the statistics,
// aggregates.ts). The list's "contains" filters on person and account (and the search over them)
// look the value up among these few thousand names first and then read the reports of the names
// found through the (lower(name), closed date) indexes, instead of testing the text of every
// report in the range: a report matches exactly when its lower-cased name is one of the names
// found, because every report's name is in the table.
//
// The table and its triggers are what migration 022 installed, so the definitions are its frozen
// ones (db/migrations/lib/alarm-report-names.ts), re-exported here with the triggers' description
// the bulk load sets aside and rebuilds by. A change of them is a new migration with its own
// frozen copy, which this module then re-exports.
import { NAME_WATCHED_COLS, NAMES_TABLE, namesApplySql } from '../../db/migrations/lib/alarm-report-names.js';
import type { CountingTriggers } from '../../db/counting-triggers.js';

export { NAME_COLUMNS, NAME_WATCHED_COLS, NAMES_TABLE, namesApplySql, rebuildNamesSql, type NameKind } from '../../db/migrations/lib/alarm-report-names.js';

/** The triggers that keep the names' counts, like the statistics. */
export const NAMES_TRIGGERS: CountingTriggers = {
  name: NAMES_TABLE,
  table: 'alarmReports',
  watched: NAME_WATCHED_COLS,
  fn: 'alarm_report_names_apply',
  body: (_pg, r, sign) => namesApplySql(r, sign),
};
