// The usage report of a customer against the real app on SQLite (PostgreSQL with TEST_DB=pg): the
// figures of a small known data set whose messages go through ingestion (days used, check-ins,
// alarms raised, low-battery days, last seen; the month's edges in London time, summer time at its
// start), the rate against the month before, the current month counted to today; the tenant scope
// (a customer's scope reads its own customer only, another's answers as unknown; the guard refuses
// customer-tenant callers like every customer-scoped read); the roles; the .xlsx export through the
// pool; and the monthly schedule of the report with its feature switch.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import ExcelJS from '@zurmokeeper/exceljs';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { insertPerson, signedIn, tokenFor } from '../helpers/auth.js';
import { insertCustomer, insertDevice } from '../helpers/live.js';
import { insertAlarmReport } from '../helpers/alarm-reports.js';
import { errorOf, ok } from '../helpers/customers.js';
import { startMailbox, type Mailbox } from '../helpers/mailbox.js';
import { forgetIngestDevices, ingestMessages } from '../../src/server/modules/live/ingest.js';
import { usageReport } from '../../src/server/modules/fleet/usage-report.js';
import { createReportScheduler, type ReportScheduler } from '../../src/server/modules/schedules/scheduler.js';
import { ALL_TENANTS } from '../../src/server/auth/tenant-scope.js';
import { DEVICE_MESSAGE } from '../../src/shared/schemas/live.js';
import type { UsageReport } from '../../src/shared/schemas/usage-report.js';
import { SCHEDULE_TEXT, type ScheduleDto, type ScheduleInput, type ScheduleRunsDto } from '../../src/shared/schemas/schedules.js';
import { USAGE_TEXT } from '../../src/shared/messages.js';
import type { RoleName } from '../../src/shared/permissions.js';

/** Tuesday 10 November 2026, noon in London (GMT): London's today is 2026-11-10. */
let now = new Date('2026-11-10T12:00:00.000Z');
let t: TestApp;
let admin: { id: string; token: string; email: string };
let mailbox: Mailbox;
let clock = new Date();
let scheduler: ReportScheduler;
const A = { id: '', tenantId: '', name: 'Usage Alpha Ltd' };
const B = { id: '', tenantId: '', name: 'Usage Beta Ltd' };
const C = { id: '', tenantId: '', name: 'Usage Gamma Ltd' };
let ann = '';

type Msg = [date: string, message: string];
const CHECK = DEVICE_MESSAGE.checkIn;
/**
 * UR-1 (Ann Able's). October: used on the 1st (00:30 BST is still 30 September in UTC), 2nd, 3rd
 * (two check-ins), 10th (power on) and 12th (an SOS); the 11th only a heartbeat, the 20th only a
 * low-battery warning: not used. Low battery on the 3rd and the 20th. Last seen 31 October 23:59
 * (GMT). September: used on the 5th and the 30th (23:30 BST is 22:30 UTC). November: the 1st.
 */
const UR1: Msg[] = [
  ['2026-09-05T10:00:00.000Z', CHECK],
  ['2026-09-30T22:30:00.000Z', CHECK],
  ['2026-09-30T23:30:00.000Z', CHECK],
  ['2026-10-02T09:00:00.000Z', CHECK],
  ['2026-10-03T09:00:00.000Z', CHECK],
  ['2026-10-03T15:00:00.000Z', CHECK],
  ['2026-10-03T16:00:00.000Z', DEVICE_MESSAGE.lowBattery],
  ['2026-10-10T08:00:00.000Z', DEVICE_MESSAGE.powerOn],
  ['2026-10-11T08:00:00.000Z', DEVICE_MESSAGE.heartbeat],
  ['2026-10-12T08:00:00.000Z', DEVICE_MESSAGE.sos],
  ['2026-10-20T08:00:00.000Z', DEVICE_MESSAGE.lowBattery],
  ['2026-10-31T23:59:00.000Z', DEVICE_MESSAGE.heartbeat],
  ['2026-11-01T00:30:00.000Z', CHECK],
];
/** UR-2 (nobody's): one check-in on 31 October. */
const UR2: Msg[] = [['2026-10-31T12:00:00.000Z', CHECK]];
/** UR-B1 (customer B's): used every day of October; it is never in A's report. */
const URB1: Msg[] = Array.from({ length: 31 }, (_, i) => [`2026-10-${String(i + 1).padStart(2, '0')}T10:00:00.000Z`, CHECK] as Msg);

