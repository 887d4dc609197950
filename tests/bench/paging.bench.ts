// Every page as fast as the first, and PostgreSQL's worst device look-ups, at 1,000,000 devices and
// 1,000,000 alarm reports (the kept data sets of devices.bench.ts and alarm-reports.bench.ts,
// loaded by them when missing; BENCH_DEVICES and ALARM_BENCH_ROWS resize), and at 1,000,000
// customers and 1,000,000 persons (the kept data sets of people-data.ts; BENCH_CUSTOMERS and
// BENCH_PERSONS resize), through app.request():
//   - filtered device, alarm report, customer and person lists: page 1, page 50 reached by Next
//     (`after`: the last row of page 49), page 50 by a jump (page number alone), the last page by
//     a jump and the page before it by Previous (`before`), each p50/p95 wall and CPU of this
//     process (goal p95 < 50 ms);
//   - device searches whose trigrams select many devices ('0000000': every trigram is the same;
//     other patterns most devices contain), p50/p95 (goal < 50 ms on PostgreSQL);
//   - get-list-by-serials with 5,000 serials (4,900 known), p50 (goal < 100 ms on PostgreSQL).
// Each figure is printed with the machine's load; measure with nothing else running.
// BENCH_PAGING_PG=0 skips PostgreSQL; BENCH_PAGING_ROUNDS (default 8) sets the runs per request;
// BENCH_PAGING_SETS (default `devices,alarms`; also `customers`, `persons`) names the data sets
// measured. BENCH_PAGING_PLANS=1 also prints, for each customer and person case, the plan of every
// statement of the page and its count on each page (EXPLAIN QUERY PLAN on SQLite, EXPLAIN on
// PostgreSQL), marked when it reads or sorts the whole table. SQLITE_CACHE_MB and SQLITE_MMAP_MB
// size the SQLite connection as they size the server's.
import SQLite from 'better-sqlite3';
import pg from 'pg';
import * as v from 'valibot';
import { CompiledQuery, Kysely, PostgresDialect, SqliteDialect, type LogEvent } from 'kysely';
import { benchApp, load, log, onKeptData, pgUrl, r1, runAlone, type Dialect, type Figures, type KeptData } from './harness/kept-data.js';
import { percentileOf } from './stats.js';
import { KEPT as DEVICES, NOW as DEVICES_NOW, TYPES, loadPostgres as loadDevicesPostgres, loadSqlite as loadDevicesSqlite } from './devices.bench.js';
import { keptAlarms, loadAlarmsPostgres, loadAlarmsSqlite } from './alarm-reports.bench.js';
import { keptCustomers, keptPersons, loadCustomersPostgres, loadCustomersSqlite, loadPersonsPostgres, loadPersonsSqlite, PEOPLE_NOW } from './people-data.js';
import { STATUS } from '../../src/shared/schemas/devices.js';
import { customerListBody } from '../../src/shared/schemas/customers.js';
import { personListQuery } from '../../src/shared/schemas/persons.js';
import { ROLE_IDS } from '../../src/shared/permissions.js';
import { sql, type DB } from '../../src/server/db/index.js';
import type { Database } from '../../src/server/db/schema.js';
import { ALL_TENANTS } from '../../src/server/auth/tenant-scope.js';
import { listCustomers } from '../../src/server/modules/customers/repo.js';
import { listPersons } from '../../src/server/modules/persons/repo.js';

const GOAL_PAGE_P95 = 50;
const GOAL_SEARCH_MS = 50;
const GOAL_SERIALS_P50 = 100;
const ROUNDS = Number(process.env.BENCH_PAGING_ROUNDS ?? 8);
const ALARMS = keptAlarms(Number(process.env.ALARM_BENCH_ROWS ?? 1_000_000));
const ALARMS_NOW = new Date('2026-11-22T12:00:00.000Z');
const CUSTOMERS = keptCustomers(Number(process.env.BENCH_CUSTOMERS ?? 1_000_000));
const PERSONS = keptPersons(Number(process.env.BENCH_PERSONS ?? 1_000_000));

