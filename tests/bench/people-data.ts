// The customer and person data sets of paging.bench.ts, kept like the device and alarm report sets
// (harness/kept-data.ts): `.tmp/bench-customers/customers-<n>.sqlite` and the PostgreSQL database
// `bench_customers_<n>` (n customers), `.tmp/bench-persons/persons-<n>.sqlite` and
// `bench_persons_<n>` (n persons and the n / 10 customers they belong to). Rows go in through the
// real migrations and reference data, built by INSERT … SELECT over a recursive CTE (SQLite) or
// generate_series (PostgreSQL), 100,000 rows a statement, every value a function of the row number
// (the same data on both databases); names are picked from the demo data's word lists (a temporary
// table of them). The tables' secondary indexes are set aside during the load and built after it,
// and SQLite's search-table insert triggers are set aside and their work done set-based.
//
// Customers: names "<prefix or town> <suffix>" (151 × 40 combinations, then again with a number:
// "Riverside Care Ltd 17"), one in 97 an internal account (no tier or status); tiers Bronze, Silver,
// Gold, Platinum 40/30/20/10 %; statuses Active, Onboarding, Suspended, Cancelled 80/8/5/7 %; 35 %
// migrated, with a portal reference of 5 to 8 digits; 92 % linked to the CRM; a UK address; created
// over 8 years.
// Persons: 1.5 % provider staff (ARC controllers 72 %, supervisors 12 %, managers 5 %, provider
// admins 8 %, portal users 3 %), the rest the customers' people, spread with a skew (at 1,000,000
// the largest customer has about 3,000, many only a handful): portal users, 12 % also
// administrators. First and last names from the demo lists, e-mails first.last.<n>@<the customer's
// domain>; a last sign-in within 120 days (60 for staff) for 55 % of workers, 80 % of
// administrators and 90 % of staff, else never; 1 % locked, 4 % inactive, 4 % of customers' people
// signing in with SSO.
import { join } from 'node:path';
import type SQLite from 'better-sqlite3';
import type pg from 'pg';
import {
  ACCOUNT_MANAGERS,
  COMPANY_PREFIXES,
  COMPANY_SUFFIXES,
  FIRST_NAMES_F,
  FIRST_NAMES_M,
  INTERNAL_ACCOUNT_NAMES,
  LAST_NAMES,
  POSTCODE_LETTERS,
  TOWNS,
} from '../../src/server/seed/data.js';
import { ROLE_IDS, type RoleName } from '../../src/shared/permissions.js';
import { PROVIDER_TENANT_ID } from '../../src/shared/tenants.js';
import { ROOT } from './browser.js';
import {
  keptPgDb,
  log,
  newPostgres,
  newSqlite,
  postgresLoaded,
  r1,
  sizeLabel,
  sqliteLoaded,
  withIndexesAside,
  withTriggersAside,
  type Dialect,
  type KeptData,
} from './harness/kept-data.js';

/** The data sets' "now": sign-ins and creation dates are before it. */
export const PEOPLE_NOW = new Date('2026-11-20T10:00:00.000Z');
const NOW_ISO = PEOPLE_NOW.toISOString();
const DAY_MINUTES = 1440;
const CHUNK = 100_000;

/** The kept data set of n customers. */
export const keptCustomers = (n: number): KeptData => ({
  what: 'customers',
  size: n,
  sqliteFile: join(ROOT, `.tmp/bench-customers/customers-${sizeLabel(n)}.sqlite`),
  pgDb: keptPgDb(`bench_customers_${sizeLabel(n)}`),
  readyColumn: 'customers',
});

/** The kept data set of n persons (and their n / 10 customers). */
export const keptPersons = (n: number): KeptData => ({
  what: 'persons',
  size: n,
  sqliteFile: join(ROOT, `.tmp/bench-persons/persons-${sizeLabel(n)}.sqlite`),
  pgDb: keptPgDb(`bench_persons_${sizeLabel(n)}`),
  readyColumn: 'persons',
});