let imeiSeq = 0;
async function device(serial: string, customerId: string | null, status: number, messages: Msg[], personId: string | null = null) {
  const imei = `35630000000${String(++imeiSeq).padStart(4, '0')}`;
  await insertDevice(t.db, { serialNumber: serial, imei, type: 640, status, customerId, assignedPersonId: personId, isUserAssigned: personId ? 1 : 0 });
  forgetIngestDevices();
  if (messages.length)
    await ingestMessages(
      t.db,
      messages.map(([date, message], i) => ({
        messageId: `${serial}-${i}`,
        deviceIdentity: imei,
        deviceType: 640,
        date,
        message,
        battery: message === DEVICE_MESSAGE.lowBattery ? 9 : 70,
        signal: 50,
        rawMessage: 'raw',
        properties: {},
      })),
      now,
    );
}
const alarm = (customerId: string, serial: string, started: string, closedAfterMinutes = 10) =>
  insertAlarmReport(t.db, {
    customerId,
    customerAccountFullName: [A, B, C].find((x) => x.id === customerId)!.name,
    deviceSerial: serial,
    alarmStarted: started,
    alarmClosed: new Date(Date.parse(started) + closedAfterMinutes * 60_000).toISOString(),
  });

beforeAll(async () => {
  mailbox = await startMailbox();
  t = await createTestApp({ now: () => now, smtpUrl: mailbox.smtpUrl('reports@workspace.test') });
  admin = await signedIn(t.db, t.config, ['SuperAdminRole'], 'admin@usage.test');
  scheduler = createReportScheduler({ db: t.db, outbox: t.deps.outbox, exports: t.services.exports, now: () => clock, log: t.deps.log, nodeId: 'usage' });
  Object.assign(A, await insertCustomer(t.db, undefined, A.name));
  Object.assign(B, await insertCustomer(t.db, undefined, B.name));
  Object.assign(C, await insertCustomer(t.db, undefined, C.name));
  ann = await insertPerson(t.db, { email: 'ann@usage-alpha.test', firstName: 'Ann', lastName: 'Able', roles: ['PortalUserRole'], tenantId: A.tenantId });
  await device('UR-1', A.id, 3, UR1, ann);
  await device('UR-2', A.id, 3, UR2);
  await device('UR-STOCK', A.id, 5, [['2026-10-05T10:00:00.000Z', CHECK]]); // returned: not allocated, not in the report
  await device('UR-B1', B.id, 3, URB1);
  // Alarms raised in October (London): UR-1 at 00:10 BST on 1 October and on the 5th; one from a
  // serial no longer allocated. Not in October: UR-1's at 23:50 BST on 30 September, B's.
  await alarm(A.id, 'UR-1', '2026-09-30T23:10:00.000Z');
  await alarm(A.id, 'UR-1', '2026-10-05T10:00:00.000Z');
  await alarm(A.id, 'GONE-9', '2026-10-06T10:00:00.000Z');
  await alarm(A.id, 'UR-1', '2026-09-30T22:50:00.000Z');
  await alarm(B.id, 'UR-1', '2026-10-07T10:00:00.000Z');
  // Customer C: UR-C1 sent nothing in October but raised one alarm (14 October); UR-C2 raised an
  // alarm on the day of its SOS message (one day used, not two).
  await device('UR-C1', C.id, 3, []);
  await device('UR-C2', C.id, 3, [['2026-10-14T09:00:00.000Z', DEVICE_MESSAGE.sos]]);
  await alarm(C.id, 'UR-C1', '2026-10-14T09:00:00.000Z');
  await alarm(C.id, 'UR-C2', '2026-10-14T09:01:00.000Z');
});
afterAll(async () => {
  await t?.close();
  await mailbox?.close();
});

const get = (customerId: string, month: string, token = admin.token) =>
  t.request(`/ps-admin/customers/usage-report?customerId=${customerId}&month=${month}`, { token });

