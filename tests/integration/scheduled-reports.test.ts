// Scheduled reports against the real server and a real SMTP server: create / list / edit / pause /
// delete over HTTP with permissions and audit entries; a due schedule runs once and the e-mail
// carries the .xlsx of the alarm reports its filters and period select; catch-up after downtime
// sends once; a customer's paused e-mail holds the report; the feature off sends nothing; a
// schedule of the monthly management report sends the .xlsx of the last full London month whose
// numbers are the report's (and nothing while ExportManagementReportPDF is off); two scheduler instances (two connections to one database) racing the same due times run each once.
// SQLite and, with TEST_DB=pg, PostgreSQL.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { randomUUID } from 'node:crypto';
import { startMailbox, type Mailbox } from '../helpers/mailbox.js';
import ExcelJS from '@zurmokeeper/exceljs';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { insertPerson, signedIn } from '../helpers/auth.js';
import { insertAlarmReport } from '../helpers/alarm-reports.js';
import { errorOf, insertCustomer, ok } from '../helpers/customers.js';
import { openPostgres, type DB } from '../../src/server/db/index.js';
import { createOutbox } from '../../src/server/mail/outbox.js';
import { createExportPool } from '../../src/server/exports/pool.js';
import { EXPORT_WORKER_FILE } from '../../src/server/modules/export-definitions.js';
import { createReportScheduler, type ReportScheduler } from '../../src/server/modules/schedules/scheduler.js';
import { managementPeriod, reportPeriod, type ScheduleRule } from '../../src/shared/schedules.js';
import { monthLabel, monthRange, shiftMonth } from '../../src/shared/management-report.js';
import type { ManagementReport } from '../../src/shared/schemas/management-report.js';
import { SCHEDULE_TEXT, type ScheduleDto, type ScheduleInput, type ScheduleListDto, type ScheduleRunsDto } from '../../src/shared/schemas/schedules.js';

let t: TestApp;
let mailbox: Mailbox;
let mails: Mailbox['mails'];
let manager: { id: string; token: string; email: string };
let supervisor: { token: string; email: string };
let controller: { token: string };
let readonly: { token: string };
let admin: { token: string };
let clock = new Date();
let scheduler: ReportScheduler;

beforeAll(async () => {
  mailbox = await startMailbox();
  mails = mailbox.mails;
  t = await createTestApp({ smtpUrl: mailbox.smtpUrl('reports@workspace.test') });
  manager = await signedIn(t.db, t.config, ['ArcManagerRole'], 'manager@arc.test');
  supervisor = await signedIn(t.db, t.config, ['ArcSupervisorRole'], 'supervisor@arc.test');
  controller = await signedIn(t.db, t.config, ['ArcControllerRole'], 'controller@arc.test');
  readonly = await signedIn(t.db, t.config, ['SuperAdminReadonlyRole'], 'reader@provider.test');
  admin = await signedIn(t.db, t.config, ['SuperAdminRole'], 'admin@provider.test');
  scheduler = createReportScheduler({ db: t.db, outbox: t.deps.outbox, exports: t.services.exports, now: () => clock, log: t.deps.log, nodeId: 'node-a' });
});
afterAll(async () => {
  await t?.close();
  await mailbox?.close();
});

const base = (over: Partial<ScheduleInput> = {}): ScheduleInput => ({
  name: 'Daily incidents',
  frequency: 'daily',
  timeOfDay: '07:00',
  recipients: ['manager@arc.test', 'supervisor@arc.test'],
  format: 'xlsx',
  filters: { alarmVerificationTypes: [1], alarmClosedDateRangeOption: 2 },
  ...over,
});
const create = (body: unknown, token = manager.token) => t.request('/alarm-report/schedules', { method: 'POST', token, json: body });
const list = async (token = manager.token) => ok<ScheduleListDto>(await t.request('/alarm-report/schedules', { token }));
const runs = async (id: string, token = manager.token) => (await ok<ScheduleRunsDto>(await t.request(`/alarm-report/schedules/${id}/runs`, { token }))).Runs;
const auditOf = (entityId: string) =>
  t.db
    .selectFrom('auditLog')
    .select(['action', 'actorId', 'details'])
    .where('entity', '=', 'schedule')
    .where('entityId', '=', entityId)
    .orderBy('id')
    .execute();
async function settle() {
  for (let i = 0; i < 3; i++) {
    await t.deps.outbox.idle();
    await new Promise((r) => setTimeout(r, 50));
  }
}
const ruleOf = (s: ScheduleDto): ScheduleRule => ({ frequency: s.Frequency, dayOfWeek: s.DayOfWeek, dayOfMonth: s.DayOfMonth, timeOfDay: s.TimeOfDay });
const setFeature = async (on: boolean) =>
  ok(await t.request('/ps-admin/settings/feature', { method: 'PUT', token: admin.token, json: { name: 'ScheduledReports', isEnabled: on } }));

