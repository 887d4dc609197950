import type { Migration } from 'kysely';

/**
 * Single sign-on (src/server/auth/sso):
 * - persons.ssoEmail: the identity-provider e-mail a person signs in with when it differs from the
 *   person's own (unique) e-mail; one provider identity may so reach several accounts.
 * - ssoDomains: companies, by e-mail domain, that require single sign-on (`sso_enforced`).
 * - ssoNonces: nonces of ID tokens that have produced a session, so an ID token signs in once.
 */
export const m011: Migration = {
  async up(db) {
    await db.schema.alterTable('persons').addColumn('ssoEmail', 'text').execute();
    await db.schema.createIndex('persons_sso_email_idx').on('persons').column('ssoEmail').execute();
    await db.schema
      .createTable('ssoDomains')
      .addColumn('domain', 'text', (c) => c.primaryKey())
      .addColumn('enforced', 'integer', (c) => c.notNull().defaultTo(1))
      .execute();
    await db.schema
      .createTable('ssoNonces')
      .addColumn('nonceHash', 'text', (c) => c.primaryKey())
      .addColumn('personId', 'text', (c) => c.notNull())
      .addColumn('expiresAt', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('ssoNonces_expires_idx').on('ssoNonces').column('expiresAt').execute();
  },
};
