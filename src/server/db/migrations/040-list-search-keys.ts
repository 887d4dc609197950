// 040_list_search_keys: PostgreSQL only. Narrow tables of the device and customer list searches'
// keys, so that a search with no other filter over every tenant is counted without rechecking the
// matches on the wide tables' heap pages (decisions "A device search with no other filter counts
// its matches in the search keys table on PostgreSQL", docs/decisions/devices-and-stock.md, and
// "A customer search with no other filter counts its matches in the search keys table on
// PostgreSQL", docs/decisions/customers.md). SQLite counts those searches from its trigram tables
// (devices_fts, customers_fts; migration 002) and needs nothing here.
//
// - deviceSearchKeys (id, serialNumber, serial, imei, phone): one row per device, its serial number
//   as is (the bounds of the matches in the list's serial order) and the three keys the list's
//   search tests as the list computes them (lower("serialNumber"), lower(imei),
//   search_phone_key("phoneNumber")), each of those with a pg_trgm GIN index. Filled in serial
//   order, so that a search matching a block of serial numbers (a type's prefix) reads few, dense
//   pages; rows added later go at the end.
// - customerSearchKeys (id, name, reference): one row per customer, lower(name) and
//   lower("portalId"), each with a pg_trgm GIN index. Filled in name order.
// - Both kept in the writing transaction by statement triggers over the transition tables (the
//   house style of migrations 014, 032 and 038): insert adds the new rows' keys, delete removes
//   the old rows', update rewrites the keys of the rows whose keys changed (and follows an id
//   change), truncate empties the table.
//
// Imports nothing outside db/migrations/: `isPg` is the same test as `isPostgres` of db/dialect.ts.
import { type Kysely, type Migration, PostgresAdapter, sql } from 'kysely';

const isPg = (db: Kysely<any>) => db.getExecutor().adapter instanceof PostgresAdapter;
const run = (db: Kysely<any>, text: string) => sql.raw(text).execute(db);

type Keys = {
  /** The kept table. */
  table: string;
  /** The base table. */
  base: string;
  /** The trigger function's and triggers' name prefix. */
  prefix: string;
  /** The kept columns (after id) and the base row's expression of each, `r` the row. */
  columns: [string, (r: string) => string][];
  /** Kept columns without a trigram index. */
  unindexed?: string[];
  /** The base columns the keys are computed from. */
  sources: string[];
  /** The base order the table is filled in. */
  fillOrder: string;
};

const KEPT: Keys[] = [
  {
    table: 'deviceSearchKeys',
    base: 'devices',
    prefix: 'device_search_keys',
    columns: [
      ['serialNumber', (r) => `${r}."serialNumber"`],
      ['serial', (r) => `lower(${r}."serialNumber")`],
      ['imei', (r) => `lower(${r}.imei)`],
      ['phone', (r) => `search_phone_key(${r}."phoneNumber")`],
    ],
    unindexed: ['serialNumber'],
    sources: ['serialNumber', 'imei', 'phoneNumber'],
    fillOrder: `"serialNumber"`,
  },
  {
    table: 'customerSearchKeys',
    base: 'customers',
    prefix: 'customer_search_keys',
    columns: [
      ['name', (r) => `lower(${r}.name)`],
      ['reference', (r) => `lower(${r}."portalId")`],
    ],
    sources: ['name', 'portalId'],
    fillOrder: `name, id`,
  },
];

async function createKept(db: Kysely<any>, k: Keys) {
  const cols = k.columns.map(([c]) => `"${c}"`).join(', ');
  const values = (r: string) => k.columns.map(([, e]) => e(r)).join(', ');
  await run(db, `create table "${k.table}" (id text primary key, ${k.columns.map(([c]) => `"${c}" text`).join(', ')})`);
  await run(db, `insert into "${k.table}" (id, ${cols}) select id, ${values(k.base)} from ${k.base} order by ${k.fillOrder}`);
  for (const [c] of k.columns.filter(([c]) => !k.unindexed?.includes(c)))
    await run(db, `create index "${k.table}_${c}_trgm" on "${k.table}" using gin ("${c}" gin_trgm_ops)`);
  const changed = k.sources.map((s) => `o."${s}" is distinct from n."${s}"`).join(' or ');
  await run(
    db,
    `create function ${k.prefix}_statement() returns trigger language plpgsql as $$
     begin
       if tg_op = 'INSERT' then
         insert into "${k.table}" (id, ${cols}) select n.id, ${values('n')} from new_rows n;
       elsif tg_op = 'DELETE' then
         delete from "${k.table}" s using old_rows o where s.id = o.id;
       else
         delete from "${k.table}" s using old_rows o where s.id = o.id and not exists (select 1 from new_rows n where n.id = o.id);
         update "${k.table}" s set ${k.columns.map(([c, e]) => `"${c}" = ${e('n')}`).join(', ')}
           from new_rows n join old_rows o on o.id = n.id where s.id = n.id and (${changed});
         insert into "${k.table}" (id, ${cols}) select n.id, ${values('n')} from new_rows n where not exists (select 1 from old_rows o where o.id = n.id);
       end if;
       return null;
     end $$`,
  );
  await run(
    db,
    `create trigger ${k.prefix}_insert after insert on ${k.base} referencing new table as new_rows for each statement execute function ${k.prefix}_statement()`,
  );
  await run(
    db,
    `create trigger ${k.prefix}_delete after delete on ${k.base} referencing old table as old_rows for each statement execute function ${k.prefix}_statement()`,
  );
  await run(
    db,
    `create trigger ${k.prefix}_update after update on ${k.base} referencing old table as old_rows new table as new_rows for each statement execute function ${k.prefix}_statement()`,
  );
  await run(db, `create function ${k.prefix}_truncate() returns trigger language plpgsql as $$ begin truncate "${k.table}"; return null; end $$`);
  await run(db, `create trigger ${k.prefix}_truncate after truncate on ${k.base} for each statement execute function ${k.prefix}_truncate()`);
  await run(db, `analyze "${k.table}"`);
}

async function dropKept(db: Kysely<any>, k: Keys) {
  for (const t of ['insert', 'delete', 'update', 'truncate']) await run(db, `drop trigger if exists ${k.prefix}_${t} on ${k.base}`);
  await run(db, `drop function if exists ${k.prefix}_statement()`);
  await run(db, `drop function if exists ${k.prefix}_truncate()`);
  await run(db, `drop table if exists "${k.table}"`);
}

export const m040: Migration = {
  async up(db) {
    if (!isPg(db)) return;
    for (const k of KEPT) await createKept(db, k);
  },
  async down(db) {
    if (!isPg(db)) return;
    for (const k of KEPT) await dropKept(db, k);
  },
};