/** The attachments of a raw MIME message (nodemailer's multipart/mixed, base64 parts). */
function attachmentsOf(raw: string) {
  const boundary = /boundary="?([^";\r\n]+)"?/i.exec(raw)?.[1];
  if (!boundary) return [];
  return raw
    .split(`--${boundary}`)
    .filter((p) => /Content-Disposition:\s*attachment/i.test(p))
    .map((p) => {
      const split = p.search(/\r?\n\r?\n/);
      const head = p.slice(0, split);
      return {
        name: /filename="?([^";\r\n]+)"?/i.exec(head)?.[1],
        type: /Content-Type:\s*([^;\r\n]+)/i.exec(head)?.[1],
        bytes: Buffer.from(p.slice(split).replace(/\s+/g, ''), 'base64'),
      };
    });
}
async function sheetRows(bytes: Buffer, sheet = 'Alarm Reports'): Promise<string[][]> {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(bytes as never);
  const ws = wb.getWorksheet(sheet)!;
  const rows: string[][] = [];
  ws.eachRow((r) => rows.push((r.values as unknown[]).slice(1).map((v) => (v instanceof Date ? v.toISOString() : String(v ?? '')))));
  return rows;
}

describe('permissions and validation', () => {
  test('ARC managers and supervisors may use schedules; controllers and read-only admins may not', async () => {
    expect((await list()).Enabled).toBe(true);
    expect((await list(supervisor.token)).Enabled).toBe(true);
    expect((await t.request('/alarm-report/schedules', { token: controller.token })).status).toBe(403);
    expect((await t.request('/alarm-report/schedules', { token: readonly.token })).status).toBe(403);
    expect((await create(base(), controller.token)).status).toBe(403);
  });

  test('weekly needs its day, monthly its date, a time HH:mm, at least one recipient', async () => {
    const weekly = await errorOf(await create(base({ frequency: 'weekly' })));
    expect(weekly.Errors?.dayOfWeek).toBe('Please choose the day of the week.');
    const monthly = await errorOf(await create(base({ frequency: 'monthly', dayOfMonth: 32 })));
    expect(monthly.Errors?.dayOfMonth).toBe('Please choose a day of the month from 1 to 31.');
    expect((await errorOf(await create(base({ timeOfDay: '7am' })))).Errors?.timeOfDay).toBe('Please enter the time of day as HH:mm (24-hour, UK time).');
    expect((await errorOf(await create(base({ recipients: [] })))).Errors?.recipients).toBe('Please enter at least one recipient.');
  });

  test('recipients must be persons the user may list: ARC staff for an ARC role, anyone for a provider admin', async () => {
    const customer = await insertCustomer(t.db, { name: 'Recipient Care Ltd' });
    await insertPerson(t.db, { email: 'worker@recipient-care.test', roles: ['PortalUserRole'], tenantId: customer.tenantId });
    const refused = await create(base({ recipients: ['manager@arc.test', 'worker@recipient-care.test'] }));
    expect(refused.status).toBe(400);
    expect((await errorOf(refused)).Message).toBe('worker@recipient-care.test is not the e-mail address of a person you may send reports to.');
    expect((await create(base({ recipients: ['nobody@nowhere.test'] }))).status).toBe(400);
    const byAdmin = await ok<ScheduleDto>(
      await create(
        base({ name: 'Admin to a customer', recipients: ['worker@recipient-care.test'], filters: { customerAccountFullName: 'Recipient Care Ltd' } }),
        admin.token,
      ),
      201,
    );
    expect(byAdmin.Recipients).toEqual(['worker@recipient-care.test']);
    await ok(await t.request(`/alarm-report/schedules/${byAdmin.Id}`, { method: 'DELETE', token: admin.token }));
  });
});

