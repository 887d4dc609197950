import { sql, type Migration } from 'kysely';

/** The asset list's Last Config sort key: configured devices first, never configured last (both directions). */
const LAST_CONFIG_NULLS_LAST = sql`(case when "lastConfigurationDate" is null then 1 else 0 end)`;

/**
 * Asset list at 1,000,000 devices (spec document 2 §2):
 * - filters 'Assigned' (isUserAssigned = 0/1) and 'Last config' (a range of lastConfigurationDate,
 *   or never configured = null): without an index the filtered totalCount reads every device and
 *   PostgreSQL reads the whole table for a page of a narrow range. (isUserAssigned, serialNumber)
 *   also hands out a page in the default order (Serial Number) and serves the Assigned sort;
 * - filter 'Order number' (exact, case-insensitive: lower(orderNumber) = lower(value)): the plain
 *   orderNumber index of migration 001 cannot serve lower(), so every device was read;
 * - the Last Config sort (repo.ts: missing values last in both directions, ties on the serial
 *   number in the same direction): one index per direction, so a page is read from an index
 *   instead of sorting every device (seconds at 1,000,000).
 * Created on both dialects; SQLite and PostgreSQL plans use them alike (decision "The asset list filters and the
 * Last Config sort are served by indexes", docs/decisions/devices-and-stock.md).
 */
export const m007: Migration = {
  async up(db) {
    await db.schema.createIndex('devices_assigned_idx').on('devices').columns(['isUserAssigned', 'serialNumber']).execute();
    await db.schema.createIndex('devices_last_config_idx').on('devices').columns(['lastConfigurationDate', 'serialNumber']).execute();
    await db.schema
      .createIndex('devices_order_ci_idx')
      .on('devices')
      .expression(sql`lower("orderNumber"), "serialNumber"`)
      .execute();
    await db.schema
      .createIndex('devices_last_config_sort_asc_idx')
      .on('devices')
      .expression(sql`${LAST_CONFIG_NULLS_LAST}, "lastConfigurationDate", "serialNumber"`)
      .execute();
    await db.schema
      .createIndex('devices_last_config_sort_desc_idx')
      .on('devices')
      .expression(sql`${LAST_CONFIG_NULLS_LAST}, "lastConfigurationDate" desc, "serialNumber" desc`)
      .execute();
  },
  async down(db) {
    for (const name of [
      'devices_assigned_idx',
      'devices_last_config_idx',
      'devices_order_ci_idx',
      'devices_last_config_sort_asc_idx',
      'devices_last_config_sort_desc_idx',
    ])
      await db.schema.dropIndex(name).ifExists().execute();
  },
};
