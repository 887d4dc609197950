// Frozen copy of modules/alarm-reports/month-tops.ts as it stood when the migrations were frozen (used by migration 021).
// A twin of the live module on purpose: the live one may change, this one never does. See README.md
// of this folder.
//
// The management report's monthly tops (`alarmMonthTops`): per Europe/London month and customer,
// the alarm count of every person and every device, and of every escalation-plan outcome of the
// stored analyses — kept by database triggers in the writer's transaction (the seed, imports,
// tests and the app alike, like alarmStats), so the report reads the ten busiest users and devices
// and the plan compliance of a month without reading its alarm reports (decision "The management report reads
// monthly tops kept by triggers", docs/decisions/management-report.md).
//
//   kind 1  person: key personId, label the greatest personFullName of the month
//   kind 2  device: key deviceSerial, label the serial, code the greatest device type
//   kind 3  plan:   key '<Verdict>:<followed>' of the stored analysis ('Agrees:true', 'none:false')
//
// Persons and devices are counted twice: under the report's customer ('' for none) and under '*'
// (every customer), so both reports read their top ten straight from the index (month,
// customerId, kind, n desc, label). Plan outcomes are kept per customer only: the report counts
// the customers whose intelligence setting is on, a join of at most customers × outcomes rows.
// Rows whose count fell to 0 stay (n = 0) and are skipped by the reads.
import { londonDaySql } from './alarm-stats.js';

export const TOPS_TABLE = 'alarmMonthTops';
export const TOP_KIND = { person: 1, device: 2, plan: 3 } as const;
/** The customerId under which persons and devices of every customer are counted. */
export const EVERY_CUSTOMER = '*';
export const TOPS_COLS = ['month', 'customerId', 'kind', 'key', 'label', 'code', 'n'] as const;
export const TOPS_KEY = ['month', 'customerId', 'kind', 'key'] as const;
/** Report columns whose change moves a report between rows of the tops. */
export const TOPS_WATCHED = ['alarmClosed', 'customerId', 'personId', 'personFullName', 'deviceSerial', 'deviceType'] as const;

const q = (cols: readonly string[]) => cols.map((c) => `"${c}"`).join(', ');
const monthSql = (pg: boolean, ts: string) => `substr(${londonDaySql(pg, ts)}, 1, 7)`;

/** The plan outcome key of an analysis JSON expression: '<Verdict or none>:<true|false>'. */
export function planKeySql(pg: boolean, json: string) {
  const verdict = pg ? `((${json})::jsonb #>> '{PlanCheck,Verdict}')` : `json_extract(${json}, '$.PlanCheck.Verdict')`;
  // SQLite's json_extract answers 1 / 0 for JSON booleans, PostgreSQL's #>> 'true' / 'false'.
  const followed = pg ? `((${json})::jsonb #>> '{PlanCheck,Followed}') = 'true'` : `json_extract(${json}, '$.PlanCheck.Followed') = 1`;
  return `coalesce(${verdict}, 'none') || ':' || (case when ${followed} then 'true' else 'false' end)`;
}

type Values = { month: string; customerId: string; kind: number; key: string; label: string; code: string; n: string };
const select = (v: Values) => `${v.month}, ${v.customerId}, ${v.kind}, ${v.key}, ${v.label}, ${v.code}, ${v.n}`;

/** Adds the selected rows' counts (`from` and `where` complete the SELECT); labels and codes keep the greatest. */
function upsert(pg: boolean, v: Values, fromWhere: string) {
  const greatest = pg ? 'greatest' : 'max';
  return `insert into "${TOPS_TABLE}" (${q(TOPS_COLS)}) select ${select(v)} ${fromWhere}
    on conflict (${q(TOPS_KEY)}) do update set "n" = "${TOPS_TABLE}"."n" + excluded."n",
      "label" = ${greatest}("${TOPS_TABLE}"."label", excluded."label"), "code" = ${greatest}("${TOPS_TABLE}"."code", excluded."code")`;
}

/**
 * Person and device counts of one report row `r` (new / old) added (sign 1) or removed (-1),
 * under its customer and under every customer.
 */
