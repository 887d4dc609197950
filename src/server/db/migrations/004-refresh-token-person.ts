import type { Migration } from 'kysely';

/** Sign-in revokes a person's sessions (password change, lockout) by personId: index it. */
export const m004: Migration = {
  async up(db) {
    await db.schema.createIndex('refreshTokens_person_idx').on('refreshTokens').columns(['personId', 'revokedAt']).execute();
  },
};
