// Alarm report endpoints (spec document 3) against the real server on SQLite, and PostgreSQL with
// TEST_DB=pg: every filter, sort and page field of get-list, the chart bands at their exact edges,
// the type-of-alarms labels (UK time, All Time skipped), the response targets, the detail
// document, notes, the escalation flag with its etag, the .xlsx export read back, the audio files
// with byte ranges, the permissions of every role, and the demo seed's reports and audio.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import * as v from 'valibot';
import { readXlsx } from '../helpers/xlsx.js';
import { randomUUID } from 'node:crypto';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { signedIn, tokenFor } from '../helpers/auth.js';
import { insertAlarmReport, type ReportIn } from '../helpers/alarm-reports.js';
import { first } from '../helpers/lists.js';
import { seedAudioClips } from '../../src/server/modules/alarm-reports/audio.js';
import { seedDemoData } from '../../src/server/seed/demo.js';
import { createTestDb } from '../helpers/db.js';
import { createApp } from '../../src/server/app.js';
import { testConfig } from '../../src/server/platform/config.js';
import { createOutbox } from '../../src/server/mail/outbox.js';
import { alarmReportDetailsSchema, alarmReportListSchema, ALARM_TEXT, type AlarmReportSortBy } from '../../src/shared/schemas/alarm-reports.js';
import { CODE, MSG } from '../../src/shared/messages.js';
import type { RoleName } from '../../src/shared/permissions.js';

/** Sunday 22 November 2026, 12:00 UK (GMT). */
const NOW = new Date('2026-11-22T12:00:00.000Z');
let t: TestApp;
let admin: string;

beforeAll(async () => {
  t = await createTestApp({ now: () => NOW });
  admin = (await signedIn(t.db, t.config, ['SuperAdminRole'], 'alarm.admin@staff.test')).token;
});
afterAll(async () => {
  await t.close();
});

type Json = Record<string, unknown>;
async function post(path: string, json: unknown, token = admin) {
  const res = await t.request(path, { method: 'POST', token, json });
  return { status: res.status, body: (await res.json()) as Json & { Content?: { Message: string; Code: string; Errors?: Record<string, string> } } };
}
/** get-list ids (AlarmId) for a filter, scoped to one test's marker account. */
async function listIds(marker: string, filter: Json = {}) {
  const r = await post('/alarm-report/get-list', { alarmClosedDateRangeOption: 7, pageSize: 100, customerAccountFullName: marker, ...filter });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  const list = v.parse(alarmReportListSchema, r.body);
  return { ids: list.AlarmReports.map((x) => x.AlarmId), total: list.TotalCount, rows: list.AlarmReports };
}
/** Inserts reports under one marker account name; returns their alarm ids in insertion order. */
async function reports(marker: string, list: ReportIn[]) {
  const out: Awaited<ReturnType<typeof insertAlarmReport>>[] = [];
  for (const r of list) out.push(await insertAlarmReport(t.db, { customerAccountFullName: marker, ...r }));
  return out;
}