// ---------------------------------------------------------------- the SQL of the loads, both dialects

type Sql = {
  pg: boolean;
  /** 8 hex digits of an integer expression */
  hex8: (e: string) => string;
  /** zero-padded decimal of an integer expression */
  pad: (e: string, n: number) => string;
  /** floor of a non-negative real expression, as an integer */
  floor: (e: string) => string;
  /** the ISO instant PEOPLE_NOW less `minutes` (an integer expression) */
  minutesBefore: (minutes: string) => string;
  /** the integers from..to (inclusive) as `s(i)`: a CTE (SQLite) and the FROM item */
  series: (from: number, to: number) => { cte: string | null; from: string };
  /** an inner join that keeps the tables before it as the outer loop (SQLite would otherwise walk the small word table first and the series for each of its rows) */
  join: string;
};

const SQLITE: Sql = {
  pg: false,
  hex8: (e) => `printf('%08x', ${e})`,
  pad: (e, n) => `printf('%0${n}d', ${e})`,
  floor: (e) => `cast(${e} as integer)`,
  minutesBefore: (m) => `strftime('%Y-%m-%dT%H:%M:%fZ', '${NOW_ISO}', '-' || (${m}) || ' minutes')`,
  series: (a, b) => ({ cte: `s(i) as (select ${a} union all select i + 1 from s where i < ${b})`, from: 's' }),
  join: 'cross join',
};
const PG: Sql = {
  pg: true,
  hex8: (e) => `lpad(to_hex(${e}), 8, '0')`,
  pad: (e, n) => `lpad((${e})::text, ${n}, '0')`,
  floor: (e) => `floor(${e})::int`,
  minutesBefore: (m) => `to_char((timestamptz '${NOW_ISO}' - (${m}) * interval '1 minute') at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`,
  series: (a, b) => ({ cte: null, from: `generate_series(${a}::bigint, ${b}::bigint) as s(i)` }),
  join: 'join',
};

/** `select` with the series' CTE (if any) before it: an INSERT … SELECT over the integers a..b. */
const withSeries = (q: Sql, a: number, b: number, body: (from: string) => string) => {
  const s = q.series(a, b);
  return `${s.cte ? `with recursive ${s.cte} ` : ''}${body(s.from)}`;
};

/**
 * A scrambled integer in 0..1,000,002 of the row number i (integer arithmetic, the same on both
 * databases): x = (i + 1) · mul mod p, then x³ + i mod p, so that neighbouring rows' draws and the
 * draws of different multipliers are unrelated (x alone steps by a constant: its last digits repeat).
 */
const hash = (mul: number) => {
  const x = `((i + 1) * ${mul} % 1000003)`;
  return `((${x} * ${x} % 1000003 * ${x} + i) % 1000003)`;
};
/** The same in 0..99 (a percentage draw) and in [0, 1). */
const pct = (mul: number) => `(${hash(mul)} % 100)`;
const unit = (mul: number) => `(${hash(mul)} / 1000003.0)`;
const quote = (s: string) => `'${s.replaceAll("'", "''")}'`;

const customerIdOf = (q: Sql, c: string) => `${q.hex8(c)} || '-c0c0-4000-8000-000000000000'`;
const tenantIdOf = (q: Sql, c: string) => `${q.hex8(c)} || '-7e4a-4000-8000-000000000000'`;
const personIdOf = (q: Sql, p: string) => `${q.hex8(p)} || '-9e50-4000-8000-000000000000'`;

const PREFIXES = [...new Set([...COMPANY_PREFIXES, ...TOWNS.map((t) => t[0])])];
const COMBOS = PREFIXES.length * COMPANY_SUFFIXES.length;
const gcd = (a: number, b: number): number => (b === 0 ? a : gcd(b, a % b));
/** A step prime to COMBOS: (j * STEP) % COMBOS visits every name combination once per COMBOS customers, in no alphabetical order. */
const STEP = Array.from({ length: 1000 }, (_, k) => 1237 + k).find((x) => gcd(x, COMBOS) === 1)!;

