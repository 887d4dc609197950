import type { Migration } from 'kysely';

/**
 * Auth hardening:
 * - persons.lockedUntil: end of a lockout after failed sign-ins (null with isLocked = 1: locked
 *   until someone unlocks, as demo data and administrators do);
 * - persons.sessionEpoch: access tokens carry it; bumping it (password change or reset, role
 *   change, refresh-token reuse, logout) ends every access token issued before within seconds;
 * - outbox.attempts / claimedAt: the relay that sends mail after the writing transaction commits
 *   claims a row before sending it (one sender per row across nodes) and retries a few times.
 */
export const m005: Migration = {
  async up(db) {
    await db.schema.alterTable('persons').addColumn('lockedUntil', 'text').execute();
    await db.schema
      .alterTable('persons')
      .addColumn('sessionEpoch', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
    await db.schema
      .alterTable('outbox')
      .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
    await db.schema.alterTable('outbox').addColumn('claimedAt', 'text').execute();
    // Messages written before the relay existed were never meant to be sent later.
    await db.updateTable('outbox').set({ attempts: 5 }).where('sentAt', 'is', null).execute();
    await db.schema.createIndex('outbox_pending_idx').on('outbox').columns(['sentAt', 'id']).execute();
  },
};
