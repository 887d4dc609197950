import type { Migration } from 'kysely';

/**
 * Asset list filters (spec document 2 §2): 'Assigned' (isUserAssigned = 0/1) and 'Last config'
 * (a range of lastConfigurationDate, or never configured = null). Without these both count every
 * device (the filtered totalCount) and PostgreSQL reads the whole table for a page of a narrow
 * range. (isUserAssigned, serialNumber) also hands out a page in the default sort order (Serial
 * Number) straight from the index. Created on both dialects: SQLite plans use them the same way.
 */
export const m007: Migration = {
  async up(db) {
    await db.schema.createIndex('devices_assigned_idx').on('devices').columns(['isUserAssigned', 'serialNumber']).execute();
    await db.schema.createIndex('devices_last_config_idx').on('devices').columns(['lastConfigurationDate', 'serialNumber']).execute();
  },
  async down(db) {
    await db.schema.dropIndex('devices_assigned_idx').execute();
    await db.schema.dropIndex('devices_last_config_idx').execute();
  },
};
