// SQL of the asset list's sorts that migrations 014 and 020 index (from a frozen copy,
// db/migrations/lib/device-list-order.ts): an index serves an ORDER BY only when its expression is
// the same, so a change here needs a new migration that builds the index again.
import { sql, type RawBuilder } from 'kysely';
import { ASSET_STATUS_NAME_RANKS, DEVICE_TYPE_NAME_RANKS, rankCount } from '../../../shared/name-order.js';

const ranks = { type: DEVICE_TYPE_NAME_RANKS, status: ASSET_STATUS_NAME_RANKS };

/**
 * The rank of a device's type or status name (shared/name-order.ts) as a CASE over the code;
 * `table` qualifies the column. The WHEN arms go in rank order (then code), so the text of the
 * expression is the one the indexes were built from.
 */
export function nameRankSql(col: 'type' | 'status', table?: string): RawBuilder<number> {
  const ref = table ? `"${table}"."${col}"` : `"${col}"`;
  const arms = [...ranks[col]].sort((a, b) => a[1] - b[1] || a[0] - b[0]).map(([value, rank]) => `when ${value} then ${rank}`);
  return sql<number>`(case ${sql.raw(ref)} ${sql.raw(arms.join(' '))} else ${sql.raw(String(rankCount(ranks[col])))} end)`;
}

/** Missing values last in both directions: this key first, ascending. */
export function nullsLastSql(col: string, table?: string): RawBuilder<number> {
  const ref = table ? `"${table}"."${col}"` : `"${col}"`;
  return sql<number>`(case when ${sql.raw(ref)} is null then 1 else 0 end)`;
}