describe('whose schedule it is', () => {
  test("a schedule is its creator's: another ARC role neither sees nor changes it; a provider admin sees and changes every one", async () => {
    const mine = await ok<ScheduleDto>(await create(base({ name: 'Owned by the admin', recipients: ['manager@arc.test'] }), admin.token), 201);
    const path = `/alarm-report/schedules/${mine.Id}`;
    for (const who of [supervisor, manager]) {
      expect((await list(who.token)).Schedules.map((s) => s.Id)).not.toContain(mine.Id);
      const edit = await t.request(path, { method: 'PUT', token: who.token, json: { ...base({ name: 'Taken over' }), etag: mine.Etag } });
      expect(edit.status).toBe(404);
      expect((await errorOf(edit)).Message).toBe(SCHEDULE_TEXT.notFound);
      expect((await t.request(`${path}/pause`, { method: 'PUT', token: who.token, json: { paused: true } })).status).toBe(404);
      expect((await t.request(path, { method: 'DELETE', token: who.token })).status).toBe(404);
      expect((await t.request(`${path}/runs`, { token: who.token })).status).toBe(404);
    }
    // nothing of it changed, and no audit entry but its creation
    const stored = await t.db.selectFrom('reportSchedules').select(['name', 'paused', 'etag']).where('id', '=', mine.Id).executeTakeFirstOrThrow();
    expect(stored).toEqual({ name: 'Owned by the admin', paused: 0, etag: mine.Etag });
    expect((await auditOf(mine.Id)).map((e) => e.action)).toEqual(['schedule.create']);

    // the supervisor's own schedule: theirs to change, and the provider admin's too
    const theirs = await ok<ScheduleDto>(await create(base({ name: 'Owned by the supervisor', recipients: ['supervisor@arc.test'] }), supervisor.token), 201);
    expect((await list(supervisor.token)).Schedules.map((s) => s.Id)).toEqual([theirs.Id]);
    expect((await list(admin.token)).Schedules.map((s) => s.Id)).toEqual(expect.arrayContaining([mine.Id, theirs.Id]));
    const paused = await ok<ScheduleDto>(
      await t.request(`/alarm-report/schedules/${theirs.Id}/pause`, { method: 'PUT', token: admin.token, json: { paused: true } }),
    );
    expect(paused.Paused).toBe(true);
    await ok(await t.request(`/alarm-report/schedules/${theirs.Id}`, { method: 'DELETE', token: supervisor.token }));
    await ok(await t.request(path, { method: 'DELETE', token: admin.token }));
  });
});