type Body = Record<string, unknown>;
type Answer = Record<string, unknown>;
type Send = (path: string, body?: Body) => Promise<Response>;
type List = {
  path: string;
  /** A GET with the body's fields in the query string (else a POST of the body). */
  get?: boolean;
  rows: (answer: Answer) => { id: string }[];
  total: (answer: Answer) => number;
  /** For the plans: the repository's own list function as the route calls it, and the list's table as its statements name it. */
  direct?: { list: (db: DB, body: Body) => Promise<unknown>; from: RegExp };
};
const DEVICE_LIST: List = {
  path: '/api/v1/device/get-list',
  rows: (a) => a.devices as { id: string }[],
  total: (a) => a.totalCount as number,
};
const ALARM_LIST: List = {
  path: '/alarm-report/get-list',
  rows: (a) => (a.AlarmReports as { AlarmReportId: string }[]).map((r) => ({ id: r.AlarmReportId })),
  total: (a) => a.TotalCount as number,
};
const CUSTOMER_LIST: List = {
  path: '/api/v1/customer/get-list',
  rows: (a) => a.customers as { id: string }[],
  total: (a) => a.totalCount as number,
  direct: { list: (db, body) => listCustomers(db, ALL_TENANTS, v.parse(customerListBody, body)), from: /from "customers" as "c"/ },
};
/** The query string of a body: every field as text. */
const queryOf = (body: Body) => Object.fromEntries(Object.entries(body).map(([k, x]) => [k, String(x)]));
const PERSON_LIST: List = {
  path: '/ps-admin/persons/get-list',
  get: true,
  rows: (a) => (a.Items as { Id: string }[]).map((p) => ({ id: p.Id })),
  total: (a) => a.TotalCount as number,
  // as the route calls it for a provider admin: every tenant, the whole directory
  direct: { list: (db, body) => listPersons(db, ALL_TENANTS, v.parse(personListQuery, queryOf(body)), 'directory', PEOPLE_NOW), from: /from "persons"/ },
};

const DEVICE_CASES: [string, Body][] = [
  ['two statuses + last config 30 days, 100 rows', { statusIds: [STATUS.Reserved, STATUS.Returned], lastConfig: 3, pageSize: 100 }],
  ['two statuses, serial, 100 rows', { statusIds: [STATUS.New, STATUS.Returned], pageSize: 100 }],
  ['device type, Last Config desc', { deviceTypeIds: [TYPES[3]], orderBy: 'LastConfig', desc: true, pageSize: 25 }],
  ['assigned No, IMEI desc', { assigned: false, orderBy: 'Imei', desc: true, pageSize: 25 }],
  ['status Allocated, Customer', { statusIds: [STATUS.Allocated], orderBy: 'Customer', pageSize: 25 }],
  ['never configured, Status', { lastConfig: 5, orderBy: 'Status', pageSize: 25 }],
  // a search one device in ten matches: its count and pages (serial order, the default)
  [`search 'T${TYPES[1]}-', serial`, { searchValue: `T${TYPES[1]}-`, pageSize: 10 }],
];
const ALARM_CASES: [string, Body][] = [
  ['All Time, one verification type, closed desc', { alarmClosedDateRangeOption: 7, alarmVerificationTypes: [1], pageSize: 100 }],
  ['12 months, Person', { alarmClosedDateRangeOption: 6, sortBy: 'PersonFullName', sortDescending: false, pageSize: 25 }],
  ['All Time, two alarm types, Tier desc', { alarmClosedDateRangeOption: 7, alarmTypes: [1, 2], sortBy: 'Tier', sortDescending: true, pageSize: 25 }],
  ['6 months, Device Type', { alarmClosedDateRangeOption: 5, sortBy: 'DeviceType', sortDescending: false, pageSize: 50 }],
];
// The customer list's filters (search, tier, status, migrated only) and sorts (Reference, the default; Name, Tier, Status).
const CUSTOMER_CASES: [string, Body][] = [
  ['no filter, Reference, 25 rows', { orderBy: 'Reference', pageSize: 25 }],
  ['no filter, Name desc, 100 rows', { orderBy: 'Name', desc: true, pageSize: 100 }],
  ['tiers Gold + Platinum, Tier desc', { tierIds: [3, 4], orderBy: 'Tier', desc: true, pageSize: 25 }],
  ['Suspended + Cancelled, migrated only, Status', { statusIds: [3, 4], migratedOnly: true, orderBy: 'Status', pageSize: 50 }],
  ["search 'care', Name", { searchValue: 'care', orderBy: 'Name', pageSize: 25 }],
  ["search 'riverside care', Reference", { searchValue: 'riverside care', pageSize: 10 }],
];
// The person list's search and sorts (User Name, the default; Email; Last Login; a role's holders first).
const PERSON_CASES: [string, Body][] = [
  ['User Name, 25 rows', { orderBy: 'UserName', pageSize: 25 }],
  ['Email desc, 100 rows', { orderBy: 'Email', desc: true, pageSize: 100 }],
  ['Last Login desc', { orderBy: 'LastLoginDate', desc: true, pageSize: 25 }],
  ['ARC Controller holders first', { orderBy: 'Role', sortRoleId: ROLE_IDS.ArcControllerRole, pageSize: 25 }],
  ["search 'smith', User Name", { searchValue: 'smith', pageSize: 25 }],
  ["search 'amelia jones', Last Login", { searchValue: 'amelia jones', orderBy: 'LastLoginDate', pageSize: 10 }],
];

