import type { Migration } from 'kysely';

/**
 * Live devices: when a message was received and where the device was; each device's last
 * message and connection state (the Device Testing tab, DeviceMonitoring / DeviceConnected); the
 * kind of a queued request (a configuration change, or a refresh of the configuration or
 * firmware) and when the gateway handed it to the device.
 */
export const m010: Migration = {
  async up(db) {
    await db.schema.alterTable('deviceMessages').addColumn('receivedAt', 'text').execute();
    await db.schema.alterTable('deviceMessages').addColumn('location', 'text').execute();
    await db.schema
      .createTable('deviceLastMessages')
      .addColumn('deviceId', 'text', (c) => c.primaryKey().references('devices.id').onDelete('cascade'))
      .addColumn('deviceIdentity', 'text', (c) => c.notNull())
      .addColumn('messageId', 'text', (c) => c.notNull())
      .addColumn('date', 'text', (c) => c.notNull())
      .addColumn('message', 'text', (c) => c.notNull())
      .addColumn('battery', 'integer')
      .addColumn('signal', 'integer')
      .addColumn('isConnected', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('receivedAt', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('deviceLastMessages_identity_idx').on('deviceLastMessages').column('deviceIdentity').execute();
    await db.schema
      .alterTable('desiredConfigurations')
      .addColumn('kind', 'text', (c) => c.notNull().defaultTo('configuration'))
      .execute();
    await db.schema.alterTable('desiredConfigurations').addColumn('sentAt', 'text').execute();
    await db.schema.createIndex('desiredConfigurations_pending_idx').on('desiredConfigurations').columns(['deviceId', 'appliedAt']).execute();
  },
};
