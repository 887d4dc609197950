// The alarm statistics (alarmStats, kept by triggers) against the raw reports, on SQLite and on
// PostgreSQL with TEST_DB=pg: for random filters and ranges (fast-check), the Verification Started
// and Completed charts, the response targets, the list's total and Type of Alarms over time equal
// what a count of the stored reports gives — after inserts, updates that move reports between
// statistics rows, and deletes. Also: the SQLite London-day expression agrees with Intl's
// Europe/London around every summer-time changeover of 2024–2030.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import fc from 'fast-check';
import * as v from 'valibot';
import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { createTestDb, type TestDb } from '../helpers/db.js';
import { insertAlarmReport } from '../helpers/alarm-reports.js';
import {
  listAlarmReports,
  rangeOf,
  responseTargets,
  statsGrain,
  verificationCompleted,
  verificationStarted,
  verificationTypeTimeFrames,
} from '../../src/server/modules/alarm-reports/repo.js';
import { londonDaySql } from '../../src/server/modules/alarm-reports/aggregates.js';
import { londonDayOf } from '../../src/server/modules/alarm-reports/time.js';
import {
  alarmReportListBody,
  bandOf,
  COMPLETED_BANDS,
  isWithin,
  MISSED_MAX,
  RESPONSE_WINDOWS,
  responseTargetsBody,
  STARTED_BANDS,
} from '../../src/shared/schemas/alarm-reports.js';
import { ALL_TENANTS } from '../../src/server/auth/tenant-scope.js';

/** Sunday 22 November 2026, 12:00 UK (GMT). */
const NOW = new Date('2026-11-22T12:00:00.000Z');
const DAY = 86_400_000;
const CONTROLLERS = [randomUUID(), randomUUID(), randomUUID()];
const DEVICE_TYPES = [3, 620, 640];
const CATEGORIES: Record<number, number[]> = { 1: [101, 105], 2: [201, 203], 3: [301], 4: [401, 402] };
/** Instants at the edges that matter: London midnights in winter and summer, and the changeovers. */
const EDGES = [
  '2026-03-28T23:59:59.999Z',
  '2026-03-29T00:00:00.000Z',
  '2026-03-29T00:59:59.999Z',
  '2026-03-29T01:00:00.000Z',
  '2026-03-29T23:00:00.000Z',
  '2026-03-29T22:59:59.999Z',
  '2026-10-24T22:59:59.999Z',
  '2026-10-24T23:00:00.000Z',
  '2026-10-25T00:59:59.999Z',
  '2026-10-25T01:00:00.000Z',
  '2026-11-22T00:00:00.000Z',
  '2026-11-21T23:59:59.999Z',
  '2026-11-16T00:00:00.000Z',
  '2026-08-22T23:00:00.000Z',
  '2026-05-21T23:00:00.000Z',
  '2025-11-22T00:00:00.000Z',
];

type Stored = {
  id: string;
  alarmClosed: string;
  alarmType: number;
  verificationType: number;
  verificationCategory: number;
  tier: number | null;
  deviceType: number | null;
  arcControllerId: string | null;
  verificationStartedSeconds: number;
  verificationCompletedSeconds: number;
  customerAccountFullName: string;
  personFullName: string;
};

let t: TestDb;

/** A deterministic stream of report values (mulberry32). */
function rng(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let x = a;
    x = Math.imul(x ^ (x >>> 15), x | 1);
    x ^= x + Math.imul(x ^ (x >>> 7), x | 61);
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
}

function randomReport(r: () => number, i: number) {
  const one = <T>(xs: readonly T[]) => xs[Math.floor(r() * xs.length)]!;
  const verificationType = 1 + Math.floor(r() * 4);
  const closed = i < EDGES.length ? EDGES[i]! : new Date(NOW.getTime() - Math.floor(r() * 400 * DAY) - 1000).toISOString();
  return {
    alarmClosed: closed,
    alarmStarted: closed,
    alarmType: 1 + Math.floor(r() * 6),
    verificationType,
    verificationCategory: one(CATEGORIES[verificationType]!),
    tier: r() < 0.15 ? null : 1 + Math.floor(r() * 4),
    deviceType: r() < 0.15 ? null : one(DEVICE_TYPES),
    arcControllerId: r() < 0.15 ? null : one(CONTROLLERS),
    verificationStartedSeconds: one([0, 5, 9, 10, 11, 39, 40, 41, 90, -1]),
    verificationCompletedSeconds: one([30, 119, 120, 121, 179, 180, 599, 600, 1200]),
    customerAccountFullName: one(['Stats Alpha Ltd', 'Stats Beta plc', 'Gamma Care']),
    personFullName: one(['Jane Doe', 'John Smith', 'Ann Lee']),
  };
}

