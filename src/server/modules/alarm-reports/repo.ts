// Alarm report queries (db first). The filters of the list, the charts, the export and the
// response targets are one WHERE clause (`filtered`); the detail document is assembled from the
// report row, its stored snapshot, calls, activity journal and notes.
import { sql, type ExpressionBuilder, type SelectQueryBuilder } from 'kysely';
import { isPostgres, type DB } from '../../db/index.js';
import type { Database } from '../../db/schema.js';
import { newEtag, newId, likeEscape } from '../../util.js';
import { badRequest } from '../../http.js';
import { ALARM_TYPES, DEVICE_TYPES, TIER_TYPES, VERIFICATION_CATEGORIES, VERIFICATION_TYPES, lookupName } from '../../../shared/codes.js';
import {
  ALARM_TEXT,
  COMPLETED_BANDS,
  DATE_RANGE,
  MISSED_MAX,
  STARTED_BANDS,
  type AlarmCallDto,
  type AlarmNoteDto,
  type AlarmReportDetails,
  type AlarmReportFilterBody,
  type AlarmReportList,
  type AlarmReportListBody,
  type AlarmReportRow,
  type AlarmReportSortBy,
  type ResponseTargets,
  type ResponseTargetsBody,
  type TimeFrames,
  type TypeTimeFrames,
} from '../../../shared/schemas/alarm-reports.js';
import { closedRange, labelsBetween, londonWall, timeLabel } from './time.js';
import { snapshotDto } from './snapshot.js';

type Q<O> = SelectQueryBuilder<Database, 'alarmReports', O>;
type Filter = AlarmReportFilterBody;

/** The instant range of a filter; a custom day in the future is a 400. */
export function rangeOf(f: Filter, now: Date) {
  const r = closedRange(f.alarmClosedDateRangeOption, f.alarmClosedDateFrom, f.alarmClosedDateTo, now.getTime());
  if (r.futureDay) throw badRequest(ALARM_TEXT.futureDate);
  return r;
}

const iso = (ms: number) => new Date(ms).toISOString();
const contains = (s: string) => `%${likeEscape(s.toLowerCase())}%`;

/** The WHERE clause every list-shaped endpoint shares. */
function filtered<O>(q: Q<O>, f: Filter, now: Date): Q<O> {
  const { from, to } = rangeOf(f, now);
  if (from !== null) q = q.where('alarmReports.alarmClosed', '>=', iso(from));
  if (to !== null) q = q.where('alarmReports.alarmClosed', '<', iso(to));
  if (f.alarmTypes.length) q = q.where('alarmReports.alarmType', 'in', f.alarmTypes);
  if (f.alarmVerificationTypes.length) q = q.where('alarmReports.verificationType', 'in', f.alarmVerificationTypes);
  if (f.alarmVerificationCategoryTypes.length) q = q.where('alarmReports.verificationCategory', 'in', f.alarmVerificationCategoryTypes);
  if (f.deviceTypes.length) q = q.where('alarmReports.deviceType', 'in', f.deviceTypes);
  if (f.tierTypes.length) q = q.where('alarmReports.tier', 'in', f.tierTypes);
  if (f.arcControllerIds.length) q = q.where('alarmReports.arcControllerId', 'in', f.arcControllerIds);
  const like = (col: string, value: string) => sql<boolean>`lower(${sql.ref(col)}) like ${contains(value)} escape '\\'`;
  if (f.customerAccountFullName) q = q.where(like('alarmReports.customerAccountFullName', f.customerAccountFullName));
  if (f.personFullName) q = q.where(like('alarmReports.personFullName', f.personFullName));
  if (f.searchValue) {
    const s = f.searchValue;
    q = q.where((eb: ExpressionBuilder<Database, 'alarmReports'>) =>
      eb.or([
        like('alarmReports.alarmId', s),
        like('alarmReports.personFullName', s),
        like('alarmReports.customerAccountFullName', s),
        like('alarmReports.deviceSerial', s),
      ]),
    );
  }
  return q;
}

