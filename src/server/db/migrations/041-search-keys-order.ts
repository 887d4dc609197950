// 041_search_keys_order: PostgreSQL only. The search keys tables of migration 040 (deviceSearchKeys,
// customerSearchKeys) kept in their fill order: a search's count rechecks each match on the
// table's heap pages, so the pages its matches lie on are its cost. A type's prefix ('T400-',
// 100,000 of 1,000,000 devices) lay on 14,981 of the table's 15,000 pages when the devices had
// been created with their types mixed, and on about 1,300 in serial order (its count 53–168 →
// 25–31 ms). Decision "The search keys tables are kept in serial (name) order",
// docs/decisions/devices-and-stock.md.
//
// - Each table gets a btree index in its fill order (deviceSearchKeys: "serialNumber", id;
//   customerSearchKeys: name, id) and is rewritten in that order once (CLUSTER, which rebuilds its
//   trigram indexes too). CLUSTER remembers the index, so `CLUSTER "deviceSearchKeys"` orders it
//   again later.
// - The statement triggers add a statement's new rows in that order (a stock import's serial
//   numbers together), where they went in the order of the statement's rows.
//
// Imports nothing outside db/migrations/: `isPg` is the same test as `isPostgres` of db/dialect.ts.
import { type Kysely, type Migration, PostgresAdapter, sql } from 'kysely';

const isPg = (db: Kysely<any>) => db.getExecutor().adapter instanceof PostgresAdapter;
const run = (db: Kysely<any>, text: string) => sql.raw(text).execute(db);

type Keys = {
  table: string;
  prefix: string;
  /** The kept columns (after id) and the base row's expression of each, `r` the row. */
  columns: [string, (r: string) => string][];
  /** The base columns the keys are computed from. */
  sources: string[];
  /** The kept table's columns in its fill order. */
  order: string[];
};

// The same tables, keys and triggers as migration 040.
const KEPT: Keys[] = [
  {
    table: 'deviceSearchKeys',
    prefix: 'device_search_keys',
    columns: [
      ['serialNumber', (r) => `${r}."serialNumber"`],
      ['serial', (r) => `lower(${r}."serialNumber")`],
      ['imei', (r) => `lower(${r}.imei)`],
      ['phone', (r) => `search_phone_key(${r}."phoneNumber")`],
    ],
    sources: ['serialNumber', 'imei', 'phoneNumber'],
    order: ['serialNumber', 'id'],
  },
  {
    table: 'customerSearchKeys',
    prefix: 'customer_search_keys',
    columns: [
      ['name', (r) => `lower(${r}.name)`],
      ['reference', (r) => `lower(${r}."portalId")`],
    ],
    sources: ['name', 'portalId'],
    order: ['name', 'id'],
  },
];

/** The statement trigger's function of migration 040; `ordered` adds new rows in the table's fill order. */
async function statementFunction(db: Kysely<any>, k: Keys, ordered: boolean) {
  const cols = k.columns.map(([c]) => `"${c}"`).join(', ');
  const values = (r: string) => k.columns.map(([, e]) => e(r)).join(', ');
  const changed = k.sources.map((s) => `o."${s}" is distinct from n."${s}"`).join(' or ');
  // the fill order over the kept values of the new rows, by position in the select list
  const orderBy = ordered ? ` order by ${k.order.map((c) => (c === 'id' ? 1 : k.columns.findIndex(([x]) => x === c) + 2)).join(', ')}` : '';
  await run(
    db,
    `create or replace function ${k.prefix}_statement() returns trigger language plpgsql as $$
     begin
       if tg_op = 'INSERT' then
         insert into "${k.table}" (id, ${cols}) select n.id, ${values('n')} from new_rows n${orderBy};
       elsif tg_op = 'DELETE' then
         delete from "${k.table}" s using old_rows o where s.id = o.id;
       else
         delete from "${k.table}" s using old_rows o where s.id = o.id and not exists (select 1 from new_rows n where n.id = o.id);
         update "${k.table}" s set ${k.columns.map(([c, e]) => `"${c}" = ${e('n')}`).join(', ')}
           from new_rows n join old_rows o on o.id = n.id where s.id = n.id and (${changed});
         insert into "${k.table}" (id, ${cols}) select n.id, ${values('n')} from new_rows n where not exists (select 1 from old_rows o where o.id = n.id)${orderBy};
       end if;
       return null;
     end $$`,
  );
}

export const m041: Migration = {
  async up(db) {
    if (!isPg(db)) return;
    for (const k of KEPT) {
      await run(db, `create index "${k.table}_fill_order" on "${k.table}" (${k.order.map((c) => `"${c}"`).join(', ')})`);
      await run(db, `cluster "${k.table}" using "${k.table}_fill_order"`);
      await run(db, `analyze "${k.table}"`);
      await statementFunction(db, k, true);
    }
  },
  async down(db) {
    if (!isPg(db)) return;
    for (const k of KEPT) {
      await statementFunction(db, k, false);
      await run(db, `drop index if exists "${k.table}_fill_order"`);
    }
  },
};
