// Closed alarm reports arriving through POST /alarm-report/import, on SQLite and, with TEST_DB=pg,
// PostgreSQL: an imported report is listed, reads back as its detail document, counts in the
// charts and gets its Analysis on arrival when the customer's two settings and both features are
// on (and none with any of them off); a re-sent AlarmId is not stored twice; bad bodies are 400 in
// the error shape naming the report's index, and nothing of the batch is stored; only the import
// permission may call it, and a customer outside the caller's scope is refused.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { setFeature } from '../../src/server/modules/admin/repo.js';
import * as v from 'valibot';
import { randomUUID } from 'node:crypto';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { signedIn, tokenFor } from '../helpers/auth.js';
import { fullSnapshot, intelligenceCustomer } from '../helpers/alarm-reports.js';
import { errorOf, ok } from '../helpers/customers.js';
import { tx } from '../../src/server/db/index.js';
import { CODE, MSG } from '../../src/shared/messages.js';
import {
  IMPORT_MAX,
  IMPORT_TEXT,
  importAlarmReportsBody,
  importAlarmReportsSchema,
  type ImportAlarmReportsResponse,
} from '../../src/shared/schemas/alarm-report-import.js';
import type { AlarmReportDetails, AlarmReportList, TimeFrames } from '../../src/shared/schemas/alarm-reports.js';
import type { AnalysisResponse } from '../../src/shared/schemas/alarm-intelligence.js';
import type { SearchResponse } from '../../src/shared/schemas/search.js';
import { importAlarmReports } from '../../src/server/modules/alarm-reports/write.js';
import { BODY_LIMITS } from '../../src/server/http/api.js';

const NOW = new Date('2026-11-22T12:00:00.000Z');
let t: TestApp;
let admin: { id: string; token: string };
let manager: string;

beforeAll(async () => {
  t = await createTestApp({ now: () => NOW });
  admin = await signedIn(t.db, t.config, ['SuperAdminRole']);
  manager = (await signedIn(t.db, t.config, ['ArcManagerRole'])).token;
});
afterAll(async () => {
  await t.close();
});

const customer = (settings: { intel?: boolean; auto?: boolean } = {}) => intelligenceCustomer(t.db, 'Import', settings, { tier: 3 });

/** A closed report as the ARC platform sends it: the detail document's fields and the customer's id. */
function report(customerId: string, over: Record<string, unknown> = {}) {
  const personId = randomUUID();
  const lastName = `Imported${randomUUID().slice(0, 6)}`;
  return {
    AlarmId: randomUUID(),
    CustomerId: customerId,
    Location: { GoogleApiAddress: '1 High Street, Leeds, UK', W3WAddress: 'index.home.raft', Latitude: 53.8, Longitude: -1.55, GpsGenerated: true },
    AlarmDevice: { Type: { Name: 'SG620', Value: 620 }, Serial: 'SG620-IMPORT' },
    AlarmStared: '2026-11-22T10:58:00Z',
    AlarmClosed: '2026-11-22T11:00:00+00:00',
    AlarmType: { Name: 'SOS Button', Value: 1 },
    VerificationType: { Name: 'Real Incident', Value: 1 },
    VerificationCategory: { Name: 'Violence', Value: 101 },
    EscalationPlanFollowed: true,
    AlarmIncomingCallPhoneNumber: '+447700900123',
    ArcControllerFullName: 'Carl Controller',
    VerificationStartedSeconds: 12,
    VerificationCompletedSeconds: 150,
    ProfileSnapshot: fullSnapshot(personId, {
      Person: { ...fullSnapshot(personId).Person, LastName: lastName },
      MemosAndActivities: {
        ActivitiesWithMemos: [
          {
            Id: 'sender-memo',
            StartDate: '2026-11-22T09:00:00Z',
            DurationInMinutes: 30,
            DisplayName: { Name: 'Home visit' },
            TextMemo: 'Flat 2',
            VoiceMemoId: null,
          },
        ],
      },
    }),
    ActivityJournal: {
      AdditionalNoteList: [
        { Note: 'Spoke to the user.', CreatedDate: '2026-11-22T11:30:00Z', Person: { FullName: 'Sue Supervisor', Roles: ['ARC Supervisor'] } },
      ],
      Activities: [
        {
          Date: '2026-11-22T10:58:00Z',
          Creator: 'System',
          Details: 'Alarm raised: SOS Button',
          CustomProperties: '{"kind":"alarmType","trigger":"SOS Button"}',
        },
        { Date: '2026-11-22T10:59:00Z', Creator: 'Carl Controller', Details: 'Controller note', CustomProperties: { kind: 'note', text: 'Called back' } },
      ],
    },
    Calls: [
      {
        StartTime: '2026-11-22T10:58:05Z',
        EndTime: '2026-11-22T10:59:05Z',
        Duration: 60.5,
        Line: 'Alarm',
        Number: '+447700900123',
        CallParticipants: [{ FullName: 'Carl Controller' }, { FullName: `Jane ${lastName}` }],
        AlarmCall: true,
        ConferenceName: 'CF-import',
        Records: [{ SId: 'RE-import-1', Unavailable: false, Reason: null }],
      },
    ],
    ...over,
  };
}

