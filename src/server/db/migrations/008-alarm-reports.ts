// Imports nothing outside db/migrations/: `isPg` is the same test as `isPostgres` of db/dialect.ts.
import { type Kysely, type Migration, PostgresAdapter } from 'kysely';

const isPg = (db: Kysely<unknown>) => db.getExecutor().adapter instanceof PostgresAdapter;

/**
 * Alarm reports: the demo's audio clips (call recordings and voice memos are served from
 * them, src/server/modules/alarm-reports/audio.ts), the index the voice-memo file endpoint
 * looks memos up by, and a covering index for the chart queries.
 */
export const m008: Migration = {
  async up(db) {
    await db.schema
      .createTable('alarmAudioClips')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('kind', 'text', (c) => c.notNull())
      .addColumn('mime', 'text', (c) => c.notNull())
      .addColumn('bytes', isPg(db) ? 'bytea' : 'blob', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('alarmMemos_voiceMemo_idx').on('alarmMemos').column('voiceMemoId').execute();
    // The charts and targets read a closed-date range and only these columns: answered from the
    // index alone, without touching the (wide) report rows.
    await db.schema
      .createIndex('alarmReports_charts_idx')
      .on('alarmReports')
      .columns(['alarmClosed', 'verificationType', 'verificationStartedSeconds', 'verificationCompletedSeconds', 'alarmType', 'deviceType', 'tier'])
      .execute();
    // The response targets' missed list: slowest first, walked in index order and cut at 200.
    await db.schema.createIndex('alarmReports_started_idx').on('alarmReports').columns(['verificationStartedSeconds', 'alarmClosed']).execute();
  },
};
