// The alarm reports' distinct names (`alarmReportNames`): each lower-cased person and customer
// account name the reports carry, with how many reports carry it, kept by database triggers in
// the same transaction as every insert, update and delete of a report (like the statistics,
// aggregates.ts). The list's "contains" filters on person and account (and the search over them)
// look the value up among these few thousand names first and then read the reports of the names
// found through the (lower(name), closed date) indexes, instead of testing the text of every
// report in the range: a report matches exactly when its lower-cased name is one of the names
// found, because every report's name is in the table. Migration 022 created the table and its
// triggers from a frozen copy of these definitions (db/migrations/lib/alarm-report-names.ts): a
// change here that changes them needs a new migration.
import type { CountingTriggers } from '../../db/counting-triggers.js';

export const NAMES_TABLE = 'alarmReportNames';

/** Name kinds and the report column each comes from. */
export const NAME_COLUMNS = { person: 'personFullName', account: 'customerAccountFullName' } as const;
export type NameKind = keyof typeof NAME_COLUMNS;
const KINDS = Object.keys(NAME_COLUMNS) as NameKind[];

/** The key of a report row `r` (an SQL row alias: new, old, r) in kind `k`. */
const keyOf = (k: NameKind, r: string) => `lower(${r}."${NAME_COLUMNS[k]}")`;

/** Statements counting report row `r` in (sign 1) or out of (sign -1) every kind; a name no report carries is removed. */
export function namesApplySql(r: string, sign: 1 | -1): string[] {
  return KINDS.flatMap((k) =>
    sign === 1
      ? [
          `insert into "${NAMES_TABLE}" ("kind", "key", "n") values ('${k}', ${keyOf(k, r)}, 1)
           on conflict ("kind", "key") do update set "n" = "${NAMES_TABLE}"."n" + 1`,
        ]
      : [
          `update "${NAMES_TABLE}" set "n" = "n" - 1 where "kind" = '${k}' and "key" = ${keyOf(k, r)}`,
          `delete from "${NAMES_TABLE}" where "kind" = '${k}' and "key" = ${keyOf(k, r)} and "n" <= 0`,
        ],
  );
}

/** The table's rows counted from the reports (the migration on a populated database, a repair). */
export function rebuildNamesSql(): string[] {
  return [
    `delete from "${NAMES_TABLE}"`,
    ...KINDS.map(
      (k) =>
        `insert into "${NAMES_TABLE}" ("kind", "key", "n") select '${k}', ${keyOf(k, 'r')} as "key", count(*) from "alarmReports" r group by ${keyOf(k, 'r')}`,
    ),
  ];
}

/** Report columns whose change moves a report between names. */
export const NAME_WATCHED_COLS = Object.values(NAME_COLUMNS);

/** The triggers that keep the names' counts, like the statistics. */
export const NAMES_TRIGGERS: CountingTriggers = {
  name: NAMES_TABLE,
  table: 'alarmReports',
  watched: NAME_WATCHED_COLS,
  fn: 'alarm_report_names_apply',
  body: (_pg, r, sign) => namesApplySql(r, sign),
};
