// Scheduled reports (feature ScheduledReports; docs/scheduled-reports.md): the list, create, edit,
// pause/resume, delete and the run history. Permission AlarmReportSchedule (ARC managers and
// supervisors, provider admins); a schedule is its creator's: others' are seen and changed only
// with AlarmReportScheduleOthers (provider admins), through the repository's ScheduleScope. With the feature off the list answers Enabled: false and no
// rows, and every write is refused. Every write is audited in its transaction.
import { ApiError, badRequest, conflict, deps, notFound, type Api, type AuthUser, type Ctx } from '../../http/api.js';
import { tx } from '../../db/index.js';
import { audit, newId } from '../../platform/util.js';
import { P } from '../../../shared/permissions.js';
import { CODE } from '../../../shared/messages.js';
import { isValidId, normaliseId } from '../../../shared/codes.js';
import type { MessageResponse } from '../../../shared/schemas/common.js';
import {
  SCHEDULE_CODE,
  SCHEDULE_RUNS_SHOWN,
  SCHEDULE_TEXT,
  schedulePauseBody,
  scheduleCreateBody,
  scheduleUpdateBody,
  type ScheduleCreateBody,
  type ScheduleDto,
  type ScheduleListDto,
  type ScheduleRunsDto,
} from '../../../shared/schemas/schedules.js';
import {
  ALL_SCHEDULES,
  customerOfFilters,
  reportAudience,
  deleteSchedule,
  findSchedule,
  insertSchedule,
  listRuns,
  listSchedules,
  recipientsOutOfScope,
  scheduleScope,
  scheduledReportsOn,
  setPaused,
  updateSchedule,
  type ScheduleRow,
} from './repo.js';
import { scheduledReportOf } from '../../lib/scheduled-reports.js';

const SAMPLE_BODY = {
  name: 'Sample schedule',
  frequency: 'weekly',
  dayOfWeek: 1,
  timeOfDay: '07:00',
  recipients: ['sample.recipient@unknown.test'],
  format: 'xlsx',
  filters: { alarmVerificationTypes: [1] },
};

async function featureOn(c: Ctx) {
  if (!(await scheduledReportsOn(deps(c).db))) throw new ApiError(403, SCHEDULE_TEXT.featureOff, SCHEDULE_CODE.featureOff);
}
function idParam(c: Ctx): string {
  const raw = c.req.param('id');
  if (!raw || !isValidId(raw)) throw notFound(SCHEDULE_TEXT.notFound);
  return normaliseId(raw);
}
async function checkRecipients(c: Ctx, user: Parameters<typeof recipientsOutOfScope>[1], recipients: string[]) {
  const out = await recipientsOutOfScope(deps(c).db, user, recipients);
  if (out.length) throw badRequest(SCHEDULE_TEXT.notARecipient(out[0]!), CODE.validation, { recipients: SCHEDULE_TEXT.notARecipient(out[0]!) });
}
/**
 * The schedule's customer: the one its account name filter names exactly, else null. A management
 * report schedule needs the feature ExportManagementReportPDF, and an account filter that names
 * one customer or none (all customers): a filter matching several or none would silently report
 * on all customers.
 */
async function scheduleCustomer(c: Ctx, body: Pick<ScheduleCreateBody, 'report' | 'filters'>, user: AuthUser): Promise<string | null> {
  const { db } = deps(c);
  const filters = body.filters as ScheduleCreateBody['filters'];
  const customerId = await customerOfFilters(db, filters);
  if (body.report === 'usageReport') return usageCustomer(c, customerId, user);
  if (body.report !== 'managementReport') return customerId;
  if (!((await scheduledReportOf(body.report).available?.(db)) ?? true))
    throw badRequest(SCHEDULE_TEXT.managementOff, CODE.validation, { report: SCHEDULE_TEXT.managementOff });
  if ((filters.customerAccountFullName ?? '').trim() && customerId === null)
    throw badRequest(SCHEDULE_TEXT.managementCustomer, CODE.validation, { report: SCHEDULE_TEXT.managementCustomer });
  return customerId;
}
/**
 * A usage report schedule's customer: the feature ScheduledUsageReport on, the scheduler allowed
 * to see usage reports (AdminPanel.UsageReport.View), and the account name filter naming exactly
 * one customer (the report is of one customer).
 */
async function usageCustomer(c: Ctx, customerId: string | null, user: AuthUser): Promise<string> {
  if (!user.permissions.includes(P.UsageReportView)) throw new ApiError(403, SCHEDULE_TEXT.usagePermission, CODE.forbidden);
  if (!((await scheduledReportOf('usageReport').available?.(deps(c).db)) ?? true))
    throw badRequest(SCHEDULE_TEXT.usageOff, CODE.validation, { report: SCHEDULE_TEXT.usageOff });
  if (customerId === null) throw badRequest(SCHEDULE_TEXT.usageCustomer, CODE.validation, { report: SCHEDULE_TEXT.usageCustomer });
  return customerId;
}
/** The tenant rule of every outgoing report (docs/security.md): refused with the recipient that breaks it. */
async function checkAudience(c: Ctx, recipients: string[], customerId: string | null) {
  const audience = await reportAudience(deps(c).db, recipients, customerId);
  if (!audience.ok) throw badRequest(audience.message, CODE.validation, { recipients: audience.message });
}
const summary = (s: Pick<ScheduleRow, 'name' | 'frequency' | 'dayOfWeek' | 'dayOfMonth' | 'timeOfDay' | 'recipients' | 'format' | 'report' | 'paused'>) => ({
  name: s.name,
  frequency: s.frequency,
  dayOfWeek: s.dayOfWeek,
  dayOfMonth: s.dayOfMonth,
  timeOfDay: s.timeOfDay,
  recipients: JSON.parse(s.recipients) as string[],
  format: s.format,
  report: s.report,
  paused: s.paused === 1,
});
const dtoOf = async (c: Ctx, id: string): Promise<ScheduleDto> => (await listSchedules(deps(c).db, ALL_SCHEDULES, id))[0]!;

