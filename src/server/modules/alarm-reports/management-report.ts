// The monthly management report (db first): one customer's or every customer's alarms of a
// Europe/London month. Counts come from the statistics (alarmStats grain 12: grain 2 per London
// month) for all customers, and from the customer's own rows through alarmReports_customer_idx
// (customerId, alarmClosed) for one customer (the statistics keep no customer); the busiest
// persons and devices and the plan compliance from the monthly tops (alarmMonthTops, migration
// 021: ten rows read in index order, whatever the month's volume); the missed list is the one
// query over the month's rows (the slowest first, capped). Rules: src/shared/management-report.ts;
// shapes: src/shared/schemas/management-report.ts.
import { sql, type ExpressionBuilder } from 'kysely';
import { isPostgres, type DB } from '../../db/index.js';
import type { Database } from '../../db/schema.js';
import { ALARM_TYPES, DEVICE_TYPES, VERIFICATION_CATEGORIES, VERIFICATION_TYPES, lookupName } from '../../../shared/codes.js';
import { COMPLETED_BANDS, RESPONSE_WINDOWS, STARTED_BANDS } from '../../../shared/schemas/alarm-reports.js';
import { BUSIEST_MAX, MISSED_LIST_MAX, missedCount, monthRange, sharePercent, shiftMonth, targetShare } from '../../../shared/management-report.js';
import { MANAGEMENT_FEATURE, MANAGEMENT_TEXT, type ManagementReport } from '../../../shared/schemas/management-report.js';
import { bandSql, COMPLETED_COLS, STARTED_COLS } from './aggregates.js';
import { INTELLIGENCE_FEATURE } from './analysis.js';
import { EVERY_CUSTOMER, TOP_KIND } from './month-tops.js';
import { missedRow, slowestMissed } from './repo.js';

/** One group of a month's counts: alarm type, verification type and category, with the band counts. */
type Group = { alarmType: number; verificationType: number; verificationCategory: number; n: number; s: number[]; c: number[] };

const num = (x: unknown) => Number(x ?? 0);

/** Whether a feature is on (features table; an unknown feature is off). */
export async function featureOn(db: DB, name: string): Promise<boolean> {
  const row = await db.selectFrom('features').select('isEnabled').where('name', '=', name).executeTakeFirst();
  return row?.isEnabled === 1;
}
export const managementReportOn = (db: DB) => featureOn(db, MANAGEMENT_FEATURE);

/** A report row belongs to the month (and the customer, when one is given). */
const inMonth = (range: { from: string; to: string }, customerId: string | null) => (eb: ExpressionBuilder<Database, 'alarmReports'>) =>
  eb.and([
    ...(customerId === null ? [] : [eb('alarmReports.customerId', '=', customerId)]),
    eb('alarmReports.alarmClosed', '>=', range.from),
    eb('alarmReports.alarmClosed', '<', range.to),
  ]);

/** The month's counts per (alarm type, verification type, category) with the chart bands. */
async function monthGroups(db: DB, month: string, customerId: string | null): Promise<Group[]> {
  const cols = [...STARTED_COLS, ...COMPLETED_COLS];
  const toGroup = (r: Record<string, unknown>): Group => ({
    alarmType: num(r.alarmType),
    verificationType: num(r.verificationType),
    verificationCategory: num(r.verificationCategory),
    n: num(r.n),
    s: STARTED_COLS.map((k) => num(r[k])),
    c: COMPLETED_COLS.map((k) => num(r[k])),
  });
  if (customerId === null) {
    // Grain 12 holds every report once per London month with these dimensions (and tier, device type).
    const rows = await db
      .selectFrom('alarmStats')
      .select(['alarmStats.alarmType', 'alarmStats.verificationType', 'alarmStats.verificationCategory'])
      .select(sql<string>`sum(${sql.ref('alarmStats.n')})`.as('n'))
      .select(cols.map((k) => sql<string>`sum(${sql.ref(`alarmStats.${k}`)})`.as(k)))
      .where('alarmStats.grain', '=', 12)
      .where('alarmStats.day', '=', month)
      .groupBy(['alarmStats.alarmType', 'alarmStats.verificationType', 'alarmStats.verificationCategory'])
      .execute();
    return rows.map((r) => toGroup(r as Record<string, unknown>)).filter((g) => g.n > 0);
  }
  const s = '"alarmReports"."verificationStartedSeconds"';
  const c = '"alarmReports"."verificationCompletedSeconds"';
  const rows = await db
    .selectFrom('alarmReports')
    .select(['alarmReports.alarmType', 'alarmReports.verificationType', 'alarmReports.verificationCategory'])
    .select(sql<string>`count(*)`.as('n'))
    .select(STARTED_BANDS.map((_, i) => sql<string>`sum(${sql.raw(bandSql(s, STARTED_BANDS, i))})`.as(STARTED_COLS[i]!)))
    .select(COMPLETED_BANDS.map((_, i) => sql<string>`sum(${sql.raw(bandSql(c, COMPLETED_BANDS, i))})`.as(COMPLETED_COLS[i]!)))
    .where(inMonth(monthRange(month), customerId))
    .groupBy(['alarmReports.alarmType', 'alarmReports.verificationType', 'alarmReports.verificationCategory'])
    .execute();
  return rows.map((r) => toGroup(r as Record<string, unknown>));
}