const send = (json: unknown, token = admin.token) => t.request('/alarm-report/import', { method: 'POST', token, json });
async function imported(reports: unknown[]) {
  const body = await ok<ImportAlarmReportsResponse>(await send({ AlarmReports: reports }));
  expect(v.safeParse(importAlarmReportsSchema, body).success).toBe(true);
  return body;
}
const storedAnalysis = (reportId: string) => t.db.selectFrom('alarmReportAnalyses').selectAll().where('alarmReportId', '=', reportId).executeTakeFirst();
const reportCount = async () =>
  Number(
    (
      await t.db
        .selectFrom('alarmReports')
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );
const filter = {
  alarmClosedDateRangeOption: 2,
  alarmTypes: [],
  alarmVerificationTypes: [],
  alarmVerificationCategoryTypes: [],
  deviceTypes: [],
  tierTypes: [],
};

describe('an imported report with auto-generation on', () => {
  test('is listed, found, reads back, counts in the charts, has its Analysis, and is audited', async () => {
    const c = await customer();
    const chartBefore = await ok<TimeFrames>(
      await t.request('/alarm-report/get-verification-started-timeframes', { method: 'POST', token: admin.token, json: filter }),
    );
    const doc = report(c.id);
    const r = await imported([doc]);
    expect(r.Created).toHaveLength(1);
    expect(r.AlreadyPresent).toEqual([]);
    const id = r.Created[0]!.AlarmReportId;
    expect(r.Created[0]).toMatchObject({ Index: 0, AlarmId: doc.AlarmId });
    expect(r.Analysed).toEqual([id]);

    const lastName = doc.ProfileSnapshot.Person.LastName;
    const list = await ok<AlarmReportList>(
      await t.request('/alarm-report/get-list', { method: 'POST', token: admin.token, json: { ...filter, page: 1, pageSize: 10, searchValue: lastName } }),
    );
    expect(list.TotalCount).toBe(1);
    expect(list.AlarmReports[0]).toMatchObject({
      AlarmReportId: id,
      AlarmId: doc.AlarmId,
      CustomerAccountFullName: c.name,
      PersonFullName: `Jane ${lastName}`,
    });

    // the palette finds it by its alarm id (the search index is kept in the writing transaction)
    const found = await ok<SearchResponse>(await t.request(`/api/search?q=${doc.AlarmId}`, { token: admin.token }));
    expect(found.groups.find((g) => g.kind === 'alarmReport')?.hits.map((h) => h.id)).toEqual([id]);

    const d = await ok<AlarmReportDetails>(await t.request(`/alarm-report/get-details?AlarmId=${doc.AlarmId}`, { token: admin.token }));
    expect(d).toMatchObject({
      Id: id,
      AlarmStared: '2026-11-22T10:58:00.000Z',
      AlarmClosed: '2026-11-22T11:00:00.000Z',
      AlarmType: { Value: 1 },
      VerificationCategory: { Value: 101, Name: 'Violence' },
      EscalationPlanFollowed: true,
      Tier: { Value: 3 },
      AlarmDevice: { Type: { Value: 620 }, Serial: 'SG620-IMPORT' },
      Location: doc.Location,
      VerificationStartedSeconds: 12,
    });
    expect(d.Calls).toMatchObject([{ Duration: 60.5, Line: 'Alarm', Records: [{ SId: 'RE-import-1', Unavailable: false }] }]);
    expect(d.ActivityJournal.Activities.map((a) => a.Details)).toEqual(['Alarm raised: SOS Button', 'Controller note']);
    expect(JSON.parse(d.ActivityJournal.Activities[1]!.CustomProperties)).toEqual({ kind: 'note', text: 'Called back' });
    expect(d.ActivityJournal.AdditionalNoteList).toMatchObject([
      { Note: 'Spoke to the user.', Person: { FullName: 'Sue Supervisor', Roles: ['ARC Supervisor'] } },
    ]);
    // the memo is a row of its own with the server's id, the same as in the snapshot
    const memo = d.ProfileSnapshot.MemosAndActivities.ActivitiesWithMemos[0]!;
    expect(memo.Id).not.toBe('sender-memo');
    expect(await t.db.selectFrom('alarmMemos').select(['id', 'textMemo']).where('alarmReportId', '=', id).execute()).toEqual([
      { id: memo.Id, textMemo: 'Flat 2' },
    ]);

    const a = await ok<AnalysisResponse>(await t.request(`/alarm-report/get-analysis?AlarmReportId=${id}`, { token: admin.token }));
    expect(a.Enabled).toBe(true);
    expect(a.Analysis).toMatchObject({ GeneratedAt: NOW.toISOString(), GeneratedBy: null });
    // generated from the document as written: the same as generating it again from the stored rows
    const again = await ok<AnalysisResponse>(
      await t.request('/alarm-report/generate-analysis', { method: 'POST', token: admin.token, json: { alarmReportId: id } }),
    );
    const rules = (x: AnalysisResponse) => ({ ...x.Analysis, GeneratedAt: null, GeneratedBy: null });
    expect(rules(again)).toEqual(rules(a));

    const chartAfter = await ok<TimeFrames>(
      await t.request('/alarm-report/get-verification-started-timeframes', { method: 'POST', token: admin.token, json: filter }),
    );
    expect(chartAfter.TotalCount).toBe(chartBefore.TotalCount + 1);
    const band = (x: TimeFrames) => x.TimeFrames.find((f) => f.TimeFrame.startsWith('10'))!.Count;
    expect(band(chartAfter)).toBe(band(chartBefore) + 1);

    const audit = await t.db.selectFrom('auditLog').selectAll().where('action', '=', 'alarmReport.import').where('entityId', '=', id).execute();
    expect(audit).toHaveLength(1);
    expect(audit[0]!.actorId).toBe(admin.id);
    expect(JSON.parse(audit[0]!.details)).toEqual({ alarmId: doc.AlarmId, customerId: c.id, analysed: true });
  });

  test.each([
    ["the customer's Alarm Report Intelligence off", { intel: false }, null],
    ["the customer's Auto-generate off", { auto: false }, null],
    ['the feature AutoGenerateAlarmReportIntelligence off', {}, 'AutoGenerateAlarmReportIntelligence'],
    ['the feature EnableAlarmReportIntelligence off', {}, 'EnableAlarmReportIntelligence'],
  ])('%s: stored, no Analysis generated', async (_, settings, feature) => {
    const c = await customer(settings);
    if (feature) await setFeature(t.db, feature, false);
    try {
      const r = await imported([report(c.id)]);
      expect(r.Created).toHaveLength(1);
      expect(r.Analysed).toEqual([]);
      expect(await storedAnalysis(r.Created[0]!.AlarmReportId)).toBeUndefined();
    } finally {
      if (feature) await setFeature(t.db, feature, true);
    }
  });
});

describe('the detail document is the import shape', () => {
  test('a report read from get-details and imported under a new AlarmId reads back the same, but for its ids', async () => {
    const c = await customer();
    const first = await imported([report(c.id)]);
    const alarmId = first.Created[0]!.AlarmId;
    const d = await ok<AlarmReportDetails>(await t.request(`/alarm-report/get-details?AlarmId=${alarmId}`, { token: admin.token }));
    const copyAlarmId = randomUUID();
    const copy = await imported([{ ...d, AlarmId: copyAlarmId, CustomerId: c.id }]);
    expect(copy.Created).toHaveLength(1);
    const e = await ok<AlarmReportDetails>(await t.request(`/alarm-report/get-details?AlarmId=${copyAlarmId}`, { token: admin.token }));
    /** The document without the ids the server assigns. */
    const strip = (x: AlarmReportDetails) => ({
      ...x,
      Id: '',
      AlarmId: '',
      Etag: '',
      Calls: x.Calls.map((k) => ({ ...k, Id: '' })),
      ActivityJournal: {
        AdditionalNoteList: x.ActivityJournal.AdditionalNoteList.map((n) => ({ ...n, Id: '' })),
        Activities: x.ActivityJournal.Activities.map((a) => ({ ...a, Id: '' })),
      },
      ProfileSnapshot: {
        ...x.ProfileSnapshot,
        MemosAndActivities: { ActivitiesWithMemos: x.ProfileSnapshot.MemosAndActivities.ActivitiesWithMemos.map((m) => ({ ...m, Id: '' })) },
      },
    });
    expect(strip(e)).toEqual(strip(d));
  });
});

describe('idempotent by AlarmId', () => {
  test('a re-sent report is already present, not stored again; a copy within one batch too', async () => {
    const c = await customer();
    const doc = report(c.id);
    const first = await imported([doc]);
    const id = first.Created[0]!.AlarmReportId;
    const other = report(c.id);
    const again = await imported([other, doc, other]);
    expect(again.Created).toEqual([{ Index: 0, AlarmId: other.AlarmId, AlarmReportId: expect.any(String) }]);
    const otherId = again.Created[0]!.AlarmReportId;
    expect(again.AlreadyPresent).toEqual([
      { Index: 1, AlarmId: doc.AlarmId, AlarmReportId: id },
      { Index: 2, AlarmId: other.AlarmId, AlarmReportId: otherId },
    ]);
    expect(again.Analysed).toEqual([otherId]);
    for (const [alarmId, reportId] of [
      [doc.AlarmId, id],
      [other.AlarmId, otherId],
    ] as const) {
      expect(await t.db.selectFrom('alarmReports').select('id').where('alarmId', '=', alarmId).execute()).toEqual([{ id: reportId }]);
      expect(await t.db.selectFrom('alarmCalls').select('id').where('alarmReportId', '=', reportId).execute()).toHaveLength(1);
    }
  });
});

describe('validation: 400 in the error shape, nothing of the batch stored', () => {
  test('an array instead of { AlarmReports }', async () => {
    const c = await customer();
    const res = await send([report(c.id)]);
    expect(res.status).toBe(400);
    expect((await errorOf(res)).Message).toBe(MSG.bodyNotObject);
  });

  test('a report with missing fields names its index; the valid one before it is not stored', async () => {
    const c = await customer();
    const good = report(c.id);
    const { AlarmClosed: _closed, VerificationType: _type, ...bad } = report(c.id);
    const before = await reportCount();
    const res = await send({ AlarmReports: [good, bad] });
    expect(res.status).toBe(400);
    const e = await errorOf(res);
    expect(e.Code).toBe(CODE.validation);
    expect(e.Errors).toMatchObject({ 'AlarmReports.1.AlarmClosed': expect.any(String), 'AlarmReports.1.VerificationType': expect.any(String) });
    expect(Object.keys(e.Errors ?? {}).some((k) => k.startsWith('AlarmReports.0'))).toBe(false);
    expect(await reportCount()).toBe(before);
  });

  test.each([
    ['no reports', { AlarmReports: [] }, 'AlarmReports', IMPORT_TEXT.badBatch],
    ['no AlarmReports', {}, 'AlarmReports', null],
  ])('%s', async (_, body, key, message) => {
    const res = await send(body);
    expect(res.status).toBe(400);
    const e = await errorOf(res);
    expect(e.Errors?.[key]).toBeDefined();
    if (message) expect(e.Message).toBe(message);
  });

  test(`more than ${IMPORT_MAX} reports`, async () => {
    const c = await customer();
    const one = report(c.id);
    const res = await send({ AlarmReports: Array.from({ length: IMPORT_MAX + 1 }, () => ({ ...one, AlarmId: randomUUID() })) });
    expect(res.status).toBe(400);
    expect((await errorOf(res)).Message).toBe(IMPORT_TEXT.badBatch);
  });

  test('a body over the batch size class is refused with 413 and nothing is stored', async () => {
    const c = await customer();
    const alarmId = randomUUID();
    const res = await send({ AlarmReports: [{ ...report(c.id), AlarmId: alarmId, Padding: 'x'.repeat(BODY_LIMITS.batch) }] });
    expect(res.status).toBe(413);
    expect(await t.db.selectFrom('alarmReports').select('id').where('alarmId', '=', alarmId).executeTakeFirst()).toBeUndefined();
  });

  test.each([
    ['a date without its zone', { AlarmClosed: '2026-11-22T11:00:00' }, 'AlarmReports.0.AlarmClosed', IMPORT_TEXT.badDate],
    ['a day that does not exist', { AlarmStared: '2026-02-30T10:00:00Z' }, 'AlarmReports.0.AlarmStared', IMPORT_TEXT.badDate],
    ['closed before it started', { AlarmClosed: '2026-11-22T10:00:00Z' }, 'AlarmReports.0.AlarmClosed', IMPORT_TEXT.closedBeforeStarted],
    [
      'closed in the future',
      { AlarmStared: '2026-11-23T10:00:00Z', AlarmClosed: '2026-11-23T11:00:00Z' },
      'AlarmReports.0.AlarmClosed',
      IMPORT_TEXT.closedInFuture,
    ],
    ['a category of another verification type', { VerificationCategory: { Value: 201 } }, 'AlarmReports.0.VerificationCategory', IMPORT_TEXT.categoryOfType],
    ['an unknown customer', { CustomerId: randomUUID() }, 'AlarmReports.0.CustomerId', IMPORT_TEXT.unknownCustomer],
    ['an unknown call line', { Calls: [{ ...report('x').Calls[0], Line: 'Fax' }] }, 'AlarmReports.0.Calls.0.Line', null],
    // a list where an object belongs is refused, not read as an empty object
    ['an ActivityJournal sent as a list', { ActivityJournal: [] }, 'AlarmReports.0.ActivityJournal', 'Please enter a valid activity journal'],
    [
      'an ActivityJournal sent as a list of notes',
      { ActivityJournal: [{ Note: 'x', CreatedDate: '2026-11-22T10:00:00Z' }] },
      'AlarmReports.0.ActivityJournal',
      'Please enter a valid activity journal',
    ],
    ['a Location sent as a list', { Location: [] }, 'AlarmReports.0.Location', 'Please enter a valid location'],
  ])('%s', async (_, over, key, message) => {
    const c = await customer();
    const before = await reportCount();
    const res = await send({ AlarmReports: [report(c.id, over)] });
    expect(res.status).toBe(400);
    const e = await errorOf(res);
    expect(e.Errors?.[key], JSON.stringify(e)).toBeDefined();
    if (message) expect(e.Errors?.[key]).toBe(message);
    expect(await reportCount()).toBe(before);
  });
});

describe('who may import', () => {
  test('no token 401; roles without the import permission 403', async () => {
    const c = await customer();
    expect((await t.request('/alarm-report/import', { method: 'POST', json: { AlarmReports: [report(c.id)] } })).status).toBe(401);
    for (const roles of [['ArcManagerRole'], ['SuperAdminReadonlyRole'], ['ArcControllerRole']] as const) {
      const res = await send({ AlarmReports: [report(c.id)] }, roles[0] === 'ArcManagerRole' ? manager : (await signedIn(t.db, t.config, [...roles])).token);
      expect(res.status).toBe(403);
      expect((await errorOf(res)).Message).toBe(MSG.forbidden);
    }
  });

  test("a customer tenant's caller is refused whatever its token claims", async () => {
    const c = await customer();
    const token = await tokenFor(t.config, ['SuperAdminRole'], { tenantId: c.tenantId });
    const before = await reportCount();
    expect((await send({ AlarmReports: [report(c.id)] }, token)).status).toBe(403);
    expect(await reportCount()).toBe(before);
  });

  test("a scoped writer may import only its own customer's reports: another customer's is unknown", async () => {
    const own = await customer();
    const other = await customer();
    const body = (id: string) => v.parse(importAlarmReportsBody, { AlarmReports: [report(id)] });
    const scope = { all: false, tenantId: own.tenantId } as const;
    await expect(tx(t.db, (trx) => importAlarmReports(trx, scope, body(other.id).AlarmReports, NOW))).rejects.toMatchObject({
      status: 400,
      errors: { 'AlarmReports.0.CustomerId': IMPORT_TEXT.unknownCustomer },
    });
    const r = await tx(t.db, (trx) => importAlarmReports(trx, scope, body(own.id).AlarmReports, NOW));
    expect(r.Created).toHaveLength(1);
  });
});
