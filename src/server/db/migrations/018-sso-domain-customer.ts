import type { Migration } from 'kysely';

/** ssoDomains.customerId: the customer (company) an enforced single-sign-on domain belongs to; null for provider staff. */
export const m018: Migration = {
  async up(db) {
    await db.schema.alterTable('ssoDomains').addColumn('customerId', 'text').execute();
  },
};