/** Wall and CPU milliseconds of ROUNDS runs of `fn`, after one to warm up. */
async function timed(fn: () => Promise<unknown>): Promise<{ wall: number[]; cpu: number[] }> {
  await fn();
  const wall: number[] = [];
  const cpu: number[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    const c0 = process.cpuUsage();
    const t = performance.now();
    await fn();
    wall.push(performance.now() - t);
    const c = process.cpuUsage(c0);
    cpu.push((c.user + c.system) / 1000);
  }
  return { wall, cpu };
}

const line = (label: string, m: { wall: number[]; cpu: number[] }, goal: string) =>
  `${label.padEnd(72)} p50 ${r1(percentileOf(m.wall, 50)).toFixed(1).padStart(6)} ms  p95 ${r1(percentileOf(m.wall, 95)).toFixed(1).padStart(6)} ms  CPU p95 ${r1(percentileOf(m.cpu, 95)).toFixed(1).padStart(6)} ms  (${goal}; load ${load()})`;

/** A request of the list: its answer. */
const askOf =
  (list: List, send: Send) =>
  async (body: Body): Promise<Answer> =>
    (await (list.get ? send(`${list.path}?${new URLSearchParams(queryOf(body))}`) : send(list.path, body))).json() as Promise<Answer>;

/** The requests of a case: page 1, Next to page 50, a jump to page 50, the last page and Previous from it. */
async function pageRequests(list: List, base: Body, ask: (body: Body) => Promise<Answer>) {
  const size = Number(base.pageSize ?? 10);
  const total = list.total(await ask({ ...base, page: 1 }));
  const last = Math.max(1, Math.ceil(total / size));
  const p50 = Math.min(50, last);
  const before50 = list.rows(await ask({ ...base, page: Math.max(1, p50 - 1) })).at(-1)?.id;
  const lastRows = list.rows(await ask({ ...base, page: last }));
  const kinds: [string, string, Body][] = [
    ['page_1', 'page 1', { ...base, page: 1 }],
    ['page_50_by_next', `page ${p50} by Next`, { ...base, page: p50, ...(p50 > 1 && before50 ? { after: before50 } : {}) }],
    ['page_50_by_jump', `page ${p50} by a jump`, { ...base, page: p50 }],
    ['last_page_by_jump', `last page (${last}) by a jump`, { ...base, page: last }],
    [
      'before_last_by_previous',
      `page ${Math.max(1, last - 1)} by Previous`,
      { ...base, page: Math.max(1, last - 1), ...(last > 1 && lastRows[0] ? { before: lastRows[0].id } : {}) },
    ],
  ];
  return { total, kinds };
}

/** Page 1, Next to page 50, a jump to page 50, the last page and Previous from it, for each case of a list. */
async function measurePages(dialect: Dialect, what: string, list: List, cases: [string, Body][], send: Send): Promise<Figures> {
  const f: Figures = {};
  const ask = askOf(list, send);
  const byKind: Record<string, number[]> = {};
  for (const [name, base] of cases) {
    const { total, kinds } = await pageRequests(list, base, ask);
    for (const [key, kind, body] of kinds) {
      const m = await timed(() => ask(body));
      (byKind[key] ??= []).push(...m.wall);
      log(line(`${dialect} ${what} ${name} (${total.toLocaleString('en-GB')} rows): ${kind}`, m, `goal p95 < ${GOAL_PAGE_P95} ms`));
    }
  }
  for (const [key, wall] of Object.entries(byKind)) {
    f[`${dialect}_${what}_${key}_p95_ms`] = r1(percentileOf(wall, 95));
    log(
      `${dialect} ${what} ${key.replace(/_/g, ' ')}: p95 ${f[`${dialect}_${what}_${key}_p95_ms`]} ms over ${wall.length} requests (goal < ${GOAL_PAGE_P95} ms); load ${load()}`,
    );
  }
  return f;
}