const SORT_COLUMN: Record<AlarmReportSortBy, { col: string; text: boolean; nullable: boolean }> = {
  AlarmClosedDate: { col: 'alarmClosed', text: false, nullable: false },
  CustomerAccountFullName: { col: 'customerAccountFullName', text: true, nullable: false },
  Tier: { col: 'tier', text: false, nullable: true },
  AlarmType: { col: 'alarmType', text: false, nullable: false },
  AlarmVerificationType: { col: 'verificationType', text: false, nullable: false },
  AlarmVerificationCategory: { col: 'verificationCategory', text: false, nullable: false },
  PersonFullName: { col: 'personFullName', text: true, nullable: false },
  DeviceType: { col: 'deviceType', text: false, nullable: true },
  ArcControllerFullName: { col: 'arcControllerFullName', text: true, nullable: true },
};

/** ORDER BY for a sort field: empty values last in both directions, text case-insensitively in byte order, then the id. */
function sorted<O>(db: DB, q: Q<O>, sortBy: AlarmReportSortBy, desc: boolean): Q<O> {
  const s = SORT_COLUMN[sortBy];
  const dir = desc ? 'desc' : 'asc';
  const col = `"alarmReports"."${s.col}"`;
  if (s.nullable) q = q.orderBy(sql.raw(`case when ${col} is null then 1 else 0 end`));
  if (s.text) q = q.orderBy(sql.raw(`lower(${col})${isPostgres(db) ? ' collate "C"' : ''} ${dir}`));
  q = q.orderBy(sql.raw(`${col} ${dir}`));
  return q.orderBy(sql.raw(`"alarmReports"."id" ${dir}`));
}

const ROW_COLUMNS = [
  'id',
  'alarmId',
  'alarmClosed',
  'customerAccountFullName',
  'tier',
  'alarmType',
  'verificationType',
  'verificationCategory',
  'personFullName',
  'deviceType',
  'arcControllerFullName',
] as const;
type RowIn = {
  id: string;
  alarmId: string;
  alarmClosed: string;
  customerAccountFullName: string;
  tier: number | null;
  alarmType: number;
  verificationType: number;
  verificationCategory: number;
  personFullName: string;
  deviceType: number | null;
  arcControllerFullName: string | null;
};
const named = (list: { Value: number; Name: string }[], value: number) => ({ Name: lookupName(list, value), Value: value });

export function toRow(r: RowIn): AlarmReportRow {
  return {
    AlarmReportId: r.id,
    AlarmId: r.alarmId,
    AlarmClosedDate: r.alarmClosed,
    CustomerAccountFullName: r.customerAccountFullName,
    Tier: r.tier === null ? null : named(TIER_TYPES, r.tier),
    AlarmType: named(ALARM_TYPES, r.alarmType),
    AlarmVerificationType: named(VERIFICATION_TYPES, r.verificationType),
    AlarmVerificationCategory: named(VERIFICATION_CATEGORIES, r.verificationCategory),
    PersonFullName: r.personFullName,
    DeviceType: r.deviceType === null ? null : named(DEVICE_TYPES, r.deviceType),
    ArcControllerFullName: r.arcControllerFullName,
  };
}

/** POST alarm-report/get-list */
export async function listAlarmReports(db: DB, b: AlarmReportListBody, now: Date): Promise<AlarmReportList> {
  const base = filtered(db.selectFrom('alarmReports'), b, now);
  const [count, rows] = await Promise.all([
    base.select((eb) => eb.fn.countAll<string | number>().as('n')).executeTakeFirstOrThrow(),
    sorted(db, base.select(ROW_COLUMNS.map((c) => `alarmReports.${c}` as const)), b.sortBy, b.sortDescending)
      .limit(b.pageSize)
      .offset((b.page - 1) * b.pageSize)
      .execute(),
  ]);
  return { AlarmReports: rows.map(toRow), TotalCount: Number(count.n) };
}

