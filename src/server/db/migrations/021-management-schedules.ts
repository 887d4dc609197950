// 021_management_schedules: what a scheduled report sends (`reportSchedules.report`: 'alarmList',
// the alarm list .xlsx of its saved filters as before, or 'managementReport', the monthly
// management report of its customer or of all customers; docs/scheduled-reports.md).
import { type Kysely, type Migration } from 'kysely';

export const m021: Migration = {
  async up(db: Kysely<any>) {
    await db.schema
      .alterTable('reportSchedules')
      .addColumn('report', 'text', (c) => c.notNull().defaultTo('alarmList'))
      .execute();
  },
};