beforeAll(async () => {
  t = await createTestDb();
  const r = rng(42);
  const ids: string[] = [];
  for (let i = 0; i < 400; i++) ids.push((await insertAlarmReport(t.db, randomReport(r, i))).id);
  // Updates that move reports between statistics rows (day, dimensions, bands), and deletes.
  for (let i = 0; i < 60; i++) {
    const next = randomReport(r, 1000 + i);
    const { alarmStarted: _s, customerAccountFullName: _c, personFullName: _p, ...moved } = next;
    await t.db
      .updateTable('alarmReports')
      .set(moved)
      .where('id', '=', ids[EDGES.length + i]!)
      .execute();
  }
  // Renames that move reports between the distinct names (alarmReportNames), one to a name no
  // other report carries and one away from the only report of a name.
  const renames: [string, string][] = [
    ['Jane Renamed', 'Beta Renamed plc'],
    ['ann lee', 'GAMMA CARE'],
    ['Solo Person', 'Solo Account'],
  ];
  for (let i = 0; i < 21; i++) {
    const [personFullName, customerAccountFullName] = renames[i % 3]!;
    await t.db
      .updateTable('alarmReports')
      .set({ personFullName, customerAccountFullName })
      .where('id', '=', ids[100 + i]!)
      .execute();
  }
  await t.db.updateTable('alarmReports').set({ personFullName: 'Only Once', customerAccountFullName: 'Once Ltd' }).where('id', '=', ids[140]!).execute();
  await t.db.updateTable('alarmReports').set({ personFullName: 'Jane Doe', customerAccountFullName: 'Gamma Care' }).where('id', '=', ids[140]!).execute();
  await t.db.deleteFrom('alarmReports').where('id', 'in', ids.slice(200, 230)).execute();
}, 120_000);
afterAll(async () => {
  await t?.close();
});

async function stored(): Promise<Stored[]> {
  return t.db
    .selectFrom('alarmReports')
    .select([
      'id',
      'alarmClosed',
      'alarmType',
      'verificationType',
      'verificationCategory',
      'tier',
      'deviceType',
      'arcControllerId',
      'verificationStartedSeconds',
      'verificationCompletedSeconds',
      'customerAccountFullName',
      'personFullName',
    ])
    .execute();
}

const subset = <T>(xs: readonly T[]) => fc.subarray([...xs], { maxLength: Math.min(3, xs.length) });
const day = fc.integer({ min: 0, max: 420 }).map((k) => new Date(NOW.getTime() - k * DAY).toISOString().slice(0, 10));
const filterArb = fc.record({
  alarmClosedDateRangeOption: fc.integer({ min: 1, max: 7 }),
  alarmTypes: fc.oneof(fc.constant([]), subset([1, 2, 3, 4, 5, 6])),
  alarmVerificationTypes: fc.oneof(fc.constant([]), subset([1, 2, 3, 4])),
  alarmVerificationCategoryTypes: fc.oneof(fc.constant([]), fc.constant([]), subset([101, 105, 201, 203, 301, 401, 402])),
  deviceTypes: fc.oneof(fc.constant([]), fc.constant([]), subset(DEVICE_TYPES)),
  tierTypes: fc.oneof(fc.constant([]), fc.constant([]), subset([1, 2, 3, 4])),
  arcControllerIds: fc.oneof(fc.constant([]), fc.constant([]), subset(CONTROLLERS)),
  customerAccountFullName: fc.oneof(
    { arbitrary: fc.constant(''), weight: 20 },
    { arbitrary: fc.constant('stats'), weight: 1 },
    { arbitrary: fc.constant('beta'), weight: 1 },
    { arbitrary: fc.constant('solo'), weight: 1 },
  ),
  personFullName: fc.oneof(
    { arbitrary: fc.constant(''), weight: 20 },
    { arbitrary: fc.constant('jane'), weight: 1 },
    { arbitrary: fc.constant('ANN'), weight: 1 },
  ),
  searchValue: fc.oneof(
    { arbitrary: fc.constant(''), weight: 20 },
    { arbitrary: fc.constant('smith'), weight: 1 },
    { arbitrary: fc.constant('ga'), weight: 1 },
    { arbitrary: fc.constant('renamed'), weight: 1 },
  ),
  alarmClosedDateFrom: fc.option(day, { nil: null }),
  alarmClosedDateTo: fc.option(day, { nil: null }),
});

type F = ReturnType<typeof v.parse<typeof alarmReportListBody>>;

