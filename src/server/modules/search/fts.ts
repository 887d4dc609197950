// The SQLite search tables behind GET /api/search (the palette) and the list searches: FTS5
// contentless-delete tables with the trigram tokenizer, kept in sync
// by triggers (rowid = the base table's rowid). Migrations 002 and 039 created them; this is the live
// twin of their SQLite part, used to build them again from the base tables (maintenance.ts). A change of
// the tables or their triggers needs a new migration as well as a change here.
//
// Phone numbers are indexed by their search key (keys.ts phoneKey, written here in SQL): digits
// only, international prefix (+ / 00), UK country code 44 and the trunk 0 removed.
import { sql } from 'kysely';
import type { DB } from '../../db/index.js';

/** Characters removed from phone numbers before the prefix rules (must match keys.ts). */
export const PHONE_JUNK = [' ', '+', '-', '(', ')', '.', '/'];

/**
 * SQLite expression computing the phone search key of `expr` (any SQL expression, e.g.
 * `new."phoneNumber"`). Written as nested sub-selects so `expr` is evaluated once; valid inside
 * trigger bodies (no CTEs there).
 */
export function sqlitePhoneKey(expr: string) {
  let digits = 'r';
  for (const ch of PHONE_JUNK) digits = `replace(${digits}, '${ch}', '')`;
  return `(SELECT CASE WHEN substr(k, 1, 1) = '0' THEN substr(k, 2) ELSE k END FROM (
    SELECT CASE WHEN substr(d, 1, 2) = '44' AND (intl OR length(d) >= 12) THEN substr(d, 3) ELSE d END AS k FROM (
      SELECT CASE WHEN substr(d0, 1, 2) = '00' THEN substr(d0, 3) ELSE d0 END AS d,
             (substr(d0, 1, 2) = '00' OR substr(ltrim(r), 1, 1) = '+') AS intl FROM (
        SELECT ${digits} AS d0, r FROM (SELECT ${expr} AS r)))))`;
}

type SearchBase = 'devices' | 'customers' | 'persons' | 'alarmReports';

/**
 * FTS5 tables: name → base table, columns (fts column → SQL over the row alias `r`), and the base
 * columns whose change refreshes the row when not the base table's WATCHED.
 */
const FTS: { table: string; base: SearchBase; cols: Record<string, (r: string) => string>; watched?: string[] }[] = [
  {
    table: 'devices_fts',
    base: 'devices',
    cols: {
      serial: (r) => `${r}."serialNumber"`,
      imei: (r) => `${r}."imei"`,
      phone: (r) => sqlitePhoneKey(`${r}."phoneNumber"`),
    },
  },
  {
    table: 'customers_fts',
    base: 'customers',
    cols: { name: (r) => `${r}."name"`, reference: (r) => `${r}."portalId"` },
  },
  {
    table: 'persons_fts',
    base: 'persons',
    cols: { name: (r) => `${r}."firstName" || ' ' || ${r}."lastName"`, email: (r) => `${r}."email"` },
  },
  // the person list's search text (migration 039)
  {
    table: 'persons_list_fts',
    base: 'persons',
    cols: { text: (r) => `${r}."searchText"` },
    watched: ['searchText'],
  },
  {
    table: 'alarmReports_fts',
    base: 'alarmReports',
    cols: {
      alarmId: (r) => `${r}."alarmId"`,
      person: (r) => `${r}."personFullName"`,
      account: (r) => `${r}."customerAccountFullName"`,
    },
  },
];
/** Base columns whose change must refresh the FTS row. */
const WATCHED: Record<SearchBase, string[]> = {
  devices: ['serialNumber', 'imei', 'phoneNumber'],
  customers: ['name', 'portalId'],
  persons: ['firstName', 'lastName', 'email'],
  alarmReports: ['alarmId', 'personFullName', 'customerAccountFullName'],
};

/** The FTS tables of the palette and the list searches. */
export const SEARCH_FTS_TABLES = FTS.map((f) => f.table);

/**
 * Drops the search tables and their triggers and creates them again filled from the base tables,
 * as migration 002 created them (SQLite; the caller checks the dialect). The B-tree indexes of the
 * search are left as they are.
 */
export async function rebuildSqliteFts(db: DB) {
  const run = (text: string) => sql.raw(text).execute(db);
  for (const f of FTS) {
    for (const t of ['ai', 'ad', 'au']) await run(`drop trigger if exists "${f.table}_${t}"`);
    await run(`drop table if exists "${f.table}"`);
  }
  for (const f of FTS) {
    const names = Object.keys(f.cols);
    const values = (r: string) =>
      Object.values(f.cols)
        .map((fn) => fn(r))
        .join(', ');
    await run(`create virtual table "${f.table}" using fts5(${names.join(', ')}, tokenize = 'trigram', content = '', contentless_delete = 1)`);
    await run(`insert into "${f.table}" (rowid, ${names.join(', ')}) select r.rowid, ${values('r')} from "${f.base}" r`);
    // INSERT OR REPLACE: a rowid reused after an unrecorded delete (REPLACE without recursive
    // triggers) must not make the base insert fail.
    await run(
      `create trigger "${f.table}_ai" after insert on "${f.base}" begin
      insert or replace into "${f.table}" (rowid, ${names.join(', ')}) values (new.rowid, ${values('new')});
    end`,
    );
    await run(
      `create trigger "${f.table}_ad" after delete on "${f.base}" begin
      delete from "${f.table}" where rowid = old.rowid;
    end`,
    );
    await run(
      `create trigger "${f.table}_au" after update of ${(f.watched ?? WATCHED[f.base]).map((c) => `"${c}"`).join(', ')} on "${f.base}" begin
      delete from "${f.table}" where rowid = old.rowid;
      insert or replace into "${f.table}" (rowid, ${names.join(', ')}) values (new.rowid, ${values('new')});
    end`,
    );
  }
}
