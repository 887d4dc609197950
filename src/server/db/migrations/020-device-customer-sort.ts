import { type Kysely, type Migration, PostgresAdapter, sql } from 'kysely';
import { nameRankSql, nullsLastSql } from './lib/device-list-order.js';

const isPostgres = (db: Kysely<any>) => db.getExecutor().adapter instanceof PostgresAdapter;

/**
 * The asset list sorted by Customer from an index (docs/device-lists.md; decisions "The Customer sort reads a kept
 * copy of the customer's name" and "One rule sorts codes by name", docs/decisions/devices-and-stock.md).
 *
 * - devices.customerSortName: the name of the device's customer (null without one), the Customer
 *   sort's key. Kept by triggers in the same transaction as every write that could change it: a
 *   device inserted, or its customer changed (allocation, release, a status that leaves the
 *   account, imports, the seed), and a customer renamed; so every path keeps it equal to the
 *   customer's name. Foreign keys keep a device from naming a customer that does not exist.
 *   The code never writes it (a value written is replaced by the trigger).
 * - devices_customer_sort_{asc,desc}_idx: (missing last, customerSortName, serialNumber), one
 *   index per direction as for IMEI or phone (decision "Sorts with missing values last have one index per
 *   direction"), so a page at any depth is read from
 *   the index instead of joining and sorting every device.
 * - devices_type_name_idx built again: the Type sort's ranks now come from the names the list
 *   shows ('badge (42)'), the one nameRanks rule (shared/name-order.ts), which changed its CASE.
 */
export const CUSTOMER_SORT_INDEXES = { asc: 'devices_customer_sort_asc_idx', desc: 'devices_customer_sort_desc_idx' } as const;

const KEY = '"customerSortName"';
const nameOf = (row: 'new') => `(select c.name from customers c where c.id = ${row}."customerId")`;

async function sqliteTriggers(db: Kysely<any>) {
  // A device inserted or given another customer: its key from the customer row (is not: null-safe).
  const fix = `update devices set ${KEY} = ${nameOf('new')} where rowid = new.rowid;`;
  await sql.raw(`create trigger devices_customer_sort_insert after insert on devices when new.${KEY} is not ${nameOf('new')} begin ${fix} end`).execute(db);
  await sql
    .raw(
      `create trigger devices_customer_sort_update after update of "customerId", ${KEY} on devices
       when new.${KEY} is not ${nameOf('new')} begin ${fix} end`,
    )
    .execute(db);
  // A customer renamed: every device of theirs (devices_customer_idx).
  await sql
    .raw(
      `create trigger customers_name_to_devices after update of name on customers when old.name is not new.name begin
         update devices set ${KEY} = new.name where "customerId" = new.id;
       end`,
    )
    .execute(db);
}

/**
 * PostgreSQL (READ COMMITTED): the device's trigger reads its customer's name FOR SHARE, so a
 * rename of that customer in another transaction either commits first (and this reads the new
 * name) or waits for this one (and its update of the customer's devices then sees this device).
 * A row whose customer and key are unchanged is left alone (no lock).
 */
async function postgresTriggers(db: Kysely<any>) {
  await sql
    .raw(
      `create function device_customer_sort_name() returns trigger language plpgsql as $$
       begin
         if tg_op = 'UPDATE' and new."customerId" is not distinct from old."customerId" and new.${KEY} is not distinct from old.${KEY} then
           return new;
         end if;
         -- no customer (or none found): null
         select c.name into new.${KEY} from customers c where c.id = new."customerId" for share;
         return new;
       end $$`,
    )
    .execute(db);
  // Stock devices (no customer, no key) skip the function.
  await sql
    .raw(
      `create trigger devices_customer_sort before insert or update of "customerId", ${KEY} on devices
       for each row when (new."customerId" is not null or new.${KEY} is not null) execute function device_customer_sort_name()`,
    )
    .execute(db);
  await sql
    .raw(
      `create function customer_name_to_devices() returns trigger language plpgsql as $$
       begin
         update devices set ${KEY} = new.name where "customerId" = new.id and ${KEY} is distinct from new.name;
         return null;
       end $$`,
    )
    .execute(db);
  await sql
    .raw(
      `create trigger customers_name_to_devices after update of name on customers
       for each row when (old.name is distinct from new.name) execute function customer_name_to_devices()`,
    )
    .execute(db);
}

export const m020: Migration = {
  async up(db) {
    const pg = isPostgres(db);
    await db.schema.alterTable('devices').addColumn('customerSortName', 'text').execute();
    if (pg) {
      // the device counts do not change: their statement trigger need not read every allocated device twice
      await sql`alter table devices disable trigger devices_counts_update`.execute(db);
      await sql`update devices d set "customerSortName" = c.name from customers c where c.id = d."customerId"`.execute(db);
      await sql`alter table devices enable trigger devices_counts_update`.execute(db);
      await postgresTriggers(db);
    } else {
      await sql`update devices set "customerSortName" = (select c.name from customers c where c.id = devices."customerId") where "customerId" is not null`.execute(
        db,
      );
      await sqliteTriggers(db);
    }
    await db.schema
      .createIndex(CUSTOMER_SORT_INDEXES.asc)
      .on('devices')
      .expression(sql`${nullsLastSql('customerSortName')}, "customerSortName", "serialNumber"`)
      .execute();
    await db.schema
      .createIndex(CUSTOMER_SORT_INDEXES.desc)
      .on('devices')
      .expression(sql`${nullsLastSql('customerSortName')}, "customerSortName" desc, "serialNumber" desc`)
      .execute();
    await db.schema.dropIndex('devices_type_name_idx').ifExists().execute();
    await db.schema
      .createIndex('devices_type_name_idx')
      .on('devices')
      .expression(sql`${nameRankSql('type')}, "serialNumber"`)
      .execute();
    // statistics for the planner on the new indexes (SQLite; PostgreSQL's autovacuum analyses)
    if (!pg) for (const name of [...Object.values(CUSTOMER_SORT_INDEXES), 'devices_type_name_idx']) await sql.raw(`analyze "${name}"`).execute(db);
  },
  async down(db) {
    if (isPostgres(db)) {
      await sql`drop trigger if exists devices_customer_sort on devices`.execute(db);
      await sql`drop trigger if exists customers_name_to_devices on customers`.execute(db);
      await sql`drop function if exists device_customer_sort_name()`.execute(db);
      await sql`drop function if exists customer_name_to_devices()`.execute(db);
    } else
      for (const name of ['devices_customer_sort_insert', 'devices_customer_sort_update', 'customers_name_to_devices'])
        await sql.raw(`drop trigger if exists ${name}`).execute(db);
    for (const name of Object.values(CUSTOMER_SORT_INDEXES)) await db.schema.dropIndex(name).ifExists().execute();
    await db.schema.alterTable('devices').dropColumn('customerSortName').execute();
  },
};
