// Imports nothing outside db/migrations/: `isPostgres` here is the same test as in db/dialect.ts.
import { type Kysely, type Migration, PostgresAdapter } from 'kysely';

const isPostgres = (db: Kysely<unknown>) => db.getExecutor().adapter instanceof PostgresAdapter;

/**
 * Scheduled reports (docs/scheduled-reports.md):
 * - reportSchedules: a saved alarm-list filter with when it runs (London time), its recipients and
 *   format. `nextDueAt` is the claim: a node runs a due schedule only if its conditional update
 *   (WHERE id = ? AND nextDueAt = <the value it read>) changes the row, so each due time runs once
 *   whatever the number of nodes.
 * - reportScheduleRuns: each run (due time, period, rows, state, error, attempts); one per
 *   (schedule, due time), enforced by a unique index.
 * - outbox.attachmentId / outbox.ref: an e-mail may carry a file (outboxAttachments, shared by
 *   the e-mails of one run) and a reference to what it belongs to ('scheduleRun:<id>'), which the
 *   run's outcome is read from.
 */
export const m015: Migration = {
  async up(db: Kysely<any>) {
    const pg = isPostgres(db);
    await db.schema
      .createTable('reportSchedules')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('ownerId', 'text', (c) => c.notNull())
      .addColumn('customerId', 'text')
      .addColumn('frequency', 'text', (c) => c.notNull())
      .addColumn('dayOfWeek', 'integer')
      .addColumn('dayOfMonth', 'integer')
      .addColumn('timeOfDay', 'text', (c) => c.notNull())
      .addColumn('recipients', 'text', (c) => c.notNull())
      .addColumn('format', 'text', (c) => c.notNull())
      .addColumn('filters', 'text', (c) => c.notNull())
      .addColumn('paused', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('nextDueAt', 'text', (c) => c.notNull())
      .addColumn('claimedBy', 'text')
      .addColumn('claimedAt', 'text')
      .addColumn('etag', 'text', (c) => c.notNull())
      .addColumn('createdAt', 'text', (c) => c.notNull())
      .addColumn('updatedAt', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('reportSchedules_due_idx').on('reportSchedules').columns(['paused', 'nextDueAt']).execute();

    await db.schema
      .createTable('reportScheduleRuns')
      .addColumn('id', pg ? 'serial' : 'integer', (c) => (pg ? c.primaryKey() : c.primaryKey().autoIncrement()))
      .addColumn('scheduleId', 'text', (c) => c.notNull().references('reportSchedules.id').onDelete('cascade'))
      .addColumn('dueAt', 'text', (c) => c.notNull())
      .addColumn('periodFrom', 'text', (c) => c.notNull())
      .addColumn('periodTo', 'text', (c) => c.notNull())
      .addColumn('missed', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('state', 'text', (c) => c.notNull())
      .addColumn('rows', 'integer')
      .addColumn('error', 'text')
      .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(1))
      .addColumn('claimedBy', 'text', (c) => c.notNull())
      .addColumn('startedAt', 'text', (c) => c.notNull())
      .addColumn('finishedAt', 'text')
      .execute();
    await db.schema.createIndex('reportScheduleRuns_due_uq').unique().on('reportScheduleRuns').columns(['scheduleId', 'dueAt']).execute();
    await db.schema.createIndex('reportScheduleRuns_state_idx').on('reportScheduleRuns').columns(['state', 'attempts']).execute();

    await db.schema
      .createTable('outboxAttachments')
      .addColumn('id', pg ? 'serial' : 'integer', (c) => (pg ? c.primaryKey() : c.primaryKey().autoIncrement()))
      .addColumn('fileName', 'text', (c) => c.notNull())
      .addColumn('contentType', 'text', (c) => c.notNull())
      .addColumn('content', pg ? 'bytea' : 'blob', (c) => c.notNull())
      .addColumn('createdAt', 'text', (c) => c.notNull())
      .execute();
    await db.schema.alterTable('outbox').addColumn('attachmentId', 'integer').execute();
    await db.schema.alterTable('outbox').addColumn('ref', 'text').execute();
    await db.schema.createIndex('outbox_ref_idx').on('outbox').column('ref').execute();
  },
};
