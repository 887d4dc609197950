// Scheduled reports (db first): the schedules, their runs and what the list shows of them. The
// due-time rules are in src/shared/schedules.ts; the loop that runs them is ./scheduler.ts.
import type { DB } from '../../db/index.js';
import type { Selectable } from 'kysely';
import type { ReportScheduleRunTable, ReportScheduleTable } from '../../db/schema.js';
import type { AuthUser } from '../../http/api.js';
import { scopePersons } from '../persons/scope.js';
import { OUTBOX_MAX_ATTEMPTS } from '../../mail/outbox.js';
import { describeSchedule, nextDueAt, type ScheduleFormat, type ScheduleFrequency, type ScheduleReport, type ScheduleRule } from '../../../shared/schedules.js';
import type { RunOutcome, ScheduleCreateBody, ScheduleDto, ScheduleRunDto } from '../../../shared/schemas/schedules.js';
import type { AlarmReportFilterBody } from '../../../shared/schemas/alarm-reports.js';
import { newEtag } from '../../platform/util.js';
import { P } from '../../../shared/permissions.js';
import { PROVIDER_TENANT_ID } from '../../../shared/tenants.js';
import { SCHEDULE_TEXT } from '../../../shared/schemas/schedules.js';
import { ALL_TENANTS, type TenantScope } from '../../auth/tenant-scope.js';

/**
 * Whose schedules a caller may see and change: every schedule (the permission
 * AlarmReportScheduleOthers: provider admins; and the server's own loop), or only the caller's own.
 * Every read of a schedule takes one (required, so each caller passes it): a schedule of someone
 * else is not listed and, asked for by id, answers as not found.
 */
export type ScheduleScope = { readonly all: true } | { readonly all: false; readonly ownerId: string };
export const ALL_SCHEDULES: ScheduleScope = Object.freeze({ all: true });
export const scheduleScope = (user: Pick<AuthUser, 'id' | 'permissions'>): ScheduleScope =>
  user.permissions.includes(P.AlarmReportScheduleOthers) ? ALL_SCHEDULES : { all: false, ownerId: user.id };

export const SCHEDULED_REPORTS_FEATURE = 'ScheduledReports';

export type ScheduleRow = Selectable<ReportScheduleTable>;
export type RunRow = Selectable<ReportScheduleRunTable>;

/** Whether the ScheduledReports feature is on (an absent feature counts as off). */
export async function scheduledReportsOn(db: DB): Promise<boolean> {
  const row = await db.selectFrom('features').select('isEnabled').where('name', '=', SCHEDULED_REPORTS_FEATURE).executeTakeFirst();
  return row?.isEnabled === 1;
}

export const ruleOf = (s: Pick<ScheduleRow, 'frequency' | 'dayOfWeek' | 'dayOfMonth' | 'timeOfDay'>): ScheduleRule => ({
  frequency: s.frequency as ScheduleFrequency,
  dayOfWeek: s.dayOfWeek,
  dayOfMonth: s.dayOfMonth,
  timeOfDay: s.timeOfDay,
});

/** Saved filters without their date range (each run covers its own period). */
export function savedFilters(
  f: AlarmReportFilterBody,
): Omit<AlarmReportFilterBody, 'alarmClosedDateRangeOption' | 'alarmClosedDateFrom' | 'alarmClosedDateTo'> {
  const { alarmClosedDateRangeOption: _o, alarmClosedDateFrom: _f, alarmClosedDateTo: _t, ...rest } = f;
  return rest;
}

/** The recipients that are not e-mail addresses of persons the user may list (their person scope). */
export async function recipientsOutOfScope(db: DB, user: Pick<AuthUser, 'permissions'>, emails: string[]): Promise<string[]> {
  if (!emails.length) return [];
  const found = await scopePersons(db.selectFrom('persons').select('persons.email').where('persons.email', 'in', emails), user).execute();
  const ok = new Set(found.map((p) => p.email.toLowerCase()));
  return emails.filter((e) => !ok.has(e));
}

/**
 * The tenant rule of every outgoing report (docs/security.md, "Where a report may be sent"): its
 * rows and its recipients belong to one tenant, or its recipients are provider staff. Every
 * recipient must be a person; when all are provider staff the report may cover every customer
 * (scope: every tenant); otherwise the report must be of one customer (`customerId`) and every
 * recipient outside the provider tenant a person of that customer, and its rows are read in that
 * customer's tenant scope only. Checked when a schedule is saved and again by each run before
 * anything is built (a person may have moved since).
 */