/** The word lists the loads pick from, by list and position: a temporary table. */
const WORDS: Record<string, readonly string[]> = {
  prefix: PREFIXES,
  suffix: COMPANY_SUFFIXES,
  internal: INTERNAL_ACCOUNT_NAMES,
  manager: ACCOUNT_MANAGERS,
  town: TOWNS.map((t) => t[0]),
  county: TOWNS.map((t) => t[1]),
  area: TOWNS.map((t) => t[2]),
  firstF: FIRST_NAMES_F,
  firstM: FIRST_NAMES_M,
  last: LAST_NAMES,
};
const wordsTable = (): [string, string][] => [
  [`create temp table bench_words (list text not null, k integer not null, v text not null, primary key (list, k))`, 'word lists'],
  ...Object.entries(WORDS).map(([list, words]): [string, string] => [
    `insert into bench_words (list, k, v) values ${words.map((w, k) => `(${quote(list)}, ${k}, ${quote(w)})`).join(', ')}`,
    `${list} words`,
  ]),
];
/** `alias` joined to the word of `list` at position `k` (an integer expression taken modulo the list's length). */
const word = (q: Sql, alias: string, list: keyof typeof WORDS & string, k: string) =>
  `${q.join} bench_words ${alias} on ${alias}.list = '${list}' and ${alias}.k = (${k}) % ${WORDS[list]!.length}`;

/** One of the letters of a postcode's inward part, by an integer expression. */
const postcodeLetter = (e: string) => `substr('${POSTCODE_LETTERS}', cast(${e} % ${POSTCODE_LETTERS.length} + 1 as integer), 1)`;

/** Customers a..b (0-based). */
function customersInsert(q: Sql, a: number, b: number) {
  const town = `${hash(1181783497)}`;
  const age = q.floor(`${unit(2860486313)} * ${8 * 365 * DAY_MINUTES}`);
  return withSeries(
    q,
    a,
    b,
    (from) => `
    insert into customers (id, "tenantId", name, "portalId", "phoneNumber", tier, status, "isMigratedAccount", "salesforceId", "salesforceUrn",
      "isSalesforceAccount", "accountManagerFullName", "addressLine1", city, county, "postCode", "countryId", "isAutomaticEmailsPaused",
      "isTrackingEnabled", etag, "deviceSubscriptionsEtag", "appSubscriptionsEtag", "createdAt", "updatedAt")
    select ${customerIdOf(q, 'x.i')}, ${tenantIdOf(q, 'x.i')},
      case when x.internal = 1 then inn.v || ' ' || (x.i / 97 + 1)
        else pre.v || ' ' || suf.v || case when x.block > 0 then ' ' || (x.block + 1) else '' end end,
      case when x.migrated = 1 then '' || (10000 + x.i * 7 + x.ref % 7) end,
      '+44113' || ${q.pad('x.phone', 7)},
      case when x.internal = 1 then null when x.tier < 40 then 1 when x.tier < 70 then 2 when x.tier < 90 then 3 else 4 end,
      case when x.internal = 1 then null when x.status < 80 then 1 when x.status < 88 then 2 when x.status < 93 then 3 else 4 end,
      x.migrated,
      case when x.crm = 1 then '0014J0000' || upper(${q.hex8('x.i')}) end,
      case when x.crm = 1 then 'URN' || ${q.pad('200000 + x.i * 11 + x.ref % 11', 7)} end,
      x.crm,
      case when x.internal = 0 then am.v end,
      'Unit ' || (x.ref % 40 + 1) || ', ' || tw.v || ' Business Park',
      tw.v, co.v,
      ar.v || (x.phone % 19 + 1) || ' ' || (x.ref % 9 + 1) || ${postcodeLetter('x.phone')} || ${postcodeLetter('x.ref')},
      'country-gb',
      case when x.paused < 5 then 1 else 0 end,
      case when x.tracking < 45 then 1 else 0 end,
      '"e"', '"e"', '"e"',
      ${q.minutesBefore('x.age')}, ${q.minutesBefore('x.age / 2')}
    from (
      select i, case when i % 97 = 13 then 1 else 0 end as internal, (i % ${COMBOS}) * ${STEP} % ${COMBOS} as combo, i / ${COMBOS} as block,
        ${pct(2654435761)} as tier, ${pct(2246822519)} as status,
        case when i % 97 <> 13 and ${pct(3266489917)} < 35 then 1 else 0 end as migrated,
        case when i % 97 <> 13 and ${pct(668265263)} < 92 then 1 else 0 end as crm,
        ${hash(374761393)} as ref, ${hash(3432918353)} as phone, ${pct(461845907)} as paused, ${pct(2869860233)} as tracking,
        ${town} as town, ${age} as age
      from ${from}
    ) x
    ${word(q, 'pre', 'prefix', `x.combo`)}
    ${q.join} bench_words suf on suf.list = 'suffix' and suf.k = x.combo / ${PREFIXES.length}
    ${word(q, 'inn', 'internal', 'x.i / 97')}
    ${word(q, 'am', 'manager', 'x.ref')}
    ${word(q, 'tw', 'town', 'x.town')}
    ${word(q, 'co', 'county', 'x.town')}
    ${word(q, 'ar', 'area', 'x.town')}
    order by x.i`,
  );
}

