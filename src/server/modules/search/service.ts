// Palette search: runs the registered providers (one per group: devices, customers, persons,
// alarm reports — each module registers its own, see ./provider.ts), ranks each group's
// candidates and orders the groups. Groups are ordered by their best hit's score, then by
// registration order; empty groups are left out.
import type { Permission } from '../../../shared/permissions.js';
import { isPostgres, type DB } from '../../db/index.js';
import {
  SEARCH_GROUP_LABELS,
  SEARCH_SCOPE_OF_KIND,
  type SearchGroup,
  type SearchKind,
  type SearchResponse,
  type SearchScope,
} from '../../../shared/schemas/search.js';
import { asciiLower, cpLength, prefixEnd, queryPhoneKey } from '../../lib/search-keys.js';
import type { Match, SearchCtx, SearchProvider } from '../../lib/search-provider.js';
import { personScope } from '../persons/scope.js';
import type { TenantScope } from '../../auth/tenant-scope.js';

export type { SearchCtx, SearchProvider } from '../../lib/search-provider.js';

const round = (n: number) => Math.round(n * 1000) / 1000;

async function runGroup<R extends { id: string }>(p: SearchProvider<R>, ctx: SearchCtx): Promise<SearchGroup | null> {
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

export function searchContext(db: DB, q: string, limit: number, tenant: TenantScope): SearchCtx {
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
    tenant,
  };
}

export type SearchInput = { q: string; scope: SearchScope; limit: number };
export type SearchService = ReturnType<typeof createSearchService>;

/** The search over one database. Modules add their groups with register(); createApp builds it. */
export function createSearchService(db: DB) {
  const providers: SearchProvider[] = [];
  return {
    /** Adds a group. One provider per kind; registration order breaks ties between groups. */
    register<R extends { id: string }>(p: SearchProvider<R>) {
      if (providers.some((x) => x.kind === p.kind)) throw new Error(`search provider '${p.kind}' registered twice`);
      providers.push(p as unknown as SearchProvider);
    },
    kinds: (): SearchKind[] => providers.map((p) => p.kind),
    /** Runs the search for a caller holding `permissions`, over the rows of `tenant`. Groups the caller may not see are skipped. */
    async search(input: SearchInput, permissions: readonly string[], tenant: TenantScope): Promise<SearchResponse> {
      const q = input.q.trim();
      if (!q) return { query: q, groups: [] };
      const ctx: SearchCtx = { ...searchContext(db, q, input.limit, tenant), personScope: personScope({ permissions: permissions as Permission[] }) };
      const mine = providers.filter((p) => permissions.includes(p.permission) && (input.scope === 'all' || SEARCH_SCOPE_OF_KIND[p.kind] === input.scope));
      const order = (k: SearchKind) => providers.findIndex((p) => p.kind === k);
      const best = (g: SearchGroup) => g.hits[0]?.score ?? 0; // groups without hits are dropped below
      const groups = (await Promise.all(mine.map((p) => runGroup(p, ctx))))
        .filter((g): g is SearchGroup => !!g && g.hits.length > 0)
        .sort((a, b) => best(b) - best(a) || order(a.kind) - order(b.kind));
      return { query: q, groups };
    },
  };
}