export async function reportAudience(
  db: DB,
  recipients: string[],
  customerId: string | null,
): Promise<{ ok: true; scope: TenantScope } | { ok: false; message: string }> {
  const emails = recipients.map((e) => e.trim().toLowerCase());
  const persons = emails.length
    ? await db
        .selectFrom('persons')
        .select(['email', 'tenantId'])
        .where((eb) => eb(eb.fn('lower', ['email']), 'in', emails))
        .execute()
    : [];
  const tenantOf = new Map(persons.map((p) => [p.email.toLowerCase(), p.tenantId]));
  const unknown = emails.find((e) => !tenantOf.has(e));
  if (unknown) return { ok: false, message: SCHEDULE_TEXT.notARecipient(unknown) };
  const outside = emails.filter((e) => tenantOf.get(e) !== PROVIDER_TENANT_ID);
  if (!outside.length) return { ok: true, scope: ALL_TENANTS };
  const customer = customerId ? await db.selectFrom('customers').select('tenantId').where('id', '=', customerId).executeTakeFirst() : undefined;
  const stranger = outside.find((e) => tenantOf.get(e) !== customer?.tenantId);
  if (stranger) return { ok: false, message: SCHEDULE_TEXT.otherTenant(stranger) };
  return { ok: true, scope: { all: false, tenantId: customer!.tenantId } };
}

/** The customer a filter names exactly (the account name filter equals one customer's name, ignoring case), else null. */
export async function customerOfFilters(db: DB, f: { customerAccountFullName?: string | null }): Promise<string | null> {
  const name = (f.customerAccountFullName ?? '').trim().toLowerCase();
  if (!name) return null;
  const rows = await db
    .selectFrom('customers')
    .select(['id', 'name'])
    .where((eb) => eb(eb.fn('lower', ['name']), '=', name))
    .limit(2)
    .execute();
  return rows.length === 1 ? rows[0]!.id : null;
}

type Fields = Pick<ScheduleCreateBody, 'name' | 'frequency' | 'dayOfWeek' | 'dayOfMonth' | 'timeOfDay' | 'recipients' | 'format' | 'report' | 'filters'>;
const columnsOf = (b: Fields, customerId: string | null) => ({
  name: b.name,
  frequency: b.frequency,
  dayOfWeek: b.frequency === 'weekly' ? b.dayOfWeek : null,
  dayOfMonth: b.frequency === 'monthly' ? b.dayOfMonth : null,
  timeOfDay: b.timeOfDay,
  recipients: JSON.stringify(b.recipients),
  format: b.format,
  report: b.report,
  filters: JSON.stringify(savedFilters(b.filters as AlarmReportFilterBody)),
  customerId,
});

export async function insertSchedule(db: DB, b: Fields, p: { id: string; ownerId: string; customerId: string | null; now: Date }): Promise<ScheduleRow> {
  const cols = columnsOf(b, p.customerId);
  const row = {
    id: p.id,
    ownerId: p.ownerId,
    ...cols,
    paused: 0,
    nextDueAt: nextDueAt(ruleOf(cols), p.now).toISOString(),
    claimedBy: null,
    claimedAt: null,
    etag: newEtag(),
    createdAt: p.now.toISOString(),
    updatedAt: p.now.toISOString(),
  };
  await db.insertInto('reportSchedules').values(row).execute();
  return row;
}

export const findSchedule = (db: DB, scope: ScheduleScope, id: string) => {
  const q = db.selectFrom('reportSchedules').selectAll().where('id', '=', id);
  return (scope.all ? q : q.where('ownerId', '=', scope.ownerId)).executeTakeFirst();
};

/** Saves new fields (the next due time follows the new rule); 'stale' when the etag is given and no longer current. */
export async function updateSchedule(
  db: DB,
  id: string,
  b: Fields & { etag: string | null },
  customerId: string | null,
  now: Date,
): Promise<'missing' | 'stale' | ScheduleRow> {
  const cols = columnsOf(b, customerId);
  let q = db
    .updateTable('reportSchedules')
    .set({ ...cols, nextDueAt: nextDueAt(ruleOf(cols), now).toISOString(), etag: newEtag(), updatedAt: now.toISOString() })
    .where('id', '=', id);
  if (b.etag) q = q.where('etag', '=', b.etag);
  const r = await q.executeTakeFirst();
  if (Number(r.numUpdatedRows) === 1) return (await findSchedule(db, ALL_SCHEDULES, id))!;
  return (await findSchedule(db, ALL_SCHEDULES, id)) ? 'stale' : 'missing';
}

/** Pauses or resumes; resuming starts again from the next due time after now (paused due times are not caught up). */
export async function setPaused(db: DB, s: ScheduleRow, paused: boolean, now: Date): Promise<ScheduleRow> {
  const set = {
    paused: paused ? 1 : 0,
    etag: newEtag(),
    updatedAt: now.toISOString(),
    ...(paused ? {} : { nextDueAt: nextDueAt(ruleOf(s), now).toISOString() }),
  };
  await db.updateTable('reportSchedules').set(set).where('id', '=', s.id).execute();
  return (await findSchedule(db, ALL_SCHEDULES, s.id))!;
}