/** Provider staff's roles by a percentage draw: the first role and, for some, a second. */
const STAFF_ROLES: [below: number, first: RoleName, second?: RoleName][] = [
  [72, 'ArcControllerRole'],
  [81, 'ArcSupervisorRole'],
  [84, 'ArcSupervisorRole', 'ArcControllerRole'],
  [89, 'ArcManagerRole'],
  [94, 'SuperAdminReadonlyRole'],
  [97, 'SuperAdminRole'],
  [100, 'PortalUserRole'],
];
/** The draws persons and their roles share (the same expression in both loads). */
const ROLE_DRAW = pct(2654435761);
const ADMIN_DRAW = pct(2246822519);
const ADMIN_SHARE = 12;

/** The persons set's sizes: staff first (persons 0..staff-1), then the customers' people. */
export function personsShape(n: number) {
  return { staff: Math.max(20, Math.round(n * 0.015)), customers: Math.max(10, Math.round(n / 10)) };
}

/** Persons a..b (0-based) of a set of n. */
function personsInsert(q: Sql, n: number, a: number, b: number) {
  const { staff, customers } = personsShape(n);
  const u = unit(3266489917);
  const slug = (e: string) => `lower(replace(replace(replace(${e}, ' ', ''), '''', ''), '-', ''))`;
  return withSeries(
    q,
    a,
    b,
    (from) => `
    insert into persons (id, "tenantId", "firstName", "lastName", email, "passwordHash", "isLocked", "failedAttempts", "lastLoginDate",
      "personStatus", "loginMethod", "phoneNumbers", profile, "searchText", etag, "createdAt", "updatedAt")
    select ${personIdOf(q, 'z.i')}, z.tenant, z.first, z.last, z.email, null, z.locked, case when z.locked = 1 then 5 else 0 end,
      case when z.login = 1 then ${q.minutesBefore('z.ago')} end,
      z.status, z.method, '[]', '{}', lower(z.first || ' ' || z.last || ' ' || z.email), '"e"',
      ${q.minutesBefore('z.ago + z.before')}, ${q.minutesBefore('case when z.login = 1 then z.ago else z.ago + z.before end')}
    from (
      select y.*, ${slug('y.first')} || '.' || ${slug('y.last')} || '.' || y.i || '@' || y.domain as email
      from (
        select x.i, x.locked, x.status, x.method, x.ago, x.before,
          case when x.login < (case when x.staff = 1 then 90 when x.admin = 1 then 80 else 55 end) then 1 else 0 end as login,
          case when x.staff = 1 then '${PROVIDER_TENANT_ID}' else ${tenantIdOf(q, 'x.cust')} end as tenant,
          case when x.female = 1 then ff.v else fm.v end as first, ln.v as last,
          case when x.staff = 1 then 'arc.example' else ${slug('c.name')} || '.example' end as domain
        from (
          select i, case when i < ${staff} then 1 else 0 end as staff, ${q.floor(`${customers} * ${u} * ${u}`)} as cust,
            case when i >= ${staff} and ${ADMIN_DRAW} < ${ADMIN_SHARE} then 1 else 0 end as admin,
            ${pct(668265263)} as login, ${hash(374761393)} % 2 as female, ${hash(3432918353)} as fn, ${hash(461845907)} as ln,
            ${q.floor(`${unit(2869860233)} * ${unit(2869860233)} * (case when i < ${staff} then 60 else 120 end) * ${DAY_MINUTES}`)} as ago,
            ${q.floor(`${unit(1181783497)} * ${3 * 365 * DAY_MINUTES}`)} as before,
            case when ${pct(2860486313)} = 0 then 1 else 0 end as locked,
            case when ${pct(40503)} < 4 then 2 else 1 end as status,
            case when i >= ${staff} and ${pct(7919)} < 4 then 2 else 1 end as method
          from ${from}
        ) x
        ${word(q, 'ff', 'firstF', 'x.fn')}
        ${word(q, 'fm', 'firstM', 'x.fn')}
        ${word(q, 'ln', 'last', 'x.ln')}
        left join customers c on x.staff = 0 and c.id = ${customerIdOf(q, 'x.cust')}
      ) y
    ) z
    order by z.i`,
  );
}

