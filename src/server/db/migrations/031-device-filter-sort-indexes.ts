// 031_device_filter_sort_indexes: the asset list filtered by status and sorted by Customer, and
// filtered by Assigned and sorted by IMEI descending, read from an index that holds the filter
// first and the sort after it (decisions "A filter and a sort many devices share have one index"
// and "PostgreSQL's serial index carries the search keys too", docs/decisions/devices-and-stock.md;
// docs/device-lists.md).
//
// The sort indexes of migrations 014 and 020 begin with the sort key, so a page filtered by a value
// half of the devices have either walked the sort index testing each device (PostgreSQL: a row read
// for every device passed; the last page of Allocated devices by Customer walked back through every
// device without a customer, 92,360 row reads at 200,000 devices) or read every match and sorted it
// (SQLite: Allocated by Customer and Assigned No by IMEI took 140–200 ms on every page). With the
// filter's column first, each page is a range of the index: page 1, a jump (from the nearer end)
// and Next / Previous read only the entries they answer or skip, index only.
//
// PostgreSQL: the serial index that carries the list's filter columns (migration 023) carries the
// IMEI and the phone number too (devices_serial_search_cover_idx replaces devices_serial_cover_idx),
// so a device search in serial order walks it without reading rows: the walk tests each device's
// serial and IMEI (and phone key) from the index entry. 'T400-', a prefix a tenth of the devices
// share, passed 20,000 devices before its first match, each a row read (122 ms at 200,000 devices
// under load); index only, 25 ms from a cold cache.
//
// Imports nothing outside db/migrations/: `isPg` is the same test as `isPostgres` of db/dialect.ts.
import { type Kysely, type Migration, PostgresAdapter, sql } from 'kysely';
import { nullsLastSql } from './lib/device-list-order.js';

const isPg = (db: Kysely<any>) => db.getExecutor().adapter instanceof PostgresAdapter;

/** [name, filter column, sort column, descending]: the keys of the list's sort (order.ts) after the filter. */
export const FILTER_SORT_INDEXES: [string, string, string, boolean][] = [
  ['devices_status_customer_asc_idx', 'status', 'customerSortName', false],
  ['devices_status_customer_desc_idx', 'status', 'customerSortName', true],
  ['devices_assigned_imei_desc_idx', 'isUserAssigned', 'imei', true],
];

/** PostgreSQL: what the serial index carries: the list's filter columns, then the search's. */
const SERIAL_COVER = `status, type, "isUserAssigned", "lastConfigurationDate", "customerId", imei, "phoneNumber"`;

export const m031: Migration = {
  async up(db) {
    for (const [name, filter, col, desc] of FILTER_SORT_INDEXES) {
      const dir = desc ? sql` desc` : sql``;
      await db.schema
        .createIndex(name)
        .on('devices')
        .expression(sql`${sql.ref(filter)}, ${nullsLastSql(col)}, ${sql.ref(col)}${dir}, "serialNumber"${dir}`)
        .execute();
    }
    if (isPg(db)) {
      await sql`create index devices_serial_search_cover_idx on devices ("serialNumber") include (${sql.raw(SERIAL_COVER)})`.execute(db);
      await sql`drop index if exists devices_serial_cover_idx`.execute(db);
    }
    // statistics for SQLite's planner on the new indexes (PostgreSQL's autovacuum analyses)
    else for (const [name] of FILTER_SORT_INDEXES) await sql.raw(`analyze "${name}"`).execute(db);
  },
  async down(db) {
    for (const [name] of FILTER_SORT_INDEXES) await db.schema.dropIndex(name).ifExists().execute();
    if (isPg(db)) {
      await sql`create index if not exists devices_serial_cover_idx on devices ("serialNumber") include (status, type, "isUserAssigned", "lastConfigurationDate", "customerId")`.execute(
        db,
      );
      await sql`drop index if exists devices_serial_search_cover_idx`.execute(db);
    }
  },
};
