import { type Kysely, type Migration, PostgresAdapter, sql } from 'kysely';

const isPostgres = (db: Kysely<any>) => db.getExecutor().adapter instanceof PostgresAdapter;

/**
 * PostgreSQL: the serial number index carries the columns the asset list filters on
 * (docs/device-lists.md; decision "On PostgreSQL the serial index carries the list's filter columns",
 * docs/decisions/devices-and-stock.md). A filtered page in serial order walks the serial index and
 * keeps the rows that match; through devices_serial_uq each candidate was a heap read (two
 * statuses at page 100: 8,283 rows, 113 ms; the 24-hour Last Config band at page 3: 14,851 rows,
 * 448 ms from a cold cache). With the filter columns in the index the walk is an index-only scan
 * (8.8 and 15 ms). SQLite needs nothing: its planner already reads those pages from
 * devices_filter_idx and the band indexes.
 */
export const m023: Migration = {
  async up(db: Kysely<any>) {
    if (!isPostgres(db)) return;
    await sql`create index if not exists devices_serial_cover_idx on devices ("serialNumber") include (status, type, "isUserAssigned", "lastConfigurationDate", "customerId")`.execute(
      db,
    );
  },
  async down(db: Kysely<any>) {
    if (!isPostgres(db)) return;
    await sql`drop index if exists devices_serial_cover_idx`.execute(db);
  },
};