describe('where a report may be sent', () => {
  let acme: { id: string; tenantId: string };
  beforeAll(async () => {
    acme = await insertCustomer(t.db, { name: 'Tenant Rule Care' });
    await insertCustomer(t.db, { name: 'Tenant Rule Care Two' });
    await insertPerson(t.db, { email: 'carer@tenant-rule.test', roles: ['PortalUserRole'], tenantId: acme.tenantId });
    const other = await insertCustomer(t.db, { name: 'Elsewhere Care' });
    await insertPerson(t.db, { email: 'carer@elsewhere.test', roles: ['PortalUserRole'], tenantId: other.tenantId });
  });

  test("a customer's person receives only their customer's report: every customer's alarm list or management report is refused, so is a mix of customers", async () => {
    const refusals = [
      base({ name: 'All customers to a customer', recipients: ['carer@tenant-rule.test'] }),
      base({ name: 'Loose filter', recipients: ['carer@tenant-rule.test'], filters: { customerAccountFullName: 'tenant rule' } }),
      base({ name: 'Other customer', recipients: ['carer@elsewhere.test'], filters: { customerAccountFullName: 'Tenant Rule Care' } }),
      base({ name: 'Two customers', recipients: ['carer@tenant-rule.test', 'carer@elsewhere.test'], filters: { customerAccountFullName: 'Tenant Rule Care' } }),
      base({ name: 'Management of all', report: 'managementReport', frequency: 'monthly', dayOfMonth: 1, recipients: ['carer@tenant-rule.test'] }),
    ];
    for (const body of refusals) {
      const res = await create(body, admin.token);
      expect(res.status, body.name).toBe(400);
      const err = await errorOf(res);
      expect(err.Code).toBe('validation_error');
      expect(err.Errors?.recipients).toBe(err.Message);
      expect(err.Message).toMatch(/is a person of a customer: a report sent to them must be of their customer alone/);
    }
    expect(
      await t.db
        .selectFrom('reportSchedules')
        .select('id')
        .where(
          'name',
          'in',
          refusals.map((b) => b.name),
        )
        .execute(),
    ).toEqual([]);

    // the same refusal on edit
    const fine = await ok<ScheduleDto>(await create(base({ name: 'Staff only', recipients: ['manager@arc.test'] }), admin.token), 201);
    const edit = await t.request(`/alarm-report/schedules/${fine.Id}`, { method: 'PUT', token: admin.token, json: { ...refusals[0]!, etag: fine.Etag } });
    expect(edit.status).toBe(400);
    expect((await t.db.selectFrom('reportSchedules').select('recipients').where('id', '=', fine.Id).executeTakeFirstOrThrow()).recipients).toBe(
      JSON.stringify(['manager@arc.test']),
    );
    await ok(await t.request(`/alarm-report/schedules/${fine.Id}`, { method: 'DELETE', token: admin.token }));

    // provider staff may receive every customer's; a customer's person with provider staff their own customer's
    const mixed = await ok<ScheduleDto>(
      await create(
        base({
          name: 'Own customer with staff',
          recipients: ['carer@tenant-rule.test', 'manager@arc.test'],
          filters: { customerAccountFullName: 'tenant rule care' },
        }),
        admin.token,
      ),
      201,
    );
    const monthlyOwn = await ok<ScheduleDto>(
      await create(
        base({
          name: 'Own management report',
          report: 'managementReport',
          frequency: 'monthly',
          dayOfMonth: 1,
          recipients: ['carer@tenant-rule.test'],
          filters: { customerAccountFullName: 'Tenant Rule Care' },
        }),
        admin.token,
      ),
      201,
    );
    for (const s of [mixed, monthlyOwn]) await ok(await t.request(`/alarm-report/schedules/${s.Id}`, { method: 'DELETE', token: admin.token }));
  });

  test("a run sends a customer's person only that customer's rows, and sends nothing once a recipient is of another tenant", async () => {
    const s = await ok<ScheduleDto>(
      await create(
        base({
          name: 'Tenant rule daily',
          recipients: ['carer@tenant-rule.test'],
          filters: { customerAccountFullName: 'tenant rule care', alarmVerificationTypes: [2] },
        }),
        admin.token,
      ),
      201,
    );
    const due = new Date(s.NextRunAt!);
    const period = reportPeriod(ruleOf(s), due);
    const closed = `${period.to}T10:00:00.000Z`;
    // the saved filter ('tenant rule care') also matches the second customer's name: its rows stay out
    await insertAlarmReport(t.db, {
      alarmId: '22222222-0000-4000-8000-000000000001',
      customerId: acme.id,
      customerAccountFullName: 'Tenant Rule Care',
      alarmClosed: closed,
      verificationType: 2,
    });
    const two = await t.db.selectFrom('customers').select('id').where('name', '=', 'Tenant Rule Care Two').executeTakeFirstOrThrow();
    await insertAlarmReport(t.db, {
      alarmId: '22222222-0000-4000-8000-000000000002',
      customerId: two.id,
      customerAccountFullName: 'Tenant Rule Care Two',
      alarmClosed: closed,
      verificationType: 2,
    });
    mails.length = 0;
    clock = new Date(due.getTime() + 1000);
    expect(await scheduler.tick()).toBeGreaterThanOrEqual(1);
    await settle();
    const mine = mails.filter((m) => /Tenant rule daily/.test(m.raw));
    expect(mine.map((m) => m.to).flat()).toEqual(['carer@tenant-rule.test']);
    const rows = await sheetRows(attachmentsOf(mine[0]!.raw)[0]!.bytes);
    const idCol = rows[0]!.indexOf('Alarm Id');
    expect(rows.slice(1).map((r) => r[idCol])).toEqual(['22222222-0000-4000-8000-000000000001']);

    // the recipient moves to another customer: the next run is refused before anything is built
    const elsewhere = await t.db.selectFrom('customers').select('tenantId').where('name', '=', 'Elsewhere Care').executeTakeFirstOrThrow();
    await t.db.updateTable('persons').set({ tenantId: elsewhere.tenantId }).where('email', '=', 'carer@tenant-rule.test').execute();
    try {
      mails.length = 0;
      const next = (await list(admin.token)).Schedules.find((x) => x.Id === s.Id)!;
      clock = new Date(new Date(next.NextRunAt!).getTime() + 1000);
      await scheduler.tick();
      await settle();
      expect(mails.filter((m) => /Tenant rule daily/.test(m.raw))).toEqual([]);
      const [latest] = await runs(s.Id, admin.token);
      expect(latest).toMatchObject({ Outcome: 'failed' });
      expect(latest!.Error).toMatch(/^not sent: carer@tenant-rule.test is a person of a customer/);
    } finally {
      await t.db.updateTable('persons').set({ tenantId: acme.tenantId }).where('email', '=', 'carer@tenant-rule.test').execute();
      await ok(await t.request(`/alarm-report/schedules/${s.Id}`, { method: 'DELETE', token: admin.token }));
    }
  });
});

