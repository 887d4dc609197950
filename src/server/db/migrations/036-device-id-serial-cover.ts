// 036_device_id_serial_cover: on PostgreSQL, the devices' ids with their serial numbers in one
// index (`include`), so a list that finds its devices by id and sorts them by serial number reads
// the index alone (decision "A Fleet Health drill-down reads the serial numbers from an index",
// docs/decisions/devices-and-stock.md).
//
// A Fleet Health drill-down selects its category's devices by id from the fleet state (the unused
// devices: 8,983 of 1,000,000) and sorts them by serial number for the page. PostgreSQL looked each
// one up in devices_pkey and read its row from the table for the serial number: 64 of an unused
// page's 78 ms, most of it the table's pages. With the serial number in the index the look-ups are
// index only (p95 about 100 → 50 ms). SQLite reads the row by rowid from its id index, about 30 ms
// for the same page, and gets no index here.
//
// Imports nothing outside db/migrations/: `isPg` is the same test as `isPostgres` of db/dialect.ts.
import { type Kysely, type Migration, PostgresAdapter, sql } from 'kysely';

const isPg = (db: Kysely<any>) => db.getExecutor().adapter instanceof PostgresAdapter;

export const m036: Migration = {
  async up(db) {
    if (isPg(db)) await sql`create index "devices_id_serial_cover_idx" on "devices" ("id") include ("serialNumber")`.execute(db);
  },
  async down(db) {
    await db.schema.dropIndex('devices_id_serial_cover_idx').ifExists().execute();
  },
};