export function scheduleRoutes(api: Api) {
  api.get('/alarm-report/schedules', { access: P.AlarmReportSchedule }, async (c, { user }) => {
    const { db } = deps(c);
    const enabled = await scheduledReportsOn(db);
    return c.json({ Enabled: enabled, Schedules: enabled ? await listSchedules(db, scheduleScope(user)) : [] } satisfies ScheduleListDto);
  });

  api.post('/alarm-report/schedules', { access: P.AlarmReportSchedule, json: scheduleCreateBody, sample: { json: SAMPLE_BODY } }, async (c, { body, user }) => {
    await featureOn(c);
    await checkRecipients(c, user, body.recipients);
    const { db, config } = deps(c);
    const now = config.now();
    const customerId = await scheduleCustomer(c, body, user);
    await checkAudience(c, body.recipients, customerId);
    const id = newId();
    await tx(db, async (trx) => {
      const row = await insertSchedule(trx, body, { id, ownerId: user.id, customerId, now });
      await audit(trx, { actorId: user.id || null, action: 'schedule.create', entity: 'schedule', entityId: id, at: now, details: { after: summary(row) } });
    });
    return c.json(await dtoOf(c, id), 201);
  });

  api.put(
    '/alarm-report/schedules/:id',
    { access: P.AlarmReportSchedule, json: scheduleUpdateBody, sample: { json: SAMPLE_BODY } },
    async (c, { body, user }) => {
      await featureOn(c);
      const id = idParam(c);
      const { db, config } = deps(c);
      if (!(await findSchedule(db, scheduleScope(user), id))) throw notFound(SCHEDULE_TEXT.notFound);
      await checkRecipients(c, user, body.recipients);
      const now = config.now();
      const customerId = await scheduleCustomer(c, body, user);
      await checkAudience(c, body.recipients, customerId);
      await tx(db, async (trx) => {
        const before = await findSchedule(trx, scheduleScope(user), id);
        if (!before) throw notFound(SCHEDULE_TEXT.notFound);
        const r = await updateSchedule(trx, id, body, customerId, now);
        if (r === 'missing') throw notFound(SCHEDULE_TEXT.notFound);
        if (r === 'stale') throw conflict(SCHEDULE_TEXT.stale);
        await audit(trx, {
          actorId: user.id || null,
          action: 'schedule.update',
          entity: 'schedule',
          entityId: id,
          at: now,
          details: { before: summary(before), after: summary(r) },
        });
      });
      return c.json(await dtoOf(c, id));
    },
  );

  api.put(
    '/alarm-report/schedules/:id/pause',
    { access: P.AlarmReportSchedule, json: schedulePauseBody, sample: { json: { paused: true } } },
    async (c, { body, user }) => {
      await featureOn(c);
      const id = idParam(c);
      const { db, config } = deps(c);
      const now = config.now();
      await tx(db, async (trx) => {
        const s = await findSchedule(trx, scheduleScope(user), id);
        if (!s) throw notFound(SCHEDULE_TEXT.notFound);
        await setPaused(trx, s, body.paused, now);
        await audit(trx, {
          actorId: user.id || null,
          action: body.paused ? 'schedule.pause' : 'schedule.resume',
          entity: 'schedule',
          entityId: id,
          at: now,
          details: { before: s.paused === 1, after: body.paused },
        });
      });
      return c.json(await dtoOf(c, id));
    },
  );

  api.delete('/alarm-report/schedules/:id', { access: P.AlarmReportSchedule }, async (c, { user }) => {
    await featureOn(c);
    const id = idParam(c);
    const { db, config } = deps(c);
    const now = config.now();
    const name = await tx(db, async (trx) => {
      const s = await findSchedule(trx, scheduleScope(user), id);
      if (!s || !(await deleteSchedule(trx, id))) throw notFound(SCHEDULE_TEXT.notFound);
      await audit(trx, { actorId: user.id || null, action: 'schedule.delete', entity: 'schedule', entityId: id, at: now, details: { before: summary(s) } });
      return s.name;
    });
    return c.json({ Content: { Message: SCHEDULE_TEXT.deleted(name) } } satisfies MessageResponse);
  });

  api.get('/alarm-report/schedules/:id/runs', { access: P.AlarmReportSchedule }, async (c, { user }) => {
    const id = idParam(c);
    const { db } = deps(c);
    if (!(await scheduledReportsOn(db))) return c.json({ Runs: [] } satisfies ScheduleRunsDto);
    if (!(await findSchedule(db, scheduleScope(user), id))) throw notFound(SCHEDULE_TEXT.notFound);
    return c.json({ Runs: await listRuns(db, id, SCHEDULE_RUNS_SHOWN) } satisfies ScheduleRunsDto);
  });
}
