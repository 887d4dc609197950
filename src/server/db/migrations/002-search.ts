// 002_search: indexes behind GET /api/search (the palette).
//
// Three tiers of match, each served by an index, never by a scan of a big table:
//   exact and prefix  → B-tree range scans on lower-cased keys (`key >= q AND key < q⁺`).
//                        SQLite: expression indexes on lower(col) (byte order, BINARY collation).
//                        PostgreSQL: expression indexes on lower(col) COLLATE "C" (byte order, so
//                        the same range predicate and ORDER BY both use the index).
//   substring (q ≥ 3)  → trigrams. SQLite: FTS5 contentless-delete tables with the trigram
//                        tokenizer, kept in sync by triggers (rowid = the base table's rowid).
//                        PostgreSQL: pg_trgm GIN indexes on the same lower(col) expressions.
// Phone numbers are matched on a key: digits only, international prefix (+ / 00), UK country
// code 44 and the trunk 0 removed, so '+44 7700 900123', '07700900123' and '447700900123' agree.
// The same rule is written three times (SQL here for each dialect, JS in modules/search/keys.ts);
// the integration test checks that they agree.
//
// Imports nothing outside db/migrations/: `isPg` is the same test as `isPostgres` of db/dialect.ts.
// The SQLite search tables and triggers are rebuilt by live code (modules/search/fts.ts), a twin of
// the SQLite part below.
import { type Kysely, type Migration, PostgresAdapter, sql } from 'kysely';

const isPg = (db: Kysely<any>) => db.getExecutor().adapter instanceof PostgresAdapter;

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

const PG_PHONE_KEY_FN = `
create or replace function search_phone_key(p text) returns text
language sql immutable parallel safe returns null on null input as $fn$
  select case when k like '0%' then substr(k, 2) else k end from (
    select case when d like '44%' and (intl or length(d) >= 12) then substr(d, 3) else d end as k from (
      select case when d0 like '00%' then substr(d0, 3) else d0 end as d,
             (d0 like '00%' or ltrim(p) like '+%') as intl from (
        select translate(p, ${"'" + PHONE_JUNK.join('') + "'"}, '') as d0) a) b) c
$fn$`;

type SearchBase = 'devices' | 'customers' | 'persons' | 'alarmReports';

