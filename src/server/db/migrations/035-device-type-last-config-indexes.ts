// 035_device_type_last_config_indexes: the asset list filtered by device type and sorted by Last
// Config, read from an index that holds the type first and the sort after it (decisions "A filter
// and a sort many devices share have one index" and "Pages the benchmark found slow at 1,000,000
// devices get an index of their own", docs/decisions/devices-and-stock.md; docs/device-lists.md).
//
// A type is a tenth of the devices (100,000 at 1,000,000). SQLite read every device of the type from
// devices_filter_idx and sorted them on every page (CPU 34 ms for page 1 and 61 ms for page 50 by a
// jump under load). With the type first each page is a range of one index, index only: page 1, a
// jump (from the nearer end) and Next / Previous read only the entries they answer or skip. One
// index per direction, as the Last Config sort indexes of migration 014: missing dates last both ways.
//
// Imports nothing outside db/migrations/: `isPg` is the same test as `isPostgres` of db/dialect.ts.
import { type Kysely, type Migration, PostgresAdapter, sql } from 'kysely';
import { nullsLastSql } from './lib/device-list-order.js';

const isPg = (db: Kysely<any>) => db.getExecutor().adapter instanceof PostgresAdapter;

/** [name, descending]: type, then the Last Config sort's keys (order.ts) in that direction. */
const INDEXES: [string, boolean][] = [
  ['devices_type_last_config_asc_idx', false],
  ['devices_type_last_config_desc_idx', true],
];

export const m035: Migration = {
  async up(db) {
    for (const [name, desc] of INDEXES) {
      const dir = desc ? sql` desc` : sql``;
      await db.schema
        .createIndex(name)
        .on('devices')
        .expression(sql`"type", ${nullsLastSql('lastConfigurationDate')}, "lastConfigurationDate"${dir}, "serialNumber"${dir}`)
        .execute();
    }
    // statistics for SQLite's planner on the new indexes (PostgreSQL's autovacuum analyses)
    if (!isPg(db)) for (const [name] of INDEXES) await sql.raw(`analyze "${name}"`).execute(db);
  },
  async down(db) {
    for (const [name] of INDEXES) await db.schema.dropIndex(name).ifExists().execute();
  },
};