/** How many reports the filters select: the export's total. */
export async function countExportRows(db: DB, b: Filter, now: Date): Promise<number> {
  const r = await filtered(db.selectFrom('alarmReports'), b, now)
    .select((eb) => eb.fn.countAll<string | number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(r.n);
}

export type ExportKey = { closed: string; id: string };
/**
 * One keyset page of the export: reports after `after` in closed date + id order (descending
 * unless `ascending`), with the device serial. Never OFFSET: each page starts from the index.
 */
export async function exportPage(db: DB, b: Filter, now: Date, ascending: boolean, after: ExportKey | null, limit: number) {
  let q = filtered(db.selectFrom('alarmReports'), b, now).select([...ROW_COLUMNS.map((c) => `alarmReports.${c}` as const), 'alarmReports.deviceSerial']);
  if (after) q = q.where(sql<boolean>`("alarmReports"."alarmClosed", "alarmReports"."id") ${sql.raw(ascending ? '>' : '<')} (${after.closed}, ${after.id})`);
  const dir = sql.raw(ascending ? 'asc' : 'desc');
  const rows = await q
    .orderBy(sql`"alarmReports"."alarmClosed" ${dir}`)
    .orderBy(sql`"alarmReports"."id" ${dir}`)
    .limit(limit)
    .execute();
  return rows.map((r) => ({ ...toRow(r), DeviceSerial: r.deviceSerial }));
}

async function bands(
  db: DB,
  f: Filter,
  now: Date,
  col: 'verificationStartedSeconds' | 'verificationCompletedSeconds',
  list: typeof STARTED_BANDS | typeof COMPLETED_BANDS,
) {
  const c = sql.ref(`alarmReports.${col}`);
  const row = await filtered(db.selectFrom('alarmReports'), f, now)
    .select((eb) => [
      eb.fn.countAll<string | number>().as('n'),
      ...list.map((b, i) =>
        sql<string | number | null>`sum(case when ${c} >= ${b.from}${Number.isFinite(b.to) ? sql` and ${c} < ${b.to}` : sql``} then 1 else 0 end)`.as(`b${i}`),
      ),
    ])
    .executeTakeFirstOrThrow();
  const r = row as Record<string, string | number | null>;
  const out: TimeFrames = { TotalCount: Number(r.n ?? 0), TimeFrames: list.map((b, i) => ({ TimeFrame: b.TimeFrame, Count: Number(r[`b${i}`] ?? 0) })) };
  return out;
}

export const verificationStarted = (db: DB, f: Filter, now: Date) => bands(db, f, now, 'verificationStartedSeconds', STARTED_BANDS);
export const verificationCompleted = (db: DB, f: Filter, now: Date) => bands(db, f, now, 'verificationCompletedSeconds', COMPLETED_BANDS);

/**
 * Type of alarms over time: counts per UTC hour and verification type from the database, folded
 * into the option's labels in London time (UK offsets are whole hours, so an hour never straddles
 * two labels). Option 7 (All Time) is not charted: empty.
 */
export async function verificationTypeTimeFrames(db: DB, f: Filter, now: Date): Promise<TypeTimeFrames> {
  if (f.alarmClosedDateRangeOption === DATE_RANGE.AllTime) return { TimeFrames: {}, Labels: [] };
  const { from, to } = rangeOf(f, now);
  const hour = sql<string>`substr(${sql.ref('alarmReports.alarmClosed')}, 1, 13)`;
  const rows = await filtered(db.selectFrom('alarmReports'), f, now)
    .select((eb) => [hour.as('hour'), 'alarmReports.verificationType as type', eb.fn.countAll<string | number>().as('n')])
    .groupBy([hour, 'alarmReports.verificationType'])
    .execute();
  const end = Math.min(to ?? now.getTime(), now.getTime() + 1);
  const labels = from === null ? [] : labelsBetween(f.alarmClosedDateRangeOption, from, end);
  const types = VERIFICATION_TYPES.map((t) => t.Value);
  const counts = new Map<string, Map<number, number>>(labels.map((l) => [l, new Map(types.map((t) => [t, 0]))]));
  for (const r of rows) {
    const label = timeLabel(f.alarmClosedDateRangeOption, londonWall(Date.parse(`${r.hour}:00:00Z`)));
    let m = counts.get(label);
    if (!m) {
      m = new Map(types.map((t) => [t, 0]));
      counts.set(label, m);
      labels.push(label);
    }
    m.set(r.type, (m.get(r.type) ?? 0) + Number(r.n));
  }
  const TimeFrames: TypeTimeFrames['TimeFrames'] = {};
  for (const l of labels) TimeFrames[l] = types.map((t) => ({ AlarmType: { Value: t }, Count: counts.get(l)?.get(t) ?? 0 }));
  return { TimeFrames, Labels: labels };
}

/** Response targets (ours): within 10 s and within 40 s (inclusive) against the targets, and the alarms over 10 s. */
export async function responseTargets(db: DB, b: ResponseTargetsBody, now: Date): Promise<ResponseTargets> {
  const s = sql.ref('alarmReports.verificationStartedSeconds');
  const base = filtered(db.selectFrom('alarmReports'), b, now);
  const [agg, missed] = await Promise.all([
    base
      .select((eb) => [
        eb.fn.countAll<string | number>().as('n'),
        sql<string | number | null>`sum(case when ${s} <= 10 then 1 else 0 end)`.as('w10'),
        sql<string | number | null>`sum(case when ${s} <= 40 then 1 else 0 end)`.as('w40'),
      ])
      .executeTakeFirstOrThrow(),
    base
      .select([
        'alarmReports.id',
        'alarmReports.alarmId',
        'alarmReports.alarmClosed',
        'alarmReports.personFullName',
        'alarmReports.customerAccountFullName',
        'alarmReports.arcControllerFullName',
        'alarmReports.verificationStartedSeconds',
      ])
      .where('alarmReports.verificationStartedSeconds', '>', 10)
      .orderBy('alarmReports.verificationStartedSeconds', 'desc')
      .orderBy('alarmReports.alarmClosed', 'desc')
      .orderBy('alarmReports.id')
      .limit(MISSED_MAX)
      .execute(),
  ]);
  const total = Number(agg.n ?? 0);
  const result = (count: number, target: number) => {
    const percent = total ? Math.round((count / total) * 10000) / 100 : null;
    return { Count: count, Percent: percent, TargetPercent: target, Met: percent !== null && percent >= target };
  };
  const w10 = Number(agg.w10 ?? 0);
  return {
    TotalCount: total,
    Within10: result(w10, b.targetWithin10Percent),
    Within40: result(Number(agg.w40 ?? 0), b.targetWithin40Percent),
    Missed: missed.map((m) => ({
      AlarmReportId: m.id,
      AlarmId: m.alarmId,
      AlarmClosedDate: m.alarmClosed,
      PersonFullName: m.personFullName,
      CustomerAccountFullName: m.customerAccountFullName,
      ArcControllerFullName: m.arcControllerFullName,
      VerificationStartedSeconds: m.verificationStartedSeconds,
      Over40: m.verificationStartedSeconds > 40,
    })),
    MissedTotal: total - w10,
  };
}

// ---------------------------------------------------------------- one report

export const findReportById = (db: DB, id: string) => db.selectFrom('alarmReports').selectAll().where('id', '=', id).executeTakeFirst();

const parseJson = <T>(s: string | null | undefined, fallback: T): T => {
  try {
    return s ? (JSON.parse(s) as T) : fallback;
  } catch {
    return fallback;
  }
};

type Rec = { SId?: unknown; Unavailable?: unknown; Reason?: unknown };
export const parseRecords = (s: string) =>
  parseJson<Rec[]>(s, [])
    .filter((r) => r && typeof r.SId === 'string')
    .map((r) => ({ SId: String(r.SId), Unavailable: r.Unavailable === true, Reason: typeof r.Reason === 'string' ? r.Reason : null }));

export function toNote(n: { id: string; note: string; createdDate: string; personFullName: string; personRoles: string }): AlarmNoteDto {
  const roles = parseJson<unknown[]>(n.personRoles, []);
  return {
    Id: n.id,
    Note: n.note,
    CreatedDate: n.createdDate,
    Person: { FullName: n.personFullName, Roles: Array.isArray(roles) ? roles.filter((r): r is string => typeof r === 'string') : [] },
  };
}

/** GET alarm-report/get-details?AlarmId= — undefined when there is no such alarm. */
export async function alarmReportDetails(db: DB, alarmId: string): Promise<AlarmReportDetails | undefined> {
  const r = await db.selectFrom('alarmReports').selectAll().where('alarmId', '=', alarmId).executeTakeFirst();
  if (!r) return undefined;
  const [calls, journal, notes] = await Promise.all([
    db.selectFrom('alarmCalls').selectAll().where('alarmReportId', '=', r.id).orderBy('startTime').orderBy('id').execute(),
    db.selectFrom('activityJournal').selectAll().where('alarmReportId', '=', r.id).orderBy('date').orderBy('id').execute(),
    db.selectFrom('alarmNotes').selectAll().where('alarmReportId', '=', r.id).orderBy('createdDate').orderBy('id').execute(),
  ]);
  const loc = parseJson<Record<string, unknown>>(r.location, {});
  const num = (x: unknown) => (typeof x === 'number' && Number.isFinite(x) ? x : null);
  const str = (x: unknown) => (typeof x === 'string' ? x : null);
  return {
    Id: r.id,
    AlarmId: r.alarmId,
    Etag: r.etag,
    Location: {
      GoogleApiAddress: str(loc.GoogleApiAddress),
      W3WAddress: str(loc.W3WAddress),
      Latitude: num(loc.Latitude),
      Longitude: num(loc.Longitude),
      GpsGenerated: loc.GpsGenerated === true,
    },
    AlarmDevice: r.deviceType === null && r.deviceSerial === null ? null : { Type: named(DEVICE_TYPES, r.deviceType ?? 0), Serial: r.deviceSerial },
    AlarmStared: r.alarmStarted,
    AlarmClosed: r.alarmClosed,
    AlarmType: named(ALARM_TYPES, r.alarmType),
    VerificationType: named(VERIFICATION_TYPES, r.verificationType),
    VerificationCategory: named(VERIFICATION_CATEGORIES, r.verificationCategory),
    EscalationPlanFollowed: r.escalationPlanFollowed === 1,
    AlarmIncomingCallPhoneNumber: r.incomingCallPhoneNumber,
    CustomerAccountFullName: r.customerAccountFullName,
    Tier: r.tier === null ? null : named(TIER_TYPES, r.tier),
    ArcControllerFullName: r.arcControllerFullName,
    VerificationStartedSeconds: r.verificationStartedSeconds,
    VerificationCompletedSeconds: r.verificationCompletedSeconds,
    ProfileSnapshot: snapshotDto(parseJson<unknown>(r.profileSnapshot, {}), {
      personId: r.personId,
      personFullName: r.personFullName,
      company: r.customerAccountFullName,
    }),
    ActivityJournal: {
      AdditionalNoteList: notes.map(toNote),
      Activities: journal.map((j) => ({ Id: j.id, Date: j.date, Creator: j.creator, Details: j.details, CustomProperties: j.customProperties })),
    },
    Calls: calls.map((c): AlarmCallDto => ({
      Id: c.id,
      StartTime: c.startTime,
      EndTime: c.endTime,
      Duration: Number(c.duration),
      Line: c.line,
      Number: c.number,
      CallParticipants: parseJson<unknown[]>(c.participants, [])
        .map((p) => (p && typeof p === 'object' ? (p as { FullName?: unknown }).FullName : null))
        .filter((n): n is string => typeof n === 'string')
        .map((FullName) => ({ FullName })),
      AlarmCall: c.alarmCall === 1,
      ConferenceName: c.conferenceName,
      Records: parseRecords(c.records),
    })),
  };
}

/** Adds a note by the signed-in person; returns it. */
export async function addNote(db: DB, reportId: string, text: string, author: { id: string; fullName: string; roles: string[] }, now: Date) {
  const row = {
    id: newId(),
    alarmReportId: reportId,
    note: text,
    createdDate: now.toISOString(),
    personId: author.id || null,
    personFullName: author.fullName,
    personRoles: JSON.stringify(author.roles),
  };
  await db.insertInto('alarmNotes').values(row).execute();
  return toNote(row);
}

/** Sets the escalation flag when the etag matches: the new etag, or 'missing' / 'stale'. */
export async function setEscalationPlanFollowed(db: DB, reportId: string, etag: string, followed: boolean): Promise<string | 'missing' | 'stale'> {
  const next = newEtag();
  const r = await db
    .updateTable('alarmReports')
    .set({ escalationPlanFollowed: followed ? 1 : 0, etag: next })
    .where('id', '=', reportId)
    .where('etag', '=', etag)
    .executeTakeFirst();
  if (Number(r.numUpdatedRows) === 1) return next;
  return (await findReportById(db, reportId)) ? 'stale' : 'missing';
}

export const findCall = (db: DB, callId: string) => db.selectFrom('alarmCalls').selectAll().where('id', '=', callId).executeTakeFirst();

/** The memo holding a voice memo, with the person of its report. */
export const findVoiceMemo = (db: DB, voiceMemoId: string) =>
  db
    .selectFrom('alarmMemos')
    .innerJoin('alarmReports', 'alarmReports.id', 'alarmMemos.alarmReportId')
    .select(['alarmMemos.id', 'alarmMemos.voiceMemoId', 'alarmReports.personId'])
    .where('alarmMemos.voiceMemoId', '=', voiceMemoId)
    .execute();