export function reportTopsSql(pg: boolean, r: string, sign: 1 | -1): string[] {
  const month = monthSql(pg, `${r}."alarmClosed"`);
  const out: string[] = [];
  // SQLite needs a WHERE in an INSERT … SELECT … ON CONFLICT (a FROM-less SELECT is fine with it).
  for (const customerId of [`coalesce(${r}."customerId", '')`, `'${EVERY_CUSTOMER}'`]) {
    out.push(
      upsert(
        pg,
        { month, customerId, kind: TOP_KIND.person, key: `${r}."personId"`, label: `coalesce(${r}."personFullName", '')`, code: '0', n: String(sign) },
        `where ${r}."personId" is not null`,
      ),
      upsert(
        pg,
        {
          month,
          customerId,
          kind: TOP_KIND.device,
          key: `${r}."deviceSerial"`,
          label: `${r}."deviceSerial"`,
          code: `coalesce(${r}."deviceType", -1)`,
          n: String(sign),
        },
        `where ${r}."deviceSerial" is not null`,
      ),
    );
  }
  return out;
}

/** The plan outcome of report row `r`'s stored analysis (if any) added or removed, under the report's month and customer. */
export function reportPlanSql(pg: boolean, r: string, sign: 1 | -1): string {
  return upsert(
    pg,
    {
      month: monthSql(pg, `${r}."alarmClosed"`),
      customerId: `coalesce(${r}."customerId", '')`,
      kind: TOP_KIND.plan,
      key: planKeySql(pg, 'a."analysis"'),
      label: `''`,
      code: '0',
      n: String(sign),
    },
    `from "alarmReportAnalyses" a where a."alarmReportId" = ${r}."id"`,
  );
}

/** Analysis row `a` (new / old) added or removed, under its report's month and customer (nothing once the report is gone). */
export function analysisPlanSql(pg: boolean, a: string, sign: 1 | -1): string {
  return upsert(
    pg,
    {
      month: monthSql(pg, 'r."alarmClosed"'),
      customerId: `coalesce(r."customerId", '')`,
      kind: TOP_KIND.plan,
      key: planKeySql(pg, `${a}."analysis"`),
      label: `''`,
      code: '0',
      n: String(sign),
    },
    `from "alarmReports" r where r."id" = ${a}."alarmReportId"`,
  );
}

/** The tops rebuilt from the reports and analyses (the migration on a populated database, a bulk load, a repair). */
export function rebuildTopsSql(pg: boolean): string[] {
  const month = monthSql(pg, 'r."alarmClosed"');
  const customer = `coalesce(r."customerId", '')`;
  const greatest = (x: string) => `max(${x})`;
  const ins = `insert into "${TOPS_TABLE}" (${q(TOPS_COLS)})`;
  // (PostgreSQL refuses a text constant in GROUP BY: the every-customer rows group without it.)
  const by = (c: string) => (c === customer ? `${month}, ${c}` : month);
  const people = (c: string) =>
    `${ins} select ${month}, ${c}, ${TOP_KIND.person}, r."personId", ${greatest(`coalesce(r."personFullName", '')`)}, 0, count(*)
      from "alarmReports" r where r."personId" is not null group by ${by(c)}, r."personId"`;
  const devices = (c: string) =>
    `${ins} select ${month}, ${c}, ${TOP_KIND.device}, r."deviceSerial", r."deviceSerial", ${greatest(`coalesce(r."deviceType", -1)`)}, count(*)
      from "alarmReports" r where r."deviceSerial" is not null group by ${by(c)}, r."deviceSerial"`;
  const plan = planKeySql(pg, 'a."analysis"');
  return [
    `delete from "${TOPS_TABLE}"`,
    people(customer),
    people(`'${EVERY_CUSTOMER}'`),
    devices(customer),
    devices(`'${EVERY_CUSTOMER}'`),
    `${ins} select ${month}, ${customer}, ${TOP_KIND.plan}, ${plan}, '', 0, count(*)
      from "alarmReports" r inner join "alarmReportAnalyses" a on a."alarmReportId" = r."id" group by ${month}, ${customer}, ${plan}`,
  ];
}