describe('the figures', () => {
  test('October: each device with its person, days used, check-ins, alarms raised, low-battery days, last seen; the rate against September', async () => {
    const r = await ok<UsageReport>(await get(A.id, '2026-10'));
    expect(r).toMatchObject({ CustomerName: A.name, Month: '2026-10', PreviousMonth: '2026-09', Days: 31, PreviousDays: 30, Devices: 2 });
    expect(r.Rows.map((x) => [x.PersonName, x.Serial, x.DaysUsed, x.CheckIns, x.Alarms, x.LowBatteryDays, x.LastSeen])).toEqual([
      // the alarm of 5 October (no message that day) makes it a day used; 1 October's was used by a check-in already
      ['Ann Able', 'UR-1', 6, 4, 2, 2, '2026-10-31T23:59:00.000Z'],
      [null, 'UR-2', 1, 1, 0, 0, '2026-10-31T12:00:00.000Z'],
    ]);
    expect(r.Rows[0]!.PersonId).toBe(ann);
    // 7 used device-days of 2 × 31; September 2 of 2 × 30 (its alarm of the 30th fell on a day used already)
    expect(r).toMatchObject({ UsedDeviceDays: 7, PreviousUsedDeviceDays: 2, UsageRate: 11.3, PreviousUsageRate: 3.3, RateChange: 8 });
    expect(r.Totals).toEqual({ DaysUsed: 7, CheckIns: 5, Alarms: 2, LowBatteryDays: 2 });
    expect(r.OtherAlarms).toBe(1);
  });

  test('the current month counts its days up to today; a month to come has none', async () => {
    const r = await ok<UsageReport>(await get(A.id, '2026-11'));
    expect(r).toMatchObject({ Days: 10, PreviousDays: 31, UsedDeviceDays: 1, UsageRate: 5, PreviousUsageRate: 11.3, RateChange: -6.3 });
    expect(r.Rows.find((x) => x.Serial === 'UR-1')?.LastSeen).toBe('2026-11-01T00:30:00.000Z');
    const later = await ok<UsageReport>(await get(A.id, '2026-12'));
    expect(later).toMatchObject({ Days: 0, UsageRate: null, PreviousUsageRate: 5, RateChange: null });
  });

  test('a device that raised an alarm was used that day: an alarm and no message is one day used, an alarm on the day of its SOS still one', async () => {
    const r = await ok<UsageReport>(await get(C.id, '2026-10'));
    expect(r.Rows.map((x) => [x.Serial, x.DaysUsed, x.Alarms])).toEqual([
      ['UR-C1', 1, 1],
      ['UR-C2', 1, 1],
    ]);
    expect(r).toMatchObject({ UsedDeviceDays: 2, Totals: { DaysUsed: 2, Alarms: 2 } });
    // November: the October alarms count for the month before only
    const nov = await ok<UsageReport>(await get(C.id, '2026-11'));
    expect(nov).toMatchObject({ UsedDeviceDays: 0, PreviousUsedDeviceDays: 2 });
    expect(nov.Rows.map((x) => [x.Serial, x.DaysUsed, x.Alarms])).toEqual([
      ['UR-C1', 0, 0],
      ['UR-C2', 0, 0],
    ]);
  });

  test('a month without a message: the devices are listed with nothing used and never seen', async () => {
    const r = await ok<UsageReport>(await get(A.id, '2026-08'));
    expect(r.Rows.map((x) => [x.Serial, x.DaysUsed, x.LastSeen])).toEqual([
      ['UR-1', 0, null],
      ['UR-2', 0, null],
    ]);
    expect(r.UsageRate).toBe(0);
  });

  test('an unknown customer is 404; a month that is not YYYY-MM is 400', async () => {
    const unknown = await get('00000000-0000-4000-8000-000000000001', '2026-10');
    expect(unknown.status).toBe(404);
    expect((await errorOf(unknown)).Message).toBe(USAGE_TEXT.customerNotFound);
    const bad = await get(A.id, '2026-13');
    expect(bad.status).toBe(400);
    expect(JSON.stringify(await bad.json())).toContain(USAGE_TEXT.badMonth);
  });
});

