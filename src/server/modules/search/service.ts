// Palette search: candidates come from indexes only (B-tree prefix ranges, then trigram
// substring lookups when the prefix tiers cannot fill the page), each source capped with LIMIT;
// ranking happens here, on the few candidate rows, from their real field values.
//
// Tiers: exact (3) > prefix (2) > substring (1). score = tier + 0.9 × (query length / field
// length), so within a tier the shorter field wins; ties go to the more recent record. Alarm
// reports are ranked newest first within a tier (score = tier + 0.9 exact, + 0.5 otherwise).
// Groups are ordered by their best hit's score; empty groups are left out.
import { getHref } from '../../../shared/routes.js';
import { sql, type RawBuilder } from 'kysely';
import { isPostgres, type DB } from '../../db/index.js';
import { P, type Permission } from '../../../shared/permissions.js';
import { CUSTOMER_STATUSES, DEVICE_TYPES, TIER_TYPES } from '../../../shared/codes.js';
import { likeEscape } from '../../util.js';
import {
  SEARCH_GROUP_LABELS,
  SEARCH_SCOPE_OF_KIND,
  type SearchGroup,
  type SearchHit,
  type SearchKind,
  type SearchMatched,
  type SearchResponse,
  type SearchScope,
} from '../../../shared/schemas/search.js';
import { asciiLower, cpLength, ftsPhrase, phoneKey, prefixEnd, queryPhoneKey } from './keys.js';
import { arcStaffMatching, personScope, type PersonScope } from '../persons/scope.js';

type Tier = 1 | 2 | 3;
type Match = { tier: Tier; matched: SearchMatched; raw: number };

export type SearchCtx = {
  db: DB;
  pg: boolean;
  /** trimmed query as typed */
  q: string;
  /** lower-cased for comparing with field values in JS */
  qj: string;
  /** lower-cased the way the database lowers its keys (SQLite: ASCII only) */
  qs: string;
  qsEnd: string;
  qlen: number;
  /** phone key when the query looks like a phone number (≥ 3 digits), else null */
  phone: string | null;
  limit: number;
  /** rows taken from each prefix source */
  cap: number;
  /** rows taken from the substring source */
  subCap: number;
  /** query long enough for trigram (substring) matching */
  trigram: boolean;
  /** which persons the caller may find (persons/scope.ts) */
  personScope?: PersonScope;
};

/** Rates one field: exact/prefix/substring of the query, or null. */
function rate(field: string | null | undefined, q: string, matched: SearchMatched): Match | null {
  if (!field) return null;
  const f = field.toLowerCase();
  const tier: Tier | 0 = f === q ? 3 : f.startsWith(q) ? 2 : f.includes(q) ? 1 : 0;
  if (!tier) return null;
  return { tier, matched, raw: tier + 0.9 * Math.min(1, cpLength(q) / Math.max(1, cpLength(f))) };
}
const best = (...ms: (Match | null)[]) =>
  ms.reduce<Match | null>((a, m) => (m && (!a || m.raw > a.raw) ? m : a), null);
const round = (n: number) => Math.round(n * 1000) / 1000;

const lookupName = (table: { Value: number; Name: string }[], v: number | null | undefined) =>
  v == null ? undefined : table.find((x) => x.Value === v)?.Name;
const join = (...parts: (string | null | undefined)[]) => parts.filter((p) => p != null && p !== '').join(' · ');

const closedFormat = new Intl.DateTimeFormat('en-GB', {
  timeZone: 'Europe/London',
  day: '2-digit',
  month: '2-digit',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
});
function formatClosed(iso: string) {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : closedFormat.format(d);
}

// ---- query building blocks

const rows = <R>(q: RawBuilder<R>, db: DB) => q.execute(db).then((r) => r.rows);

/** `key` as indexed: PostgreSQL indexes carry COLLATE "C" so ranges and ORDER BY are byte order. */
const keyOf = (ctx: SearchCtx, expr: string) => sql.raw(ctx.pg ? `${expr} collate "C"` : expr);

/** Exact + prefix candidates from one B-tree range, in index order (exact match first). */
function range<R>(ctx: SearchCtx, table: string, cols: string, keyExpr: string, opts: { thenBy?: string; lo?: string; hi?: string } = {}) {
  const k = keyOf(ctx, keyExpr);
  const lo = opts.lo ?? ctx.qs;
  const hi = opts.hi ?? ctx.qsEnd;
  const then = opts.thenBy ? sql.raw(`, ${opts.thenBy}`) : sql.raw('');
  return rows(
    sql<R>`select ${sql.raw(cols)} from ${sql.table(table)} where ${k} >= ${lo} and ${k} < ${hi} order by ${k}${then} limit ${ctx.cap}`,
    ctx.db,
  );
}