/** The reference: the stored reports a filter matches, counted in JS. */
function expected(rows: Stored[], f: F) {
  const { from, to } = rangeOf(f, NOW);
  const has = (x: string, s: string) => x.toLowerCase().includes(s.toLowerCase());
  const match = rows.filter(
    (r) =>
      (from === null || Date.parse(r.alarmClosed) >= from) &&
      (to === null || Date.parse(r.alarmClosed) < to) &&
      (!f.alarmTypes.length || f.alarmTypes.includes(r.alarmType)) &&
      (!f.alarmVerificationTypes.length || f.alarmVerificationTypes.includes(r.verificationType)) &&
      (!f.alarmVerificationCategoryTypes.length || f.alarmVerificationCategoryTypes.includes(r.verificationCategory)) &&
      (!f.deviceTypes.length || (r.deviceType !== null && f.deviceTypes.includes(r.deviceType))) &&
      (!f.tierTypes.length || (r.tier !== null && f.tierTypes.includes(r.tier))) &&
      (!f.arcControllerIds.length || (r.arcControllerId !== null && f.arcControllerIds.includes(r.arcControllerId))) &&
      (!f.customerAccountFullName || has(r.customerAccountFullName, f.customerAccountFullName)) &&
      (!f.personFullName || has(r.personFullName, f.personFullName)) &&
      (!f.searchValue || has(r.customerAccountFullName, f.searchValue) || has(r.personFullName, f.searchValue)),
  );
  const started = STARTED_BANDS.map((b) => match.filter((r) => bandOf(STARTED_BANDS, r.verificationStartedSeconds) === b).length);
  const completed = COMPLETED_BANDS.map((b) => match.filter((r) => bandOf(COMPLETED_BANDS, r.verificationCompletedSeconds) === b).length);
  const within = (w: number) => match.filter((r) => isWithin(Math.max(0, r.verificationStartedSeconds), w)).length;
  // the missed list: slowest first, then the latest, then by id; at most MISSED_MAX
  const missed = match
    .filter((r) => !isWithin(Math.max(0, r.verificationStartedSeconds), RESPONSE_WINDOWS.within10))
    .sort(
      (a, b) =>
        b.verificationStartedSeconds - a.verificationStartedSeconds ||
        (a.alarmClosed < b.alarmClosed ? 1 : a.alarmClosed > b.alarmClosed ? -1 : 0) ||
        (a.id < b.id ? -1 : a.id > b.id ? 1 : 0),
    )
    .slice(0, MISSED_MAX)
    .map((r) => r.id);
  return {
    total: match.length,
    started,
    completed,
    within10: within(RESPONSE_WINDOWS.within10),
    within40: within(RESPONSE_WINDOWS.within40),
    missed,
  };
}