describe('create, edit, pause, delete: stored and audited', () => {
  test('the whole life of a schedule', async () => {
    const created = await ok<ScheduleDto>(await create(base({ name: '  Weekly falls ', frequency: 'weekly', dayOfWeek: 1, timeOfDay: '08:30' })), 201);
    expect(created).toMatchObject({
      Name: 'Weekly falls',
      Frequency: 'weekly',
      DayOfWeek: 1,
      Description: 'Weekly on Monday at 08:30',
      Paused: false,
      LastRun: null,
    });
    // the saved filters keep the list's filters but not its date range (each run covers its own period)
    expect(created.Filters.alarmVerificationTypes).toEqual([1]);
    expect(created.Filters).not.toHaveProperty('alarmClosedDateRangeOption');
    expect(new Date(created.NextRunAt!).getTime()).toBeGreaterThan(Date.now());
    expect((await list()).Schedules.map((s) => s.Name)).toContain('Weekly falls');

    const edited = await ok<ScheduleDto>(
      await t.request(`/alarm-report/schedules/${created.Id}`, {
        method: 'PUT',
        token: admin.token,
        json: { ...base({ name: 'Monthly falls', frequency: 'monthly', dayOfMonth: 31 }), etag: created.Etag },
      }),
    );
    expect(edited).toMatchObject({
      Name: 'Monthly falls',
      DayOfWeek: null,
      DayOfMonth: 31,
      Description: "Monthly on the 31st (or the month's last day) at 07:00",
    });
    const stale = await t.request(`/alarm-report/schedules/${created.Id}`, { method: 'PUT', token: manager.token, json: { ...base(), etag: created.Etag } });
    expect(stale.status).toBe(409);

    const paused = await ok<ScheduleDto>(
      await t.request(`/alarm-report/schedules/${created.Id}/pause`, { method: 'PUT', token: manager.token, json: { paused: true } }),
    );
    expect(paused.Paused).toBe(true);
    expect(paused.NextRunAt).toBeNull();
    const resumed = await ok<ScheduleDto>(
      await t.request(`/alarm-report/schedules/${created.Id}/pause`, { method: 'PUT', token: manager.token, json: { paused: false } }),
    );
    expect(resumed.NextRunAt).not.toBeNull();

    const deleted = await ok<{ Content: { Message: string } }>(
      await t.request(`/alarm-report/schedules/${created.Id}`, { method: 'DELETE', token: manager.token }),
    );
    expect(deleted.Content.Message).toBe("Scheduled report 'Monthly falls' deleted.");
    expect((await list()).Schedules.map((s) => s.Id)).not.toContain(created.Id);
    expect((await t.request(`/alarm-report/schedules/${created.Id}`, { method: 'DELETE', token: manager.token })).status).toBe(404);

    const entries = await auditOf(created.Id);
    expect(entries.map((e) => e.action)).toEqual(['schedule.create', 'schedule.update', 'schedule.pause', 'schedule.resume', 'schedule.delete']);
    expect(entries[0]!.actorId).toBe(manager.id);
    expect(JSON.parse(entries[1]!.details)).toMatchObject({ before: { name: 'Weekly falls' }, after: { name: 'Monthly falls', dayOfMonth: 31 } });
  });
});

