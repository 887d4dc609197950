// Frozen copy of modules/alarm-reports/aggregates.ts as it stood when the migrations were frozen (used by migrations 013, 021 through alarm-month-tops.ts, and 022).
// A twin of the live module on purpose: the live one may change, this one never does. See README.md
// of this folder.
//
// The alarm statistics table (`alarmStats`): bucket counts of the alarm reports per closed day in
// Europe/London, kept by database triggers in the same transaction as every insert, update and
// delete of a report (the seed, imports, tests and the app alike), so its sums always equal a count
// of the raw rows. Each report is counted once in each grain; a grain keeps the closed day and the
// verification type (the Type of Alarms chart's series) plus its own dimensions, the others hold
// the roll-up value (-1 / ''):
//   1  day, verification type                                   (no other filter)
//   2  … + verification category, alarm type, tier, device type (any of these filters)
//   3  … + ARC controller                                        (controller filter)
//   4  … + tier, device type                                     (either or both of these filters)
//   5  … + verification category, alarm type                     (either or both of these filters)
//  12  grain 2 per London month                                  (the whole months of a range)
// A filter is read from the grain with the fewest dimensions that holds all it filters by: grains
// 4 and 5 have about 140 and 50 rows a day where grain 2 has up to 1,700, so a filter by one of
// these dimensions (or tier with device type) reads a tenth of the rows (migration 022).
// A filter that needs dimensions of two grains, an account or person contains-filter or a search
// is answered from the raw rows instead (through the trigram and date indexes): an account or
// person grain would hold about one row per report, costing a write for nothing. Migration 013 creates the table and its triggers from
// these definitions; the bands are the shared STARTED_BANDS / COMPLETED_BANDS.
/** The Verification Started and Completed bands (shared/schemas/alarm-reports.ts), written out. */
const STARTED_BANDS = [
  { from: 0, to: 10 },
  { from: 10, to: 40 },
  { from: 40, to: Infinity },
] as const;
const COMPLETED_BANDS = [
  { from: 0, to: 120 },
  { from: 120, to: 180 },
  { from: 180, to: 600 },
  { from: 600, to: Infinity },
] as const;

export const STATS_TABLE = 'alarmStats';

type Dim = 'verificationCategory' | 'alarmType' | 'tier' | 'deviceType' | 'arcControllerId';
export const INT_DIMS = ['verificationCategory', 'alarmType', 'tier', 'deviceType'] as const;
export const TEXT_DIMS = ['arcControllerId'] as const;
export const DIMS: readonly Dim[] = [...INT_DIMS, ...TEXT_DIMS];

/** Grain id → the dimensions it keeps (besides day and verification type). */
export const GRAINS: Record<number, readonly Dim[]> = {
  1: [],
  2: ['verificationCategory', 'alarmType', 'tier', 'deviceType'],
  3: ['arcControllerId'],
  4: ['tier', 'deviceType'],
  5: ['verificationCategory', 'alarmType'],
  12: ['verificationCategory', 'alarmType', 'tier', 'deviceType'],
};
/**
 * Month twins: grain 12 holds grain 2's counts per London month ('YYYY-MM' in `day`), so a long
 * range reads whole months there and only its partial first and last months as days (grain 2 has
 * up to a thousand rows a day at volume; grains 1 and 3 stay small).
 */
export const MONTH_GRAIN: Record<number, number> = { 2: 12 };
const MONTH_GRAINS = new Set(Object.values(MONTH_GRAIN));

/** Count columns: n (all), s0… (Verification Started bands), c0… (Verification Completed bands). */
export const STARTED_COLS = STARTED_BANDS.map((_, i) => `s${i}`);
export const COMPLETED_COLS = COMPLETED_BANDS.map((_, i) => `c${i}`);
export const COUNT_COLS = ['n', ...STARTED_COLS, ...COMPLETED_COLS];
export const KEY_COLS = ['grain', 'day', 'verificationType', ...DIMS];

/**
 * SQL that is 1 when the seconds expression falls in band `b`, else 0. The first band has no lower
 * bound (a negative duration counts as 0, as `bandOf` says), the last no upper bound.
 */
export function bandSql(seconds: string, bands: readonly { from: number; to: number }[], i: number) {
  const b = bands[i]!;
  const parts: string[] = [];
  if (i > 0) parts.push(`${seconds} >= ${b.from}`);
  if (Number.isFinite(b.to)) parts.push(`${seconds} < ${b.to}`);
  return parts.length ? `case when ${parts.join(' and ')} then 1 else 0 end` : '1';
}