const sumBands = (groups: Group[], pick: (g: Group) => number[], size: number) =>
  groups.reduce((acc, g) => acc.map((n, i) => n + (pick(g)[i] ?? 0)), new Array<number>(size).fill(0));

function countBy(groups: Group[], key: (g: Group) => number): Map<number, number> {
  const m = new Map<number, number>();
  for (const g of groups) m.set(key(g), (m.get(key(g)) ?? 0) + g.n);
  return m;
}

/**
 * The month's alarms that missed the 10 s target, slowest first (at most MISSED_LIST_MAX). One
 * customer: its month through alarmReports_customer_idx, sorted. All customers: read from the
 * slow end of alarmReports_started_idx (verificationStartedSeconds, alarmClosed) until the list is
 * full, the month tested on the index entries — a few hundred entries whatever the volume.
 * PostgreSQL chooses that plan itself; SQLite would skip-scan the customer index over the whole
 * month and sort it, so there the month's bounds are written `+"alarmClosed"` (SQLite's way of
 * saying "not through an index on this column").
 */
function missedList(db: DB, range: { from: string; to: string }, customerId: string | null) {
  const closed = customerId === null && !isPostgres(db) ? sql<string>`+${sql.ref('alarmReports.alarmClosed')}` : sql.ref<string>('alarmReports.alarmClosed');
  const month = db
    .selectFrom('alarmReports')
    .$if(customerId !== null, (q) => q.where('alarmReports.customerId', '=', customerId!))
    .where(closed, '>=', range.from)
    .where(closed, '<', range.to);
  return slowestMissed(month, MISSED_LIST_MAX).execute();
}

/** The busiest persons or devices of the month (of one customer, or of every customer) from the monthly tops, most alarms first. */
const busiest = (db: DB, month: string, customerId: string | null, kind: number) =>
  db
    .selectFrom('alarmMonthTops')
    .select(['key', 'label', 'code', 'n'])
    .where('month', '=', month)
    .where('customerId', '=', customerId ?? EVERY_CUSTOMER)
    .where('kind', '=', kind)
    .where('n', '>', 0)
    .orderBy('n', 'desc')
    .orderBy('label')
    .orderBy('key')
    .limit(BUSIEST_MAX)
    .execute();

/**
 * Escalation-plan compliance from the monthly tops' plan outcomes of the stored analyses (kept per
 * customer), counting the customers whose intelligence setting is on.
 */
async function planCompliance(db: DB, month: string, customerId: string | null): Promise<NonNullable<ManagementReport['PlanCompliance']>> {
  const rows = await db
    .selectFrom('alarmMonthTops')
    .innerJoin('customers', 'customers.id', 'alarmMonthTops.customerId')
    .select(['alarmMonthTops.key', sql<string>`sum(${sql.ref('alarmMonthTops.n')})`.as('n')])
    .where('alarmMonthTops.month', '=', month)
    .where('alarmMonthTops.kind', '=', TOP_KIND.plan)
    .$if(customerId !== null, (q) => q.where('alarmMonthTops.customerId', '=', customerId!))
    .where('customers.enableAlarmReportIntelligence', '=', 1)
    .groupBy('alarmMonthTops.key')
    .execute();
  const out = { Analysed: 0, WithPlan: 0, Followed: 0, NotFollowed: 0, NoPlan: 0, Agrees: 0, Questions: 0, FollowedPercent: null as number | null };
  for (const r of rows) {
    const n = num(r.n);
    if (n <= 0) continue;
    const [verdict, followed] = r.key.split(':');
    out.Analysed += n;
    if (verdict !== 'Agrees' && verdict !== 'Questions') {
      out.NoPlan += n;
      continue;
    }
    out.WithPlan += n;
    if (verdict === 'Agrees') out.Agrees += n;
    else out.Questions += n;
    if (followed === 'true') out.Followed += n;
    else out.NotFollowed += n;
  }
  out.FollowedPercent = sharePercent(out.Followed, out.WithPlan);
  return out;
}