describe('runs', () => {
  let s: ScheduleDto;
  let due: Date;
  beforeAll(async () => {
    s = await ok<ScheduleDto>(await create(base({ name: 'Daily incidents' })), 201);
    due = new Date(s.NextRunAt!);
    const period = reportPeriod(ruleOf(s), due);
    // In the period and the filters: two; another type, and the day before the period: left out.
    await insertAlarmReport(t.db, { alarmId: '11111111-0000-4000-8000-000000000001', alarmClosed: `${period.from}T09:00:00.000Z`, verificationType: 1 });
    await insertAlarmReport(t.db, { alarmId: '11111111-0000-4000-8000-000000000002', alarmClosed: `${period.to}T15:00:00.000Z`, verificationType: 1 });
    await insertAlarmReport(t.db, { alarmId: '11111111-0000-4000-8000-000000000003', alarmClosed: `${period.to}T16:00:00.000Z`, verificationType: 4 });
    const before = new Date(new Date(`${period.from}T12:00:00Z`).getTime() - 86_400_000).toISOString();
    await insertAlarmReport(t.db, { alarmId: '11111111-0000-4000-8000-000000000004', alarmClosed: before, verificationType: 1 });
  });

  test('not due yet: nothing runs', async () => {
    clock = new Date(due.getTime() - 1000);
    expect(await scheduler.tick()).toBe(0);
    expect(await runs(s.Id)).toEqual([]);
  });

  test('a due schedule runs once: each recipient gets the .xlsx of the matching reports of the period', async () => {
    mails.length = 0;
    clock = new Date(due.getTime() + 1000);
    expect(await scheduler.tick()).toBe(1);
    expect(await scheduler.tick()).toBe(0); // the same due time never runs twice
    await settle();
    expect(
      mails
        .map((m) => m.to)
        .flat()
        .sort(),
    ).toEqual(['manager@arc.test', 'supervisor@arc.test']);
    const [file] = attachmentsOf(mails[0]!.raw);
    expect(file?.name).toMatch(/^AlarmReports_\d{8}_\d{6}\.xlsx$/);
    expect(file?.type).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    const rows = await sheetRows(file!.bytes);
    expect(rows[0]).toContain('Alarm Id');
    const idCol = rows[0]!.indexOf('Alarm Id');
    expect(
      rows
        .slice(1)
        .map((r) => r[idCol])
        .sort(),
    ).toEqual(['11111111-0000-4000-8000-000000000001', '11111111-0000-4000-8000-000000000002']);

    const [run] = await runs(s.Id);
    expect(run).toMatchObject({ DueAt: due.toISOString(), Rows: 2, Outcome: 'sent', Missed: 0, Attempts: 1 });
    const listed = (await list()).Schedules.find((x) => x.Id === s.Id)!;
    expect(listed.LastRun?.Outcome).toBe('sent');
    expect(new Date(listed.NextRunAt!).getTime()).toBeGreaterThan(clock.getTime());
  });

  test('catch-up after downtime: one run for the latest due time missed, not one per missed day', async () => {
    mails.length = 0;
    const stored = new Date((await list()).Schedules.find((x) => x.Id === s.Id)!.NextRunAt!);
    clock = new Date(stored.getTime() + 2 * 86_400_000 + 3_600_000); // three due times passed while "down"
    expect(await scheduler.tick()).toBe(1);
    expect(await scheduler.tick()).toBe(0);
    await settle();
    expect(
      mails
        .map((m) => m.to)
        .flat()
        .sort(),
    ).toEqual(['manager@arc.test', 'supervisor@arc.test']);
    const [latest] = await runs(s.Id);
    expect(latest).toMatchObject({ DueAt: new Date(stored.getTime() + 2 * 86_400_000).toISOString(), Missed: 2, Outcome: 'sent' });
    expect(await runs(s.Id)).toHaveLength(2);
  });

  test("a customer's paused e-mail holds its schedule's report in the outbox", async () => {
    const quiet = await insertCustomer(t.db, { name: 'Quiet Care Ltd', isAutomaticEmailsPaused: 1 });
    const held = await ok<ScheduleDto>(
      await create(base({ name: 'Quiet Care daily', recipients: ['manager@arc.test'], filters: { customerAccountFullName: 'quiet care ltd' } })),
      201,
    );
    expect(held.CustomerName).toBe('Quiet Care Ltd');
    mails.length = 0;
    clock = new Date(new Date(held.NextRunAt!).getTime() + 1000);
    expect(await scheduler.tick()).toBeGreaterThanOrEqual(1);
    await settle();
    expect(mails.filter((m) => /Quiet Care daily/.test(m.raw))).toEqual([]);
    expect((await runs(held.Id))[0]?.Outcome).toBe('held');
    const waiting = await t.db.selectFrom('outbox').select('heldTenantId').where('ref', 'like', 'scheduleRun:%').where('sentAt', 'is', null).execute();
    expect(waiting.map((w) => w.heldTenantId)).toContain(quiet.tenantId);
    await ok(await t.request(`/alarm-report/schedules/${held.Id}`, { method: 'DELETE', token: manager.token }));
  });

  test('feature off: nothing listed, nothing created, nothing sent', async () => {
    await setFeature(false);
    try {
      mails.length = 0;
      clock = new Date(clock.getTime() + 3 * 86_400_000);
      expect(await scheduler.tick()).toBe(0);
      await settle();
      expect(mails).toEqual([]);
      expect(await list()).toEqual({ Enabled: false, Schedules: [] });
      const refused = await create(base({ name: 'While off' }));
      expect(refused.status).toBe(403);
      expect((await errorOf(refused)).Message).toBe('Scheduled reports are switched off.');
    } finally {
      await setFeature(true);
    }
  });
});