describe('get-list filters', () => {
  const M = 'Filter Marker Ltd';
  let r: Awaited<ReturnType<typeof reports>>;
  const ctrl = randomUUID();
  beforeAll(async () => {
    r = await reports(M, [
      {
        alarmType: 1,
        verificationType: 1,
        verificationCategory: 101,
        deviceType: 620,
        tier: 1,
        personFullName: 'Alice Able',
        deviceSerial: 'SER-AAA-1',
        alarmClosed: '2026-11-22T09:00:00.000Z',
        arcControllerId: ctrl,
      },
      {
        alarmType: 2,
        verificationType: 2,
        verificationCategory: 201,
        deviceType: 3,
        tier: 2,
        personFullName: 'Bob Baker',
        deviceSerial: 'SER-BBB-2',
        alarmClosed: '2026-11-18T09:00:00.000Z',
      },
      {
        alarmType: 3,
        verificationType: 3,
        verificationCategory: 302,
        deviceType: null,
        deviceSerial: null,
        tier: null,
        personFullName: 'Cara Cole',
        alarmClosed: '2026-10-30T09:00:00.000Z',
      },
      {
        alarmType: 4,
        verificationType: 4,
        verificationCategory: 402,
        deviceType: 640,
        tier: 4,
        personFullName: 'Dan Dale',
        alarmClosed: '2026-06-01T09:00:00.000Z',
      },
      {
        alarmType: 5,
        verificationType: 1,
        verificationCategory: 105,
        deviceType: 640,
        tier: 3,
        personFullName: 'Eve East',
        alarmClosed: '2024-01-01T09:00:00.000Z',
      },
    ]);
  });
  const ids = (...k: number[]) => k.map((i) => r[i]!.alarmId);

  test('each filter narrows the list; filters combine; empty arrays and null mean no filter', async () => {
    expect((await listIds(M)).total).toBe(5);
    expect((await listIds(M, { alarmTypes: [1, 3] })).ids.sort()).toEqual(ids(0, 2).sort());
    expect((await listIds(M, { alarmVerificationTypes: [1] })).ids.sort()).toEqual(ids(0, 4).sort());
    expect((await listIds(M, { alarmVerificationCategoryTypes: [201, 402] })).ids.sort()).toEqual(ids(1, 3).sort());
    expect((await listIds(M, { deviceTypes: [640] })).ids.sort()).toEqual(ids(3, 4).sort());
    expect((await listIds(M, { tierTypes: [2, 4] })).ids.sort()).toEqual(ids(1, 3).sort());
    expect((await listIds(M, { arcControllerIds: [ctrl.toUpperCase()] })).ids).toEqual(ids(0));
    expect((await listIds(M, { personFullName: 'bob' })).ids).toEqual(ids(1));
    expect((await listIds(M, { searchValue: 'ser-bbb' })).ids).toEqual(ids(1));
    expect((await listIds(M, { searchValue: r[2]!.alarmId.slice(0, 13) })).ids).toEqual(ids(2));
    expect((await listIds(M, { searchValue: 'cara' })).ids).toEqual(ids(2));
    expect((await listIds(M, { alarmVerificationTypes: [1], deviceTypes: [640] })).ids).toEqual(ids(4));
    expect((await listIds(M, { alarmTypes: [], tierTypes: null, searchValue: null })).total).toBe(5);
    // LIKE wildcards are literal
    expect((await listIds(M, { searchValue: '%' })).total).toBe(0);
    expect((await listIds('filter_marker')).total).toBe(0);
  });

  test('date range options are UK days back from now; custom days narrow them; future days and reversed ranges are refused', async () => {
    expect((await listIds(M, { alarmClosedDateRangeOption: 1 })).ids).toEqual(ids(0));
    expect((await listIds(M, { alarmClosedDateRangeOption: 2 })).ids).toEqual(ids(0, 1));
    expect((await listIds(M, { alarmClosedDateRangeOption: 3 })).ids).toEqual(ids(0, 1, 2));
    expect((await listIds(M, { alarmClosedDateRangeOption: 6 })).ids).toEqual(ids(0, 1, 2, 3));
    expect((await listIds(M, { alarmClosedDateRangeOption: 7 })).total).toBe(5);
    expect((await listIds(M, { alarmClosedDateFrom: '2026-10-30', alarmClosedDateTo: '2026-11-18' })).ids).toEqual(ids(1, 2));
    expect((await listIds(M, { alarmClosedDateRangeOption: 2, alarmClosedDateFrom: '2026-01-01' })).ids).toEqual(ids(0, 1));
    const future = await post('/alarm-report/get-list', { alarmClosedDateFrom: '2026-11-23' });
    expect(future.status).toBe(400);
    expect(future.body.Content?.Message).toBe(ALARM_TEXT.futureDate);
    const reversed = await post('/alarm-report/get-list', { alarmClosedDateFrom: '2026-11-10', alarmClosedDateTo: '2026-11-01' });
    expect(reversed.body.Content?.Message).toBe(ALARM_TEXT.dateOrder);
    expect((await post('/alarm-report/get-list', { alarmClosedDateFrom: '22/11/2026' })).body.Content?.Message).toBe(ALARM_TEXT.badDate);
  });

  test('bad input: unknown codes, 256-character text, bad page size', async () => {
    const bad = async (json: Json, field: string, message: string) => {
      const res = await post('/alarm-report/get-list', json);
      expect(res.status, field).toBe(400);
      expect(res.body.Content?.Errors?.[field] ?? res.body.Content?.Message, field).toBe(message);
    };
    await bad({ alarmTypes: [99] }, 'alarmTypes.0', ALARM_TEXT.unknownAlarmType);
    await bad({ alarmVerificationTypes: [5] }, 'alarmVerificationTypes.0', ALARM_TEXT.unknownVerificationType);
    await bad({ alarmVerificationCategoryTypes: [999] }, 'alarmVerificationCategoryTypes.0', ALARM_TEXT.unknownCategory);
    await bad({ deviceTypes: [1] }, 'deviceTypes.0', ALARM_TEXT.unknownDeviceType);
    await bad({ tierTypes: [9] }, 'tierTypes.0', ALARM_TEXT.unknownTier);
    await bad({ alarmClosedDateRangeOption: 8 }, 'alarmClosedDateRangeOption', ALARM_TEXT.unknownDateRange);
    await bad({ arcControllerIds: ['x'] }, 'arcControllerIds.0', ALARM_TEXT.invalidId);
    await bad({ searchValue: 'x'.repeat(256) }, 'searchValue', ALARM_TEXT.searchTooLong);
    await bad({ pageSize: 7 }, 'pageSize', 'pageSize must be one of 10, 25, 50, 100.');
    await bad(
      { sortBy: 'Nope' },
      'sortBy',
      `sortBy must be one of AlarmClosedDate, CustomerAccountFullName, Tier, AlarmType, AlarmVerificationType, AlarmVerificationCategory, PersonFullName, DeviceType, ArcControllerFullName.`,
    );
    expect((await post('/alarm-report/get-list', { searchValue: 'x'.repeat(255) })).status).toBe(200);
  });
});