describe('tenant scope and roles', () => {
  test("a customer's scope reads its own customer only; another customer's id answers as unknown", async () => {
    const own = await usageReport(t.db, { all: false, tenantId: A.tenantId }, { customerId: A.id, month: '2026-10', now });
    expect(own?.Rows.map((x) => x.Serial)).toEqual(['UR-1', 'UR-2']);
    expect(own?.UsageRate).toBe(11.3);
    expect(await usageReport(t.db, { all: false, tenantId: A.tenantId }, { customerId: B.id, month: '2026-10', now })).toBeUndefined();
    // B's own alarm names UR-1 (A's serial): it is B's alone, from a device B does not hold
    const b = await usageReport(t.db, ALL_TENANTS, { customerId: B.id, month: '2026-10', now });
    expect(b?.Rows.map((x) => [x.Serial, x.DaysUsed, x.Alarms])).toEqual([['UR-B1', 31, 0]]);
    expect(b).toMatchObject({ OtherAlarms: 1, UsageRate: 100 });
  });

  test("the guard refuses a customer's administrator like every customer-scoped read, for their own customer and another's", async () => {
    const customerAdmin = await tokenFor(t.config, ['AdminRole', 'PortalUserRole'], { tenantId: A.tenantId });
    for (const id of [A.id, B.id]) expect((await get(id, '2026-10', customerAdmin)).status).toBe(403);
    const exported = await t.request('/ps-admin/customers/usage-report/export', {
      method: 'POST',
      token: customerAdmin,
      json: { customerId: A.id, month: '2026-10' },
    });
    expect(exported.status).toBe(403);
  });

  test('provider admins and read-only provider admins read it; ARC roles and customer roles are refused', async () => {
    for (const role of ['SuperAdminRole', 'SuperAdminReadonlyRole'] as RoleName[])
      expect((await get(A.id, '2026-10', await tokenFor(t.config, [role]))).status).toBe(200);
    for (const role of ['ArcManagerRole', 'ArcSupervisorRole', 'ArcControllerRole', 'PortalUserRole', 'AdminRole'] as RoleName[])
      expect((await get(A.id, '2026-10', await tokenFor(t.config, [role]))).status).toBe(403);
  });
});

async function sheetRows(bytes: Uint8Array | Buffer, sheet = 'Usage Report'): Promise<string[][]> {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(bytes as never);
  const ws = wb.getWorksheet(sheet)!;
  const rows: string[][] = [];
  ws.eachRow((r) => rows.push((r.values as unknown[]).slice(1).map((v) => (v instanceof Date ? v.toISOString() : String(v ?? '')))));
  return rows;
}

