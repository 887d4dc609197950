// 021_management_report: the monthly management report's own storage.
// - reportSchedules.report: what a scheduled report sends ('alarmList', the alarm list .xlsx of its
//   saved filters as before, or 'managementReport', the monthly management report of its customer
//   or of all customers; docs/scheduled-reports.md).
// - alarmMonthTops: per London month and customer, the alarm count of every person, device and
//   escalation-plan outcome (modules/alarm-reports/month-tops.ts), kept by triggers in the writing
//   transaction on both databases, filled from the existing rows here.
//
// Imports nothing outside db/migrations/: `isPg` is the same test as `isPostgres` of db/dialect.ts.
import { type Kysely, type Migration, PostgresAdapter, sql } from 'kysely';
import { createCountingTriggers, type CountingTriggers } from './lib/counting-triggers.js';
import { analysisPlanSql, rebuildTopsSql, reportPlanSql, reportTopsSql, TOPS_KEY, TOPS_TABLE, TOPS_WATCHED } from './lib/alarm-month-tops.js';

const isPg = (db: Kysely<any>) => db.getExecutor().adapter instanceof PostgresAdapter;
const run = (db: Kysely<any>, text: string) => sql.raw(text).execute(db);
const quoted = (cols: readonly string[]) => cols.map((c) => `"${c}"`).join(', ');
const body = (statements: string[]) => statements.map((s) => `${s};`).join('\n');

/** The plan outcomes' counts of the analyses (a report's own counts are kept by the triggers on alarmReports below). */
export const ANALYSIS_TRIGGERS: CountingTriggers = {
  name: 'alarmMonthTops_analysis',
  table: 'alarmReportAnalyses',
  watched: ['analysis', 'alarmReportId'],
  fn: 'alarm_month_tops_analysis',
  insertDelete: 'aid',
  body: (pg, r, sign) => [analysisPlanSql(pg, r, sign)],
};

async function createTops(db: Kysely<any>, pg: boolean) {
  await run(
    db,
    `create table "${TOPS_TABLE}" ("month" text not null, "customerId" text not null, "kind" integer not null, "key" text not null,
      "label" text not null, "code" integer not null, "n" ${pg ? 'bigint' : 'integer'} not null, primary key (${quoted(TOPS_KEY)}))${pg ? '' : ' without rowid'}`,
  );
  // The top ten of a month, customer and kind in reading order: most alarms first, then by label.
  await run(db, `create index "alarmMonthTops_rank_idx" on "${TOPS_TABLE}" ("month", "customerId", "kind", "n" desc, "label")`);
}

async function upSqlite(db: Kysely<any>) {
  await createTops(db, false);
  await run(db, `create trigger "alarmMonthTops_ai" after insert on "alarmReports" begin\n${body(reportTopsSql(false, 'new', 1))}\nend`);
  // Before the delete: the report's analysis (removed by the cascade after it) is still there to subtract.
  await run(
    db,
    `create trigger "alarmMonthTops_bd" before delete on "alarmReports" begin\n${body([...reportTopsSql(false, 'old', -1), reportPlanSql(false, 'old', -1)])}\nend`,
  );
  await run(
    db,
    `create trigger "alarmMonthTops_au" after update of ${quoted(TOPS_WATCHED)} on "alarmReports" begin
      ${body([...reportTopsSql(false, 'old', -1), reportPlanSql(false, 'old', -1), ...reportTopsSql(false, 'new', 1), reportPlanSql(false, 'new', 1)])}
    end`,
  );
  await createCountingTriggers(db, ANALYSIS_TRIGGERS);
}

async function upPg(db: Kysely<any>) {
  await createTops(db, true);
  await run(
    db,
    `create or replace function alarm_month_tops_report() returns trigger language plpgsql as $fn$
    begin
      if tg_op = 'DELETE' then
        -- a BEFORE trigger: the report's analysis (removed by the cascade after it) is still there
        ${body([...reportTopsSql(true, 'old', -1), reportPlanSql(true, 'old', -1)])}
        return old;
      end if;
      if tg_op = 'UPDATE' then
        ${body([...reportTopsSql(true, 'old', -1), reportPlanSql(true, 'old', -1), reportPlanSql(true, 'new', 1)])}
      end if;
      ${body(reportTopsSql(true, 'new', 1))}
      return null;
    end
    $fn$`,
  );
  await run(db, `create trigger "alarmMonthTops_ai" after insert on "alarmReports" for each row execute function alarm_month_tops_report()`);
  await run(
    db,
    `create trigger "alarmMonthTops_au" after update of ${quoted(TOPS_WATCHED)} on "alarmReports" for each row execute function alarm_month_tops_report()`,
  );
  await run(db, `create trigger "alarmMonthTops_bd" before delete on "alarmReports" for each row execute function alarm_month_tops_report()`);
  await createCountingTriggers(db, ANALYSIS_TRIGGERS);
}

export const m021: Migration = {
  async up(db: Kysely<any>) {
    await db.schema
      .alterTable('reportSchedules')
      .addColumn('report', 'text', (c) => c.notNull().defaultTo('alarmList'))
      .execute();
    const pg = isPg(db);
    if (pg) await upPg(db);
    else await upSqlite(db);
    for (const s of rebuildTopsSql(pg)) await run(db, s);
  },
};
