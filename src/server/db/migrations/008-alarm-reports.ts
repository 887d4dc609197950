// Does not import migrations.ts (which imports this file): `isPg` is the same test as `isPostgres` there.
import { type Kysely, type Migration, PostgresAdapter } from 'kysely';

const isPg = (db: Kysely<unknown>) => db.getExecutor().adapter instanceof PostgresAdapter;

/**
 * Alarm reports (#9): the demo's audio clips (call recordings and voice memos are served from
 * them, src/server/modules/alarm-reports/audio.ts) and the index the voice-memo file endpoint
 * looks memos up by.
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
  },
};