describe('get-list sorting and paging', () => {
  const M = 'Sort Marker Ltd';
  let r: Awaited<ReturnType<typeof reports>>;
  beforeAll(async () => {
    r = await reports(M, [
      {
        personFullName: 'charlie',
        tier: 3,
        deviceType: 3,
        arcControllerFullName: 'Zed',
        alarmClosed: '2026-11-20T10:00:00.000Z',
        alarmType: 2,
        verificationType: 2,
        verificationCategory: 203,
      },
      {
        personFullName: 'Alpha',
        tier: null,
        deviceType: null,
        arcControllerFullName: null,
        alarmClosed: '2026-11-21T10:00:00.000Z',
        alarmType: 1,
        verificationType: 4,
        verificationCategory: 401,
      },
      {
        personFullName: 'bravo',
        tier: 1,
        deviceType: 640,
        arcControllerFullName: 'amy',
        alarmClosed: '2026-11-19T10:00:00.000Z',
        alarmType: 6,
        verificationType: 1,
        verificationCategory: 101,
      },
    ]);
  });
  const order = async (sortBy: AlarmReportSortBy, sortDescending: boolean) =>
    (await listIds(M, { sortBy, sortDescending })).ids.map((id) => r.findIndex((x) => x.alarmId === id));

  test('default: closed date newest first; every sort field both ways, text case-insensitive, codes by the name shown, empty values last', async () => {
    expect((await listIds(M)).ids.map((id) => r.findIndex((x) => x.alarmId === id))).toEqual([1, 0, 2]);
    expect(await order('AlarmClosedDate', false)).toEqual([2, 0, 1]);
    expect(await order('PersonFullName', false)).toEqual([1, 2, 0]);
    expect(await order('PersonFullName', true)).toEqual([0, 2, 1]);
    expect(await order('Tier', false)).toEqual([2, 0, 1]);
    expect(await order('Tier', true)).toEqual([0, 2, 1]);
    // by name: SG640 before Smartphone (the codes 640 and 3 would say otherwise), empty last
    expect(await order('DeviceType', false)).toEqual([2, 0, 1]);
    expect(await order('DeviceType', true)).toEqual([0, 2, 1]);
    expect(await order('ArcControllerFullName', false)).toEqual([2, 0, 1]);
    expect(await order('ArcControllerFullName', true)).toEqual([0, 2, 1]);
    // Fall Detected (2), SOS Button (1), Welfare Check Failed (6)
    expect(await order('AlarmType', false)).toEqual([0, 1, 2]);
    expect(await order('AlarmType', true)).toEqual([2, 1, 0]);
    // False (4), Precautionary Incident (2), Real Incident (1)
    expect(await order('AlarmVerificationType', false)).toEqual([1, 0, 2]);
    // Violence (101), Technical Fault (401), Security (203)
    expect(await order('AlarmVerificationCategory', true)).toEqual([2, 1, 0]);
    expect(await order('CustomerAccountFullName', false)).toHaveLength(3);
  });

  test('paging: page and pageSize slice the sorted list; TotalCount counts every match', async () => {
    const M2 = 'Page Marker Ltd';
    const many = await reports(
      M2,
      Array.from({ length: 27 }, (_, i) => ({ alarmClosed: new Date(Date.UTC(2026, 10, 21, 0, i)).toISOString() })),
    );
    const newestFirst = [...many].reverse().map((x) => x.alarmId);
    const page = async (p: number, size: number) => {
      const res = await post('/alarm-report/get-list', { alarmClosedDateRangeOption: 7, customerAccountFullName: M2, page: p, pageSize: size });
      const list = v.parse(alarmReportListSchema, res.body);
      return { ids: list.AlarmReports.map((x) => x.AlarmId), total: list.TotalCount };
    };
    expect(await page(1, 10)).toEqual({ ids: newestFirst.slice(0, 10), total: 27 });
    expect(await page(3, 10)).toEqual({ ids: newestFirst.slice(20), total: 27 });
    expect(await page(2, 25)).toEqual({ ids: newestFirst.slice(25), total: 27 });
    expect(await page(4, 10)).toEqual({ ids: [], total: 27 });
    const row = first((await listIds(M2, { pageSize: 10 })).rows);
    expect(row).toMatchObject({ CustomerAccountFullName: M2, Tier: { Name: 'Silver', Value: 2 }, AlarmType: { Name: 'SOS Button', Value: 1 } });
    expect(row.AlarmVerificationType).toEqual({ Name: 'Real Incident', Value: 1 });
    expect(row.AlarmVerificationCategory).toEqual({ Name: 'Violence', Value: 101 });
    expect(row.DeviceType).toEqual({ Name: 'SG620', Value: 620 });
  });
});

describe('chart timeframes and response targets', () => {
  const M = 'Bands Marker Ltd';
  beforeAll(async () => {
    const started = [0, 9, 10, 39, 40, 41];
    const completed = [119, 120, 179, 180, 599, 600];
    await reports(
      M,
      started.map((s, i) => ({ verificationStartedSeconds: s, verificationCompletedSeconds: completed[i]!, alarmClosed: '2026-11-22T08:00:00.000Z' })),
    );
  });
  const filter = { customerAccountFullName: M, alarmClosedDateRangeOption: 2 };

  test('verification started: under 10 s, 10-40 s, over 40 s — exactly 10 s is 10-40, exactly 40 s is over 40', async () => {
    const r = await post('/alarm-report/get-verification-started-timeframes', filter);
    expect(r.body).toEqual({
      TotalCount: 6,
      TimeFrames: [
        { TimeFrame: 'Under 10 s', Count: 2 },
        { TimeFrame: '10-40 s', Count: 2 },
        { TimeFrame: 'Over 40 s', Count: 2 },
      ],
    });
  });

  test('verification completed: exactly 120 s, 180 s and 600 s start the next band', async () => {
    const r = await post('/alarm-report/get-verification-completed-timeframes', filter);
    expect(r.body).toEqual({
      TotalCount: 6,
      TimeFrames: [
        { TimeFrame: 'Under 120 s', Count: 1 },
        { TimeFrame: '120-180 s', Count: 2 },
        { TimeFrame: '180-600 s', Count: 2 },
        { TimeFrame: 'Over 600 s', Count: 1 },
      ],
    });
    const none = await post('/alarm-report/get-verification-completed-timeframes', { ...filter, personFullName: 'nobody at all' });
    expect(none.body).toMatchObject({ TotalCount: 0, TimeFrames: [{ Count: 0 }, { Count: 0 }, { Count: 0 }, { Count: 0 }] });
  });

  test('response targets: within 10 s and within 40 s are the chart bands below 10 s and 40 s; percent, target, met; the missed list slowest first', async () => {
    const r = await post('/alarm-report/get-response-targets', filter);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      TotalCount: 6,
      Within10: { Count: 2, Percent: 33.33, TargetPercent: 80, Met: false },
      Within40: { Count: 4, Percent: 66.67, TargetPercent: 98.5, Met: false },
      MissedTotal: 4,
    });
    expect((r.body.Missed as { VerificationStartedSeconds: number; Over40: boolean }[]).map((m) => [m.VerificationStartedSeconds, m.Over40])).toEqual([
      [41, true],
      [40, true],
      [39, false],
      [10, false],
    ]);
    // the panel and the Verification Started chart agree for the same filter
    const chart = (await post('/alarm-report/get-verification-started-timeframes', filter)).body as { TimeFrames: { Count: number }[] };
    expect(r.body.Within10).toMatchObject({ Count: chart.TimeFrames[0]!.Count });
    expect(r.body.Within40).toMatchObject({ Count: chart.TimeFrames[0]!.Count + chart.TimeFrames[1]!.Count });
    const custom = await post('/alarm-report/get-response-targets', { ...filter, targetWithin10Percent: 30, targetWithin40Percent: 60 });
    expect(custom.body).toMatchObject({ Within10: { Met: true, TargetPercent: 30 }, Within40: { Met: true } });
    const empty = await post('/alarm-report/get-response-targets', { ...filter, personFullName: 'nobody at all' });
    expect(empty.body).toMatchObject({ TotalCount: 0, Within10: { Count: 0, Percent: null, Met: false }, Missed: [], MissedTotal: 0 });
    const bad = await post('/alarm-report/get-response-targets', { ...filter, targetWithin10Percent: 101 });
    expect(bad.status).toBe(400);
    expect(bad.body.Content?.Message).toBe(ALARM_TEXT.badTarget);
  });
});