describe('alarm statistics equal raw counts', () => {
  test('charts, response targets, list total and Type of Alarms over time, for random filters and ranges', async () => {
    const rows = await stored();
    expect(rows.length).toBe(370);
    let served = 0;
    await fc.assert(
      fc.asyncProperty(filterArb, async (raw) => {
        const [a, b] = [raw.alarmClosedDateFrom, raw.alarmClosedDateTo];
        const body = v.parse(alarmReportListBody, { ...raw, ...(a && b && a > b ? { alarmClosedDateFrom: b, alarmClosedDateTo: a } : {}) });
        if (statsGrain(body) !== null) served++;
        const want = expected(rows, body);
        const s = await verificationStarted(t.db, ALL_TENANTS, body, NOW);
        expect({ total: s.TotalCount, bands: s.TimeFrames.map((x) => x.Count) }).toEqual({ total: want.total, bands: want.started });
        const c = await verificationCompleted(t.db, ALL_TENANTS, body, NOW);
        expect({ total: c.TotalCount, bands: c.TimeFrames.map((x) => x.Count) }).toEqual({ total: want.total, bands: want.completed });
        const rt = await responseTargets(t.db, ALL_TENANTS, v.parse(responseTargetsBody, body), NOW);
        expect([rt.TotalCount, rt.Within10.Count, rt.Within40.Count, rt.MissedTotal]).toEqual([
          want.total,
          want.within10,
          want.within40,
          want.total - want.within10,
        ]);
        expect(rt.Within10.Count).toBe(s.TimeFrames[0]!.Count);
        // the missed list, whichever index it walks (one controller's own, every controller's, or the planner's)
        expect(rt.Missed.map((m) => m.AlarmReportId)).toEqual(want.missed);
        expect((await listAlarmReports(t.db, ALL_TENANTS, body, NOW)).TotalCount).toBe(want.total);
        if (body.alarmClosedDateRangeOption !== 7) {
          const ty = await verificationTypeTimeFrames(t.db, ALL_TENANTS, body, NOW);
          const sum = Object.values(ty.TimeFrames)
            .flat()
            .reduce((n, x) => n + x.Count, 0);
          expect(sum).toBe(want.total);
        }
      }),
      { numRuns: 120, seed: 20261122 },
    );
    // most generated filters are answered from the statistics (the rest from the raw rows)
    expect(served).toBeGreaterThan(50);
  }, 120_000);

  test('a sorted page is the same whether it walks the sort index or sorts the filtered rows', async () => {
    const sorts = [
      'AlarmClosedDate',
      'CustomerAccountFullName',
      'Tier',
      'AlarmType',
      'AlarmVerificationType',
      'AlarmVerificationCategory',
      'PersonFullName',
      'DeviceType',
      'ArcControllerFullName',
    ];
    for (const sortBy of sorts)
      for (const sortDescending of [false, true])
        for (const extra of [
          { alarmClosedDateRangeOption: 7 },
          { alarmClosedDateRangeOption: 6, tierTypes: [2, 3] },
          { alarmClosedDateRangeOption: 5, searchValue: 'a' },
        ])
          for (const page of [1, 3]) {
            const body = v.parse(alarmReportListBody, { ...extra, sortBy, sortDescending, page, pageSize: 10 });
            const walked = await listAlarmReports(t.db, ALL_TENANTS, body, NOW);
            const planned = await listAlarmReports(t.db, ALL_TENANTS, body, NOW, 'planner');
            expect(walked.AlarmReports.length).toBe(10);
            expect(walked.AlarmReports.map((r) => r.AlarmReportId)).toEqual(planned.AlarmReports.map((r) => r.AlarmReportId));
          }
  });

  test('the distinct names hold each lower-cased person and account name with its number of reports, after inserts, renames and deletes', async () => {
    const rows = await stored();
    const want: Record<string, number> = {};
    for (const r of rows)
      for (const [kind, name] of [
        ['person', r.personFullName],
        ['account', r.customerAccountFullName],
      ] as const)
        want[`${kind}:${name.toLowerCase()}`] = (want[`${kind}:${name.toLowerCase()}`] ?? 0) + 1;
    const got = await t.db.selectFrom('alarmReportNames').select(['kind', 'key', 'n']).execute();
    expect(Object.fromEntries(got.map((g) => [`${g.kind}:${g.key}`, Number(g.n)]))).toEqual(want);
    expect(want['person:only once']).toBeUndefined();
    expect(want['person:solo person']).toBe(7);
  });

  test('Type of Alarms over time: each day of the last 30 days carries the reports closed on that London day', async () => {
    const rows = await stored();
    const body = v.parse(alarmReportListBody, { alarmClosedDateRangeOption: 3 });
    expect(statsGrain(body)).not.toBeNull();
    const ty = await verificationTypeTimeFrames(t.db, ALL_TENANTS, body, NOW);
    const { from } = rangeOf(body, NOW);
    for (const label of ty.Labels) {
      const [dd, mm, yyyy] = label.split('/');
      const want = rows.filter((r) => Date.parse(r.alarmClosed) >= from! && londonDayOf(Date.parse(r.alarmClosed)) === `${yyyy}-${mm}-${dd}`);
      for (const x of ty.TimeFrames[label]!) expect(x.Count).toBe(want.filter((r) => r.verificationType === x.AlarmType.Value).length);
    }
  });

  test('the London day of an instant in SQL agrees with Intl around every changeover, 2024–2030', async () => {
    const instants: string[] = [];
    for (let y = 2024; y <= 2030; y++)
      for (const m of [2, 9]) {
        // every quarter hour from the 24th to the end of March / October
        const start = Date.UTC(y, m, 24);
        for (let ms = start; ms < start + 8 * DAY; ms += 15 * 60_000) instants.push(new Date(ms).toISOString());
        instants.push(new Date(Date.UTC(y, m + 1, 0, 23, 59, 59, 999)).toISOString());
      }
    const pg = t.dialect === 'pg';
    const list = pg
      ? sql`select value as ts from json_array_elements_text(${JSON.stringify(instants)}::json)`
      : sql`select value as ts from json_each(${JSON.stringify(instants)})`;
    const got = await sql<{ ts: string; day: string }>`select ts, ${sql.raw(londonDaySql(pg, 'ts'))} as day from (${list}) x`.execute(t.db);
    const wrong = got.rows.filter((r) => r.day !== londonDayOf(Date.parse(r.ts)));
    expect(got.rows.length).toBe(instants.length);
    expect(wrong).toEqual([]);
  });
});