/** SQLite FTS5 candidates, newest rowid first. */
function fts<R>(ctx: SearchCtx, table: string, cols: string, match: string, cap: number) {
  const f = `${table}_fts`;
  return rows(
    sql<R>`select ${sql.raw(cols)} from ${sql.table(table)} where rowid in (select rowid from ${sql.table(f)} where ${sql.table(f)} match ${match} order by rowid desc limit ${cap})`,
    ctx.db,
  );
}

/** PostgreSQL pg_trgm candidates: `expr LIKE '%q%'` for each expression (GIN trigram indexes). */
function trgm<R>(ctx: SearchCtx, table: string, cols: string, likes: [string, string][], orderBy: string) {
  const where = sql.join(
    likes.map(([expr, value]) => sql`${sql.raw(expr)} like ${'%' + likeEscape(value) + '%'}`),
    sql` or `,
  );
  return rows(
    sql<R>`select ${sql.raw(cols)} from ${sql.table(table)} where ${where} order by ${sql.raw(orderBy)} limit ${ctx.subCap}`,
    ctx.db,
  );
}

// ---- one provider per group

type Provider<R extends { id: string }> = {
  kind: SearchKind;
  permission: Permission;
  /** exact + prefix sources */
  prefix(ctx: SearchCtx): Promise<R[]>[];
  /** substring source (only called when ctx.trigram) */
  substring(ctx: SearchCtx): Promise<R[]>;
  classify(row: R, ctx: SearchCtx): Match | null;
  score(m: Match): number;
  /** tie-break within equal scores: larger is first */
  recency(row: R): string;
  toHits(items: { row: R; match: Match; score: number }[], ctx: SearchCtx): Promise<SearchHit[]>;
};

type DeviceRow = { id: string; serialNumber: string; imei: string | null; phoneNumber: string | null; type: number; customerId: string | null; addedToSystem: string };
const DEVICE_COLS = `"id", "serialNumber", "imei", "phoneNumber", "type", "customerId", "addedToSystem"`;

const devices: Provider<DeviceRow> = {
  kind: 'device',
  permission: P.DeviceListView,
  prefix(ctx) {
    const out = [
      range<DeviceRow>(ctx, 'devices', DEVICE_COLS, `lower("serialNumber")`),
      // IMEIs are digits: SQLite uses the plain imei index, PostgreSQL lower(imei) collate "C".
      ctx.pg
        ? range<DeviceRow>(ctx, 'devices', DEVICE_COLS, `lower("imei")`)
        : range<DeviceRow>(ctx, 'devices', DEVICE_COLS, `"imei"`),
    ];
    // PostgreSQL has a B-tree on the phone key; SQLite finds phone prefixes through FTS (below).
    if (ctx.phone && ctx.pg)
      out.push(range<DeviceRow>(ctx, 'devices', DEVICE_COLS, `search_phone_key("phoneNumber")`, { lo: ctx.phone, hi: prefixEnd(ctx.phone) }));
    return out;
  },
  substring(ctx) {
    if (ctx.pg) {
      const likes: [string, string][] = [[`lower("serialNumber")`, ctx.qj], [`lower("imei")`, ctx.qj]];
      if (ctx.phone && ctx.phone.length >= 3) likes.push([`search_phone_key("phoneNumber")`, ctx.phone]);
      return trgm<DeviceRow>(ctx, 'devices', DEVICE_COLS, likes, `"addedToSystem" desc`);
    }
    const phone = ctx.phone && ctx.phone.length >= 3 ? ctx.phone : null;
    let m = `{serial imei} : ${ftsPhrase(ctx.q)}`;
    if (phone) m += ` OR phone : ${ftsPhrase(phone)}`;
    return fts<DeviceRow>(ctx, 'devices', DEVICE_COLS, m, ctx.subCap).then(async (list) => {
      // Phone numbers that start with the key are prefix hits. When the substring lookup was
      // complete (fewer rows than the cap) they are already in it; otherwise fetch them apart.
      if (phone && list.length >= ctx.subCap) list = list.concat(await fts<DeviceRow>(ctx, 'devices', DEVICE_COLS, `phone : ^ ${ftsPhrase(phone)}`, ctx.cap));
      return list;
    });
  },
  classify(r, ctx) {
    let phone: Match | null = null;
    if (ctx.phone) {
      const k = phoneKey(r.phoneNumber);
      if (k) {
        const tier: Tier | 0 = k === ctx.phone ? 3 : k.startsWith(ctx.phone) ? 2 : k.includes(ctx.phone) ? 1 : 0;
        if (tier) phone = { tier, matched: 'phone', raw: tier + 0.9 * (ctx.phone.length / k.length) };
      }
    }
    return best(rate(r.serialNumber, ctx.qj, 'serial'), rate(r.imei, ctx.qj, 'imei'), phone);
  },
  score: (m) => m.raw,
  recency: (r) => r.addedToSystem,
  async toHits(items, ctx) {
    const ids = [...new Set(items.map((i) => i.row.customerId).filter((x): x is string => !!x))];
    const names = new Map<string, string>();
    if (ids.length)
      for (const c of await ctx.db.selectFrom('customers').select(['id', 'name']).where('id', 'in', ids).execute()) names.set(c.id, c.name);
    return items.map(({ row, match, score }) => ({
      id: row.id,
      kind: 'device',
      title: row.serialNumber,
      subtitle: join(lookupName(DEVICE_TYPES, row.type), row.customerId ? names.get(row.customerId) : undefined, row.imei),
      href: getHref('device', { deviceId: row.id }),
      score,
      matched: match.matched,
    }));
  },
};

