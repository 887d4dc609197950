// What a module gives the palette search: a SearchProvider (its candidate queries, how a row
// matches the query, how it is scored and shown), plus the building blocks the providers share.
// Candidates come from indexes only (B-tree prefix ranges, then trigram substring lookups when the
// prefix tiers cannot fill the page), each source capped with LIMIT; ranking happens in the
// service (modules/search/service.ts), on the few candidate rows, from their real field values. Every source
// is narrowed by the caller's tenant scope (auth/tenant-scope.ts) before its cap, so a scoped caller's
// candidates are their own tenant's rows, as many as anyone else's.
//
// Tiers: exact (3) > prefix (2) > substring (1). A provider's score is usually tier + 0.9 ×
// (query length / field length), so within a tier the shorter field wins; ties go to the more
// recent record.
import { sql, type RawBuilder } from 'kysely';
import type { DB } from '../db/index.js';
import type { Permission } from '../../shared/permissions.js';
import type { SearchHit, SearchKind, SearchMatched } from '../../shared/schemas/search.js';
import { likeEscape } from '../platform/util.js';
import { cpLength, ftsPhrase } from './search-keys.js';
import { scopePredicate, type TenantScope } from '../auth/tenant-scope.js';

export type Tier = 1 | 2 | 3;
export type Match = { tier: Tier; matched: SearchMatched; raw: number };

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
  /** which persons the caller may find (persons/scope.ts); 'directory' when absent */
  personScope?: 'directory' | 'arc-staff';
  /** whose rows the caller may find */
  tenant: TenantScope;
};

/** One group of the palette's results. Each module that owns a kind of record registers one. */
export type SearchProvider<R extends { id: string } = { id: string }> = {
  kind: SearchKind;
  /** the list-view permission a caller needs to see this group */
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

/** Rates one field: exact/prefix/substring of the query, or null. */
export function rate(field: string | null | undefined, q: string, matched: SearchMatched): Match | null {
  if (!field) return null;
  const f = field.toLowerCase();
  const tier: Tier | 0 = f === q ? 3 : f.startsWith(q) ? 2 : f.includes(q) ? 1 : 0;
  if (!tier) return null;
  return { tier, matched, raw: tier + 0.9 * Math.min(1, cpLength(q) / Math.max(1, cpLength(f))) };
}
export const best = (...ms: (Match | null)[]) => ms.reduce<Match | null>((a, m) => (m && (!a || m.raw > a.raw) ? m : a), null);

export const lookupName = (table: { Value: number; Name: string }[], v: number | null | undefined) =>
  v == null ? undefined : table.find((x) => x.Value === v)?.Name;
/** Parts of a title or subtitle, empty ones left out, joined with ' · '. */
export const joinParts = (...parts: (string | null | undefined)[]) => parts.filter((p) => p != null && p !== '').join(' · ');

// ---- query building blocks

const rows = <R>(q: RawBuilder<R>, db: DB) => q.execute(db).then((r) => r.rows);

/** `key` as indexed: PostgreSQL indexes carry COLLATE "C" so ranges and ORDER BY are byte order. */
const keyOf = (ctx: SearchCtx, expr: string) => sql.raw(ctx.pg ? `${expr} collate "C"` : expr);

/** Where each searched table keeps its tenant: a customer id or a tenant id. */
const TENANT_COLUMN: Record<string, ['customerId' | 'tenantId', string]> = {
  devices: ['customerId', 'devices.customerId'],
  customers: ['tenantId', 'customers.tenantId'],
  persons: ['tenantId', 'persons.tenantId'],
  alarmReports: ['customerId', 'alarmReports.customerId'],
};

/** ` and <the table's rows of the caller's tenant>`, or nothing for every tenant. */
function inScope(ctx: SearchCtx, table: string): RawBuilder<unknown> {
  const col = TENANT_COLUMN[table];
  if (!col) throw new Error(`search: no tenant column known for '${table}'`);
  const p = scopePredicate(ctx.tenant, col[0], col[1]);
  return p ? sql` and ${p}` : sql.raw('');
}

/** Exact + prefix candidates from one B-tree range, in index order (exact match first). */
export function range<R>(ctx: SearchCtx, table: string, cols: string, keyExpr: string, opts: { thenBy?: string; lo?: string; hi?: string } = {}) {
  const k = keyOf(ctx, keyExpr);
  const lo = opts.lo ?? ctx.qs;
  const hi = opts.hi ?? ctx.qsEnd;
  const then = opts.thenBy ? sql.raw(`, ${opts.thenBy}`) : sql.raw('');
  return rows(
    sql<R>`select ${sql.raw(cols)} from ${sql.table(table)} where ${k} >= ${lo} and ${k} < ${hi}${inScope(ctx, table)} order by ${k}${then} limit ${ctx.cap}`,
    ctx.db,
  );
}

/** SQLite FTS5 candidates, newest rowid first (a scoped caller's: the newest of their tenant's). */
export function fts<R>(ctx: SearchCtx, table: string, cols: string, match: string, cap: number) {
  const f = `${table}_fts`;
  if (!ctx.tenant.all)
    return rows(
      sql<R>`select ${sql.raw(cols)} from ${sql.table(table)} where rowid in (select rowid from ${sql.table(f)} where ${sql.table(f)} match ${match})${inScope(ctx, table)} order by rowid desc limit ${cap}`,
      ctx.db,
    );
  return rows(
    sql<R>`select ${sql.raw(cols)} from ${sql.table(table)} where rowid in (select rowid from ${sql.table(f)} where ${sql.table(f)} match ${match} order by rowid desc limit ${cap})`,
    ctx.db,
  );
}

/** PostgreSQL pg_trgm candidates: `expr LIKE '%q%'` for each expression (GIN trigram indexes). */
export function trgm<R>(ctx: SearchCtx, table: string, cols: string, likes: [string, string][], orderBy: string) {
  const where = sql.join(
    likes.map(([expr, value]) => sql`${sql.raw(expr)} like ${'%' + likeEscape(value) + '%'}`),
    sql` or `,
  );
  return rows(
    sql<R>`select ${sql.raw(cols)} from ${sql.table(table)} where (${where})${inScope(ctx, table)} order by ${sql.raw(orderBy)} limit ${ctx.subCap}`,
    ctx.db,
  );
}

/**
 * The substring source of a provider that looks for the query in text keys: on PostgreSQL a
 * trigram lookup of each key (`keys`, lower-cased expressions), newest by `orderBy` first; on
 * SQLite the FTS5 columns `ftsColumns` ('name reference').
 */
export function textSubstring<R>(ctx: SearchCtx, table: string, cols: string, keys: string[], orderBy: string, ftsColumns: string) {
  return ctx.pg
    ? trgm<R>(
        ctx,
        table,
        cols,
        keys.map((k): [string, string] => [k, ctx.qj]),
        orderBy,
      )
    : fts<R>(ctx, table, cols, `{${ftsColumns}} : ${ftsPhrase(ctx.q)}`, ctx.subCap);
}

/** What a hit shows of its row: title, subtitle and the client route that opens the record. */
export type HitView = Pick<SearchHit, 'title' | 'subtitle' | 'href'>;

/** toHits of a provider whose hits need nothing but the row. */
export const hitsOf =
  <R extends { id: string }>(kind: SearchKind, view: (row: R) => HitView): SearchProvider<R>['toHits'] =>
  async (items) =>
    items.map(({ row, match, score }) => ({ id: row.id, kind, ...view(row), score, matched: match.matched }));
