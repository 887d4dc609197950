// The monthly management report against the real server on SQLite, and PostgreSQL with TEST_DB=pg:
// for one customer and for all customers, every number equals a count of the stored reports of
// the London month (and the month before), including reports at the month's edges in UTC; the
// plan compliance comes from the stored analyses; the monthly tops kept by triggers equal a
// rebuild from the rows and a count in JS after inserts, moves, regenerations and deletes; the feature off, the permission missing, an
// unknown customer and a bad month are refused.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { setFeature } from '../../src/server/modules/admin/repo.js';
import * as v from 'valibot';
import { randomUUID } from 'node:crypto';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { signedIn } from '../helpers/auth.js';
import { insertAlarmReport } from '../helpers/alarm-reports.js';
import { insertCustomer } from '../helpers/customers.js';
import { managementReportSchema, type ManagementReport } from '../../src/shared/schemas/management-report.js';
import { monthRange } from '../../src/shared/management-report.js';
import { ALARM_TYPES, VERIFICATION_TYPES } from '../../src/shared/codes.js';
import { bandOf, STARTED_BANDS, COMPLETED_BANDS } from '../../src/shared/schemas/alarm-reports.js';
import { generateAnalysis } from '../../src/server/modules/alarm-reports/analysis.js';
import { isPostgres, type DB } from '../../src/server/db/index.js';
import { sql } from 'kysely';
import { rebuildTopsSql } from '../../src/server/modules/alarm-reports/month-tops.js';

const NOW = new Date('2026-11-22T12:00:00.000Z');
let t: TestApp;
let manager: string;
let controller: string;

type Row = {
  id: string;
  customerId: string;
  alarmClosed: string;
  alarmType: number;
  verificationType: number;
  verificationCategory: number;
  verificationStartedSeconds: number;
  verificationCompletedSeconds: number;
  personId: string;
  personFullName: string;
  deviceSerial: string;
};
const rows: Row[] = [];
let custA: { id: string; name: string };
let custB: { id: string; name: string };

// Closed dates of October 2026 in London, its UTC edges, the month before and the month after.
const CLOSED = [
  '2026-09-30T22:30:00.000Z', // 23:30 BST on 30 September: September
  '2026-09-30T23:30:00.000Z', // 00:30 BST on 1 October: October
  '2026-10-10T12:00:00.000Z',
  '2026-10-25T00:30:00.000Z', // the night summer time ends
  '2026-10-25T01:30:00.000Z',
  '2026-10-31T23:30:00.000Z', // GMT again: still 31 October
  '2026-11-01T00:00:00.000Z', // November
  '2026-09-12T08:00:00.000Z',
  '2026-09-01T00:00:00.000Z',
];
const STARTED = [3, 9, 10, 25, 39, 40, 75, 5, 12];
const COMPLETED = [60, 119, 120, 179, 180, 599, 600, 900, 100];

beforeAll(async () => {
  t = await createTestApp({ now: () => NOW });
  manager = (await signedIn(t.db, t.config, ['ArcManagerRole'], 'mr.manager@staff.test')).token;
  controller = (await signedIn(t.db, t.config, ['ArcControllerRole'], 'mr.controller@staff.test')).token;
  custA = await insertCustomer(t.db, { name: 'Month Care Ltd', enableAlarmReportIntelligence: 1, autoGenerateAlarmIntelligence: 0 });
  custB = await insertCustomer(t.db, { name: 'Other Works plc', enableAlarmReportIntelligence: 0, autoGenerateAlarmIntelligence: 0 });
  const persons = [randomUUID(), randomUUID(), randomUUID()];
  let k = 0;
  for (const [ci, customer] of [custA, custB].entries())
    for (let i = 0; i < CLOSED.length * 3; i++, k++) {
      const p = (i * 7 + ci) % persons.length;
      const row: Row = {
        id: randomUUID(),
        customerId: customer.id,
        alarmClosed: CLOSED[i % CLOSED.length]!,
        alarmType: ALARM_TYPES[(i + ci) % ALARM_TYPES.length]!.Value,
        verificationType: VERIFICATION_TYPES[i % VERIFICATION_TYPES.length]!.Value,
        verificationCategory: [101, 102, 201, 301][i % 4]!,
        verificationStartedSeconds: STARTED[(i + k) % STARTED.length]!,
        verificationCompletedSeconds: COMPLETED[(i * 5) % COMPLETED.length]!,
        personId: persons[p]!,
        personFullName: ['Ann Able', 'Ben Baker', 'Cat Cole'][p]!,
        deviceSerial: `SN-${(i * 3 + ci) % 5}`,
      };
      rows.push(row);
      await insertAlarmReport(t.db, {
        ...row,
        customerAccountFullName: customer.name,
        alarmStarted: new Date(Date.parse(row.alarmClosed) - 600_000).toISOString(),
        escalationPlanFollowed: i % 2,
        // every third report calls the plan's contact (followed); the rest do not
        journal:
          i % 3 === 0
            ? [
                {
                  details: 'Outbound Second Line',
                  customProperties: JSON.stringify({ kind: 'call', to: '+447700900111', from: '+443300000000', duration: 31 }),
                },
              ]
            : [],
      });
    }
});
afterAll(async () => {
  await t.close();
});