type CustomerRow = { id: string; name: string; portalId: string | null; tier: number | null; status: number | null; createdAt: string };
const CUSTOMER_COLS = `"id", "name", "portalId", "tier", "status", "createdAt"`;

const customers: Provider<CustomerRow> = {
  kind: 'customer',
  permission: P.CustomerListView,
  prefix: (ctx) => [
    range<CustomerRow>(ctx, 'customers', CUSTOMER_COLS, `lower("name")`),
    range<CustomerRow>(ctx, 'customers', CUSTOMER_COLS, `lower("portalId")`),
  ],
  substring: (ctx) =>
    ctx.pg
      ? trgm<CustomerRow>(ctx, 'customers', CUSTOMER_COLS, [[`lower("name")`, ctx.qj], [`lower("portalId")`, ctx.qj]], `"createdAt" desc`)
      : fts<CustomerRow>(ctx, 'customers', CUSTOMER_COLS, `{name reference} : ${ftsPhrase(ctx.q)}`, ctx.subCap),
  classify: (r, ctx) => best(rate(r.name, ctx.qj, 'name'), rate(r.portalId, ctx.qj, 'reference')),
  score: (m) => m.raw,
  recency: (r) => r.createdAt,
  toHits: async (items) =>
    items.map(({ row, match, score }) => ({
      id: row.id,
      kind: 'customer',
      title: row.name,
      subtitle: join(row.portalId, lookupName(TIER_TYPES, row.tier), lookupName(CUSTOMER_STATUSES, row.status)),
      href: getHref('customerAccount', { customerId: row.id }),
      score,
      matched: match.matched,
    })),
};

type PersonRow = { id: string; firstName: string; lastName: string; email: string; createdAt: string };
const PERSON_COLS = `"id", "firstName", "lastName", "email", "createdAt"`;
const fullName = (r: { firstName: string; lastName: string }) => `${r.firstName} ${r.lastName}`.trim();

const persons: Provider<PersonRow> = {
  kind: 'person',
  permission: P.PersonListView,
  prefix: (ctx) => ctx.personScope === 'arc-staff' ? [arcStaffMatching(ctx.db, ctx.qj, 200)] : [
    range<PersonRow>(ctx, 'persons', PERSON_COLS, `lower("firstName" || ' ' || "lastName")`),
    range<PersonRow>(ctx, 'persons', PERSON_COLS, `lower("lastName")`),
    // e-mails are stored lower-case; indexed as they are
    range<PersonRow>(ctx, 'persons', PERSON_COLS, `"email"`),
  ],
  substring: async (ctx) =>
    ctx.personScope === 'arc-staff' ? [] : ctx.pg
      ? trgm<PersonRow>(ctx, 'persons', PERSON_COLS, [[`lower("firstName" || ' ' || "lastName")`, ctx.qj], [`"email"`, ctx.qj]], `"createdAt" desc`)
      : fts<PersonRow>(ctx, 'persons', PERSON_COLS, `{name email} : ${ftsPhrase(ctx.q)}`, ctx.subCap),
  classify: (r, ctx) =>
    best(
      rate(`${r.firstName} ${r.lastName}`, ctx.qj, 'name'),
      rate(r.firstName, ctx.qj, 'name'),
      rate(r.lastName, ctx.qj, 'name'),
      rate(r.email, ctx.qj, 'email'),
    ),
  score: (m) => m.raw,
  recency: (r) => r.createdAt,
  toHits: async (items) =>
    items.map(({ row, match, score }) => ({
      id: row.id,
      kind: 'person',
      title: fullName(row),
      subtitle: row.email,
      href: getHref('personEdit', { userId: row.id }),
      score,
      matched: match.matched,
    })),
};

type AlarmRow = { id: string; alarmId: string; personFullName: string; customerAccountFullName: string; alarmClosed: string };
const ALARM_COLS = `"id", "alarmId", "personFullName", "customerAccountFullName", "alarmClosed"`;