/**
 * The closed day in Europe/London ('YYYY-MM-DD') of an ISO instant, as SQL. PostgreSQL uses its
 * time-zone database. SQLite has none, so the UK rule is written out: summer time (UTC+1) from
 * 01:00 UTC on the last Sunday of March to 01:00 UTC on the last Sunday of October (the
 * integration test compares it with Intl's Europe/London over every changeover of several years).
 */
export function londonDaySql(pg: boolean, ts: string) {
  if (pg) return `to_char((${ts})::timestamptz at time zone 'Europe/London', 'YYYY-MM-DD')`;
  const y = `substr(${ts}, 1, 4)`;
  const lastSunday = (mm: string) => `date(${y} || '-${mm}-31', '-6 days', 'weekday 0') || 'T01:00:00.000Z'`;
  return `date(${ts}, case when ${ts} >= ${lastSunday('03')} and ${ts} < ${lastSunday('10')} then '+1 hours' else '+0 hours' end)`;
}

/** Key and count values of one report row `r` (an SQL row alias: new, old, r) in grain `g`. */
export function grainValues(pg: boolean, g: number, r: string, sign: 1 | -1) {
  const keep = new Set(GRAINS[g]);
  const col = (c: string) => `${r}."${c}"`;
  const day = londonDaySql(pg, col('alarmClosed'));
  const keys = [
    String(g),
    MONTH_GRAINS.has(g) ? `substr(${day}, 1, 7)` : day,
    col('verificationType'),
    ...INT_DIMS.map((d) => (keep.has(d) ? `coalesce(${col(d)}, -1)` : '-1')),
    ...TEXT_DIMS.map((d) => (keep.has(d) ? `coalesce(${col(d)}, '')` : `''`)),
  ];
  const s = col('verificationStartedSeconds');
  const c = col('verificationCompletedSeconds');
  const counts = [
    String(sign),
    ...STARTED_BANDS.map((_, i) => `${sign} * ${bandSql(s, STARTED_BANDS, i)}`),
    ...COMPLETED_BANDS.map((_, i) => `${sign} * ${bandSql(c, COMPLETED_BANDS, i)}`),
  ];
  return [...keys, ...counts];
}

const quoted = (cols: string[]) => cols.map((c) => `"${c}"`).join(', ');

/** One upsert adding (sign 1) or removing (sign -1) report row `r` in grain `g`. */
export function upsertSql(pg: boolean, g: number, r: string, sign: 1 | -1) {
  const set = COUNT_COLS.map((c) => `"${c}" = "${STATS_TABLE}"."${c}" + excluded."${c}"`).join(', ');
  return `insert into "${STATS_TABLE}" (${quoted([...KEY_COLS, ...COUNT_COLS])}) values (${grainValues(pg, g, r, sign).join(', ')})
    on conflict (${quoted(KEY_COLS)}) do update set ${set}`;
}

/** One grain's rows counted from the reports (its old rows must be gone first). */
function fillGrainSql(pg: boolean, g: number) {
  const vals = grainValues(pg, g, 'r', 1);
  const keys = vals.slice(0, KEY_COLS.length);
  const counts = vals.slice(KEY_COLS.length);
  return `insert into "${STATS_TABLE}" (${quoted([...KEY_COLS, ...COUNT_COLS])})
        select ${keys.map((k, i) => `${k} as k${i}`).join(', ')}, ${counts.map((c) => `sum(${c})`).join(', ')}
        from "alarmReports" r group by ${keys.map((_, i) => `k${i}`).join(', ')}`;
}

/** Every grain's rows rebuilt from the reports (the migration on a populated database, a repair). */
export function rebuildSql(pg: boolean): string[] {
  return [`delete from "${STATS_TABLE}"`, ...Object.keys(GRAINS).map((g) => fillGrainSql(pg, Number(g)))];
}

/** The listed grains' rows rebuilt from the reports (a migration that adds grains). */
export function rebuildGrainsSql(pg: boolean, grains: number[]): string[] {
  return grains.flatMap((g) => [`delete from "${STATS_TABLE}" where "grain" = ${g}`, fillGrainSql(pg, g)]);
}

/** Report columns whose change moves a report between statistics rows. */
export const WATCHED_COLS = ['alarmClosed', 'verificationType', ...DIMS, 'verificationStartedSeconds', 'verificationCompletedSeconds'];