async function report(body: Record<string, unknown>, token = manager) {
  const res = await t.request('/alarm-report/get-management-report', { method: 'POST', token, json: body });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> & { Content?: { Code: string; Message: string } } };
}
const okReport = async (body: Record<string, unknown>): Promise<ManagementReport> => {
  const r = await report(body);
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return v.parse(managementReportSchema, r.body);
};

/** The expected numbers, counted from the rows inserted (the London month's UTC range from the shared rule). */
function expected(month: string, customerId: string | null) {
  const { from, to } = monthRange(month);
  const of = rows.filter((r) => (customerId === null || r.customerId === customerId) && r.alarmClosed >= from && r.alarmClosed < to);
  const count = <K>(key: (r: Row) => K) => {
    const m = new Map<K, number>();
    for (const r of of) m.set(key(r), (m.get(key(r)) ?? 0) + 1);
    return m;
  };
  return {
    rows: of,
    total: of.length,
    byType: count((r) => r.alarmType),
    byVType: count((r) => r.verificationType),
    byCategory: count((r) => r.verificationCategory),
    started: STARTED_BANDS.map((b) => of.filter((r) => bandOf(STARTED_BANDS, r.verificationStartedSeconds) === b).length),
    completed: COMPLETED_BANDS.map((b) => of.filter((r) => bandOf(COMPLETED_BANDS, r.verificationCompletedSeconds) === b).length),
    persons: count((r) => r.personId),
    devices: count((r) => r.deviceSerial),
  };
}

async function rawCount(db: DB, month: string, customerId: string | null) {
  const { from, to } = monthRange(month);
  let q = db
    .selectFrom('alarmReports')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('alarmClosed', '>=', from)
    .where('alarmClosed', '<', to);
  if (customerId) q = q.where('customerId', '=', customerId);
  return Number((await q.executeTakeFirstOrThrow()).n);
}

