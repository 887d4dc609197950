// 034_device_filter_first_indexes: two asset list pages that read an index beginning with the
// filter, so a page is a range of it (decision "A filter and a sort many devices share have one
// index", docs/decisions/devices-and-stock.md; docs/device-lists.md).
//
// - devices_status_last_config_idx (status, lastConfigurationDate, serialNumber): statuses and a
//   last-configuration band together. The band's index alone (lastConfigurationDate, serialNumber)
//   read every device configured within 30 days (66,000 at 1,000,000 devices) and each one's row
//   for its status: about a second on SQLite for 7,874 matches. With the status first each status
//   is one range of the band, index only (the serial numbers are in it).
// - devices_never_configured_status_idx ((status name rank), serialNumber) where
//   lastConfigurationDate is null: "never configured" sorted by Status. SQLite read all 120,000
//   never-configured devices through the Last Config sort index and sorted them on every page
//   (1–2 s at 1,000,000 devices); this partial index holds them in the sort's order, so page 1,
//   a jump (from the nearer end) and Next / Previous read only the entries they answer or skip.
//
// Imports nothing outside db/migrations/: `isPg` is the same test as `isPostgres` of db/dialect.ts.
import { type Kysely, type Migration, PostgresAdapter, sql } from 'kysely';
import { nameRankSql } from './lib/device-list-order.js';

const isPg = (db: Kysely<any>) => db.getExecutor().adapter instanceof PostgresAdapter;

const NAMES = ['devices_status_last_config_idx', 'devices_never_configured_status_idx'];

export const m034: Migration = {
  async up(db) {
    await db.schema.createIndex('devices_status_last_config_idx').on('devices').columns(['status', 'lastConfigurationDate', 'serialNumber']).execute();
    await db.schema
      .createIndex('devices_never_configured_status_idx')
      .on('devices')
      .expression(sql`${nameRankSql('status')}, "serialNumber"`)
      .where(sql.ref('lastConfigurationDate'), 'is', null)
      .execute();
    // statistics for SQLite's planner on the new indexes (PostgreSQL's autovacuum analyses)
    if (!isPg(db)) for (const name of NAMES) await sql.raw(`analyze "${name}"`).execute(db);
  },
  async down(db) {
    for (const name of NAMES) await db.schema.dropIndex(name).ifExists().execute();
  },
};