describe('a schedule of the monthly management report', () => {
  const setManagement = (on: boolean) =>
    t.db
      .updateTable('features')
      .set({ isEnabled: on ? 1 : 0 })
      .where('name', '=', 'ExportManagementReportPDF')
      .execute();
  const monthly = (over: Partial<ScheduleInput> = {}) =>
    base({ report: 'managementReport', frequency: 'monthly', dayOfMonth: 3, timeOfDay: '06:00', recipients: ['manager@arc.test'], ...over });
  let customer: { id: string; name: string };
  beforeAll(async () => {
    customer = await insertCustomer(t.db, { name: 'Month End Care Ltd' });
  });

  test('monthly only, of one customer or of all, and only while the management report is on', async () => {
    const weekly = await errorOf(await create(monthly({ frequency: 'weekly', dayOfWeek: 1, dayOfMonth: null })));
    expect(weekly.Errors?.frequency).toBe('The management report covers a whole month: please choose monthly.');
    const vague = await errorOf(await create(monthly({ filters: { customerAccountFullName: 'care' } })));
    expect(vague.Errors?.report).toBe(SCHEDULE_TEXT.managementCustomer);
    await setManagement(false);
    try {
      expect((await errorOf(await create(monthly()))).Errors?.report).toBe('The management report is not enabled.');
    } finally {
      await setManagement(true);
    }
  });

  test("a due run e-mails the .xlsx of the last full London month with the report's numbers; the list says what it sends", async () => {
    const s = await ok<ScheduleDto>(await create(monthly({ name: 'Month End Care monthly', filters: { customerAccountFullName: 'month end care ltd' } })), 201);
    expect(s).toMatchObject({ Report: 'managementReport', CustomerName: 'Month End Care Ltd', Frequency: 'monthly', DayOfMonth: 3 });
    expect((await list()).Schedules.find((x) => x.Id === s.Id)?.Report).toBe('managementReport');
    const due = new Date(s.NextRunAt!);
    const period = managementPeriod(due);
    const { from, to } = monthRange(period.month);
    // The month's first and last minutes and its middle (12 s and 45 s missed the 10 s target),
    // another customer's report in the month and one of the month before: left out of the totals.
    const started = [3, 12, 45];
    const molly = randomUUID();
    const closed = [from, new Date((Date.parse(from) + Date.parse(to)) / 2).toISOString(), new Date(Date.parse(to) - 60_000).toISOString()];
    for (const [i, at] of closed.entries())
      await insertAlarmReport(t.db, {
        customerId: customer.id,
        customerAccountFullName: customer.name,
        alarmClosed: at,
        verificationStartedSeconds: started[i]!,
        personId: molly,
        personFullName: 'Molly Month',
      });
    await insertAlarmReport(t.db, { alarmClosed: closed[1]!, customerAccountFullName: 'Someone Else Ltd' });
    await insertAlarmReport(t.db, {
      customerId: customer.id,
      customerAccountFullName: customer.name,
      alarmClosed: new Date(Date.parse(from) - 60_000).toISOString(),
    });

    mails.length = 0;
    clock = new Date(due.getTime() + 1000);
    expect(await scheduler.tick()).toBeGreaterThanOrEqual(1);
    await settle();
    const mine = mails.filter((m) => /Month End Care monthly/.test(m.raw));
    expect(mine.map((m) => m.to).flat()).toEqual(['manager@arc.test']);
    const [file] = attachmentsOf(mine[0]!.raw);
    expect(file?.name).toBe(`ManagementReport_${period.month}.xlsx`);
    expect(file?.type).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    const rows = await sheetRows(file!.bytes, 'Management Report');
    const value = (label: string) => rows.find((r) => r[0] === label)?.[1];
    const api = await ok<ManagementReport>(
      await t.request('/alarm-report/get-management-report', { method: 'POST', token: admin.token, json: { month: period.month, customerId: customer.id } }),
    );
    expect(api).toMatchObject({ TotalCount: 3, PreviousTotalCount: 1, MissedTotal: 2 });
    expect(value('Customer')).toBe('Month End Care Ltd');
    expect(value('Month')).toBe(monthLabel(period.month));
    expect(value('Alarms')).toBe('3');
    expect(value(`Alarms in ${monthLabel(shiftMonth(period.month, -1))}`)).toBe('1');
    expect(value('Missed')).toBe('2');
    expect(value('Molly Month')).toBe('3'); // the busiest users
    for (const b of api.VerificationStarted) expect(value(b.TimeFrame), b.TimeFrame).toBe(String(b.Count));
    for (const a of api.ByAlarmType) expect(value(a.Name), a.Name).toBe(String(a.Count));
    const sections = rows.filter((r) => r.length === 1).map((r) => r[0]);
    expect(sections).toEqual(expect.arrayContaining(['Alarms by type', 'Response targets', 'Busiest users', 'Escalation plan compliance']));

    const [run] = await runs(s.Id);
    expect(run).toMatchObject({ Rows: 3, Outcome: 'sent', PeriodFrom: period.from, PeriodTo: period.to, DueAt: due.toISOString() });
    await ok(await t.request(`/alarm-report/schedules/${s.Id}`, { method: 'DELETE', token: manager.token }));
  });

  test('the management report switched off after saving: the run fails with the reason and nothing is sent', async () => {
    const s = await ok<ScheduleDto>(await create(monthly({ name: 'All customers monthly', filters: {} })), 201);
    expect(s.CustomerName).toBeNull();
    await setManagement(false);
    try {
      mails.length = 0;
      clock = new Date(new Date(s.NextRunAt!).getTime() + 1000);
      await scheduler.tick();
      await settle();
      expect(mails.filter((m) => /All customers monthly/.test(m.raw))).toEqual([]);
      expect((await runs(s.Id))[0]).toMatchObject({ Outcome: 'failed', Error: 'not sent: The management report is not enabled.', Rows: null });
    } finally {
      await setManagement(true);
    }
    await ok(await t.request(`/alarm-report/schedules/${s.Id}`, { method: 'DELETE', token: manager.token }));
  });
});