describe.each([
  ['one customer', () => custA.id],
  ['all customers', () => null],
])('%s', (_, customer) => {
  test('every number equals a count of the stored reports of the London month', async () => {
    const customerId = customer();
    const r = await okReport({ month: '2026-10', customerId });
    const e = expected('2026-10', customerId);
    const before = expected('2026-09', customerId);
    expect(e.total).toBeGreaterThan(0);
    expect(r.TotalCount).toBe(e.total);
    expect(r.TotalCount).toBe(await rawCount(t.db, '2026-10', customerId));
    expect(r.PreviousTotalCount).toBe(before.total);
    expect(r.PreviousTotalCount).toBe(await rawCount(t.db, '2026-09', customerId));
    expect(r.CustomerName).toBe(customerId ? custA.name : 'All customers');
    expect(r.From).toBe('2026-09-30T23:00:00.000Z');
    expect(r.To).toBe('2026-11-01T00:00:00.000Z');

    expect(r.ByAlarmType.map((x) => [x.Value, x.Count])).toEqual(ALARM_TYPES.map((a) => [a.Value, e.byType.get(a.Value) ?? 0]));
    expect(r.ByVerificationType.map((x) => [x.Value, x.Count])).toEqual(VERIFICATION_TYPES.map((a) => [a.Value, e.byVType.get(a.Value) ?? 0]));
    expect(new Map(r.ByCategory.map((x) => [x.Value, x.Count]))).toEqual(e.byCategory);
    expect(r.VerificationStarted.map((b) => b.Count)).toEqual(e.started);
    expect(r.VerificationCompleted.map((b) => b.Count)).toEqual(e.completed);

    const share = (n: number, d: number) => (d ? Math.round((n / d) * 10000) / 100 : null);
    const w10 = e.rows.filter((x) => x.verificationStartedSeconds < 10).length;
    const w40 = e.rows.filter((x) => x.verificationStartedSeconds < 40).length;
    const b10 = before.rows.filter((x) => x.verificationStartedSeconds < 10).length;
    expect(r.Within10).toMatchObject({
      Count: w10,
      Percent: share(w10, e.total),
      TargetPercent: 80,
      PreviousCount: b10,
      PreviousPercent: share(b10, before.total),
    });
    expect(r.Within10.Change).toBe(Math.round((share(w10, e.total)! - share(b10, before.total)!) * 100) / 100);
    expect(r.Within40).toMatchObject({ Count: w40, Percent: share(w40, e.total), TargetPercent: 98.5 });

    // Missed: every alarm at 10 s or more, slowest first (an alarm at exactly 10 s missed).
    const missed = e.rows.filter((x) => x.verificationStartedSeconds >= 10);
    expect(r.MissedTotal).toBe(missed.length);
    expect(r.Missed).toHaveLength(missed.length);
    expect(r.Missed.map((m) => m.VerificationStartedSeconds)).toEqual(missed.map((m) => m.verificationStartedSeconds).sort((a, b) => b - a));
    expect(r.Missed.every((m) => m.Over40 === m.VerificationStartedSeconds >= 40)).toBe(true);

    // Busiest: the counts of the top rows are the largest counts, in order.
    const top = (m: Map<string, number>) => [...m.values()].sort((a, b) => b - a).slice(0, 10);
    expect(r.BusiestPersons.map((p) => p.Count)).toEqual(top(e.persons));
    for (const p of r.BusiestPersons) expect(p.Count).toBe(e.persons.get(p.PersonId));
    expect(r.BusiestDevices.map((d) => d.Count)).toEqual(top(e.devices));
    for (const d of r.BusiestDevices) expect(d.Count).toBe(e.devices.get(d.Serial));
  });

  test('targets of the request are the ones held against', async () => {
    const r = await okReport({ month: '2026-10', customerId: customer(), targetWithin10Percent: 10, targetWithin40Percent: 100 });
    expect(r.Within10).toMatchObject({ TargetPercent: 10, Met: r.Within10.Percent! >= 10 });
    expect(r.Within40).toMatchObject({ TargetPercent: 100, Met: r.Within40.Percent === 100 });
  });
});