const alarmReports: Provider<AlarmRow> = {
  kind: 'alarmReport',
  permission: P.AlarmReportListView,
  prefix: (ctx) => [
    range<AlarmRow>(ctx, 'alarmReports', ALARM_COLS, `lower("alarmId")`),
    range<AlarmRow>(ctx, 'alarmReports', ALARM_COLS, `lower("personFullName")`, { thenBy: `"alarmClosed" desc` }),
    range<AlarmRow>(ctx, 'alarmReports', ALARM_COLS, `lower("customerAccountFullName")`, { thenBy: `"alarmClosed" desc` }),
  ],
  substring: (ctx) =>
    ctx.pg
      ? trgm<AlarmRow>(
          ctx,
          'alarmReports',
          ALARM_COLS,
          [[`lower("alarmId")`, ctx.qj], [`lower("personFullName")`, ctx.qj], [`lower("customerAccountFullName")`, ctx.qj]],
          `"alarmClosed" desc`,
        )
      : fts<AlarmRow>(ctx, 'alarmReports', ALARM_COLS, `{alarmId person account} : ${ftsPhrase(ctx.q)}`, ctx.subCap),
  classify: (r, ctx) =>
    best(rate(r.alarmId, ctx.qj, 'alarmId'), rate(r.personFullName, ctx.qj, 'person'), rate(r.customerAccountFullName, ctx.qj, 'account')),
  // newest first within a tier: the score does not depend on field length here
  score: (m) => m.tier + (m.tier === 3 ? 0.9 : 0.5),
  recency: (r) => r.alarmClosed,
  toHits: async (items) =>
    items.map(({ row, match, score }) => ({
      id: row.id,
      kind: 'alarmReport',
      title: join(row.alarmId, row.personFullName),
      subtitle: join(row.customerAccountFullName, formatClosed(row.alarmClosed)),
      href: getHref('alarmReport', { alarmId: row.alarmId }),
      score,
      matched: match.matched,
    })),
};

const PROVIDERS = [devices, customers, persons, alarmReports] as Provider<{ id: string }>[];

async function runGroup<R extends { id: string }>(p: Provider<R>, ctx: SearchCtx): Promise<SearchGroup | null> {
  const found = new Map<string, { row: R; match: Match }>();
  const add = (list: R[]) => {
    for (const row of list) {
      if (found.has(row.id)) continue;
      const match = p.classify(row, ctx);
      if (match) found.set(row.id, { row, match });
    }
  };
  for (const list of await Promise.all(p.prefix(ctx))) add(list);
  // Substring hits rank below every prefix hit: look only when the prefix tiers leave room.
  let good = 0;
  for (const f of found.values()) if (f.match.tier >= 2) good++;
  if (ctx.trigram && good < ctx.limit) add(await p.substring(ctx));
  if (!found.size) return null;
  const items = [...found.values()]
    .map((f) => ({ ...f, score: round(p.score(f.match)), rec: p.recency(f.row) }))
    .sort((a, b) => b.score - a.score || (a.rec < b.rec ? 1 : a.rec > b.rec ? -1 : 0))
    .slice(0, ctx.limit);
  const hits = await p.toHits(items, ctx);
  return { kind: p.kind, label: SEARCH_GROUP_LABELS[p.kind], hits };
}

export function searchContext(db: DB, q: string, limit: number): SearchCtx {
  const pg = isPostgres(db);
  const qs = pg ? q.toLowerCase() : asciiLower(q);
  const qlen = cpLength(q);
  return {
    db,
    pg,
    q,
    qj: q.toLowerCase(),
    qs,
    qsEnd: prefixEnd(qs),
    qlen,
    phone: queryPhoneKey(q),
    limit,
    cap: Math.min(limit * 3, 100),
    subCap: Math.min(Math.max(limit * 4, 32), 200),
    trigram: qlen >= 3,
  };
}

/** Runs the search for a caller holding `permissions`. Groups the caller may not see are skipped. */
export async function search(
  db: DB,
  input: { q: string; scope: SearchScope; limit: number },
  permissions: readonly string[],
): Promise<SearchResponse> {
  const q = input.q.trim();
  if (!q) return { query: q, groups: [] };
  const ctx = { ...searchContext(db, q, input.limit), personScope: personScope({ permissions: permissions as Permission[] }) };
  const providers = PROVIDERS.filter(
    (p) => permissions.includes(p.permission) && (input.scope === 'all' || SEARCH_SCOPE_OF_KIND[p.kind] === input.scope),
  );
  const order = (k: SearchKind) => PROVIDERS.findIndex((p) => p.kind === k);
  const groups = (await Promise.all(providers.map((p) => runGroup(p, ctx))))
    .filter((g): g is SearchGroup => !!g && g.hits.length > 0)
    .sort((a, b) => b.hits[0].score - a.hits[0].score || order(a.kind) - order(b.kind));
  return { query: q, groups };
}