/** The persons' roles: staff by STAFF_ROLES (some with a second role), everyone else a portal user, the customers' administrators also AdminRole. */
function rolesInserts(q: Sql, n: number, a: number, b: number): string[] {
  const { staff } = personsShape(n);
  const id = (r: RoleName) => `'${ROLE_IDS[r]}'`;
  const staffRole = (which: 1 | 2) =>
    `case ${STAFF_ROLES.map(([below, first, second]) => `when ${ROLE_DRAW} < ${below} then ${which === 1 ? id(first) : second ? id(second) : 'null'}`).join(' ')} end`;
  const insert = (role: string) =>
    withSeries(
      q,
      a,
      b,
      (from) => `insert into "personRoles" ("personId", "roleId")
        select ${personIdOf(q, 'r.i')}, r.role from (select i, ${role} as role from ${from}) r where r.role is not null`,
    );
  return [
    insert(`case when i < ${staff} then ${staffRole(1)} else ${id('PortalUserRole')} end`),
    insert(`case when i < ${staff} then ${staffRole(2)} when ${ADMIN_DRAW} < ${ADMIN_SHARE} then ${id('AdminRole')} end`),
  ];
}

const chunks = (n: number) => Array.from({ length: Math.ceil(n / CHUNK) }, (_, k) => [k * CHUNK, Math.min(n, (k + 1) * CHUNK) - 1] as const);

function customerStatements(q: Sql, n: number): [string, string][] {
  return chunks(n).map(([a, b]) => [customersInsert(q, a, b), `customers to ${(b + 1).toLocaleString('en-GB')}`]);
}

function personStatements(q: Sql, n: number): [string, string][] {
  return chunks(n).flatMap(([a, b]): [string, string][] => [
    [personsInsert(q, n, a, b), `persons to ${(b + 1).toLocaleString('en-GB')}`],
    ...rolesInserts(q, n, a, b).map((s): [string, string] => [s, `their roles`]),
  ]);
}

