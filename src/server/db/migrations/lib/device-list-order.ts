// Frozen copy of the asset list's sort expressions (nameRankSql and nullsLastSql of
// modules/devices/order.ts) as that module built them when the migrations were frozen: the rank of
// each type and status code is written out, so a renamed code or a changed name order in the live
// code does not change the indexes migrations 014 and 020 create. See README.md of this folder.
import { sql, type RawBuilder } from 'kysely';

/** The WHEN arms in rank order (then code), and the rank of an unknown code. */
const RANKS = {
  type: {
    arms: `when 140 then 0 when 42 then 1 when 52 then 2 when 70 then 3 when 15 then 4 when 400 then 5 when 804 then 6 when 10 then 7 when 370 then 8 when 620 then 9 when 621 then 10 when 640 then 11 when 740 then 12 when 750 then 13 when 3 then 14 when 803 then 15 when 810 then 16 when 60 then 17 when 30 then 18 when 20 then 19`,
    unknown: 20,
  },
  status: {
    arms: `when 3 then 0 when 10 then 1 when 4 then 2 when 1 then 3 when 12 then 4 when 11 then 5 when 7 then 6 when 8 then 7 when 6 then 8 when 2 then 9 when 5 then 10`,
    unknown: 11,
  },
};

/** The rank of a device's type or status name as a CASE over the code; `table` qualifies the column. */
export function nameRankSql(col: 'type' | 'status', table?: string): RawBuilder<number> {
  const ref = table ? `"${table}"."${col}"` : `"${col}"`;
  return sql<number>`(case ${sql.raw(ref)} ${sql.raw(RANKS[col].arms)} else ${sql.raw(String(RANKS[col].unknown))} end)`;
}

/** Missing values last in both directions: this key first, ascending. */
export function nullsLastSql(col: string, table?: string): RawBuilder<number> {
  const ref = table ? `"${table}"."${col}"` : `"${col}"`;
  return sql<number>`(case when ${sql.raw(ref)} is null then 1 else 0 end)`;
}