describe('two scheduler instances on one database', () => {
  let second: { db: DB; scheduler: ReportScheduler; close: () => Promise<void> };
  beforeAll(async () => {
    // A second node: its own connection (PostgreSQL), outbox and export pool, the same database.
    const source = t.deps.dbSource;
    const db2 = source?.kind === 'pg' ? openPostgres(source.url, 4) : t.db;
    // the outbox's clock is the server's (its claims expire by it), as on every node
    const outbox2 = createOutbox({ smtpUrl: t.config.smtpUrl, log: t.deps.log, now: () => t.config.now() });
    const pool2 = createExportPool({ db: db2, source, workerFile: EXPORT_WORKER_FILE, log: t.deps.log, size: 1 });
    second = {
      db: db2,
      scheduler: createReportScheduler({ db: db2, outbox: outbox2, exports: pool2, now: () => clock, log: t.deps.log, nodeId: 'node-b' }),
      close: async () => {
        await pool2.close();
        await outbox2.close();
        if (db2 !== t.db) await db2.destroy();
      },
    };
  });
  afterAll(async () => second?.close());

  test('racing the same due times, each schedule runs once and each recipient gets one e-mail', async () => {
    // Park the earlier schedules so only the racing ones are due.
    for (const x of (await list()).Schedules)
      await ok(await t.request(`/alarm-report/schedules/${x.Id}/pause`, { method: 'PUT', token: manager.token, json: { paused: true } }));
    const racing: ScheduleDto[] = [];
    for (let i = 0; i < 4; i++)
      racing.push(await ok<ScheduleDto>(await create(base({ name: `Race ${i}`, recipients: ['manager@arc.test'], timeOfDay: '06:15' })), 201));
    const due = new Date(racing[0]!.NextRunAt!);
    expect(racing.every((r) => r.NextRunAt === due.toISOString())).toBe(true);
    mails.length = 0;
    clock = new Date(due.getTime() + 1000);
    const built = await Promise.all([scheduler.tick(), second.scheduler.tick(), scheduler.tick(), second.scheduler.tick()]);
    expect(built.reduce((a, b) => a + b, 0)).toBe(4);
    await settle();
    for (let i = 0; i < 20 && mails.length < 4; i++) await new Promise((r) => setTimeout(r, 100));
    await new Promise((r) => setTimeout(r, 300));
    expect(mails.filter((m) => /Race \d/.test(m.raw))).toHaveLength(4);
    for (const r of racing) expect(await runs(r.Id)).toHaveLength(1);
    const nodes = await t.db
      .selectFrom('reportScheduleRuns')
      .select('claimedBy')
      .where(
        'scheduleId',
        'in',
        racing.map((r) => r.Id),
      )
      .execute();
    expect(new Set(nodes.map((n) => n.claimedBy)).size).toBeGreaterThanOrEqual(1);
  });
});

describe('a run whose report could not be built', () => {
  test('is tried again a minute later, three times at most; one that then works is sent once', async () => {
    const broken = await ok<ScheduleDto>(await create(base({ name: 'Always broken', recipients: ['manager@arc.test'], timeOfDay: '05:45' })), 201);
    const healing = await ok<ScheduleDto>(await create(base({ name: 'Heals once', recipients: ['manager@arc.test'], timeOfDay: '05:45' })), 201);
    const failures = new Map([
      [`schedule:${broken.Id}`, Infinity],
      [`schedule:${healing.Id}`, 1],
    ]);
    const pool = t.services.exports;
    const flaky = {
      ...pool,
      start: (userId: string, ...rest: unknown[]) => {
        const left = failures.get(userId) ?? 0;
        if (left > 0) {
          failures.set(userId, left - 1);
          return Promise.reject(new Error('export pool unavailable'));
        }
        return (pool.start as (...a: unknown[]) => ReturnType<typeof pool.start>)(userId, ...rest);
      },
    } as typeof pool;
    const node = createReportScheduler({ db: t.db, outbox: t.deps.outbox, exports: flaky, now: () => clock, log: t.deps.log, nodeId: 'node-c' });
    mails.length = 0;
    const due = new Date(broken.NextRunAt!);
    clock = new Date(due.getTime() + 1000);
    expect(await node.tick()).toBe(2);
    expect((await runs(broken.Id))[0]).toMatchObject({ Outcome: 'failed', Error: 'export pool unavailable', Attempts: 1 });
    expect(await node.tick()).toBe(0); // not again within the minute
    for (let i = 0; i < 3; i++) {
      clock = new Date(clock.getTime() + 61_000);
      await node.tick();
    }
    await settle();
    expect((await runs(broken.Id))[0]).toMatchObject({ Outcome: 'failed', Attempts: 3 });
    expect(await runs(broken.Id)).toHaveLength(1);
    expect((await runs(healing.Id))[0]).toMatchObject({ Outcome: 'sent', Attempts: 2, Error: null });
    expect(mails.filter((m) => /Heals once/.test(m.raw))).toHaveLength(1);
    expect(mails.filter((m) => /Always broken/.test(m.raw))).toHaveLength(0);
  });
});
