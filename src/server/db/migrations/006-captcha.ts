import type { Migration } from 'kysely';

/** Used captcha solutions (src/server/captcha/replay.ts): a solved challenge passes once, until it expires. */
export const m006: Migration = {
  async up(db) {
    await db.schema
      .createTable('captchaSolutions')
      .addColumn('key', 'text', (c) => c.primaryKey())
      .addColumn('expiresAt', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('captchaSolutions_expires_idx').on('captchaSolutions').column('expiresAt').execute();
  },
};
