import type { Migration } from 'kysely';

/**
 * Provider administration:
 * - ssoDomains.customerId: the customer (company) an enforced single-sign-on domain belongs to; null for provider staff.
 * - auditLog_at_idx: the audit trail lists newest first and filters by date range.
 */
export const m018: Migration = {
  async up(db) {
    await db.schema.alterTable('ssoDomains').addColumn('customerId', 'text').execute();
    await db.schema.createIndex('auditLog_at_idx').on('auditLog').columns(['at', 'id']).execute();
  },
};
