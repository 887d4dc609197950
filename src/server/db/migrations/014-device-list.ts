import { type Kysely, type Migration, PostgresAdapter, sql } from 'kysely';
import { nameRankSql, nullsLastSql } from './lib/device-list-order.js';

const isPostgres = (db: Kysely<any>) => db.getExecutor().adapter instanceof PostgresAdapter;

/**
 * Asset list at 1,000,000 devices: exact counts without reading most of the table, and pages
 * from indexes for every filter and sort (docs/device-lists.md; decisions "Device counts are kept by triggers, not
 * counted" to "Device Type and Status sort by the name shown", docs/decisions/devices-and-stock.md).
 *
 * - deviceCounts: how many devices there are per (type, status, isUserAssigned, configured) —
 *   configured = lastConfigurationDate is set. At most types × statuses × 4 rows. Kept by triggers
 *   in the same transaction as every insert, delete and change of those columns (imports, the
 *   seed, bulk changes, ingestion's configuration reports), so every path keeps it exact.
 *   The list's totalCount for any combination of type, status, assigned and "never configured"
 *   (and generalTotalCount) is a sum over it; the last-config bands are counted from the index.
 * - devices_filter_idx (type, status, isUserAssigned, lastConfigurationDate, serialNumber): the
 *   combined filter's count and page read from the index alone.
 * - devices_never_configured_idx: "never configured" in serial order (a partial index on
 *   serialNumber).
 * - Type and Status sorted by the name shown (modules/devices/order.ts): an index on the rank's
 *   CASE expression. A new device type or status changes that expression: it then needs a
 *   migration that builds these two indexes again (the sort stays right, only slower).
 * - the IMEI, SIM serial, phone and order number sorts (missing values last in both directions,
 *   ties on the serial number in the same direction): one index per direction, as migration 007
 *   made for Last Config.
 */
export const DEVICE_SORT_INDEX_COLUMNS = ['imei', 'simSerial', 'phoneNumber', 'orderNumber'] as const;
const sortIndex = (col: string, dir: 'asc' | 'desc') => `devices_${col.toLowerCase()}_sort_${dir}_idx`;

const COUNT_KEY = `type, status, "isUserAssigned", configured`;
const configuredOf = (row: 'new' | 'old') => `(case when ${row}."lastConfigurationDate" is null then 0 else 1 end)`;
const groupOf = (row: 'new' | 'old') => `${row}.type, ${row}.status, ${row}."isUserAssigned", ${configuredOf(row)}`;
const matches = (row: 'new' | 'old') =>
  `type = ${row}.type and status = ${row}.status and "isUserAssigned" = ${row}."isUserAssigned" and configured = ${configuredOf(row)}`;
const changedGroup = `old.type <> new.type or old.status <> new.status or old."isUserAssigned" <> new."isUserAssigned" or ${configuredOf('old')} <> ${configuredOf('new')}`;

async function sqliteTriggers(db: Kysely<any>) {
  const add = (row: 'new') => `insert or ignore into "deviceCounts" (${COUNT_KEY}, n) values (${groupOf(row)}, 0);
    update "deviceCounts" set n = n + 1 where ${matches(row)};`;
  const remove = (row: 'old') => `update "deviceCounts" set n = n - 1 where ${matches(row)};`;
  await sql.raw(`create trigger devices_counts_insert after insert on devices begin ${add('new')} end`).execute(db);
  await sql.raw(`create trigger devices_counts_delete after delete on devices begin ${remove('old')} end`).execute(db);
  await sql
    .raw(
      `create trigger devices_counts_update after update of type, status, "isUserAssigned", "lastConfigurationDate" on devices
       when ${changedGroup} begin ${remove('old')} ${add('new')} end`,
    )
    .execute(db);
}

/**
 * PostgreSQL: statement-level triggers over the transition tables, so a bulk change of 5,000
 * devices adds one row per group it touches (not 5,000 updates of the same rows), applied in key
 * order (two writers lock the count rows in the same order: no deadlock between them) and only
 * where the net change is not zero (a configuration report that leaves a device in its group
 * locks nothing).
 */
