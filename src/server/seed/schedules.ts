// Demo scheduled reports: two schedules of the demo ARC manager (a daily one of real incidents to
// the manager and the supervisor, a weekly one of every alarm to the manager), due from the demo's
// "now" on. Without SMTP_URL their runs are recorded as not sent (the outbox says why).
import type { DB } from '../db/index.js';
import { insertSchedule } from '../modules/schedules/repo.js';

export const DEMO_SCHEDULE_IDS = ['5c4ed01e-0000-4000-8000-000000000001', '5c4ed01e-0000-4000-8000-000000000002'] as const;

export async function seedDemoSchedules(db: DB, now: Date): Promise<number> {
  const owner = await db.selectFrom('persons').select('id').where('email', '=', 'arc-manager@demo.test').executeTakeFirst();
  if (!owner) return 0;
  await insertSchedule(
    db,
    {
      name: 'Daily real incidents',
      frequency: 'daily',
      dayOfWeek: null,
      dayOfMonth: null,
      timeOfDay: '07:00',
      recipients: ['arc-manager@demo.test', 'arc-supervisor@demo.test'],
      format: 'xlsx',
      report: 'alarmList',
      filters: { alarmVerificationTypes: [1] /* Real Incident */ } as never,
    },
    { id: DEMO_SCHEDULE_IDS[0], ownerId: owner.id, customerId: null, now },
  );
  await insertSchedule(
    db,
    {
      name: 'Weekly all alarms',
      frequency: 'weekly',
      dayOfWeek: 1,
      dayOfMonth: null,
      timeOfDay: '08:00',
      recipients: ['arc-manager@demo.test'],
      format: 'xlsx',
      report: 'alarmList',
      filters: {} as never,
    },
    { id: DEMO_SCHEDULE_IDS[1], ownerId: owner.id, customerId: null, now },
  );
  return 2;
}
