// The management report's monthly tops (`alarmMonthTops`): per Europe/London month and customer,
// the alarm count of every person and every device, and of every escalation-plan outcome of the
// stored analyses — kept by database triggers in the writer's transaction (the seed, imports,
// tests and the app alike, like alarmStats), so the report reads the ten busiest users and devices
// and the plan compliance of a month without reading its alarm reports (decision "The management report reads
// monthly tops kept by triggers", docs/decisions/management-report.md).
//
//   kind 1  person: key personId, label the greatest personFullName of the month
//   kind 2  device: key deviceSerial, label the serial, code the greatest device type
//   kind 3  plan:   key '<Verdict>:<followed>' of the stored analysis ('Agrees:true', 'none:false')
//
// Persons and devices are counted twice: under the report's customer ('' for none) and under '*'
// (every customer), so both reports read their top ten straight from the index (month,
// customerId, kind, n desc, label). Plan outcomes are kept per customer only: the report counts
// the customers whose intelligence setting is on, a join of at most customers × outcomes rows.
// Rows whose count fell to 0 stay (n = 0) and are skipped by the reads.
//
// The table and its triggers are what migration 021 installed, so the definitions are its frozen
// ones (db/migrations/lib/alarm-month-tops.ts), re-exported here with the description of the
// analyses' counting triggers the bulk load sets aside and rebuilds by. A change of the table or
// its triggers is a new migration with its own frozen copy, which this module then re-exports.
import { analysisPlanSql } from '../../db/migrations/lib/alarm-month-tops.js';
import type { CountingTriggers } from '../../db/counting-triggers.js';

export {
  analysisPlanSql,
  EVERY_CUSTOMER,
  planKeySql,
  rebuildTopsSql,
  reportPlanSql,
  reportTopsSql,
  TOP_KIND,
  TOPS_COLS,
  TOPS_KEY,
  TOPS_TABLE,
  TOPS_WATCHED,
} from '../../db/migrations/lib/alarm-month-tops.js';

/** The plan outcomes' counts of the analyses (a report's own counts are kept by the triggers on alarmReports). */
export const ANALYSIS_TRIGGERS: CountingTriggers = {
  name: 'alarmMonthTops_analysis',
  table: 'alarmReportAnalyses',
  watched: ['analysis', 'alarmReportId'],
  fn: 'alarm_month_tops_analysis',
  insertDelete: 'aid',
  body: (pg, r, sign) => [analysisPlanSql(pg, r, sign)],
};
