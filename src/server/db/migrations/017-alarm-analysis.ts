import { type Kysely, type Migration } from 'kysely';

/**
 * Alarm report intelligence: the stored Analysis section of a closed alarm report (one row per
 * report, replaced when regenerated), so a report printed later shows the analysis generated.
 * `analysis` is the JSON of the analysis; `generatedBy` the person who regenerated it, null when
 * generated automatically (seed, import).
 */
export const m017: Migration = {
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('alarmReportAnalyses')
      .addColumn('alarmReportId', 'text', (c) => c.primaryKey().references('alarmReports.id').onDelete('cascade'))
      .addColumn('analysis', 'text', (c) => c.notNull())
      .addColumn('generatedAt', 'text', (c) => c.notNull())
      .addColumn('generatedBy', 'text')
      .execute();
  },
  async down(db: Kysely<any>) {
    await db.schema.dropTable('alarmReportAnalyses').execute();
  },
};