/** FTS5 tables: name → base table, columns (fts column → SQL over the row alias `r`). */
const FTS: { table: string; base: SearchBase; cols: Record<string, (r: string) => string> }[] = [
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

/** B-tree indexes for exact/prefix lookups: [name, table, SQLite key list, PostgreSQL key list]. */
const BTREE: [string, string, string, string][] = [
  ['search_devices_serial', 'devices', `lower("serialNumber")`, `lower("serialNumber") collate "C"`],
  // SQLite reuses devices_imei_idx (IMEIs are digits; letters, if any, are still found by FTS).
  ['search_devices_imei', 'devices', '', `lower("imei") collate "C"`],
  ['search_devices_phone', 'devices', '', `search_phone_key("phoneNumber") collate "C"`],
  ['search_customers_name', 'customers', `lower("name")`, `lower("name") collate "C"`],
  ['search_customers_portal', 'customers', `lower("portalId")`, `lower("portalId") collate "C"`],
  ['search_persons_fullname', 'persons', `lower("firstName" || ' ' || "lastName")`, `lower("firstName" || ' ' || "lastName") collate "C"`],
  ['search_persons_lastname', 'persons', `lower("lastName")`, `lower("lastName") collate "C"`],
  // SQLite reuses persons_email_uq (e-mails are stored lower-case).
  ['search_persons_email', 'persons', '', `"email" collate "C"`],
  ['search_alarmReports_alarmId', 'alarmReports', `lower("alarmId")`, `lower("alarmId") collate "C"`],
  ['search_alarmReports_person', 'alarmReports', `lower("personFullName"), "alarmClosed" desc`, `lower("personFullName") collate "C", "alarmClosed" desc`],
  [
    'search_alarmReports_account',
    'alarmReports',
    `lower("customerAccountFullName"), "alarmClosed" desc`,
    `lower("customerAccountFullName") collate "C", "alarmClosed" desc`,
  ],
];

/** PostgreSQL trigram GIN indexes: [name, table, expression]. */
const TRGM: [string, string, string][] = [
  ['search_devices_serial_trgm', 'devices', `lower("serialNumber")`],
  ['search_devices_imei_trgm', 'devices', `lower("imei")`],
  ['search_devices_phone_trgm', 'devices', `search_phone_key("phoneNumber")`],
  ['search_customers_name_trgm', 'customers', `lower("name")`],
  ['search_customers_portal_trgm', 'customers', `lower("portalId")`],
  ['search_persons_name_trgm', 'persons', `lower("firstName" || ' ' || "lastName")`],
  ['search_persons_email_trgm', 'persons', `"email"`],
  ['search_alarmReports_alarmId_trgm', 'alarmReports', `lower("alarmId")`],
  ['search_alarmReports_person_trgm', 'alarmReports', `lower("personFullName")`],
  ['search_alarmReports_account_trgm', 'alarmReports', `lower("customerAccountFullName")`],
];

async function upSqlite(db: Kysely<any>) {
  for (const [name, table, keys] of BTREE) if (keys) await sql.raw(`create index if not exists "${name}" on "${table}" (${keys})`).execute(db);

  for (const f of FTS) {
    const names = Object.keys(f.cols);
    const values = (r: string) =>
      Object.values(f.cols)
        .map((fn) => fn(r))
        .join(', ');
    await sql.raw(`create virtual table "${f.table}" using fts5(${names.join(', ')}, tokenize = 'trigram', content = '', contentless_delete = 1)`).execute(db);
    // Rows that already exist (the migration also runs on populated databases).
    await sql.raw(`insert into "${f.table}" (rowid, ${names.join(', ')}) select r.rowid, ${values('r')} from "${f.base}" r`).execute(db);
    // INSERT OR REPLACE: a rowid reused after an unrecorded delete (REPLACE without recursive
    // triggers) must not make the base insert fail.
    await sql
      .raw(
        `create trigger "${f.table}_ai" after insert on "${f.base}" begin
      insert or replace into "${f.table}" (rowid, ${names.join(', ')}) values (new.rowid, ${values('new')});
    end`,
      )
      .execute(db);
    await sql
      .raw(
        `create trigger "${f.table}_ad" after delete on "${f.base}" begin
      delete from "${f.table}" where rowid = old.rowid;
    end`,
      )
      .execute(db);
    await sql
      .raw(
        `create trigger "${f.table}_au" after update of ${WATCHED[f.base].map((c) => `"${c}"`).join(', ')} on "${f.base}" begin
      delete from "${f.table}" where rowid = old.rowid;
      insert or replace into "${f.table}" (rowid, ${names.join(', ')}) values (new.rowid, ${values('new')});
    end`,
      )
      .execute(db);
  }
}

async function upPg(db: Kysely<any>) {
  await sql.raw('create extension if not exists pg_trgm').execute(db);
  await sql.raw(PG_PHONE_KEY_FN).execute(db);
  for (const [name, table, , keys] of BTREE) await sql.raw(`create index if not exists "${name}" on "${table}" (${keys})`).execute(db);
  for (const [name, table, expr] of TRGM) await sql.raw(`create index if not exists "${name}" on "${table}" using gin ((${expr}) gin_trgm_ops)`).execute(db);
}

export const m002: Migration = {
  async up(db) {
    if (isPg(db)) await upPg(db);
    else await upSqlite(db);
  },
  async down(db) {
    if (isPg(db)) {
      for (const [name] of TRGM) await sql.raw(`drop index if exists "${name}"`).execute(db);
      for (const [name] of BTREE) await sql.raw(`drop index if exists "${name}"`).execute(db);
      await sql.raw('drop function if exists search_phone_key(text)').execute(db);
    } else {
      for (const f of FTS) {
        for (const t of ['ai', 'ad', 'au']) await sql.raw(`drop trigger if exists "${f.table}_${t}"`).execute(db);
        await sql.raw(`drop table if exists "${f.table}"`).execute(db);
      }
      for (const [name, , keys] of BTREE) if (keys) await sql.raw(`drop index if exists "${name}"`).execute(db);
    }
  },
};
