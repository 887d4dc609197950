// PostgreSQL: the demo data's bulk load, inside the seed's one transaction.
//
// Before the rows go in, the tables the seed fills lose
// - their secondary indexes, and so do the counting tables (kept: primary keys and unique
//   constraints, which the foreign keys, the seed's own look-ups and the device counts' upserts
//   use): built again after the load, one sort each instead of one index insertion per row;
// - their foreign keys, each checked per row by a look-up in the parent table: added again after
//   the load, each validated by one join over its table;
// - the counting triggers on alarmReports and alarmReportAnalyses (BULK_COUNTING), which per report
//   upsert a dozen counting rows (statistics, names, monthly tops), the same rows again and again in
//   one transaction, each time a new row version that cannot be cleaned up before the commit: the
//   counting tables are computed once from the rows after the load, with the statements the
//   migrations use on a populated database.
// Then the tables are analysed. Every step is part of the transaction: a load that fails leaves the
// tables, indexes, keys and triggers as they were.
//
// Kept during the load: the devices' customer sort name (a BEFORE trigger, one primary-key look-up
// per device) and the device counts (a statement trigger, one upsert per batch).
//
// ALTER TABLE and DROP INDEX lock the tables until the commit (readers wait): the demo data loads
// on first start before the server answers, or through `npm run seed`.
import { sql } from 'kysely';
import type { DB } from '../db/index.js';
import { countingTriggerNames } from '../db/counting-triggers.js';
import { rebuildSql, STATS_TRIGGERS } from '../modules/alarm-reports/aggregates.js';
import { NAMES_TRIGGERS, rebuildNamesSql } from '../modules/alarm-reports/names.js';
import { ANALYSIS_TRIGGERS, rebuildTopsSql } from '../modules/alarm-reports/month-tops.js';

const run = (db: DB, text: string) => sql.raw(text).execute(db);

/**
 * The insert triggers the load disables, per table, and the statements that compute what they
 * count from the rows afterwards (each starts by emptying its table).
 */
export const BULK_COUNTING = [
  { table: 'alarmReports', trigger: countingTriggerNames(STATS_TRIGGERS, true)[0]!, rebuild: () => rebuildSql(true) },
  { table: 'alarmReports', trigger: countingTriggerNames(NAMES_TRIGGERS, true)[0]!, rebuild: () => rebuildNamesSql() },
  // The monthly tops: the report's persons and devices (this trigger) and the analyses' plan outcomes (the next).
  { table: 'alarmReports', trigger: 'alarmMonthTops_ai', rebuild: () => rebuildTopsSql(true) },
  { table: 'alarmReportAnalyses', trigger: countingTriggerNames(ANALYSIS_TRIGGERS, true)[0]!, rebuild: () => [] },
] as const;

/** The tables the counting triggers and the device counts' statement trigger fill. */
const COUNTING_TABLES = ['alarmStats', 'alarmReportNames', 'alarmMonthTops', 'deviceCounts'];

type Saved = { table: string; name: string; def: string };

/** The secondary indexes of the tables (not those of a primary key or unique constraint), with their definitions. */
async function secondaryIndexes(db: DB, tables: readonly string[]): Promise<Saved[]> {
  const r = await sql<Saved>`select t.relname as "table", i.relname as name, pg_get_indexdef(x.indexrelid) as def
    from pg_index x
    join pg_class i on i.oid = x.indexrelid
    join pg_class t on t.oid = x.indrelid
    join pg_namespace n on n.oid = t.relnamespace
    where n.nspname = current_schema() and t.relname in (${sql.join(tables)})
      and not exists (select 1 from pg_constraint c where c.conindid = x.indexrelid)
    order by t.relname, i.relname`.execute(db);
  return r.rows;
}

/** The foreign keys of the tables (those of other tables that refer to them stay), with their definitions. */
async function foreignKeys(db: DB, tables: readonly string[]): Promise<Saved[]> {
  const r = await sql<Saved>`select t.relname as "table", c.conname as name, pg_get_constraintdef(c.oid) as def
    from pg_constraint c
    join pg_class t on t.oid = c.conrelid
    join pg_namespace n on n.oid = t.relnamespace
    where c.contype = 'f' and n.nspname = current_schema() and t.relname in (${sql.join(tables)})
    order by t.relname, c.conname`.execute(db);
  return r.rows;
}

/**
 * Prepares the tables for the load (db: the seed's transaction) and answers the step that
 * finishes it, which logs each part's time through `phase`.
 */
export async function pgBulkLoad(
  db: DB,
  tables: readonly string[],
  phase: (name: string, t: number, extra?: Record<string, unknown>) => void,
): Promise<() => Promise<void>> {
  let t = performance.now();
  // Index builds sort in memory when they can (this transaction only).
  await run(db, `set local maintenance_work_mem = '256MB'`);
  const indexes = await secondaryIndexes(db, [...tables, ...COUNTING_TABLES]);
  const keys = await foreignKeys(db, tables);
  for (const fk of keys) await run(db, `alter table "${fk.table}" drop constraint "${fk.name}"`);
  for (const ix of indexes) await run(db, `drop index "${ix.name}"`);
  for (const c of BULK_COUNTING) await run(db, `alter table "${c.table}" disable trigger "${c.trigger}"`);
  phase('bulk load prepare', t, { indexesDropped: indexes.length, foreignKeysDropped: keys.length, triggersDisabled: BULK_COUNTING.length });

  return async () => {
    t = performance.now();
    for (const c of BULK_COUNTING) for (const s of c.rebuild()) await run(db, s);
    for (const c of BULK_COUNTING) await run(db, `alter table "${c.table}" enable trigger "${c.trigger}"`);
    phase('counting tables', t);
    t = performance.now();
    for (const ix of indexes) await run(db, ix.def);
    phase('indexes', t, { indexes: indexes.length });
    t = performance.now();
    for (const fk of keys) await run(db, `alter table "${fk.table}" add constraint "${fk.name}" ${fk.def}`);
    phase('foreign keys', t, { foreignKeys: keys.length });
    t = performance.now();
    for (const table of [...tables, ...COUNTING_TABLES]) await run(db, `analyze "${table}"`);
    phase('analyze', t);
  };
}