describe('export', () => {
  test("the .xlsx holds the report's rows, through the export pool", async () => {
    const res = await t.request('/ps-admin/customers/usage-report/export', {
      method: 'POST',
      token: admin.token,
      json: { customerId: A.id, month: '2026-10' },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    expect(res.headers.get('content-disposition')).toMatch(/filename="UsageReport_\d{8}_\d{6}\.xlsx"/);
    const rows = await sheetRows(Buffer.from(await res.arrayBuffer()));
    expect(rows[0]).toEqual(['Person', 'Device Serial', 'Device Type', 'Days Used', 'Check-ins', 'Alarms Raised', 'Low-battery Days', 'Last Seen (UK time)']);
    expect(rows.slice(1, 3).map((r) => r.slice(0, 2).concat(r.slice(3, 7)))).toEqual([
      ['Ann Able', 'UR-1', '6', '4', '2', '2'],
      ['Not assigned', 'UR-2', '1', '1', '0', '0'],
    ]);
    expect(rows[1]![7]).not.toBe('');
  });

  test('an unknown customer is 404, not an empty file', async () => {
    const res = await t.request('/ps-admin/customers/usage-report/export', {
      method: 'POST',
      token: admin.token,
      json: { customerId: '00000000-0000-4000-8000-000000000001', month: '2026-10' },
    });
    expect(res.status).toBe(404);
  });
});

describe('the monthly schedule', () => {
  const setFeature = (on: boolean) =>
    t.request('/ps-admin/settings/feature', { method: 'PUT', token: admin.token, json: { name: 'ScheduledUsageReport', isEnabled: on } });
  const body = (over: Partial<ScheduleInput> = {}): ScheduleInput => ({
    name: 'Alpha usage',
    report: 'usageReport',
    frequency: 'monthly',
    dayOfMonth: 1,
    timeOfDay: '06:00',
    recipients: ['admin@usage.test'],
    format: 'xlsx',
    filters: { customerAccountFullName: A.name },
    ...over,
  });
  const create = (b: unknown, token = admin.token) => t.request('/alarm-report/schedules', { method: 'POST', token, json: b });

  test('monthly only, of one customer named exactly, by those who may see usage reports, and only while its feature is on', async () => {
    expect((await errorOf(await create(body({ frequency: 'weekly', dayOfWeek: 1, dayOfMonth: null })))).Errors?.frequency).toBe(SCHEDULE_TEXT.usageMonthly);
    expect((await errorOf(await create(body({ filters: {} })))).Errors?.report).toBe(SCHEDULE_TEXT.usageCustomer);
    const manager = await signedIn(t.db, t.config, ['ArcManagerRole'], 'manager@usage.test');
    const refused = await create(body({ recipients: ['manager@usage.test'] }), manager.token);
    expect(refused.status).toBe(403);
    expect((await errorOf(refused)).Message).toBe(SCHEDULE_TEXT.usagePermission);
    expect((await setFeature(false)).status).toBe(200);
    try {
      expect((await errorOf(await create(body()))).Errors?.report).toBe(SCHEDULE_TEXT.usageOff);
    } finally {
      await setFeature(true);
    }
  });

  test("a due run e-mails the customer's .xlsx of the last full London month; switched off, the run fails and nothing is sent", async () => {
    // The customer's administrator receives their own customer's report.
    await insertPerson(t.db, { email: 'boss@usage-alpha.test', roles: ['AdminRole', 'PortalUserRole'], tenantId: A.tenantId });
    now = new Date('2026-10-20T12:00:00.000Z'); // saved in October: first due on 1 November, for October
    const s = await ok<ScheduleDto>(await create(body({ recipients: ['admin@usage.test', 'boss@usage-alpha.test'] })), 201);
    expect(s).toMatchObject({ Report: 'usageReport', CustomerName: A.name });
    mailbox.mails.length = 0;
    clock = new Date(Date.parse(s.NextRunAt!) + 1000);
    expect(clock.toISOString().slice(0, 10)).toBe('2026-11-01');
    expect(await scheduler.tick()).toBeGreaterThanOrEqual(1);
    for (let i = 0; i < 3; i++) {
      await t.deps.outbox.idle();
      await new Promise((r) => setTimeout(r, 50));
    }
    const mine = mailbox.mails.filter((m) => /Alpha usage/.test(m.raw));
    expect(mine.flatMap((m) => m.to).sort()).toEqual(['admin@usage.test', 'boss@usage-alpha.test']);
    expect(mine[0]!.raw).toContain('Usage Alpha Ltd, October 2026');
    const runs = (await ok<ScheduleRunsDto>(await t.request(`/alarm-report/schedules/${s.Id}/runs`, { token: admin.token }))).Runs;
    expect(runs[0]).toMatchObject({ Outcome: 'sent', Rows: 2, PeriodFrom: '2026-10-01', PeriodTo: '2026-10-31' });

    // Switched off after saving: the next run (1 December) fails with the reason.
    await t.db.deleteFrom('features').where('name', '=', 'ScheduledUsageReport').execute(); // absent counts as off
    try {
      mailbox.mails.length = 0;
      const next = (await ok<ScheduleRunsDto>(await t.request(`/alarm-report/schedules/${s.Id}/runs`, { token: admin.token }))).Runs;
      expect(next.length).toBe(1);
      clock = new Date('2026-12-01T06:00:01.000Z');
      await scheduler.tick();
      await t.deps.outbox.idle();
      expect(mailbox.mails.filter((m) => /Alpha usage/.test(m.raw))).toEqual([]);
      const after = (await ok<ScheduleRunsDto>(await t.request(`/alarm-report/schedules/${s.Id}/runs`, { token: admin.token }))).Runs;
      expect(after[0]).toMatchObject({ Outcome: 'failed', Error: `not sent: ${USAGE_TEXT.scheduleOff}`, Rows: null });
    } finally {
      await t.db.insertInto('features').values({ name: 'ScheduledUsageReport', isEnabled: 1 }).execute();
      now = new Date('2026-11-10T12:00:00.000Z');
    }
  });
});