describe('escalation-plan compliance from the stored analyses', () => {
  test('counts the analyses of the month of customers with intelligence on; null when it is off', async () => {
    const october = expected('2026-10', null).rows;
    for (const r of october) {
      const stored = await t.db.selectFrom('alarmReports').select(['id', 'alarmId']).where('id', '=', r.id).executeTakeFirstOrThrow();
      await generateAnalysis(t.db, stored, NOW, null);
    }
    const analyses = await t.db
      .selectFrom('alarmReportAnalyses')
      .innerJoin('alarmReports', 'alarmReports.id', 'alarmReportAnalyses.alarmReportId')
      .select(['alarmReports.customerId', 'alarmReportAnalyses.analysis'])
      .where(
        'alarmReports.id',
        'in',
        october.map((r) => r.id),
      )
      .execute();
    const ofA = analyses
      .filter((a) => a.customerId === custA.id)
      .map((a) => JSON.parse(a.analysis) as { PlanCheck: { Followed: boolean; Verdict: string } | null });
    const want = {
      Analysed: ofA.length,
      WithPlan: ofA.filter((a) => a.PlanCheck).length,
      Followed: ofA.filter((a) => a.PlanCheck?.Followed).length,
      Agrees: ofA.filter((a) => a.PlanCheck?.Verdict === 'Agrees').length,
      Questions: ofA.filter((a) => a.PlanCheck?.Verdict === 'Questions').length,
    };
    expect(want.Followed).toBeGreaterThan(0);
    expect(want.Followed).toBeLessThan(want.WithPlan);
    expect(want.Agrees).toBeGreaterThan(0);
    expect(want.Questions).toBeGreaterThan(0);

    // Customer B's analyses are stored too, but its intelligence setting is off: not counted.
    const all = await okReport({ month: '2026-10' });
    expect(all.PlanCompliance).toMatchObject({ ...want, NotFollowed: want.WithPlan - want.Followed, NoPlan: want.Analysed - want.WithPlan });
    expect((await okReport({ month: '2026-10', customerId: custA.id })).PlanCompliance).toEqual(all.PlanCompliance);
    expect((await okReport({ month: '2026-10', customerId: custB.id })).PlanCompliance).toBeNull();
    expect((await okReport({ month: '2026-09', customerId: custA.id })).PlanCompliance).toMatchObject({ Analysed: 0, FollowedPercent: null });

    await setFeature(t.db, 'EnableAlarmReportIntelligence', false);
    try {
      expect((await okReport({ month: '2026-10' })).PlanCompliance).toBeNull();
    } finally {
      await setFeature(t.db, 'EnableAlarmReportIntelligence', true);
    }
  });
});

describe('refused', () => {
  test('the feature off: 403 feature_disabled', async () => {
    await setFeature(t.db, 'ExportManagementReportPDF', false);
    try {
      const r = await report({ month: '2026-10' });
      expect(r.status).toBe(403);
      expect(r.body.Content).toMatchObject({ Code: 'feature_disabled', Message: 'The management report is not enabled.' });
    } finally {
      await setFeature(t.db, 'ExportManagementReportPDF', true);
    }
    expect((await report({ month: '2026-10' })).status).toBe(200);
  });
  test('without the export permission: 403; signed out: 401', async () => {
    expect((await report({ month: '2026-10' }, controller)).status).toBe(403);
    expect((await t.request('/alarm-report/get-management-report', { method: 'POST', json: { month: '2026-10' } })).status).toBe(401);
  });
  test('an unknown customer: 404; a month that is not YYYY-MM: 400', async () => {
    expect((await report({ month: '2026-10', customerId: randomUUID() })).status).toBe(404);
    for (const month of ['2026-13', '2026-1', 'October', '']) expect((await report({ month })).status, month).toBe(400);
    expect((await report({})).status).toBe(400);
  });
});