async function postgresTriggers(db: Kysely<any>) {
  const apply = (deltas: string) => `
    insert into "deviceCounts" (${COUNT_KEY}, n)
    select ${COUNT_KEY}, sum(d) from (${deltas}) x group by ${COUNT_KEY} having sum(d) <> 0 order by ${COUNT_KEY}
    on conflict (${COUNT_KEY}) do update set n = "deviceCounts".n + excluded.n;`;
  const rows = (table: string, sign: 1 | -1) =>
    `select type, status, "isUserAssigned", (case when "lastConfigurationDate" is null then 0 else 1 end) as configured, ${sign} as d from ${table}`;
  await sql
    .raw(
      `create function device_counts_statement() returns trigger language plpgsql as $$
       begin
         if tg_op = 'INSERT' then ${apply(rows('new_rows', 1))}
         elsif tg_op = 'DELETE' then ${apply(rows('old_rows', -1))}
         else ${apply(`${rows('new_rows', 1)} union all ${rows('old_rows', -1)}`)}
         end if;
         return null;
       end $$`,
    )
    .execute(db);
  await sql
    .raw(
      `create trigger devices_counts_insert after insert on devices referencing new table as new_rows for each statement execute function device_counts_statement()`,
    )
    .execute(db);
  await sql
    .raw(
      `create trigger devices_counts_delete after delete on devices referencing old table as old_rows for each statement execute function device_counts_statement()`,
    )
    .execute(db);
  await sql
    .raw(
      `create trigger devices_counts_update after update on devices referencing old table as old_rows new table as new_rows for each statement execute function device_counts_statement()`,
    )
    .execute(db);
}

export const m014: Migration = {
  async up(db) {
    await db.schema
      .createTable('deviceCounts')
      .addColumn('type', 'integer', (c) => c.notNull())
      .addColumn('status', 'integer', (c) => c.notNull())
      .addColumn('isUserAssigned', 'integer', (c) => c.notNull())
      .addColumn('configured', 'integer', (c) => c.notNull())
      .addColumn('n', isPostgres(db) ? 'bigint' : 'integer', (c) => c.notNull())
      .addPrimaryKeyConstraint('deviceCounts_pk', ['type', 'status', 'isUserAssigned', 'configured'])
      .execute();
    await sql
      .raw(
        `insert into "deviceCounts" (${COUNT_KEY}, n)
         select type, status, "isUserAssigned", (case when "lastConfigurationDate" is null then 0 else 1 end), count(*) from devices
         group by 1, 2, 3, 4`,
      )
      .execute(db);
    if (isPostgres(db)) await postgresTriggers(db);
    else await sqliteTriggers(db);

    await db.schema
      .createIndex('devices_filter_idx')
      .on('devices')
      .columns(['type', 'status', 'isUserAssigned', 'lastConfigurationDate', 'serialNumber'])
      .execute();
    await db.schema
      .createIndex('devices_never_configured_idx')
      .on('devices')
      .column('serialNumber')
      .where(sql.ref('lastConfigurationDate'), 'is', null)
      .execute();
    for (const col of DEVICE_SORT_INDEX_COLUMNS) {
      await db.schema
        .createIndex(sortIndex(col, 'asc'))
        .on('devices')
        .expression(sql`${nullsLastSql(col)}, ${sql.ref(col)}, "serialNumber"`)
        .execute();
      await db.schema
        .createIndex(sortIndex(col, 'desc'))
        .on('devices')
        .expression(sql`${nullsLastSql(col)}, ${sql.ref(col)} desc, "serialNumber" desc`)
        .execute();
    }
    // Type and Status sorted by the name shown (ties on the serial number; descending reads it backwards)
    for (const col of ['type', 'status'] as const)
      await db.schema
        .createIndex(`devices_${col}_name_idx`)
        .on('devices')
        .expression(sql`${nameRankSql(col)}, "serialNumber"`)
        .execute();
    // statistics for the planner (SQLite: without them the new indexes look like any other)
    if (!isPostgres(db)) await sql`analyze devices`.execute(db);
  },
  async down(db) {
    for (const name of ['devices_counts_insert', 'devices_counts_delete', 'devices_counts_update'])
      await sql.raw(isPostgres(db) ? `drop trigger if exists ${name} on devices` : `drop trigger if exists ${name}`).execute(db);
    if (isPostgres(db)) await sql`drop function if exists device_counts_statement()`.execute(db);
    await db.schema.dropTable('deviceCounts').ifExists().execute();
    for (const name of [
      'devices_filter_idx',
      'devices_never_configured_idx',
      'devices_type_name_idx',
      'devices_status_name_idx',
      ...DEVICE_SORT_INDEX_COLUMNS.flatMap((c) => [sortIndex(c, 'asc'), sortIndex(c, 'desc')]),
    ])
      await db.schema.dropIndex(name).ifExists().execute();
  },
};