describe('type of alarms over time', () => {
  const M = 'Types Marker Ltd';
  beforeAll(async () => {
    await reports(M, [
      { verificationType: 1, alarmClosed: '2026-11-22T00:30:00.000Z' },
      { verificationType: 1, alarmClosed: '2026-11-22T00:45:00.000Z' },
      { verificationType: 4, verificationCategory: 402, alarmClosed: '2026-11-22T11:59:00.000Z' },
      { verificationType: 2, verificationCategory: 201, alarmClosed: '2026-11-16T00:00:00.000Z' },
      { verificationType: 3, verificationCategory: 301, alarmClosed: '2026-11-15T23:59:59.000Z' },
      { verificationType: 3, verificationCategory: 301, alarmClosed: '2026-08-01T10:00:00.000Z' },
    ]);
  });
  const types = async (option: number) => {
    const r = await post('/alarm-report/get-verification-type-timeframes', { customerAccountFullName: M, alarmClosedDateRangeOption: option });
    expect(r.status).toBe(200);
    return r.body as { TimeFrames: Record<string, { AlarmType: { Value: number }; Count: number }[]>; Labels: string[] };
  };
  const counts = (x: { AlarmType: { Value: number }; Count: number }[] | undefined) => (x ?? []).map((e) => [e.AlarmType.Value, e.Count]);

  test('Today: one label per hour so far, each with the four verification types', async () => {
    const r = await types(1);
    expect(r.Labels).toEqual(Array.from({ length: 12 }, (_, h) => `${String(h).padStart(2, '0')}:00`));
    expect(Object.keys(r.TimeFrames)).toEqual(r.Labels);
    expect(counts(r.TimeFrames['00:00'])).toEqual([
      [1, 2],
      [2, 0],
      [3, 0],
      [4, 0],
    ]);
    expect(counts(r.TimeFrames['11:00'])).toEqual([
      [1, 0],
      [2, 0],
      [3, 0],
      [4, 1],
    ]);
  });

  test('Last 7 days: one label per UK day; a day starts at UK midnight', async () => {
    const r = await types(2);
    expect(r.Labels).toEqual(['16/11/2026', '17/11/2026', '18/11/2026', '19/11/2026', '20/11/2026', '21/11/2026', '22/11/2026']);
    expect(counts(r.TimeFrames['16/11/2026'])).toEqual([
      [1, 0],
      [2, 1],
      [3, 0],
      [4, 0],
    ]);
    expect(
      Object.values(r.TimeFrames)
        .flat()
        .reduce((n, e) => n + e.Count, 0),
    ).toBe(4); // 15/11 23:59:59 is outside
  });

  test('Last 3 months by week (Monday), Last 12 months by month; All Time is skipped', async () => {
    const weeks = await types(4);
    // 22 August (a Saturday) is in the week of Monday 17 August; 1 August is outside.
    expect(first(weeks.Labels)).toBe('17/08/2026');
    expect(weeks.Labels[weeks.Labels.length - 1]).toBe('16/11/2026');
    expect(weeks.Labels).toHaveLength(14);
    expect(
      Object.values(weeks.TimeFrames)
        .flat()
        .reduce((n, e) => n + e.Count, 0),
    ).toBe(5);
    expect(counts(weeks.TimeFrames['09/11/2026'])).toEqual([
      [1, 0],
      [2, 0],
      [3, 1],
      [4, 0],
    ]);
    const months = await types(6);
    expect(months.Labels).toEqual([
      'Nov 2025',
      'Dec 2025',
      'Jan 2026',
      'Feb 2026',
      'Mar 2026',
      'Apr 2026',
      'May 2026',
      'Jun 2026',
      'Jul 2026',
      'Aug 2026',
      'Sep 2026',
      'Oct 2026',
      'Nov 2026',
    ]);
    expect(counts(months.TimeFrames['Nov 2026']).map(([, n]) => n)).toEqual([2, 1, 1, 1]);
    expect(counts(months.TimeFrames['Aug 2026']).map(([, n]) => n)).toEqual([0, 0, 1, 0]);
    expect(await types(7)).toEqual({ TimeFrames: {}, Labels: [] });
  });

  test('summer time: an alarm at 23:30 UTC on 14 July counts on 15 July (BST)', async () => {
    const summer = await createTestApp({ now: () => new Date('2026-07-15T12:00:00.000Z') });
    try {
      await insertAlarmReport(summer.db, { customerAccountFullName: M, alarmClosed: '2026-07-14T23:30:00.000Z' });
      const token = (await signedIn(summer.db, summer.config, ['SuperAdminRole'], 'summer@staff.test')).token;
      const res = await summer.request('/alarm-report/get-verification-type-timeframes', { method: 'POST', token, json: { alarmClosedDateRangeOption: 1 } });
      const body = (await res.json()) as { TimeFrames: Record<string, { Count: number }[]> };
      expect(body.TimeFrames['00:00']?.[0]?.Count).toBe(1);
    } finally {
      await summer.close();
    }
  });
});