describe('the monthly tops (alarmMonthTops) equal a count of the raw rows after every kind of write', () => {
  type Top = { month: string; customerId: string; kind: number; key: string; label: string; code: number; n: number };
  const read = async (db: DB): Promise<Top[]> =>
    (await db.selectFrom('alarmMonthTops').selectAll().where('n', '!=', 0).orderBy('month').orderBy('customerId').orderBy('kind').orderBy('key').execute()).map(
      (r) => ({
        ...r,
        code: Number(r.code),
        n: Number(r.n),
      }),
    );
  /** The tops rebuilt set-based from the rows (in a transaction rolled back): what the triggers must have kept. */
  async function rebuilt(): Promise<Top[]> {
    let out: Top[] = [];
    await t.db
      .transaction()
      .execute(async (trx) => {
        for (const s of rebuildTopsSql(isPostgres(t.db))) await sql.raw(s).execute(trx);
        out = await read(trx);
        throw new Error('rollback');
      })
      .catch((e: Error) => {
        if (e.message !== 'rollback') throw e;
      });
    return out;
  }
  /** Persons and devices of a month counted in JS from the stored rows (London month bounds from the shared rule). */
  async function rawBusiest(month: string, customerId: string | null) {
    const { from, to } = monthRange(month);
    let q = t.db.selectFrom('alarmReports').select(['personId', 'deviceSerial']).where('alarmClosed', '>=', from).where('alarmClosed', '<', to);
    if (customerId) q = q.where('customerId', '=', customerId);
    const persons = new Map<string, number>();
    const devices = new Map<string, number>();
    for (const r of await q.execute()) {
      if (r.personId) persons.set(r.personId, (persons.get(r.personId) ?? 0) + 1);
      if (r.deviceSerial) devices.set(r.deviceSerial, (devices.get(r.deviceSerial) ?? 0) + 1);
    }
    return { persons, devices };
  }
  async function expectTopsMatchRows() {
    expect(await read(t.db)).toEqual(await rebuilt());
    for (const month of ['2026-09', '2026-10', '2026-11'])
      for (const customerId of [custA.id, null]) {
        const r = await okReport({ month, customerId });
        const raw = await rawBusiest(month, customerId);
        const top = (m: Map<string, number>) => [...m.values()].sort((a, b) => b - a).slice(0, 10);
        expect(
          r.BusiestPersons.map((p) => p.Count),
          `${month} ${customerId}`,
        ).toEqual(top(raw.persons));
        for (const p of r.BusiestPersons) expect(p.Count).toBe(raw.persons.get(p.PersonId));
        expect(r.BusiestDevices.map((d) => d.Count)).toEqual(top(raw.devices));
        for (const d of r.BusiestDevices) expect(d.Count).toBe(raw.devices.get(d.Serial));
      }
  }

  test('inserts (and the analyses stored above) are counted as the rows say', async () => {
    const tops = await read(t.db);
    expect(tops.some((x) => x.kind === 3)).toBe(true);
    expect(tops.some((x) => x.customerId === '*')).toBe(true);
    await expectTopsMatchRows();
  });

  test("moving a report to another month, customer, person or device moves its counts (and its analysis's outcome)", async () => {
    const october = await t.db
      .selectFrom('alarmReports')
      .innerJoin('alarmReportAnalyses', 'alarmReportAnalyses.alarmReportId', 'alarmReports.id')
      .select(['alarmReports.id'])
      .where('alarmReports.customerId', '=', custA.id)
      .where('alarmReports.alarmClosed', '>=', monthRange('2026-10').from)
      .where('alarmReports.alarmClosed', '<', monthRange('2026-10').to)
      .orderBy('alarmReports.id')
      .limit(4)
      .execute();
    expect(october).toHaveLength(4);
    const before = (await okReport({ month: '2026-10', customerId: custA.id })).PlanCompliance!.Analysed;
    await t.db.updateTable('alarmReports').set({ alarmClosed: '2026-09-15T10:00:00.000Z' }).where('id', '=', october[0]!.id).execute();
    await t.db.updateTable('alarmReports').set({ customerId: custB.id }).where('id', '=', october[1]!.id).execute();
    await t.db.updateTable('alarmReports').set({ personId: randomUUID(), personFullName: 'Zed Zulu' }).where('id', '=', october[2]!.id).execute();
    await t.db.updateTable('alarmReports').set({ deviceSerial: 'SN-MOVED', deviceType: 640 }).where('id', '=', october[3]!.id).execute();
    expect((await okReport({ month: '2026-10', customerId: custA.id })).PlanCompliance!.Analysed).toBe(before - 2);
    await expectTopsMatchRows();
  });

  test('regenerating, deleting an analysis and deleting a report (its analysis by the cascade) take their counts away', async () => {
    const [withAnalysis, another] = await t.db
      .selectFrom('alarmReports')
      .innerJoin('alarmReportAnalyses', 'alarmReportAnalyses.alarmReportId', 'alarmReports.id')
      .select(['alarmReports.id', 'alarmReports.alarmId'])
      .where('alarmReports.customerId', '=', custA.id)
      .orderBy('alarmReports.id', 'desc')
      .limit(2)
      .execute();
    await generateAnalysis(t.db, another!, NOW, null); // replaced in place (an upsert)
    await t.db.deleteFrom('alarmReportAnalyses').where('alarmReportId', '=', another!.id).execute();
    await t.db.deleteFrom('alarmReports').where('id', '=', withAnalysis!.id).execute();
    expect(await t.db.selectFrom('alarmReportAnalyses').select('alarmReportId').where('alarmReportId', '=', withAnalysis!.id).execute()).toEqual([]);
    await expectTopsMatchRows();
  });
});
