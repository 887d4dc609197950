// The counting triggers (src/server/db/counting-triggers.ts) a fresh database holds after the
// migrations, on SQLite (PostgreSQL with TEST_DB=pg): the alarm statistics, the alarm list's names
// and the analyses' monthly tops each have their insert, delete and update triggers on the table
// they count, executing their own function on PostgreSQL, and nothing else changed around them
// (the names of every trigger on the counted tables). What the triggers count is tested by
// alarm-stats, alarm-list-lookups and management-report.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { sql } from 'kysely';
import { createTestDb, type TestDb } from '../helpers/db.js';
import { countingTriggerNames, type CountingTriggers } from '../../src/server/db/counting-triggers.js';
import { STATS_TRIGGERS } from '../../src/server/modules/alarm-reports/aggregates.js';
import { ANALYSIS_TRIGGERS } from '../../src/server/modules/alarm-reports/month-tops.js';
import { NAMES_TRIGGERS } from '../../src/server/modules/alarm-reports/names.js';

const SETS: CountingTriggers[] = [STATS_TRIGGERS, NAMES_TRIGGERS, ANALYSIS_TRIGGERS];

let t: TestDb;
beforeAll(async () => {
  t = await createTestDb({ reference: false });
});
afterAll(() => t.close());

/** Every trigger on a counted table: name, table and (PostgreSQL) the function it executes. */
async function triggers(): Promise<{ name: string; table: string; fn: string | null }[]> {
  if (t.dialect === 'pg') {
    const r = await sql<{ name: string; table: string; fn: string }>`select t.tgname as name, c.relname as "table", p.proname as fn
      from pg_trigger t join pg_class c on c.oid = t.tgrelid join pg_proc p on p.oid = t.tgfoid
      where not t.tgisinternal and c.relname in ('alarmReports', 'alarmReportAnalyses') order by t.tgname`.execute(t.db);
    return r.rows;
  }
  const r = await sql<{ name: string; table: string }>`select name, tbl_name as "table" from sqlite_master
    where type = 'trigger' and tbl_name in ('alarmReports', 'alarmReportAnalyses') order by name`.execute(t.db);
  return r.rows.map((x) => ({ ...x, fn: null }));
}

describe('counting triggers after the migrations', () => {
  test('each counting set has its triggers on its table, executing its function', async () => {
    const pg = t.dialect === 'pg';
    const all = await triggers();
    for (const set of SETS)
      for (const name of countingTriggerNames(set, pg)) expect(all.find((x) => x.name === name)).toEqual({ name, table: set.table, fn: pg ? set.fn : null });
  });

  test('the triggers on the counted tables, by name', async () => {
    const names = (await triggers()).map((x) => x.name);
    if (t.dialect === 'pg')
      expect(names).toEqual([
        'alarmMonthTops_ai',
        'alarmMonthTops_analysis_aid',
        'alarmMonthTops_analysis_au',
        'alarmMonthTops_au',
        'alarmMonthTops_bd',
        'alarmReportNames_aiud',
        'alarmReportNames_au',
        'alarmStats_aiud',
        'alarmStats_au',
      ]);
    else
      expect(names).toEqual([
        'alarmMonthTops_ai',
        'alarmMonthTops_analysis_ad',
        'alarmMonthTops_analysis_ai',
        'alarmMonthTops_analysis_au',
        'alarmMonthTops_au',
        'alarmMonthTops_bd',
        'alarmReportNames_ad',
        'alarmReportNames_ai',
        'alarmReportNames_au',
        'alarmReports_fts_ad',
        'alarmReports_fts_ai',
        'alarmReports_fts_au',
        'alarmReports_serial_fts_ad',
        'alarmReports_serial_fts_ai',
        'alarmReports_serial_fts_au',
        'alarmStats_ad',
        'alarmStats_ai',
        'alarmStats_au',
      ]);
  });
});