describe('detail, notes and the escalation flag', () => {
  const M = 'Detail Marker Ltd';
  let r: Awaited<ReturnType<typeof insertAlarmReport>>;
  beforeAll(async () => {
    r = await insertAlarmReport(t.db, {
      customerAccountFullName: M,
      calls: [
        { line: 'Outbound Second Line', startTime: '2026-11-20T09:58:40.000Z', duration: 0, records: [] },
        { line: 'Alarm', startTime: '2026-11-20T09:58:05.000Z', records: [{ SId: 'RE-UNAVAILABLE', Unavailable: true, Reason: 'Recording not found' }] },
      ],
      memos: [{ voiceMemoId: null }, {}],
      journal: [
        { details: 'Broken', customProperties: '{not json', date: '2026-11-20T09:59:00.000Z' },
        { details: 'Alarm raised', customProperties: JSON.stringify({ kind: 'alarmType', trigger: 'SOS Button' }), date: '2026-11-20T09:58:00.000Z' },
      ],
      notes: [
        { note: 'Second', createdDate: '2026-11-21T10:00:00.000Z' },
        { note: 'First', createdDate: '2026-11-20T10:00:00.000Z', personRoles: ['ARC Manager', 'ARC Controller'] },
      ],
    });
  });

  test('get-details answers the full document in time order; unknown alarm 404; bad id 400', async () => {
    const res = await t.request(`/alarm-report/get-details?AlarmId=${r.alarmId.toUpperCase()}`, { token: admin });
    expect(res.status).toBe(200);
    const d = v.parse(alarmReportDetailsSchema, await res.json());
    expect(d).toMatchObject({
      Id: r.id,
      AlarmId: r.alarmId,
      Etag: r.etag,
      AlarmStared: r.alarmStarted,
      AlarmClosed: r.alarmClosed,
      AlarmType: { Name: 'SOS Button', Value: 1 },
      VerificationType: { Name: 'Real Incident', Value: 1 },
      VerificationCategory: { Name: 'Violence', Value: 101 },
      EscalationPlanFollowed: false,
      AlarmIncomingCallPhoneNumber: '+447700900123',
      AlarmDevice: { Type: { Name: 'SG620', Value: 620 }, Serial: 'SG620-0001' },
      Location: { W3WAddress: 'index.home.raft', Latitude: 53.8, GpsGenerated: true },
    });
    expect(d.Calls.map((c) => c.Line)).toEqual(['Alarm', 'Outbound Second Line']);
    expect(d.Calls[0]?.Records).toEqual([{ SId: 'RE-UNAVAILABLE', Unavailable: true, Reason: 'Recording not found' }]);
    expect(d.Calls[1]?.Duration).toBe(0);
    expect(d.ActivityJournal.Activities.map((a) => a.Details)).toEqual(['Alarm raised', 'Broken']);
    expect(d.ActivityJournal.Activities[1]?.CustomProperties).toBe('{not json');
    expect(d.ActivityJournal.AdditionalNoteList.map((n) => [n.Note, n.Person.Roles])).toEqual([
      ['First', ['ARC Manager', 'ARC Controller']],
      ['Second', ['ARC Supervisor']],
    ]);
    expect(d.ProfileSnapshot.Person).toMatchObject({ FirstName: 'Jane', Company: { Name: 'Acme Care Ltd', IsGlobalResponse: true } });
    expect(d.ProfileSnapshot.MemosAndActivities.ActivitiesWithMemos.map((m) => m.VoiceMemoId === null)).toEqual([true, false]);
    expect(d.ProfileSnapshot.PrimaryTeamAlarmInstruction).toEqual({
      SpecialInstructions: ['Call the site manager first'],
      DuressWordsActive: true,
      DuressWords: { Monitor: 'blue', CallPolice: 'red' },
    });

    const missing = await t.request(`/alarm-report/get-details?AlarmId=${randomUUID()}`, { token: admin });
    expect(missing.status).toBe(404);
    expect((await missing.json()).Content).toMatchObject({ Message: ALARM_TEXT.notFound, Code: CODE.notFound });
    expect((await t.request('/alarm-report/get-details?AlarmId=nope', { token: admin })).status).toBe(400);
  });

  test('a damaged or partial snapshot still answers the contract shape', async () => {
    const odd = await insertAlarmReport(t.db, {
      customerAccountFullName: M,
      personFullName: 'Solo Person',
      snapshot: { Person: { FirstName: 42, Contact: 'x' }, Devices: 'nope' },
    });
    await t.db.updateTable('alarmReports').set({ location: 'not json' }).where('id', '=', odd.id).execute();
    const res = await t.request(`/alarm-report/get-details?AlarmId=${odd.alarmId}`, { token: admin });
    expect(res.status).toBe(200);
    const d = v.parse(alarmReportDetailsSchema, await res.json());
    expect(d.ProfileSnapshot.Person).toMatchObject({ FirstName: '42', LastName: 'Person', Company: { Name: M } });
    expect(d.ProfileSnapshot.Devices).toEqual([]);
    expect(d.ProfileSnapshot.PrimaryTeamAlarmInstruction).toBeNull();
    expect(d.Location).toEqual({ GoogleApiAddress: null, W3WAddress: null, Latitude: null, Longitude: null, GpsGenerated: false });
  });

  test("add-note stores the trimmed text with the author's name and role labels; blank is 'Please enter note text.'", async () => {
    const me = await signedIn(t.db, t.config, ['ArcSupervisorRole'], 'sue.note@arc.test');
    const res = await post('/alarm-report/add-note', { alarmReportId: r.id, note: '  Called back, all fine.  ' }, me.token);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ Note: 'Called back, all fine.', CreatedDate: NOW.toISOString(), Person: { Roles: ['ARC Supervisor'] } });
    const stored = await t.db.selectFrom('alarmNotes').selectAll().where('id', '=', String(res.body.Id)).executeTakeFirstOrThrow();
    expect(stored).toMatchObject({ alarmReportId: r.id, note: 'Called back, all fine.', personId: me.id });
    expect(stored.personFullName).toBe((res.body.Person as { FullName: string }).FullName);
    for (const note of ['', '   ', null, undefined]) {
      const bad = await post('/alarm-report/add-note', { alarmReportId: r.id, note });
      expect(bad.status).toBe(400);
      expect(bad.body.Content).toMatchObject({ Message: MSG.enterNoteText, Errors: { note: MSG.enterNoteText } });
    }
    const long = await post('/alarm-report/add-note', { alarmReportId: r.id, note: 'x'.repeat(4001) });
    expect(long.body.Content?.Message).toBe(ALARM_TEXT.noteTooLong);
    expect((await post('/alarm-report/add-note', { alarmReportId: randomUUID(), note: 'x' })).status).toBe(404);
    expect(await t.db.selectFrom('alarmNotes').select('id').where('alarmReportId', '=', r.id).execute()).toHaveLength(3);
  });

  test('update: the escalation flag with the current etag or none (the spec sends none); a stale etag is 409 etag_conflict and changes nothing', async () => {
    const put = (json: Json) => t.request('/alarm-report/update', { method: 'PUT', token: admin, json });
    const ok = await put({ alarmReportId: r.id, alarmId: r.alarmId, escalationPlanFollowed: true, etag: r.etag });
    expect(ok.status).toBe(200);
    const okBody = (await ok.json()) as { Etag: string; EscalationPlanFollowed: boolean };
    expect(okBody.EscalationPlanFollowed).toBe(true);
    expect(okBody.Etag).not.toBe(r.etag);
    const stale = await put({ alarmReportId: r.id, escalationPlanFollowed: false, etag: r.etag });
    expect(stale.status).toBe(409);
    expect((await stale.json()).Content).toMatchObject({ Code: CODE.conflict, Message: ALARM_TEXT.stale });
    const row = await t.db.selectFrom('alarmReports').select(['escalationPlanFollowed', 'etag']).where('id', '=', r.id).executeTakeFirstOrThrow();
    expect(row).toEqual({ escalationPlanFollowed: 1, etag: okBody.Etag });
    const back = await put({ alarmReportId: r.id, escalationPlanFollowed: false, etag: okBody.Etag });
    expect(back.status).toBe(200);
    expect(
      (await t.db.selectFrom('alarmReports').select('escalationPlanFollowed').where('id', '=', r.id).executeTakeFirstOrThrow()).escalationPlanFollowed,
    ).toBe(0);
    // The spec's payload { escalationPlanFollowed, alarmReportId, alarmId }: no etag, the flag is set.
    const noEtag = await put({ alarmReportId: r.id, alarmId: r.alarmId, escalationPlanFollowed: true });
    expect(noEtag.status).toBe(200);
    expect(await t.db.selectFrom('alarmReports').select('escalationPlanFollowed').where('id', '=', r.id).executeTakeFirstOrThrow()).toEqual({
      escalationPlanFollowed: 1,
    });
    expect((await put({ alarmReportId: r.id, escalationPlanFollowed: 'yes', etag: 'e' })).status).toBe(400);
    expect((await put({ alarmReportId: randomUUID(), escalationPlanFollowed: true, etag: 'e' })).status).toBe(404);
    expect((await put({ alarmReportId: r.id, alarmId: randomUUID(), escalationPlanFollowed: true, etag: 'e' })).status).toBe(404);
  });

  test('log-call-download audits the download; a call of another report is 404', async () => {
    const callId = r.calls[0]!.id;
    const res = await post('/alarm-report/log-call-download', { alarmReportId: r.id, callId, alarmId: r.alarmId });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ Content: { Message: MSG.recordingDownloaded } });
    const logged = await t.db
      .selectFrom('auditLog')
      .select(['details'])
      .where('action', '=', 'alarmReport.callDownload')
      .where('entityId', '=', r.id)
      .execute();
    expect(logged.map((l) => JSON.parse(l.details))).toEqual([{ callId }]);
    expect((await post('/alarm-report/log-call-download', { alarmReportId: randomUUID(), callId })).status).toBe(404);
  });
});