export async function deleteSchedule(db: DB, id: string): Promise<boolean> {
  await db.deleteFrom('reportScheduleRuns').where('scheduleId', '=', id).execute();
  const r = await db.deleteFrom('reportSchedules').where('id', '=', id).executeTakeFirst();
  return Number(r.numDeletedRows) === 1;
}

export const runRef = (runId: number) => `scheduleRun:${runId}`;

/** What the list shows of runs: their outcome is the state, or for queued runs that of their e-mails in the outbox. */
export async function runDtos(db: DB, runs: RunRow[]): Promise<ScheduleRunDto[]> {
  const queued = runs.filter((r) => r.state === 'queued').map((r) => runRef(r.id));
  const mails = queued.length
    ? await db.selectFrom('outbox').select(['ref', 'sentAt', 'heldTenantId', 'attempts', 'error']).where('ref', 'in', queued).execute()
    : [];
  return runs.map((r) => {
    let outcome: RunOutcome = r.state === 'failed' ? 'failed' : 'running';
    let error = r.error;
    if (r.state === 'queued') {
      const mine = mails.filter((m) => m.ref === runRef(r.id));
      const failed = mine.find((m) => !m.sentAt && m.attempts >= OUTBOX_MAX_ATTEMPTS);
      if (failed) {
        outcome = 'failed';
        error = failed.error;
      } else if (mine.some((m) => !m.sentAt && m.heldTenantId)) outcome = 'held';
      else if (mine.every((m) => m.sentAt)) outcome = 'sent';
      else outcome = 'sending';
    }
    return {
      Id: r.id,
      DueAt: r.dueAt,
      StartedAt: r.startedAt,
      FinishedAt: r.finishedAt,
      PeriodFrom: r.periodFrom,
      PeriodTo: r.periodTo,
      Rows: r.rows,
      Outcome: outcome,
      Error: error,
      Attempts: r.attempts,
      Missed: r.missed,
    };
  });
}

export async function listRuns(db: DB, scheduleId: string, limit: number): Promise<ScheduleRunDto[]> {
  const runs = await db.selectFrom('reportScheduleRuns').selectAll().where('scheduleId', '=', scheduleId).orderBy('id', 'desc').limit(limit).execute();
  return runDtos(db, runs);
}

/** The schedules of the scope, by name, with their latest run. */
export async function listSchedules(db: DB, scope: ScheduleScope, onlyId?: string): Promise<ScheduleDto[]> {
  let q = db
    .selectFrom('reportSchedules as s')
    .leftJoin('persons as p', 'p.id', 's.ownerId')
    .leftJoin('customers as c', 'c.id', 's.customerId')
    .selectAll('s')
    .select(['p.firstName', 'p.lastName', 'p.email', 'c.name as customerName'])
    .orderBy('s.name')
    .orderBy('s.id');
  if (onlyId) q = q.where('s.id', '=', onlyId);
  if (!scope.all) q = q.where('s.ownerId', '=', scope.ownerId);
  const rows = await q.execute();
  if (!rows.length) return [];
  const ids = rows.map((r) => r.id);
  const latestIds = await db
    .selectFrom('reportScheduleRuns')
    .select((eb) => ['scheduleId', eb.fn.max('id').as('id')])
    .where('scheduleId', 'in', ids)
    .groupBy('scheduleId')
    .execute();
  const latest = latestIds.length
    ? await db
        .selectFrom('reportScheduleRuns')
        .selectAll()
        .where(
          'id',
          'in',
          latestIds.map((l) => Number(l.id)),
        )
        .execute()
    : [];
  const dtos = await runDtos(db, latest);
  const byId = new Map(latest.map((r, i) => [r.scheduleId, dtos[i]!]));
  return rows.map((s) => ({
    Id: s.id,
    Name: s.name,
    Frequency: s.frequency as ScheduleFrequency,
    DayOfWeek: s.dayOfWeek,
    DayOfMonth: s.dayOfMonth,
    TimeOfDay: s.timeOfDay,
    Description: describeSchedule(ruleOf(s)),
    Recipients: JSON.parse(s.recipients) as string[],
    Format: s.format as ScheduleFormat,
    Report: s.report as ScheduleReport,
    Filters: JSON.parse(s.filters) as Record<string, unknown>,
    CustomerName: s.customerName ?? null,
    Paused: s.paused === 1,
    NextRunAt: s.paused === 1 ? null : s.nextDueAt,
    LastRun: byId.get(s.id) ?? null,
    CreatedByName: s.firstName ? `${s.firstName} ${s.lastName}`.trim() : (s.email ?? ''),
    Etag: s.etag,
  }));
}
