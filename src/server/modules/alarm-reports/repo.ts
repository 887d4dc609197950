// Alarm report queries (db first). The filters of the list, the charts, the export and the
// response targets are one WHERE clause over the reports (`filtered`) or, for the counts, over the
// statistics (`statsFiltered`, aggregates.ts) when a grain answers the filter; the detail document
// is assembled from the report row, its stored snapshot, calls, activity journal and notes.
//
// Every read takes the caller's TenantScope (tenant-scope.ts): a scoped caller reads the reports
// of their own customer account only. The statistics are kept for every customer together, so a
// scoped caller's counts are counted over their raw rows instead (exact, like the statistics).
import { sql, type CompiledQuery, type ExpressionBuilder, type RawBuilder, type SelectQueryBuilder } from 'kysely';
import { isPostgres, type DB } from '../../db/index.js';
import type { ActivityJournalTable, AlarmCallTable, AlarmNoteTable, AlarmReportTable, Database } from '../../db/schema.js';
import { newEtag, newId, likeEscape } from '../../platform/util.js';
import { badRequest } from '../../http/api.js';
import { ALL_TENANTS, byCustomer, type TenantScope } from '../../auth/tenant-scope.js';
import {
  ALARM_TYPES,
  DEVICE_TYPES,
  TIER_TYPES,
  VERIFICATION_CATEGORIES,
  VERIFICATION_TYPES,
  canBeInNormalisedId,
  lookupName,
  type Lookup,
} from '../../../shared/codes.js';
import {
  ALARM_TEXT,
  COMPLETED_BANDS,
  DATE_RANGE,
  isWithin,
  MISSED_MAX,
  RESPONSE_WINDOWS,
  STARTED_BANDS,
  startedBandsWithin,
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
import { closedRange, dayLabelsBetween, dayWall, hourWalls, labelsBetween, londonDayOf, timeLabel } from './time.js';
import { bandSql, COMPLETED_COLS, COUNT_COLS, GRAINS, MONTH_GRAIN, STARTED_COLS } from './aggregates.js';
import { cpLength, ftsPhrase } from '../../lib/search-keys.js';
import { CONTROLLER_STARTED_INDEX, lowerSql, rankSql, reversedRankSql } from './list-order.js';
import { snapshotDto } from './snapshot.js';
import { edgeOf, keyColumns, keysetPage, keyValues, nearerEnd, orderByKeys, sortsMatches, type SortKey } from '../../lib/keyset.js';
import { withIndexedBy } from '../../db/indexed-by.js';
import type { NameKind } from './names.js';

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
/** The shortest text the trigram indexes can look up (shorter contains-filters read the rows). */
const TRIGRAM_MIN = 3;

type TextCol = 'alarmId' | 'personFullName' | 'customerAccountFullName' | 'deviceSerial';
/** The kind of the distinct-names table (names.ts) of a name column. */
const NAME_KIND: Partial<Record<TextCol, NameKind>> = { personFullName: 'person', customerAccountFullName: 'account' };
/** The trigram lookup of a unique text column on SQLite: the palette's alarmReports_fts, or the serial table. */
const FTS_LOOKUP: Record<'alarmId' | 'deviceSerial', (phrase: string) => RawBuilder<unknown>> = {
  alarmId: (phrase) => sql`select rowid from "alarmReports_fts" where "alarmReports_fts" match ${`{alarmId} : ${phrase}`}`,
  deviceSerial: (phrase) => sql`select rowid from "alarmReports_serial_fts" where "alarmReports_serial_fts" match ${phrase}`,
};

/** The most distinct names a contains-filter is looked up by; a value matching more is tested on each report. */
const NAME_KEYS_MAX = 1000;

/** A filter with the distinct names (alarmReportNames) each of its name contains-filters matches, by `kind:value`. */
type Resolved = Filter & {
  nameKeys?: ReadonlyMap<string, readonly string[] | null>;
  /** SQLite: the rowids the trigram table of the alarm id or serial hands out for the search value (null: more than FTS_ROWIDS_MAX). */
  ftsRowids?: ReadonlyMap<string, readonly number[] | null>;
};
/** The most trigram matches of the alarm id or serial passed as values; more are looked up in the query. */
const FTS_ROWIDS_MAX = 2000;
const keyOf = (kind: NameKind | 'alarmId' | 'deviceSerial', value: string) => `${kind}:${value}`;

/**
 * Looks up the distinct lower-cased names the filter's person, account and search values are
 * contained in (a few thousand names; null when more than NAME_KEYS_MAX match). Passing them as
 * values lets both planners count and page the reports of those names through the (lower(name),
 * closed date) indexes: given as a subquery, SQLite's planner cannot estimate it and tests every
 * report of the range instead (6–25 s at 1,000,000 reports).
 */
async function resolveNames<F extends Resolved>(db: DB, f: F): Promise<F> {
  if (f.nameKeys) return f;
  const wanted: [NameKind, string][] = [];
  if (f.personFullName) wanted.push(['person', f.personFullName]);
  if (f.customerAccountFullName) wanted.push(['account', f.customerAccountFullName]);
  if (f.searchValue) wanted.push(['person', f.searchValue], ['account', f.searchValue]);
  if (!wanted.length) return f;
  const nameKeys = new Map<string, readonly string[] | null>();
  for (const [kind, value] of wanted) {
    const rows = await db
      .selectFrom('alarmReportNames')
      .select('alarmReportNames.key')
      .where('alarmReportNames.kind', '=', kind)
      .where(sql<boolean>`"alarmReportNames"."key" like ${contains(value)} escape '\\'`)
      .limit(NAME_KEYS_MAX + 1)
      .execute();
    nameKeys.set(keyOf(kind, value), rows.length > NAME_KEYS_MAX ? null : rows.map((r) => r.key));
  }
  // SQLite: the search's trigram lookups of the alarm id and serial, once for the count and the
  // page (a lookup reads the doclist of each trigram: 12 ms for 'SER1234', whose 'ser' is in every serial)
  const ftsRowids = new Map<string, readonly number[] | null>();
  if (f.searchValue && !isPostgres(db) && cpLength(f.searchValue) >= TRIGRAM_MIN)
    for (const c of ['alarmId', 'deviceSerial'] as const) {
      if (c === 'alarmId' && !canBeInNormalisedId(f.searchValue)) continue;
      const rows = (await sql<{ rowid: number }>`${FTS_LOOKUP[c](ftsPhrase(f.searchValue))} limit ${FTS_ROWIDS_MAX + 1}`.execute(db)).rows;
      ftsRowids.set(keyOf(c, f.searchValue), rows.length > FTS_ROWIDS_MAX ? null : rows.map((r) => r.rowid));
    }
  return { ...f, nameKeys, ftsRowids };
}

/**
 * Any of the text columns contains the value (case-insensitive: the LIKE test on lower(column)).
 * Person and account names: the report's lower-cased name is one of the distinct names that
 * contain the value (resolveNames) — the same reports as the LIKE test, since every report's name
 * is among them — read through the (lower(name), closed date) indexes. Alarm id and serial
 * (unique per report): from 3 characters a trigram lookup narrows the rows first (SQLite: the
 * FTS5 trigram tables; PostgreSQL: the pg_trgm GIN indexes on lower(column)).
 */
function textContains(db: DB, f: Resolved, cols: TextCol[], value: string) {
  const terms = textTerms(db, f, cols, value);
  return terms.length ? sql<boolean>`(${sql.join(terms, sql` or `)})` : sql<boolean>`1 = 0`;
}

/** textContains' OR terms, one per column that can match (none for a name list that is empty). */
function textTerms(db: DB, f: Resolved, cols: TextCol[], value: string): RawBuilder<unknown>[] {
  const pg = isPostgres(db);
  const pattern = contains(value);
  const terms = cols.flatMap((c): RawBuilder<unknown>[] => {
    const col = sql.ref(`alarmReports.${c}`);
    const like = sql`lower(${col}) like ${pattern} escape '\\'`;
    const kind = NAME_KIND[c];
    if (kind) {
      const keys = f.nameKeys?.get(keyOf(kind, value));
      if (keys === undefined) {
        const lookup = sql`select "key" from "alarmReportNames" where "kind" = ${kind} and "key" like ${pattern} escape '\\'`;
        return [pg ? sql`lower(${col}) collate "C" = any(array(${lookup}))` : sql`lower(${col}) in (${lookup})`];
      }
      if (keys === null) return [like];
      // no name contains it: no term (an OR term no index serves would make SQLite test every report)
      if (!keys.length) return [];
      return [pg ? sql`lower(${col}) collate "C" = any(${[...keys]}::text[])` : sql`lower(${col}) in (${sql.join([...keys])})`];
    }
    // Alarm ids are stored normalised (the import's guid(), the seed's UUIDs): a value with any
    // other character is in none, and looking it up would read the trigram doclists of the names
    // that share the table (27 ms for 'parcel express 3' at 1,000,000 reports).
    if (c === 'alarmId' && !canBeInNormalisedId(value)) return [];
    if (pg || cpLength(value) < TRIGRAM_MIN) return [like];
    const rowids = f.ftsRowids?.get(keyOf(c as 'alarmId' | 'deviceSerial', value));
    if (rowids && !rowids.length) return [];
    const candidates = rowids ? sql.join([...rowids]) : FTS_LOOKUP[c as 'alarmId' | 'deviceSerial'](ftsPhrase(value));
    return [sql`("alarmReports".rowid in (${candidates}) and ${like})`];
  });
  return terms;
}

/** The columns the search box looks in; the names first (the largest matches), the nullable serial last. */
const SEARCH_COLS: TextCol[] = ['personFullName', 'customerAccountFullName', 'alarmId', 'deviceSerial'];

/**
 * The number of reports a search matches, without reading the row of every match. A count over
 * the OR of the columns reads each matched report's row: SQLite's multi-index OR looks the row up
 * for each entry it collects (27,500 rows for 'parcel express 3' over all time), PostgreSQL's
 * bitmap heap scan rechecks the trigram conditions on each heap row (~1 s for 12,000 reports).
 * So it is counted in disjoint parts, on both databases: the reports of the first column's
 * matches, then of the second's that the first did not match, and so on, each report counted in
 * the first part whose column matches it. The first part is a count over its name index alone
 * (migration 025); the others test the earlier columns only on their own candidates (the alarm id
 * and serial trigram matches), which are few.
 */
async function searchCount(db: DB, scope: TenantScope, f: Resolved, now: Date): Promise<number> {
  const terms = textTerms(db, f, SEARCH_COLS, f.searchValue);
  const rest: Resolved = { ...f, searchValue: '' };
  const part = (term: RawBuilder<unknown>) => filtered(db, scope, db.selectFrom('alarmReports'), rest, now).where(sql<boolean>`${term}`);
  if (!terms.length) return 0;
  const parts = await Promise.all(
    terms.map((term, i) => {
      let q = part(term);
      if (i > 0) q = q.where(sql<boolean>`not coalesce(${sql.join(terms.slice(0, i), sql` or `)}, false)`);
      return q.select(sql<number | string>`count(*)`.as('n')).executeTakeFirst();
    }),
  );
  return parts.reduce((sum, r) => sum + Number(r?.n ?? 0), 0);
}

/** The filters by code and by controller: the filter's list, and the column of the raw rows and of the statistics holding it. */
const CODE_FILTERS = [
  ['alarmVerificationTypes', 'verificationType'],
  ['alarmTypes', 'alarmType'],
  ['alarmVerificationCategoryTypes', 'verificationCategory'],
  ['deviceTypes', 'deviceType'],
  ['tierTypes', 'tier'],
  ['arcControllerIds', 'arcControllerId'],
] as const;

/** Narrows `q` to the rows of `table` (the raw rows or the statistics) whose codes and controller the filter lists. */
function byCodes<O>(q: Q<O>, table: 'alarmReports', f: Filter): Q<O>;
function byCodes<O>(q: StatsQ<O>, table: 'alarmStats', f: Filter): StatsQ<O>;
function byCodes(q: SelectQueryBuilder<Database, any, any>, table: 'alarmReports' | 'alarmStats', f: Filter) {
  for (const [key, column] of CODE_FILTERS) {
    const values: readonly (number | string)[] = f[key];
    if (values.length) q = q.where(sql.ref(`${table}.${column}`), 'in', values);
  }
  return q;
}

/** The WHERE clause every list-shaped endpoint shares, over the raw rows within the scope. */
function filtered<O>(db: DB, scope: TenantScope, q: Q<O>, f: Resolved, now: Date): Q<O> {
  q = byCustomer(q, scope, 'alarmReports.customerId');
  const { from, to } = rangeOf(f, now);
  if (from !== null) q = q.where('alarmReports.alarmClosed', '>=', iso(from));
  if (to !== null) q = q.where('alarmReports.alarmClosed', '<', iso(to));
  q = byCodes(q, 'alarmReports', f);
  if (f.customerAccountFullName) q = q.where(textContains(db, f, ['customerAccountFullName'], f.customerAccountFullName));
  if (f.personFullName) q = q.where(textContains(db, f, ['personFullName'], f.personFullName));
  if (f.searchValue) q = q.where(textContains(db, f, SEARCH_COLS, f.searchValue));
  return q;
}

// ---------------------------------------------------------------- statistics (aggregates.ts)

/** The dimensions a filter narrows by (besides day and verification type). */
function filterDims(f: Filter): Set<string> {
  const d = new Set<string>();
  if (f.alarmTypes.length) d.add('alarmType');
  if (f.alarmVerificationCategoryTypes.length) d.add('verificationCategory');
  if (f.deviceTypes.length) d.add('deviceType');
  if (f.tierTypes.length) d.add('tier');
  if (f.arcControllerIds.length) d.add('arcControllerId');
  return d;
}

const DAY_GRAINS = Object.keys(GRAINS)
  .map(Number)
  .filter((g) => !Object.values(MONTH_GRAIN).includes(g));

/**
 * The smallest day grain of the statistics that answers a filter exactly, or null (contains-filters,
 * search, or dimensions of two grains). The statistics hold every customer's reports: a scoped
 * caller's counts never come from them (scopedGrain).
 */
export function statsGrain(f: Filter): number | null {
  if (f.searchValue || f.personFullName || f.customerAccountFullName) return null;
  const need = filterDims(f);
  let best: number | null = null;
  for (const g of DAY_GRAINS) {
    const dims = GRAINS[g]!;
    if (![...need].every((d) => (dims as readonly string[]).includes(d))) continue;
    if (best === null || dims.length < GRAINS[best]!.length) best = g;
  }
  return best;
}

/** The grain that answers a filter for the scope: none for a scoped caller. */
const scopedGrain = (scope: TenantScope, f: Filter) => (scope.all ? statsGrain(f) : null);

type StatsQ<O> = SelectQueryBuilder<Database, 'alarmStats', O>;
const month = (day: string) => day.slice(0, 7);
const nextMonth = (day: string) => {
  const [y, m] = day.split('-').map(Number) as [number, number];
  return m === 12 ? `${y + 1}-01` : `${y}-${String(m + 1).padStart(2, '0')}`;
};

/**
 * The statistics rows of a filter in a grain: the London closed days of its range (every bound is
 * a London midnight, so the range is whole days) and its dimensions. With `months`, a grain that
 * has a month twin reads the range's whole months there and only the partial ends as days.
 */
function statsFiltered<O>(q: StatsQ<O>, grain: number, f: Filter, now: Date, months = true): StatsQ<O> {
  const { from, to } = rangeOf(f, now);
  const first = from === null ? null : londonDayOf(from);
  const end = to === null ? null : londonDayOf(to);
  const twin = months ? MONTH_GRAIN[grain] : undefined;
  const days = (a: string | null, b: string | null) => (eb: ExpressionBuilder<Database, 'alarmStats'>) =>
    eb.and([eb('alarmStats.grain', '=', grain), ...(a === null ? [] : [eb('alarmStats.day', '>=', a)]), ...(b === null ? [] : [eb('alarmStats.day', '<', b)])]);
  if (twin === undefined) q = q.where(days(first, end));
  else {
    // whole months: [m1, m2) as 'YYYY-MM'; days before m1 and from m2 on
    const m1 = first === null ? null : first.endsWith('-01') ? month(first) : nextMonth(first);
    const m2 = end === null ? null : month(end);
    if (m1 !== null && m2 !== null && m1 >= m2) q = q.where(days(first, end));
    else
      q = q.where((eb) =>
        eb.or([
          ...(m1 === null ? [] : [days(first, `${m1}-01`)(eb)]),
          eb.and([
            eb('alarmStats.grain', '=', twin),
            ...(m1 === null ? [] : [eb('alarmStats.day', '>=', m1)]),
            ...(m2 === null ? [] : [eb('alarmStats.day', '<', m2)]),
          ]),
          ...(m2 === null ? [] : [days(`${m2}-01`, end)(eb)]),
        ]),
      );
  }
  return byCodes(q, 'alarmStats', f);
}

type Counts = Record<string, number>;
const toCounts = (row: Record<string, unknown> | undefined): Counts => Object.fromEntries(COUNT_COLS.map((c) => [c, Number(row?.[c] ?? 0)]));

/**
 * Every bucket count of a filter (n, s0…, c0…): summed from the statistics when a grain answers
 * the filter, else counted over the raw rows with the same band definitions.
 */
async function bucketCounts(db: DB, scope: TenantScope, f: Resolved, now: Date): Promise<Counts> {
  const grain = scopedGrain(scope, f);
  if (grain !== null) {
    const row = await statsFiltered(db.selectFrom('alarmStats'), grain, f, now)
      .select(COUNT_COLS.map((c) => sql<number | string | null>`sum(${sql.ref(`alarmStats.${c}`)})`.as(c)))
      .executeTakeFirst();
    return toCounts(row);
  }
  const s = '"alarmReports"."verificationStartedSeconds"';
  const c = '"alarmReports"."verificationCompletedSeconds"';
  const row = await filtered(db, scope, db.selectFrom('alarmReports'), await resolveNames(db, f), now)
    .select([
      sql<number | string>`count(*)`.as('n'),
      ...STARTED_BANDS.map((_, i) => sql<number | string | null>`sum(${sql.raw(bandSql(s, STARTED_BANDS, i))})`.as(STARTED_COLS[i]!)),
      ...COMPLETED_BANDS.map((_, i) => sql<number | string | null>`sum(${sql.raw(bandSql(c, COMPLETED_BANDS, i))})`.as(COMPLETED_COLS[i]!)),
    ])
    .executeTakeFirst();
  return toCounts(row);
}

/** The number of reports a filter matches: from the statistics when a grain answers it. */
async function totalCount(db: DB, scope: TenantScope, f: Resolved, now: Date): Promise<number> {
  const grain = scopedGrain(scope, f);
  if (grain === null && f.searchValue) return searchCount(db, scope, await resolveNames(db, f), now);
  const row =
    grain !== null
      ? await statsFiltered(db.selectFrom('alarmStats'), grain, f, now)
          .select(sql<number | string | null>`sum(${sql.ref('alarmStats.n')})`.as('n'))
          .executeTakeFirst()
      : await filtered(db, scope, db.selectFrom('alarmReports'), await resolveNames(db, f), now)
          .select(sql<number | string>`count(*)`.as('n'))
          .executeTakeFirst();
  return Number(row?.n ?? 0);
}

// ---------------------------------------------------------------- list

/** `index`: the index (ascending, descending) that hands out the sort's order (list-order.ts SORT_INDEXES). */
type SortKind = { col: string; kind: 'date' | 'text' | 'code'; nullable: boolean; names?: Lookup[]; index?: [string, string] };
const both = (name: string): [string, string] => [name, name];
const SORT_COLUMN: Record<AlarmReportSortBy, SortKind> = {
  AlarmClosedDate: { col: 'alarmClosed', kind: 'date', nullable: false, index: both('alarmReports_closed_id_idx') },
  CustomerAccountFullName: { col: 'customerAccountFullName', kind: 'text', nullable: false, index: both('alarmReports_sort_account_idx') },
  Tier: { col: 'tier', kind: 'code', nullable: true, names: TIER_TYPES, index: ['alarmReports_sort_tier_idx', 'alarmReports_sort_tier_desc_idx'] },
  AlarmType: { col: 'alarmType', kind: 'code', nullable: false, names: ALARM_TYPES, index: both('alarmReports_sort_type_idx') },
  AlarmVerificationType: { col: 'verificationType', kind: 'code', nullable: false, names: VERIFICATION_TYPES, index: both('alarmReports_sort_vtype_idx') },
  AlarmVerificationCategory: {
    col: 'verificationCategory',
    kind: 'code',
    nullable: false,
    names: VERIFICATION_CATEGORIES,
    index: both('alarmReports_sort_category_idx'),
  },
  PersonFullName: { col: 'personFullName', kind: 'text', nullable: false, index: both('alarmReports_sort_person_idx') },
  DeviceType: {
    col: 'deviceType',
    kind: 'code',
    nullable: true,
    names: DEVICE_TYPES,
    index: ['alarmReports_sort_device_idx', 'alarmReports_sort_device_desc_idx'],
  },
  ArcControllerFullName: { col: 'arcControllerFullName', kind: 'text', nullable: true },
};

/**
 * The order of a sort field (lib/keyset.ts): empty values last in both directions; text
 * case-insensitively in byte order; codes by the name shown (codes with the same name together);
 * then the id.
 */
function sortKeys(db: DB, sortBy: AlarmReportSortBy, desc: boolean, sortFiltered = false): SortKey[] {
  const s = SORT_COLUMN[sortBy];
  const key = (text: string, d = desc): SortKey => ({ expr: sql.raw(text), desc: d });
  const id = key(`"alarmReports"."id"`);
  // `|| ''` leaves the order as it is but matches no index: PostgreSQL then sorts the filtered rows
  if (sortFiltered && s.kind === 'date') return [key(`"alarmReports"."${s.col}" || ''`), id];
  const col = `"alarmReports"."${s.col}"`;
  // A nullable code: its position (empty values last) ascending, or its reversed position
  // ascending, with the id in the sort's direction; list-order.ts has an index for each.
  if (s.kind === 'code' && s.nullable) return [key(desc ? reversedRankSql(col, s.names!) : rankSql(col, s.names!), false), id];
  const keys: SortKey[] = [];
  if (s.nullable) keys.push({ ...key(`case when ${col} is null then 1 else 0 end`, false), alone: true });
  if (s.kind === 'text') keys.push(key(lowerSql(col, isPostgres(db))));
  else if (s.kind === 'code') keys.push(key(rankSql(col, s.names!)));
  if (s.kind !== 'code') keys.push(key(col));
  return [...keys, id];
}

/** The sort key of the report `id` (Next / Previous), if the caller may see it. */
async function alarmEdgeKeys(db: DB, scope: TenantScope, id: string, keys: readonly SortKey[]): Promise<unknown[] | undefined> {
  const r = await byCustomer(db.selectFrom('alarmReports'), scope, 'alarmReports.customerId')
    .where('alarmReports.id', '=', id)
    .select(keyColumns(keys))
    .executeTakeFirst();
  return r && keyValues(r as Record<string, unknown>, keys);
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

/**
 * SQLite: the index whose order the page should walk (INDEXED BY), or null to leave the plan to
 * the planner. Walking a sort index reaches the page after about `upTo` (the rows it skips and the
 * page: offset + page size, or the page size from a Next / Previous edge) × all
 * reports / matching reports entries, each a row lookup for the filters; sorting reads and sorts
 * every matching report (a row lookup each, then the sort). So the page walks when that estimate is
 * at most the exact count (known first). The planner does otherwise: it reads the 7-day range
 * (106,000 reports) and sorts it for the Type sort (1–2 s at 1,000,000 reports) where the walk
 * finds the page after ~240 entries; for the search it reads every match and sorts it by closed
 * date, where the walk along alarmReports_closed_id_idx meets a page of 25 after ~2,000 entries.
 * Without a contains-filter the closed-date sort is left to the planner, which picks the index that
 * also covers the other filters (alarmReports_vtype_closed_idx). PostgreSQL plans with the bound
 * values and estimates these itself.
 */
async function walkIndex(db: DB, b: AlarmReportListBody, count: number, upTo: number): Promise<string | null> {
  const index = SORT_COLUMN[b.sortBy].index?.[b.sortDescending ? 1 : 0];
  if (!index || isPostgres(db) || count === 0) return null;
  if (b.sortBy === 'AlarmClosedDate' && !b.searchValue && !b.personFullName && !b.customerAccountFullName) return null;
  // the highest rowid: about the number of reports (an estimate, read from the table's b-tree edge)
  const all = Number((await sql<{ n: number | null }>`select max(rowid) as n from "alarmReports"`.execute(db)).rows[0]?.n ?? 0);
  return sortsMatches(upTo, all, count) ? null : index;
}

/** Runs the page query naming `index` for its (outer) reports table: SQLite's INDEXED BY. */
const withIndex = <R>(db: DB, q: { compile(): CompiledQuery<R> }, index: string): Promise<R[]> =>
  withIndexedBy<R>(db, q.compile(), 'from "alarmReports"', index, 'first');

/**
 * POST alarm-report/get-list. The total comes from the statistics when they answer the filter.
 * The page is found first as ids alone (an index walk that skips the earlier pages without
 * reading their rows), then only its rows are read. A page past the end of the selection reads
 * nothing (SQLite, where the count comes first).
 */
export async function listAlarmReports(
  db: DB,
  scope: TenantScope,
  b: AlarmReportListBody,
  now: Date,
  /** 'planner': leave the page's plan to the planner (tests compare both plans' pages) */
  plan: 'auto' | 'planner' = 'auto',
): Promise<AlarmReportList> {
  b = await resolveNames(db, b);
  const keys = sortKeys(db, b.sortBy, b.sortDescending);
  /** order: a Next / Previous part's keys (those it holds equal left out, lib/keyset.ts) */
  type At = { where?: RawBuilder<boolean>; reversed?: boolean; offset: number; limit: number; order?: readonly SortKey[] };
  const pageIds = (at: At, sortFiltered = false) => {
    let q = filtered(db, scope, db.selectFrom('alarmReports'), b, now).select('alarmReports.id');
    if (at.where) q = q.where(at.where);
    return orderByKeys(q, sortFiltered ? sortKeys(db, b.sortBy, b.sortDescending, true) : (at.order ?? keys), at.reversed)
      .limit(at.limit)
      .offset(at.offset);
  };
  pageIds({ offset: 0, limit: 1 }); // built first: a bad range throws here, before any query starts
  const hasText = !!(b.searchValue || b.personFullName || b.customerAccountFullName);
  // PostgreSQL plans with the bound values and estimates the page itself, the count beside it; but
  // for a contains-filter by closed date its planner walks the closed-date index hoping to meet the
  // page soon (2.4 s for one customer's 1,650 reports over 6 months at load 16): when the count
  // says the walk would pass more entries than there are matches, the matches are sorted instead
  // (the same rule as walkIndex). SQLite: the count first, then walkIndex.
  const beside = isPostgres(db) && !(plan === 'auto' && hasText && b.sortBy === 'AlarmClosedDate');
  /** The ids of `at` (`upTo`: how far the walk goes along the sort's order) in the order read. */
  const read = async (at: At, count: number | undefined, upTo: number): Promise<{ id: string }[]> => {
    if (at.limit <= 0) return [];
    if (isPostgres(db)) {
      if (beside || count === undefined) return pageIds(at).execute();
      const all = Number(
        (await sql<{ n: number }>`select greatest(reltuples, 0)::bigint as n from pg_class where oid = '"alarmReports"'::regclass`.execute(db)).rows[0]?.n ?? 0,
      );
      return pageIds(at, sortsMatches(upTo, all, count)).execute();
    }
    const index = plan === 'auto' && count !== undefined ? await walkIndex(db, b, count, upTo) : null;
    return index ? withIndex(db, pageIds(at), index) : pageIds(at).execute();
  };
  const edge = edgeOf(b);
  const values = edge && (await alarmEdgeKeys(db, scope, edge.id, keys));
  let count: number;
  let ids: { id: string }[] = [];
  const first: At = { offset: 0, limit: b.pageSize };
  if (edge && values) {
    // Next / Previous: the ids after (before) the edge report's sort key, from the index range.
    const next = (n: number | undefined) =>
      keysetPage(keys, values, edge.backwards, b.pageSize, (where, reversed, limit, order) => read({ where, reversed, offset: 0, limit, order }, n, limit));
    if (beside) [count, ids] = await Promise.all([totalCount(db, scope, b, now), next(undefined)]);
    else {
      count = await totalCount(db, scope, b, now);
      ids = count ? await next(count) : [];
    }
    // fewer reports before the edge than a page: the first page
    if (edge.backwards && ids.length < b.pageSize) ids = await read(first, count, b.pageSize);
  } else if (beside && (b.page === 1 || edge)) {
    [count, ids] = await Promise.all([totalCount(db, scope, b, now), read({ offset: (b.page - 1) * b.pageSize, limit: b.pageSize }, undefined, 0)]);
  } else {
    // A jump to page N (or page 1 once counted): from the nearer end of the selection.
    count = await totalCount(db, scope, b, now);
    const at = nearerEnd(b.page, b.pageSize, count);
    ids = await read(at, count, at.offset + at.limit);
    if (at.reversed) ids.reverse();
  }
  if (!ids.length) return { AlarmReports: [], TotalCount: count };
  const rows = await db
    .selectFrom('alarmReports')
    .select(ROW_COLUMNS.map((c) => `alarmReports.${c}` as const))
    .where(
      'alarmReports.id',
      'in',
      ids.map((r) => r.id),
    )
    .execute();
  const byId = new Map(rows.map((r) => [r.id, r]));
  return {
    AlarmReports: ids
      .map((r) => byId.get(r.id))
      .filter((r) => r !== undefined)
      .map(toRow),
    TotalCount: count,
  };
}

/** How many reports the filters select: the export's total (from the statistics where they answer the filter). */
export const countExportRows = (db: DB, scope: TenantScope, b: Filter, now: Date): Promise<number> => totalCount(db, scope, b, now);

export type ExportKey = { closed: string; id: string };
/**
 * One keyset page of the export: reports after `after` in closed date + id order (descending
 * unless `ascending`), with the device serial. Never OFFSET: each page starts from the index.
 */
export async function exportPage(db: DB, scope: TenantScope, b: Filter, now: Date, ascending: boolean, after: ExportKey | null, limit: number) {
  let q = filtered(db, scope, db.selectFrom('alarmReports'), await resolveNames(db, b), now).select([
    ...ROW_COLUMNS.map((c) => `alarmReports.${c}` as const),
    'alarmReports.deviceSerial',
  ]);
  if (after) q = q.where(sql<boolean>`("alarmReports"."alarmClosed", "alarmReports"."id") ${sql.raw(ascending ? '>' : '<')} (${after.closed}, ${after.id})`);
  const dir = sql.raw(ascending ? 'asc' : 'desc');
  const rows = await q
    .orderBy(sql`"alarmReports"."alarmClosed" ${dir}`)
    .orderBy(sql`"alarmReports"."id" ${dir}`)
    .limit(limit)
    .execute();
  return rows.map((r) => ({ ...toRow(r), DeviceSerial: r.deviceSerial }));
}

// ---------------------------------------------------------------- charts and targets

const timeFrames = (counts: Counts, list: readonly { TimeFrame: string }[], cols: string[]): TimeFrames => ({
  TotalCount: counts.n ?? 0,
  TimeFrames: list.map((b, i) => ({ TimeFrame: b.TimeFrame, Count: counts[cols[i]!] ?? 0 })),
});

export const verificationStarted = async (db: DB, scope: TenantScope, f: Filter, now: Date) =>
  timeFrames(await bucketCounts(db, scope, f, now), STARTED_BANDS, STARTED_COLS);
export const verificationCompleted = async (db: DB, scope: TenantScope, f: Filter, now: Date) =>
  timeFrames(await bucketCounts(db, scope, f, now), COMPLETED_BANDS, COMPLETED_COLS);

/**
 * Type of alarms over time: counts per label and verification type in London time. Options 2–6
 * label whole days: summed per London day from the statistics when a grain answers the filter.
 * Today (hours), and filters the statistics cannot answer, count raw rows per UTC hour, folded
 * into labels (UK offsets are whole hours, so an hour never straddles two labels). Option 7 (All
 * Time) is not charted: empty.
 */
export async function verificationTypeTimeFrames(db: DB, scope: TenantScope, f: Filter, now: Date): Promise<TypeTimeFrames> {
  const option = f.alarmClosedDateRangeOption;
  if (option === DATE_RANGE.AllTime) return { TimeFrames: {}, Labels: [] };
  const { from, to } = rangeOf(f, now);
  const end = Math.min(to ?? now.getTime(), now.getTime() + 1);
  const types = VERIFICATION_TYPES.map((t) => t.Value);
  // Today labels hours; every other option whole days, listed day by day.
  const labels =
    from === null || end <= from
      ? []
      : option === DATE_RANGE.Today
        ? labelsBetween(option, from, end)
        : dayLabelsBetween(option, londonDayOf(from), londonDayOf(end - 1));
  let rows: { label: string; type: number; n: number }[];
  const grain = option === DATE_RANGE.Today ? null : scopedGrain(scope, f);
  if (grain !== null) {
    // Month labels (options 5 and 6) may read whole months; a month row's key is 'YYYY-MM'.
    const monthLabels = option === DATE_RANGE.Last6Months || option === DATE_RANGE.Last12Months;
    const days = await statsFiltered(db.selectFrom('alarmStats'), grain, f, now, monthLabels)
      .select(['alarmStats.day', 'alarmStats.verificationType as type', sql<number | string | null>`sum(${sql.ref('alarmStats.n')})`.as('n')])
      .groupBy(['alarmStats.day', 'alarmStats.verificationType'])
      .execute();
    rows = days.map((r) => ({ label: timeLabel(option, dayWall(r.day.length === 7 ? `${r.day}-01` : r.day)), type: r.type, n: Number(r.n ?? 0) }));
  } else {
    const hour = sql<string>`substr(${sql.ref('alarmReports.alarmClosed')}, 1, 13)`;
    const hours = await filtered(db, scope, db.selectFrom('alarmReports'), await resolveNames(db, f), now)
      .select([hour.as('hour'), 'alarmReports.verificationType as type', sql<number | string>`count(*)`.as('n')])
      .groupBy([hour, 'alarmReports.verificationType'])
      .execute();
    const wall = hourWalls();
    rows = hours.map((r) => ({ label: timeLabel(option, wall(r.hour)), type: r.type, n: Number(r.n) }));
  }
  const counts = new Map<string, Map<number, number>>(labels.map((l) => [l, new Map(types.map((t) => [t, 0]))]));
  for (const r of rows) {
    let m = counts.get(r.label);
    if (!m) {
      m = new Map(types.map((t) => [t, 0]));
      counts.set(r.label, m);
      labels.push(r.label);
    }
    m.set(r.type, (m.get(r.type) ?? 0) + r.n);
  }
  const TimeFrames: TypeTimeFrames['TimeFrames'] = {};
  for (const l of labels) TimeFrames[l] = types.map((t) => ({ AlarmType: { Value: t }, Count: counts.get(l)?.get(t) ?? 0 }));
  return { TimeFrames, Labels: labels };
}

/**
 * The reports of `q` that missed the 10 s target, slowest first (then the latest closed, then by
 * id), with what the missed lists show: the response targets' and the management report's.
 */
export function slowestMissed<O>(q: Q<O>, limit: number) {
  return q
    .select([
      'alarmReports.id',
      'alarmReports.alarmId',
      'alarmReports.alarmClosed',
      'alarmReports.personFullName',
      'alarmReports.customerAccountFullName',
      'alarmReports.arcControllerFullName',
      'alarmReports.verificationStartedSeconds',
    ])
    .where('alarmReports.verificationStartedSeconds', '>=', RESPONSE_WINDOWS.within10)
    .orderBy('alarmReports.verificationStartedSeconds', 'desc')
    .orderBy('alarmReports.alarmClosed', 'desc')
    .orderBy('alarmReports.id')
    .limit(limit);
}

/** One row of a missed list (slowestMissed): the report, who, when, how slow, and whether it missed 40 s too. */
export const missedRow = (
  m: Pick<AlarmReportTable, 'id' | 'alarmId' | 'alarmClosed' | 'personFullName' | 'customerAccountFullName' | 'verificationStartedSeconds'>,
) => ({
  AlarmReportId: m.id,
  AlarmId: m.alarmId,
  AlarmClosedDate: m.alarmClosed,
  PersonFullName: m.personFullName,
  CustomerAccountFullName: m.customerAccountFullName,
  VerificationStartedSeconds: m.verificationStartedSeconds,
  Over40: !isWithin(m.verificationStartedSeconds, RESPONSE_WINDOWS.within40),
});

/**
 * Response targets (ours): the alarms within 10 s and within 40 s against the targets — the
 * Verification Started chart's bands (RESPONSE_WINDOWS), from the same counts — and the alarms
 * that missed 10 s, slowest first.
 */
export async function responseTargets(db: DB, scope: TenantScope, body: ResponseTargetsBody, now: Date): Promise<ResponseTargets> {
  const b = await resolveNames(db, body);
  const missedQuery = slowestMissed(filtered(db, scope, db.selectFrom('alarmReports'), b, now), MISSED_MAX);
  let counts: Counts;
  let missed: Awaited<ReturnType<typeof missedQuery.execute>>;
  if (isPostgres(db)) [counts, missed] = await Promise.all([bucketCounts(db, scope, b, now), missedQuery.execute()]);
  else {
    // SQLite: the slowest first along alarmReports_started_idx when the missed alarms are many
    // enough to meet 200 of them soon (as walkIndex for the list); the planner would read every
    // report of the filter's index and sort them (26,000 for 7 days of one verification type).
    // One controller: its own slowest first (alarmReports_controller_started_idx), which meets
    // its missed alarms 40 times sooner than the walk over every controller's.
    counts = await bucketCounts(db, scope, b, now);
    const missedCount = (counts.n ?? 0) - STARTED_COLS.slice(0, startedBandsWithin(RESPONSE_WINDOWS.within10)).reduce((sum, c) => sum + (counts[c] ?? 0), 0);
    const all = missedCount > 0 ? Number((await sql<{ n: number | null }>`select max(rowid) as n from "alarmReports"`.execute(db)).rows[0]?.n ?? 0) : 0;
    missed =
      missedCount === 0
        ? []
        : b.arcControllerIds.length === 1
          ? await withIndex(db, missedQuery, CONTROLLER_STARTED_INDEX)
          : (MISSED_MAX * all) / missedCount <= missedCount
            ? await withIndex(db, missedQuery, 'alarmReports_started_idx')
            : await missedQuery.execute();
  }
  const total = counts.n ?? 0;
  const within = (window: number) => STARTED_COLS.slice(0, startedBandsWithin(window)).reduce((sum, c) => sum + (counts[c] ?? 0), 0);
  const result = (count: number, target: number) => {
    const percent = total ? Math.round((count / total) * 10000) / 100 : null;
    return { Count: count, Percent: percent, TargetPercent: target, Met: percent !== null && percent >= target };
  };
  const w10 = within(RESPONSE_WINDOWS.within10);
  return {
    TotalCount: total,
    Within10: result(w10, b.targetWithin10Percent),
    Within40: result(within(RESPONSE_WINDOWS.within40), b.targetWithin40Percent),
    Missed: missed.map((m) => ({ ...missedRow(m), ArcControllerFullName: m.arcControllerFullName })),
    MissedTotal: total - w10,
  };
}

// ---------------------------------------------------------------- one report

/** One report row within the scope (another customer's: undefined, as an unknown id). */
export const findReportById = (db: DB, scope: TenantScope, id: string) =>
  byCustomer(db.selectFrom('alarmReports').selectAll().where('id', '=', id), scope, 'alarmReports.customerId').executeTakeFirst();

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

/** GET alarm-report/get-details?AlarmId= — undefined when there is no such alarm within the scope. */
export async function alarmReportDetails(db: DB, scope: TenantScope, alarmId: string): Promise<AlarmReportDetails | undefined> {
  const r = await byCustomer(db.selectFrom('alarmReports').selectAll().where('alarmId', '=', alarmId), scope, 'alarmReports.customerId').executeTakeFirst();
  if (!r) return undefined;
  const [calls, journal, notes] = await Promise.all([
    db.selectFrom('alarmCalls').selectAll().where('alarmReportId', '=', r.id).orderBy('startTime').orderBy('id').execute(),
    db.selectFrom('activityJournal').selectAll().where('alarmReportId', '=', r.id).orderBy('date').orderBy('id').execute(),
    db.selectFrom('alarmNotes').selectAll().where('alarmReportId', '=', r.id).orderBy('createdDate').orderBy('id').execute(),
  ]);
  return detailsOf(r, calls, journal, notes);
}

/** The detail document of a report's rows (calls, journal and notes each in their time order, ties by id). */
export function detailsOf(
  r: AlarmReportTable,
  calls: readonly AlarmCallTable[],
  journal: readonly ActivityJournalTable[],
  notes: readonly AlarmNoteTable[],
): AlarmReportDetails {
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
/** Sets the flag; with an etag only if it is still the report's ('stale' otherwise), without one unconditionally. */
export async function setEscalationPlanFollowed(db: DB, reportId: string, etag: string | undefined, followed: boolean): Promise<string | 'missing' | 'stale'> {
  const next = newEtag();
  let update = db
    .updateTable('alarmReports')
    .set({ escalationPlanFollowed: followed ? 1 : 0, etag: next })
    .where('id', '=', reportId);
  if (etag !== undefined) update = update.where('etag', '=', etag);
  const r = await update.executeTakeFirst();
  if (Number(r.numUpdatedRows) === 1) return next;
  return (await findReportById(db, ALL_TENANTS, reportId)) ? 'stale' : 'missing';
}

/** One call of a report within the scope. */
export const findCall = (db: DB, scope: TenantScope, callId: string) =>
  db
    .selectFrom('alarmCalls')
    .selectAll()
    .where('id', '=', callId)
    .where((eb) => eb('alarmReportId', 'in', byCustomer(eb.selectFrom('alarmReports').select('alarmReports.id'), scope, 'alarmReports.customerId')))
    .executeTakeFirst();

/** The memo holding a voice memo, with the person of its report (reports within the scope). */
export const findVoiceMemo = (db: DB, scope: TenantScope, voiceMemoId: string) =>
  byCustomer(
    db
      .selectFrom('alarmMemos')
      .innerJoin('alarmReports', 'alarmReports.id', 'alarmMemos.alarmReportId')
      .select(['alarmMemos.id', 'alarmMemos.voiceMemoId', 'alarmReports.personId'])
      .where('alarmMemos.voiceMemoId', '=', voiceMemoId),
    scope,
    'alarmReports.customerId',
  ).execute();
