import { sql, type Migration } from 'kysely';

/**
 * The person list sorts by lower(firstName), lower(lastName), id (case-insensitive user name):
 * an expression index lets both dialects walk it in order instead of sorting 20,000+ rows per page.
 */
export const m003: Migration = {
  async up(db) {
    await db.schema
      .createIndex('persons_name_ci_idx')
      .on('persons')
      .expression(sql`lower("firstName"), lower("lastName"), "id"`)
      .execute();
  },
};
