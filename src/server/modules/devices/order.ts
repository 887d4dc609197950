// SQL of the asset list's sorts that migration 014's indexes serve: one definition, used by the
// list query and by the migration that builds the indexes (an index serves an ORDER BY only when
// its expression is the same).
import { sql, type RawBuilder } from 'kysely';
import { ASSET_STATUS_NAME_RANKS, DEVICE_TYPE_NAME_RANKS } from '../../../shared/name-order.js';

const ranks = { type: DEVICE_TYPE_NAME_RANKS, status: ASSET_STATUS_NAME_RANKS };

/** The rank of a device's type or status name (shared/name-order.ts) as a CASE over the code; `table` qualifies the column. */
export function nameRankSql(col: 'type' | 'status', table?: string): RawBuilder<number> {
  const ref = table ? `"${table}"."${col}"` : `"${col}"`;
  const list = ranks[col];
  return sql<number>`(case ${sql.raw(ref)} ${sql.raw(list.map((r) => `when ${r.value} then ${r.rank}`).join(' '))} else ${sql.raw(String(list.length))} end)`;
}

/** Missing values last in both directions: this key first, ascending. */
export function nullsLastSql(col: string, table?: string): RawBuilder<number> {
  const ref = table ? `"${table}"."${col}"` : `"${col}"`;
  return sql<number>`(case when ${sql.raw(ref)} is null then 1 else 0 end)`;
}
