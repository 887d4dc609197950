import { sql, type Kysely, type Migration } from 'kysely';

/**
 * A scheduled run's claim is a lease: `leaseUntil` is the time until which the node that claimed
 * the run (claimedBy) holds it. The node renews it while the run builds; a 'running' run whose
 * lease has passed lost its node, and any node takes it over (modules/schedules/scheduler.ts).
 * Runs written before this column have none: theirs is their start (so a run left 'running' by a
 * stopped node is taken over at once).
 */
export const m028: Migration = {
  async up(db: Kysely<any>) {
    await db.schema.alterTable('reportScheduleRuns').addColumn('leaseUntil', 'text').execute();
    await sql`update "reportScheduleRuns" set "leaseUntil" = "startedAt" where "state" = 'running'`.execute(db);
  },
  async down(db: Kysely<any>) {
    await db.schema.alterTable('reportScheduleRuns').dropColumn('leaseUntil').execute();
  },
};