/**
 * What in a plan reads or sorts every row of the table (or of an index of it), or undefined. A
 * statement that counts (`counting`) reads its whole index range, so an index walked without a
 * condition is the whole index; a page's index walk in order stops at its LIMIT.
 */
function wholeTable(dialect: Dialect, plan: string[], counting: boolean): string | undefined {
  const found: string[] = [];
  if (dialect === 'sqlite') {
    for (const l of plan) {
      if (/\bSCAN \w+$/.test(l) && !/CONSTANT ROW|SCAN (CONSTANT|SUBQUERY)/.test(l)) found.push('full table scan');
      else if (counting && /\bSCAN \w+ USING (COVERING )?INDEX/.test(l)) found.push('whole index scan');
      if (/USE TEMP B-TREE FOR ORDER BY/.test(l)) found.push('sorts every selected row');
    }
  } else {
    plan.forEach((l, i) => {
      if (/Seq Scan on/.test(l)) found.push('full table scan');
      if (/(^|->\s+)Sort\s+\(/.test(l.trim())) found.push('sorts every selected row');
      if (counting && /Index (Only )?Scan/.test(l)) {
        // an index scan without a condition reads the whole index
        const depth = l.search(/\S/);
        const own: string[] = []; // the node's own lines (Index Cond, Filter, …): deeper, up to the next node
        for (const x of plan.slice(i + 1)) {
          if (x.includes('->') || x.search(/\S/) <= depth) break;
          own.push(x);
        }
        if (!own.some((x) => /Index Cond/.test(x))) found.push('whole index scan');
      }
    });
  }
  return found.length ? [...new Set(found)].join(', ') : undefined;
}

/**
 * BENCH_PAGING_PLANS=1: for each case and each of its pages, the plan of every statement the
 * repository runs for the page and its count (the edge row's key read by id and the cached count of
 * every customer left out), on a Kysely of the kept data set that records them.
 */
async function printPlans(dialect: Dialect, k: KeptData, what: string, list: List, cases: [string, Body][]) {
  if (process.env.BENCH_PAGING_PLANS !== '1' || !list.direct) return;
  const { list: direct, from } = list.direct;
  const seen: CompiledQuery[] = [];
  const onLog = (e: LogEvent) => {
    if (e.level === 'query') seen.push(e.query);
  };
  const traced: DB =
    dialect === 'pg'
      ? new Kysely<Database>({ dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: pgUrl(k.pgDb), max: 2 }) }), log: onLog })
      : new Kysely<Database>({ dialect: new SqliteDialect({ database: new SQLite(k.sqliteFile, { readonly: true }) }), log: onLog });
  const ask = async (body: Body) => (await direct(traced, body)) as Answer;
  const whole = new Map<string, Map<string, string[]>>(); // case → 'statement: what it reads' → pages
  try {
    for (const [name, base] of cases) {
      const { kinds } = await pageRequests(list, base, ask);
      for (const [, kind, body] of kinds) {
        seen.length = 0;
        await ask(body);
        const statements = seen.filter(
          (q) => from.test(q.sql) && !/ as "k0"/.test(q.sql) && !/^select count\(\*\) as "n" from "customers"$/.test(q.sql.trim()),
        );
        for (const q of statements) {
          const r = await traced.executeQuery<Record<string, unknown>>(
            CompiledQuery.raw(`${dialect === 'pg' ? 'explain' : 'explain query plan'} ${q.sql}`, [...q.parameters]),
          );
          const plan = r.rows.map((row) => String(row['QUERY PLAN'] ?? row.detail ?? Object.values(row).join(' ')));
          const counting = /count\(\*\)/.test(q.sql);
          const role = /count\(\*\) over \(\)/.test(q.sql) ? 'page and count' : counting ? 'count' : 'page';
          const flag = wholeTable(dialect, plan, counting);
          if (flag) {
            const byCase = whole.get(name) ?? new Map<string, string[]>();
            whole.set(name, byCase);
            byCase.set(`${role}: ${flag}`, [...(byCase.get(`${role}: ${flag}`) ?? []), kind]);
          }
          log(`${dialect} ${what} plan, ${name}: ${kind}, ${role}${flag ? ` (WHOLE TABLE: ${flag})` : ''}`);
          for (const l of plan) console.log(`      ${l}`);
        }
      }
    }
  } finally {
    await traced.destroy();
  }
  log(`${dialect} ${what}: cases whose statements read or sort the whole table or selection (${whole.size} of ${cases.length}):`);
  for (const [name, byCase] of whole) for (const [reads, kinds] of byCase) log(`  ${name}: ${reads} (${kinds.length === 5 ? 'every page' : kinds.join('; ')})`);
}