describe('export', () => {
  const M = 'Export Marker Ltd';
  test('an .xlsx of every match in list order, read back; null body and no match are refused', async () => {
    const r = await reports(M, [
      { personFullName: 'Xavier Export', alarmClosed: '2026-11-21T10:00:00.000Z', arcControllerFullName: null, tier: null },
      { personFullName: 'Yvonne Export', alarmClosed: '2026-11-22T10:00:00.000Z' },
    ]);
    const res = await t.request('/alarm-report/export-list', {
      method: 'POST',
      token: admin,
      json: { customerAccountFullName: M, alarmClosedDateRangeOption: 7 },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    expect(res.headers.get('content-disposition')).toBe('attachment; filename="AlarmReports_20261122_120000.xlsx"');
    const [sheet] = await readXlsx(Buffer.from(await res.arrayBuffer()));
    expect(sheet?.sheet).toBe('Alarm Reports');
    const [header, ...rows] = sheet?.data ?? [];
    expect(header).toEqual([
      'Date / Time (UK time)',
      'Account Name',
      'Tier',
      'Trigger',
      'Type',
      'Category',
      'User Name',
      'Device',
      'Controller',
      'Alarm Id',
      'Device Serial',
      // alarm report intelligence is on (the reference features): its column group follows, blank here
      'Analysis: Plan Check',
      'Analysis: Anomalies',
      'Analysis: Summary',
    ]);
    expect(rows.map((x) => [x[6], x[9]])).toEqual([
      ['Yvonne Export', r[1]!.alarmId],
      ['Xavier Export', r[0]!.alarmId],
    ]);
    expect(rows[1]?.slice(1, 9)).toEqual([M, null, 'SOS Button', 'Real Incident', 'Violence', 'Xavier Export', 'SG620', null]);
    expect(new Date(rows[0]?.[0] as unknown as Date).toISOString()).toBe('2026-11-22T10:00:00.000Z');

    const empty = await t.request('/alarm-report/export-list', { method: 'POST', token: admin, json: null });
    expect(empty.status).toBe(400);
    expect((await empty.json()).Content.Message).toBe('Export payload is empty');
    const none = await post('/alarm-report/export-list', { customerAccountFullName: 'no such account at all' });
    expect(none.body.Content?.Message).toBe('Export payload is empty');
  });
});

describe('audio', () => {
  let r: Awaited<ReturnType<typeof insertAlarmReport>>;
  beforeAll(async () => {
    await seedAudioClips(t.db, 1);
    r = await insertAlarmReport(t.db, {
      customerAccountFullName: 'Audio Marker Ltd',
      calls: [
        {
          line: 'Alarm',
          records: [
            { SId: 'RE-OK-1', Unavailable: false, Reason: null },
            { SId: 'RE-GONE', Unavailable: true, Reason: 'Recording deleted after the retention period' },
          ],
        },
        { line: 'Inbound Second Line', records: [{ SId: 'RE-OK-2', Unavailable: false, Reason: null }] },
      ],
      memos: [{}],
    });
  });
  const alarmLine = (sid: string, callId = r.calls[0]!.id, extra = '') =>
    `/api/v1/alarm-line/get-record-file?RecordSId=${sid}&ConferenceName=CF0&Id=${callId}${extra}`;

  test('a call recording is a real WAV file (audio/wav, RIFF/WAVE PCM, a few seconds) and the same record always plays the same clip', async () => {
    const res = await t.request(alarmLine('RE-OK-1'), { token: admin });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('audio/wav');
    expect(res.headers.get('accept-ranges')).toBe('bytes');
    const bytes = new Uint8Array(await res.arrayBuffer());
    const ascii = (a: number, b: number) => String.fromCharCode(...bytes.slice(a, b));
    expect([ascii(0, 4), ascii(8, 12), ascii(12, 16), ascii(36, 40)]).toEqual(['RIFF', 'WAVE', 'fmt ', 'data']);
    const dv = new DataView(bytes.buffer);
    expect(dv.getUint32(4, true)).toBe(bytes.length - 8);
    const seconds = dv.getUint32(40, true) / dv.getUint32(28, true);
    expect(seconds).toBeGreaterThan(2);
    expect(seconds).toBeLessThan(6);
    expect(new Set(bytes.slice(44, 4044)).size).toBeGreaterThan(50); // not silence
    const again = new Uint8Array(await (await t.request(alarmLine('RE-OK-1'), { token: admin })).arrayBuffer());
    expect(again).toEqual(bytes);
    const range = await t.request(alarmLine('RE-OK-1'), { token: admin, headers: { range: 'bytes=0-99' } });
    expect(range.status).toBe(206);
    expect(range.headers.get('content-range')).toBe(`bytes 0-99/${bytes.length}`);
    expect(new Uint8Array(await range.arrayBuffer())).toEqual(bytes.slice(0, 100));
    const tail = await t.request(alarmLine('RE-OK-1'), { token: admin, headers: { range: 'bytes=-10' } });
    expect(new Uint8Array(await tail.arrayBuffer())).toEqual(bytes.slice(-10));
    expect((await t.request(alarmLine('RE-OK-1'), { token: admin, headers: { range: `bytes=${bytes.length}-` } })).status).toBe(416);
  });

  test("unavailable, unknown or wrong-line records are 404 'Failed to fetch call recording.'; second-line calls come from the second line", async () => {
    for (const path of [alarmLine('RE-GONE'), alarmLine('RE-NOPE'), alarmLine('RE-OK-2', r.calls[1]!.id), alarmLine('RE-OK-1', randomUUID())]) {
      const res = await t.request(path, { token: admin });
      expect(res.status, path).toBe(404);
      expect((await res.json()).Content.Message).toBe('Failed to fetch call recording.');
    }
    const second = await t.request(`/api/v1/second-line/get-record-file?RecordSId=RE-OK-2&ConferenceName=&Id=${r.calls[1]!.id}`, { token: admin });
    expect(second.status).toBe(200);
    expect(second.headers.get('content-type')).toBe('audio/wav');
    expect((await t.request(`/api/v1/second-line/get-record-file?RecordSId=RE-OK-1&Id=${r.calls[0]!.id}`, { token: admin })).status).toBe(404);
  });

  test("voice memos play for the memo's person only; otherwise 404 'Failed to fetch voice memo.'", async () => {
    const memo = r.memos[0]!.voiceMemoId!;
    const ok = await t.request(`/interactive-communication/portal/voice-memo/get-file?PersonId=${r.personId}&MemoId=${memo}`, { token: admin });
    expect(ok.status).toBe(200);
    expect(ok.headers.get('content-type')).toBe('audio/wav');
    expect(String.fromCharCode(...new Uint8Array(await ok.arrayBuffer()).slice(0, 4))).toBe('RIFF');
    for (const q of [`PersonId=${randomUUID()}&MemoId=${memo}`, `PersonId=${r.personId}&MemoId=${randomUUID()}`]) {
      const res = await t.request(`/interactive-communication/portal/voice-memo/get-file?${q}`, { token: admin });
      expect(res.status).toBe(404);
      expect((await res.json()).Content.Message).toBe('Failed to fetch voice memo.');
    }
  });
});

describe('permissions (spec §6; who holds what: docs/permissions.md)', () => {
  let r: Awaited<ReturnType<typeof insertAlarmReport>>;
  beforeAll(async () => {
    r = await insertAlarmReport(t.db, {
      customerAccountFullName: 'Perm Marker Ltd',
      calls: [{ records: [{ SId: 'RE-PERM', Unavailable: false, Reason: null }] }],
    });
  });
  const calls = (): [string, string, unknown?][] => [
    ['POST', '/alarm-report/get-list', {}],
    ['POST', '/alarm-report/get-verification-started-timeframes', {}],
    ['POST', '/alarm-report/get-response-targets', {}],
    ['GET', `/alarm-report/get-details?AlarmId=${r.alarmId}`],
    ['GET', `/api/v1/alarm-line/get-record-file?RecordSId=RE-PERM&Id=${r.calls[0]!.id}`],
    ['POST', '/alarm-report/add-note', { alarmReportId: r.id, note: 'perm' }],
    ['PUT', '/alarm-report/update', { alarmReportId: r.id, escalationPlanFollowed: true, etag: 'stale' }],
    ['POST', '/alarm-report/export-list', { customerAccountFullName: 'Perm Marker Ltd', alarmClosedDateRangeOption: 7 }],
  ];
  // list, timeframes, targets, details, audio, note, update (409 = allowed, stale), export
  const EXPECT: Record<RoleName, number[]> = {
    SuperAdminRole: [200, 200, 200, 200, 200, 200, 409, 200],
    SuperAdminReadonlyRole: [200, 200, 200, 200, 200, 403, 403, 200],
    ArcManagerRole: [200, 200, 200, 200, 200, 200, 409, 200],
    ArcSupervisorRole: [200, 200, 200, 200, 200, 200, 409, 200],
    ArcControllerRole: [200, 200, 200, 200, 200, 200, 409, 403],
    PortalUserRole: [403, 403, 403, 403, 403, 403, 403, 403],
    AdminRole: [403, 403, 403, 403, 403, 403, 403, 403],
  };
  test.each(Object.keys(EXPECT) as RoleName[])('%s', async (role) => {
    await seedAudioClips(t.db, 1);
    const token = await tokenFor(t.config, [role]);
    const got: number[] = [];
    for (const [method, path, json] of calls()) {
      const res = await t.request(path, { method, token, json });
      got.push(res.status);
      if (res.status === 403) expect((await res.json()).Content.Message).toBe('You do not have sufficient permissions to perform this action');
    }
    expect(got).toEqual(EXPECT[role]);
  });
  test('no token: 401', async () => {
    for (const [method, path, json] of calls()) expect((await t.request(path, { method, json })).status, path).toBe(401);
  });
});

describe('demo seed', () => {
  test('seeded reports answer the contract; available records play, unavailable ones carry a reason', async () => {
    const tdb = await createTestDb();
    try {
      await seedDemoData(tdb.db, { seed: 3, scale: 0.01, password: 'Demo-Passw0rd!', log: () => {}, now: NOW });
      const config = testConfig({ now: () => NOW });
      const outbox = createOutbox({ smtpUrl: config.smtpUrl, log: () => {}, now: () => NOW });
      const { app } = createApp({ db: tdb.db, config, outbox, log: () => {} });
      const token = await tokenFor(config, ['ArcSupervisorRole']);
      const get = (path: string) => app.request(path, { headers: { authorization: `Bearer ${token}` } });
      const clips = await tdb.db.selectFrom('alarmAudioClips').select(['id', 'kind']).execute();
      expect(clips.map((c) => c.kind).sort()).toEqual(['call', 'call', 'call', 'call', 'call', 'call', 'memo', 'memo', 'memo', 'memo']);
      const ids = await tdb.db.selectFrom('alarmReports').select('alarmId').orderBy('alarmClosed', 'desc').limit(25).execute();
      let played = 0;
      let unavailable = 0;
      for (const { alarmId } of ids) {
        const res = await get(`/alarm-report/get-details?AlarmId=${alarmId}`);
        expect(res.status).toBe(200);
        const d = v.parse(alarmReportDetailsSchema, await res.json());
        for (const c of d.Calls)
          for (const rec of c.Records) {
            const line = c.Line === 'Outbound Second Line' || c.Line === 'Inbound Second Line' ? 'second-line' : 'alarm-line';
            const audio = await get(`/api/v1/${line}/get-record-file?RecordSId=${rec.SId}&ConferenceName=${c.ConferenceName ?? ''}&Id=${c.Id}`);
            expect(audio.status, rec.SId).toBe(rec.Unavailable ? 404 : 200);
            if (rec.Unavailable) {
              expect(rec.Reason).toBeTruthy();
              unavailable++;
            } else played++;
          }
        for (const m of d.ProfileSnapshot.MemosAndActivities.ActivitiesWithMemos.filter((x) => x.VoiceMemoId))
          expect(
            (await get(`/interactive-communication/portal/voice-memo/get-file?PersonId=${d.ProfileSnapshot.Person.Id}&MemoId=${m.VoiceMemoId}`)).status,
          ).toBe(200);
      }
      expect(played).toBeGreaterThan(5);
      expect(unavailable + played).toBeGreaterThan(played);
      await outbox.close();
    } finally {
      await tdb.close();
    }
  }, 120_000);
});