/**
 * The management report of a month for one customer (customerId) or all (null). Undefined for an
 * unknown customer. `targets` are the response targets in percent (the panel's defaults).
 */
export async function managementReport(
  db: DB,
  input: { month: string; customerId: string | null; targets: { within10: number; within40: number } },
): Promise<ManagementReport | undefined> {
  const { month, customerId } = input;
  let customerName: string = MANAGEMENT_TEXT.allCustomers;
  let intelligence = await featureOn(db, INTELLIGENCE_FEATURE);
  if (customerId !== null) {
    const c = await db.selectFrom('customers').select(['name', 'enableAlarmReportIntelligence']).where('id', '=', customerId).executeTakeFirst();
    if (!c) return undefined;
    customerName = c.name;
    intelligence = intelligence && c.enableAlarmReportIntelligence === 1;
  }
  const range = monthRange(month);
  const previousMonth = shiftMonth(month, -1);

  const [groups, before, missed, persons, devices, compliance] = await Promise.all([
    monthGroups(db, month, customerId),
    monthGroups(db, previousMonth, customerId),
    missedList(db, range, customerId),
    busiest(db, month, customerId, TOP_KIND.person),
    busiest(db, month, customerId, TOP_KIND.device),
    intelligence ? planCompliance(db, month, customerId) : Promise.resolve(null),
  ]);

  const total = groups.reduce((n, g) => n + g.n, 0);
  const previousTotal = before.reduce((n, g) => n + g.n, 0);
  const started = sumBands(groups, (g) => g.s, STARTED_BANDS.length);
  const completed = sumBands(groups, (g) => g.c, COMPLETED_BANDS.length);
  const startedBefore = sumBands(before, (g) => g.s, STARTED_BANDS.length);
  const month0 = { total, started };
  const month1 = { total: previousTotal, started: startedBefore };

  const byType = countBy(groups, (g) => g.alarmType);
  const byVType = countBy(groups, (g) => g.verificationType);
  const byCategory = countBy(groups, (g) => g.verificationCategory);

  return {
    Month: month,
    PreviousMonth: previousMonth,
    From: range.from,
    To: range.to,
    CustomerId: customerId,
    CustomerName: customerName,
    TotalCount: total,
    PreviousTotalCount: previousTotal,
    ByAlarmType: ALARM_TYPES.map((t) => ({ Value: t.Value, Name: t.Name, Count: byType.get(t.Value) ?? 0 })),
    ByVerificationType: VERIFICATION_TYPES.map((t) => ({ Value: t.Value, Name: t.Name, Count: byVType.get(t.Value) ?? 0 })),
    ByCategory: [...byCategory.entries()]
      .map(([value, count]) => ({ Value: value, Name: lookupName(VERIFICATION_CATEGORIES, value), Count: count }))
      .sort((a, b) => b.Count - a.Count || a.Value - b.Value),
    VerificationStarted: STARTED_BANDS.map((b, i) => ({ TimeFrame: b.TimeFrame, Count: started[i] ?? 0 })),
    VerificationCompleted: COMPLETED_BANDS.map((b, i) => ({ TimeFrame: b.TimeFrame, Count: completed[i] ?? 0 })),
    Within10: targetShare(RESPONSE_WINDOWS.within10, input.targets.within10, month0, month1),
    Within40: targetShare(RESPONSE_WINDOWS.within40, input.targets.within40, month0, month1),
    Missed: missed.map(missedRow),
    MissedTotal: missedCount(total, started),
    BusiestPersons: persons.map((p) => ({ PersonId: p.key, FullName: p.label, Count: num(p.n) })),
    BusiestDevices: devices.map((d) => ({
      Serial: d.key,
      DeviceType: lookupName(DEVICE_TYPES, d.code < 0 ? null : d.code),
      Count: num(d.n),
    })),
    PlanCompliance: compliance,
  };
}
