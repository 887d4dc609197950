// 013_alarm_stats: the alarm statistics behind the charts, the response targets and the alarm
// list's total (lib/alarm-stats.ts, frozen from modules/alarm-reports/aggregates.ts), kept by triggers in the writing transaction;
// the alarm list's device-serial search index; the list's sort indexes (lib/alarm-list-sort-indexes.ts).
//
// Imports nothing outside db/migrations/: `isPg` is the same test as `isPostgres` of db/dialect.ts.
import { type Kysely, type Migration, PostgresAdapter, sql } from 'kysely';
import { SORT_INDEXES } from './lib/alarm-list-sort-indexes.js';
import { COUNT_COLS, DIMS, GRAINS, INT_DIMS, KEY_COLS, rebuildSql, STATS_TABLE, upsertSql, WATCHED_COLS } from './lib/alarm-stats.js';
import { createCountingTriggers, type CountingTriggers } from './lib/counting-triggers.js';

const isPg = (db: Kysely<any>) => db.getExecutor().adapter instanceof PostgresAdapter;
const run = (db: Kysely<any>, text: string) => sql.raw(text).execute(db);
const quoted = (cols: readonly string[]) => cols.map((c) => `"${c}"`).join(', ');

async function createTable(db: Kysely<any>, pg: boolean) {
  const cols = [
    `"grain" integer not null`,
    `"day" text not null`,
    `"verificationType" integer not null`,
    ...INT_DIMS.map((d) => `"${d}" integer not null`),
    ...DIMS.filter((d) => !(INT_DIMS as readonly string[]).includes(d)).map((d) => `"${d}" text not null`),
    ...COUNT_COLS.map((c) => `"${c}" ${pg ? 'bigint' : 'integer'} not null`),
  ];
  await run(db, `create table "${STATS_TABLE}" (${cols.join(', ')}, primary key (${quoted(KEY_COLS)}))${pg ? '' : ' without rowid'}`);
}

/** The statistics triggers over every grain of GRAINS (migration 022 creates them again for its added grains). */
export const STATS_TRIGGERS: CountingTriggers = {
  name: 'alarmStats',
  table: 'alarmReports',
  watched: WATCHED_COLS,
  fn: 'alarm_stats_apply',
  body: (pg, r, sign) => Object.keys(GRAINS).map((g) => upsertSql(pg, Number(g), r, sign)),
};

async function upSqlite(db: Kysely<any>) {
  await createTable(db, false);
  await createCountingTriggers(db, STATS_TRIGGERS);
  for (const s of rebuildSql(false)) await run(db, s);

  // The list's search over the device serial (alarm id, person and account are in the palette's
  // alarmReports_fts): a trigram table kept like the others (migration 002).
  await run(db, `create virtual table "alarmReports_serial_fts" using fts5(serial, tokenize = 'trigram', content = '', contentless_delete = 1)`);
  await run(db, `insert into "alarmReports_serial_fts" (rowid, serial) select rowid, "deviceSerial" from "alarmReports" where "deviceSerial" is not null`);
  await run(
    db,
    `create trigger "alarmReports_serial_fts_ai" after insert on "alarmReports" when new."deviceSerial" is not null begin
      insert or replace into "alarmReports_serial_fts" (rowid, serial) values (new.rowid, new."deviceSerial");
    end`,
  );
  await run(
    db,
    `create trigger "alarmReports_serial_fts_ad" after delete on "alarmReports" begin delete from "alarmReports_serial_fts" where rowid = old.rowid; end`,
  );
  await run(
    db,
    `create trigger "alarmReports_serial_fts_au" after update of "deviceSerial" on "alarmReports" begin
      delete from "alarmReports_serial_fts" where rowid = old.rowid;
      insert or replace into "alarmReports_serial_fts" (rowid, serial) select new.rowid, new."deviceSerial" where new."deviceSerial" is not null;
    end`,
  );
}

async function upPg(db: Kysely<any>) {
  await createTable(db, true);
  await createCountingTriggers(db, STATS_TRIGGERS);
  for (const s of rebuildSql(true)) await run(db, s);
  await run(db, `create index if not exists "alarmReports_serial_trgm" on "alarmReports" using gin ((lower("deviceSerial")) gin_trgm_ops)`);
}

export const m013: Migration = {
  async up(db) {
    if (isPg(db)) await upPg(db);
    else await upSqlite(db);
    // Deep pages by closed date read this index alone before fetching the page's rows.
    await db.schema.createIndex('alarmReports_closed_id_idx').on('alarmReports').columns(['alarmClosed', 'id']).execute();
    // … and so do those of one verification type (the default list shows Real Incidents).
    await db.schema.createIndex('alarmReports_vtype_closed_idx').on('alarmReports').columns(['verificationType', 'alarmClosed', 'id']).execute();
    for (const [name, keys] of SORT_INDEXES(isPg(db))) await run(db, `create index "${name}" on "alarmReports" (${keys})`);
  },
};