/** A list's pages measured on a kept data set (and its plans printed when asked). */
async function measureList(dialect: Dialect, db: DB, k: KeptData, now: Date, what: string, list: List, cases: [string, Body][]): Promise<Figures> {
  const { send, close } = await benchApp(db, now);
  let f: Figures;
  try {
    f = await measurePages(dialect, what, list, cases, send);
  } finally {
    await close();
  }
  await printPlans(dialect, k, what, list, cases);
  return f;
}

/** Searches whose trigrams select many devices, and 5,000 scanned serials. */
async function measureLookups(dialect: Dialect, db: DB, send: Send): Promise<Figures> {
  const f: Figures = {};
  const searches = ['0000000', '00000', '1111111', '35000', '12345', `T${TYPES[1]}-`];
  const all: number[] = [];
  for (const q of searches)
    for (const extra of [{}, { page: 3 }] as Body[]) {
      const m = await timed(async () => (await send('/api/v1/device/get-list', { searchValue: q, ...extra })).json());
      all.push(...m.wall);
      log(line(`${dialect} device search '${q}' ${extra.page ? 'page 3' : 'page 1'}`, m, `goal < ${GOAL_SEARCH_MS} ms`));
    }
  f[`${dialect}_low_selectivity_search_p95_ms`] = r1(percentileOf(all, 95));
  const known = (await sql<{ s: string }>`select "serialNumber" as s from devices order by id limit 4900`.execute(db)).rows.map((r) => r.s);
  const serials = [...known, ...Array.from({ length: 100 }, (_, i) => `ZZPAGING${String(i).padStart(5, '0')}`)];
  const m = await timed(async () => (await send('/api/v1/device/get-list-by-serials', { serials })).arrayBuffer());
  f[`${dialect}_by_serials_5000_p50_ms`] = r1(percentileOf(m.wall, 50));
  log(line(`${dialect} get-list-by-serials, 5,000 serials (100 unknown)`, m, `goal p50 < ${GOAL_SERIALS_P50} ms`));
  return f;
}

export async function benchPaging(): Promise<Figures> {
  log(`load ${load()} (2 cores; measure alone)`);
  const skipPg = process.env.BENCH_PAGING_PG === '0';
  const f: Figures = {};
  const sets = (process.env.BENCH_PAGING_SETS ?? 'devices,alarms').split(',');
  if (sets.includes('devices'))
    await onKeptData(DEVICES, f, {
      loadSqlite: loadDevicesSqlite,
      loadPostgres: loadDevicesPostgres,
      skipPg,
      measure: async (dialect, db) => {
        if (dialect === 'sqlite') await sql`analyze`.execute(db);
        const { send, close } = await benchApp(db, DEVICES_NOW);
        try {
          return { ...(await measurePages(dialect, 'devices', DEVICE_LIST, DEVICE_CASES, send)), ...(await measureLookups(dialect, db, send)) };
        } finally {
          await close();
        }
      },
    });
  if (sets.includes('alarms'))
    await onKeptData(ALARMS, f, {
      loadSqlite: () => loadAlarmsSqlite(ALARMS),
      loadPostgres: () => loadAlarmsPostgres(ALARMS),
      skipPg,
      measure: (dialect, db) => measureList(dialect, db, ALARMS, ALARMS_NOW, 'alarms', ALARM_LIST, ALARM_CASES),
    });
  if (sets.includes('customers'))
    await onKeptData(CUSTOMERS, f, {
      loadSqlite: () => loadCustomersSqlite(CUSTOMERS),
      loadPostgres: () => loadCustomersPostgres(CUSTOMERS),
      skipPg,
      measure: (dialect, db) => measureList(dialect, db, CUSTOMERS, PEOPLE_NOW, 'customers', CUSTOMER_LIST, CUSTOMER_CASES),
    });
  if (sets.includes('persons'))
    await onKeptData(PERSONS, f, {
      loadSqlite: () => loadPersonsSqlite(PERSONS),
      loadPostgres: () => loadPersonsPostgres(PERSONS),
      skipPg,
      measure: (dialect, db) => measureList(dialect, db, PERSONS, PEOPLE_NOW, 'persons', PERSON_LIST, PERSON_CASES),
    });
  return f;
}

runAlone(import.meta.url, benchPaging);