/** Runs the statements in order, logging what was done at most every 10 s. */
async function run(dialect: Dialect, statements: [string, string][], exec: (text: string) => Promise<unknown>) {
  const t0 = performance.now();
  let last = t0;
  for (const [text, what] of statements) {
    await exec(text);
    const t = performance.now();
    if (t - last > 10_000) {
      log(`${dialect}: ${what} (${r1((t - t0) / 1000)} s)`);
      last = t;
    }
  }
  log(`${dialect}: rows in (${r1((performance.now() - t0) / 1000)} s); building the indexes`);
}

const SQLITE_FTS = {
  customers: `insert into customers_fts (rowid, name, reference) select rowid, name, "portalId" from customers`,
  persons: `insert into persons_fts (rowid, name, email) select rowid, "firstName" || ' ' || "lastName", email from persons;
    insert into persons_list_fts (rowid, text) select rowid, "searchText" from persons`,
};
/** The search tables of each table, filled set-based after the load. */
const SQLITE_FTS_TABLES = { customers: ['customers_fts'], persons: ['persons_fts', 'persons_list_fts'] };

async function loadSqlite(k: KeptData, statements: (q: Sql) => [string, string][], tables: (keyof typeof SQLITE_FTS)[], others: string[]) {
  const t0 = performance.now();
  const raw: SQLite.Database = await newSqlite(k);
  raw.pragma('cache_size = -262144');
  const exec = async (text: string) => raw.exec(text);
  const triggers = Object.fromEntries(tables.map((t) => [t, SQLITE_FTS_TABLES[t].map((f) => `${f}_ai`)]));
  await withIndexesAside(raw, [...tables, ...others], () =>
    withTriggersAside(raw, triggers, async () => {
      await run('sqlite', [...wordsTable(), ...statements(SQLITE), ['drop table bench_words', 'word lists dropped']], exec);
      for (const t of tables) raw.exec(SQLITE_FTS[t]);
    }),
  );
  for (const f of tables.flatMap((t) => SQLITE_FTS_TABLES[t])) raw.exec(`insert into ${f} (${f}) values ('optimize')`);
  log(`sqlite: indexes built (${r1((performance.now() - t0) / 1000)} s)`);
  sqliteLoaded(k, raw);
}

async function loadPostgres(k: KeptData, statements: (q: Sql) => [string, string][], tables: string[]) {
  const t0 = performance.now();
  const c: pg.Client = await newPostgres(k);
  await withIndexesAside(c, tables, () =>
    run('pg', [...wordsTable(), ...statements(PG), ['drop table bench_words', 'word lists dropped']], (text) => c.query(text)),
  );
  log(`pg: indexes built (${r1((performance.now() - t0) / 1000)} s)`);
  await postgresLoaded(k, c);
}

/** Loads the customer set `k` into its SQLite file. */
export const loadCustomersSqlite = (k: KeptData) => loadSqlite(k, (q) => customerStatements(q, k.size), ['customers'], []);
/** Loads the customer set `k` into its PostgreSQL database. */
export const loadCustomersPostgres = (k: KeptData) => loadPostgres(k, (q) => customerStatements(q, k.size), ['customers']);

const personSetStatements = (q: Sql, n: number) => [...customerStatements(q, personsShape(n).customers), ...personStatements(q, n)];
/** Loads the person set `k` (its customers first) into its SQLite file. */
export const loadPersonsSqlite = (k: KeptData) => loadSqlite(k, (q) => personSetStatements(q, k.size), ['customers', 'persons'], ['personRoles']);
/** Loads the person set `k` (its customers first) into its PostgreSQL database. */
export const loadPersonsPostgres = (k: KeptData) => loadPostgres(k, (q) => personSetStatements(q, k.size), ['customers', 'persons', 'personRoles']);
