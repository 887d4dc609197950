// Device stock at 1,000,000 devices, through app.request() with a super-admin token:
//   - POST /api/v1/device/get-list p50/p95 without filters (default sort and paging, other sorts)
//     and with each filter of the asset list (search, type, status, order number, assigned, last
//     config, combined), each answer with totalCount and generalTotalCount (goal p95 < 50 ms);
//     generalTotalCount is cached for 5 s by the repository, so the cost of a cold count(*) is
//     measured on its own;
//   - the Customer sort on a line of its own (wall and CPU p50/p95; goal p95 < 50 ms);
//   - POST /api/v1/device/get-list-by-serials with 5,000 serials (4,900 known, 100 unknown), wall
//     and CPU p50/p95 until the answer's last byte (goal < 150 ms);
//   - POST /api/v1/device/export/list-with-filters matching 100,000 devices (one device type) to
//     .xlsx (goal < 10 s, memory growth < 200 MB: peak RSS and heap over the export, sampled every 20 ms).
// On SQLite always; on PostgreSQL too when it answers at TEST_PG_URL (default the tests' server).
//
// The data: 1,000,000 devices (10 device types, exactly 100,000 each; statuses, customers for the
// devices in a customer account, user assignment, order numbers, last configuration dates within
// 400 days or never) and 20,000 customers, inserted with multi-row statements (SQLite) or unnest()
// arrays (PostgreSQL), the devices' indexes built after the rows and SQLite's search table and
// Customer sort names filled set-based (harness/kept-data.ts). Loading takes minutes, so the loaded
// databases are kept (harness/kept-data.ts): `.tmp/bench-devices/devices-1m.sqlite` and the
// PostgreSQL database `bench_devices_1m` (dropped and loaded again when incomplete; delete them to
// start over). BENCH_DEVICES (default 1000000) resizes; BENCH_DEVICES_PG=0 skips PostgreSQL;
// BENCH_DEVICES_NO_EXPORT=1 skips the export. The plans chosen for the list's queries are printed
// (`… plan, …` lines).
import SQLite from 'better-sqlite3';
import pg from 'pg';
import * as v from 'valibot';
import { CompiledQuery, Kysely, PostgresDialect, SqliteDialect, type LogEvent } from 'kysely';
import { join } from 'node:path';
import { sql, type DB } from '../../src/server/db/index.js';
import { listDevices } from '../../src/server/modules/devices/repo.js';
import type { Database } from '../../src/server/db/schema.js';
import { DEVICE_TYPES } from '../../src/shared/codes.js';
import { deviceListBody, STATUS } from '../../src/shared/schemas/devices.js';
import { CUSTOMER_FLAGS } from '../helpers/customer-rows.js';
import { DEVICE_COLUMNS } from '../../src/server/db/schema.js';
import { ROOT } from './browser.js';
import { itemAt, percentile, percentileOf, rng } from './stats.js';
import { ALL_TENANTS } from '../../src/server/auth/tenant-scope.js';
import {
  benchApp,
  keptPgDb,
  load,
  log,
  newPostgres,
  newSqlite,
  onKeptData,
  pgUrl,
  postgresLoaded,
  r1,
  runAlone,
  sizeLabel,
  sqliteLoaded,
  type Dialect,
  type Figures,
  type KeptData,
  withIndexesAside,
  withTriggersAside,
} from './harness/kept-data.js';
import { sqlitePhoneKey } from '../../src/server/db/migrations/002-search.js';

const N = Number(process.env.BENCH_DEVICES ?? 1_000_000);
const LABEL = sizeLabel(N);
const CUSTOMERS = Math.max(10, Math.min(20_000, Math.round(N / 50)));
const SQLITE_FILE = join(ROOT, `.tmp/bench-devices/devices-${LABEL}.sqlite`);
const PG_DB = keptPgDb(`bench_devices_${LABEL}`);
/** The kept device data set (shared with paging.bench.ts). */
export const KEPT: KeptData = { what: 'devices', size: N, sqliteFile: SQLITE_FILE, pgDb: PG_DB, readyColumn: 'devices' };

const GOAL_LIST_P95 = 50;
const GOAL_SERIALS_MS = 150;
const GOAL_EXPORT_S = 10;
const GOAL_EXPORT_MB = 200;

/** The bench's "now": last-config bands are relative to it, so a cached database keeps its meaning. */
export const NOW = new Date(Date.UTC(2026, 10, 1, 12));
const DAY = 86_400_000;
/** Ten device types, 100,000 devices each at 1M: the export filters on the first. */
export const TYPES = DEVICE_TYPES.slice(10, 20).map((t) => t.Value);
const EXPORT_TYPE = itemAt(TYPES, 0);
const STATUS_WEIGHTS: [number, number][] = [
  [STATUS.New, 0.2],
  [STATUS.Reserved, 0.04],
  [STATUS.Allocated, 0.5],
  [STATUS.AwaitingReturn_Replacement, 0.02],
  [STATUS.Returned, 0.08],
  [STATUS.Replacement, 0.03],
  [STATUS.QuarantineDamaged, 0.04],
  [STATUS.QuarantineEOL, 0.04],
  [STATUS.AwaitingReturn_Cancelled, 0.02],
  [STATUS.NonReturnedDevice_FaultyReplacement, 0.015],
  [STATUS.NonReturnedDevice_Cancelled, 0.015],
];
const ORDER_NUMBERS = Math.max(10, Math.round(N / 50));
/** SQLite triggers whose per-row work the load does set-based (the device counts' trigger stays). */
const SQLITE_SET_ASIDE = ['devices_fts_ai', 'devices_customer_sort_insert'];

// ---------------------------------------------------------------- data

type DeviceValues = (string | number | null)[];

const customerId = (i: number) => `c${String(i).padStart(7, '0')}-0000-4000-8000-000000000000`;
const digits = (r: () => number, n: number) => {
  let s = '';
  for (let i = 0; i < n; i++) s += Math.floor(r() * 10);
  return s;
};

/** Device i's column values (DEVICE_COLUMNS order); the same for every run and both databases. */
function deviceGenerator() {
  const r = rng(20261122);
  const perType = new Map<number, number>();
  return (i: number): DeviceValues => {
    const type = itemAt(TYPES, i % TYPES.length);
    const n = perType.get(type) ?? 0;
    perType.set(type, n + 1);
    // a per-type counter scrambled (7,368,787 is prime to 10^7): insertion order is not serial order
    const serial = `T${type}-${String((n * 7_368_787) % 10_000_000).padStart(7, '0')}`;
    let x = r();
    let status: number = STATUS.New;
    for (const [s, w] of STATUS_WEIGHTS)
      if ((x -= w) <= 0) {
        status = s;
        break;
      }
    const inAccount = status === STATUS.Allocated || status === STATUS.AwaitingReturn_Replacement || status === STATUS.AwaitingReturn_Cancelled;
    const cust = inAccount ? customerId(Math.floor(r() * CUSTOMERS)) : null;
    const assigned = inAccount && r() < 0.6 ? 1 : 0;
    const order = inAccount || r() < 0.3 ? `PO-${String(Math.floor(r() * ORDER_NUMBERS)).padStart(6, '0')}` : null;
    const y = r();
    // last configuration: 12% never, else within 400 days (about 0.25% in the last day, 1.75% in 7 days, 7.5% in 30)
    const lastConfig = y < 0.12 ? null : new Date(NOW.getTime() - Math.floor(((y - 0.12) / 0.88) * 400 * DAY)).toISOString();
    const phone = r() < 0.7 ? `+447${digits(r, 9)}` : null;
    const added = new Date(NOW.getTime() - (N - i) * 30_000).toISOString();
    return [
      `d${String(i).padStart(9, '0')}-0000-4000-8000-000000000000`,
      serial,
      `35${digits(r, 13)}`,
      `23410${digits(r, 10)}`,
      type,
      phone,
      phone,
      `8944${digits(r, 15)}`,
      1 + (i % 3),
      'Active',
      'Stock supplier',
      status,
      cust,
      order,
      assigned,
      null,
      '1.2.3',
      lastConfig,
      added,
      added,
      added,
      '"e"',
    ];
  };
}

const customerValues = (i: number, at: string) => [
  customerId(i),
  `t${String(i).padStart(7, '0')}`,
  `Customer ${String(i).padStart(5, '0')} Ltd`,
  String(100000 + i),
  1 + (i % 4),
  1 + (i % 4),
  at,
  at,
];
const CUSTOMER_HEAD = `insert into customers (id, "tenantId", name, "portalId", tier, status, ${CUSTOMER_FLAGS.map((f) => `"${f}"`).join(', ')}, "trackingInterval", etag, "deviceSubscriptionsEtag", "appSubscriptionsEtag", "createdAt", "updatedAt")`;

export async function loadSqlite() {
  const t0 = performance.now();
  const raw = await newSqlite(KEPT);
  const multi = (head: string, width: number, rows: number) =>
    raw.prepare(
      `${head} values ${Array(rows)
        .fill(`(${Array(width).fill('?').join(', ')})`)
        .join(', ')}`,
    );
  const at = NOW.toISOString();
  const custTuple = `(?, ?, ?, ?, ?, ?, ${CUSTOMER_FLAGS.map(() => '0').join(', ')}, 15, '"e"', '"e"', '"e"', ?, ?)`;
  const insCustomer = raw.prepare(`${CUSTOMER_HEAD} values ${custTuple}`);
  raw.transaction(() => {
    for (let i = 0; i < CUSTOMERS; i++) insCustomer.run(customerValues(i, at));
  })();
  raw.pragma('cache_size = -262144');
  const PER = 500;
  const head = `insert into devices (${DEVICE_COLUMNS.map((c) => `"${c}"`).join(', ')})`;
  const full = multi(head, DEVICE_COLUMNS.length, PER);
  const next = deviceGenerator();
  // The devices' indexes are built after the rows (one sort each), and the search and Customer sort
  // triggers' work is done set-based: the same rows, indexes, search table and triggers after.
  await withIndexesAside(raw, ['devices'], () =>
    withTriggersAside(raw, { devices: SQLITE_SET_ASIDE }, async () => {
      for (let i = 0; i < N; i += 20_000) {
        raw.transaction(() => {
          const end = Math.min(N, i + 20_000);
          for (let j = i; j < end; j += PER) {
            const rows = Math.min(PER, end - j);
            const vals: DeviceValues = [];
            for (let k = 0; k < rows; k++) vals.push(...next(j + k));
            (rows === PER ? full : multi(head, DEVICE_COLUMNS.length, rows)).run(vals);
          }
        })();
        if ((i / 20_000) % 10 === 9) log(`sqlite: ${(i + 20_000).toLocaleString('en-GB')} devices (${r1((performance.now() - t0) / 1000)} s)`);
      }
      log(`sqlite: rows in (${r1((performance.now() - t0) / 1000)} s); the search table, the Customer sort names and the indexes`);
      raw.exec(
        `insert into devices_fts (rowid, serial, imei, phone) select d.rowid, d."serialNumber", d.imei, ${sqlitePhoneKey('d."phoneNumber"')} from devices d`,
      );
      raw.exec(`update devices set "customerSortName" = (select c.name from customers c where c.id = devices."customerId") where "customerId" is not null`);
    }),
  );
  raw.exec(`insert into devices_fts (devices_fts) values ('optimize')`);
  log(`sqlite: indexes built (${r1((performance.now() - t0) / 1000)} s)`);
  sqliteLoaded(KEPT, raw);
}

export async function loadPostgres() {
  const t0 = performance.now();
  const c = await newPostgres(KEPT);
  const at = NOW.toISOString();
  const cust = Array.from({ length: CUSTOMERS }, (_, i) => customerValues(i, at));
  const col = <T>(rows: T[][], k: number) => rows.map((r) => r[k]);
  await c.query(
    `${CUSTOMER_HEAD} select a, b, c, d, e, f, ${CUSTOMER_FLAGS.map(() => '0').join(', ')}, 15, '"e"', '"e"', '"e"', g, h
     from unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::int[], $6::int[], $7::text[], $8::text[]) as t(a, b, c, d, e, f, g, h)`,
    [0, 1, 2, 3, 4, 5, 6, 7].map((k) => col(cust, k)),
  );
  const TYPES_SQL: Record<(typeof DEVICE_COLUMNS)[number], string> = {
    id: 'text',
    serialNumber: 'text',
    imei: 'text',
    imsi: 'text',
    type: 'int',
    phoneNumber: 'text',
    simPhoneNumber: 'text',
    simSerial: 'text',
    simTypeId: 'int',
    simStatus: 'text',
    supplier: 'text',
    status: 'int',
    customerId: 'text',
    orderNumber: 'text',
    isUserAssigned: 'int',
    assignedPersonId: 'text',
    firmwareVersion: 'text',
    lastConfigurationDate: 'text',
    dateReceived: 'text',
    lastUpdated: 'text',
    addedToSystem: 'text',
    etag: 'text',
  };
  const insert = `insert into devices (${DEVICE_COLUMNS.map((k) => `"${k}"`).join(', ')}) select * from unnest(${DEVICE_COLUMNS.map((k, i) => `$${i + 1}::${TYPES_SQL[k]}[]`).join(', ')})`;
  const next = deviceGenerator();
  const BATCH = 10_000;
  // The devices' indexes (trigram ones included) are built after the rows, one sort each.
  await withIndexesAside(c, ['devices'], async () => {
    for (let i = 0; i < N; i += BATCH) {
      const rows: DeviceValues[] = [];
      for (let j = i; j < Math.min(N, i + BATCH); j++) rows.push(next(j));
      await c.query(
        insert,
        DEVICE_COLUMNS.map((_, k) => col(rows, k)),
      );
      if ((i / BATCH) % 20 === 19) log(`postgres: ${(i + BATCH).toLocaleString('en-GB')} devices (${r1((performance.now() - t0) / 1000)} s)`);
    }
    log(`postgres: rows in (${r1((performance.now() - t0) / 1000)} s); building the indexes`);
  });
  log(`postgres: indexes built (${r1((performance.now() - t0) / 1000)} s)`);
  await postgresLoaded(KEPT, c);
}

// ---------------------------------------------------------------- plans

/** The list queries migrations 007, 014 and 020 are for (a planner may still rightly scan everything for a filter most devices match). */
const PLAN_CASES: { name: string; filter: ListBody }[] = [
  { name: 'assigned Yes', filter: { assigned: true } },
  { name: 'assigned No', filter: { assigned: false } },
  { name: 'last config 24 hours', filter: { lastConfig: 1 } },
  { name: 'last config 30 days', filter: { lastConfig: 3 } },
  { name: 'last config > 30 days', filter: { lastConfig: 4 } },
  { name: 'never configured', filter: { lastConfig: 5 } },
  { name: 'order number', filter: { orderNumber: 'po-000123' } },
  { name: 'sort Last Config', filter: { orderBy: 'LastConfig' } },
  { name: 'sort Last Config desc', filter: { orderBy: 'LastConfig', desc: true } },
  { name: 'sort Customer', filter: { orderBy: 'Customer' } },
  { name: 'sort Customer desc, page 10', filter: { orderBy: 'Customer', desc: true, page: 10 } },
  { name: 'sort Type', filter: { orderBy: 'Type' } },
  { name: 'sort Type desc', filter: { orderBy: 'Type', desc: true } },
  { name: 'sort Status', filter: { orderBy: 'Status' } },
];

/**
 * Runs the repository's own list query for each PLAN_CASES filter on a Kysely that records the
 * SQL, and EXPLAINs each statement (the page and the filtered count): which index does it use?
 */
async function checkPlans(dialect: Dialect, open: (log: (e: LogEvent) => void) => DB): Promise<Figures> {
  const seen: CompiledQuery[] = [];
  const db = open((e) => {
    if (e.level === 'query') seen.push(e.query);
  });
  const f: Figures = {};
  let used = 0;
  let statements = 0;
  try {
    for (const c of PLAN_CASES) {
      seen.length = 0;
      await listDevices(db, ALL_TENANTS, v.parse(deviceListBody, { page: 1, ...c.filter }), NOW);
      const own = seen.filter((q) => !/^select count\(\*\) as "n" from "devices"$/.test(q.sql.trim())); // not the cached count of every device
      const how: string[] = [];
      for (const q of own) {
        const r = await db.executeQuery<Record<string, unknown>>(
          CompiledQuery.raw(`${dialect === 'pg' ? 'explain' : 'explain query plan'} ${q.sql}`, [...q.parameters]),
        );
        const plan = r.rows.map((row) => String(row['QUERY PLAN'] ?? row.detail ?? Object.values(row).join(' '))).join(' | ');
        const kind = /count\(\*\)|deviceCounts/.test(q.sql) ? 'count' : 'page';
        // the access paths to devices: the indexes named (the page's outer lookup by serial number
        // left out: its subquery picks the page), or a full scan
        const indexes = [...new Set(plan.match(/devices_[a-z_]+_idx|devices_serial_uq|search_devices_\w+/g) ?? [])].filter(
          (x) => kind === 'count' || x !== 'devices_serial_uq',
        );
        const path = indexes.length ? indexes.join(' + ') : /Seq Scan on devices|SCAN d\b/.test(plan) ? 'full scan' : plan.slice(0, 60);
        if (/devices_(assigned|last_config)/.test(path)) used++;
        statements++;
        how.push(`${kind}: ${path}`);
      }
      log(`${dialect} plan, ${c.name.padEnd(22)} ${how.join('; ')}`);
    }
  } finally {
    await db.destroy();
  }
  f[`${dialect}_statements_using_007_indexes`] = `${used}/${statements}`;
  return f;
}

// ---------------------------------------------------------------- measurements

type ListBody = Record<string, unknown>;
type Case = { name: string; group: 'unfiltered' | 'other sort' | 'column sort' | 'filtered'; bodies: ListBody[] };

type Sample = { serialNumber: string; imei: string | null; orderNumber: string | null };

/** The Customer sort's case: its figures are also printed on a line of their own. */
const CUSTOMER_CASE = 'no filter, Customer';

function cases(samples: Sample[]): Case[] {
  const pages = [1, 2, 3, 10, 100];
  const s = (i: number) => itemAt(samples, i % samples.length);
  const vary = (base: ListBody, at = pages): ListBody[] => at.flatMap((page) => [false, true].map((desc) => ({ ...base, page, desc })));
  return [
    { name: 'no filter, Serial Number', group: 'unfiltered', bodies: vary({ orderBy: 'SerialNumber' }) },
    { name: 'no filter, 100 rows per page', group: 'unfiltered', bodies: vary({ orderBy: 'SerialNumber', pageSize: 100 }) },
    { name: 'no filter, Status', group: 'other sort', bodies: vary({ orderBy: 'Status' }) },
    { name: 'no filter, Type', group: 'other sort', bodies: vary({ orderBy: 'Type' }) },
    { name: 'no filter, Assigned', group: 'other sort', bodies: vary({ orderBy: 'Assigned' }) },
    { name: 'no filter, Last Config', group: 'other sort', bodies: vary({ orderBy: 'LastConfig' }) },
    // the column sorts (missing values last): IMEI, SIM serial, phone and order number from migration 014's per-direction indexes
    { name: 'no filter, IMEI', group: 'column sort', bodies: vary({ orderBy: 'Imei' }, [1, 10, 100]) },
    { name: 'no filter, SIM Serial', group: 'column sort', bodies: vary({ orderBy: 'SimSerial' }, [1, 10, 100]) },
    { name: 'no filter, Phone Number', group: 'column sort', bodies: vary({ orderBy: 'PhoneNumber' }, [1, 10, 100]) },
    { name: 'no filter, Order Number', group: 'column sort', bodies: vary({ orderBy: 'OrderNumber' }, [1, 10, 100]) },
    { name: CUSTOMER_CASE, group: 'column sort', bodies: vary({ orderBy: 'Customer' }, [1, 10, 100]) },
    {
      name: 'search serial (5-7 chars)',
      group: 'filtered',
      bodies: Array.from({ length: 10 }, (_, i) => ({ searchValue: s(i).serialNumber.slice(-7 + (i % 3)), page: 1 })),
    },
    {
      name: 'search IMEI fragment',
      group: 'filtered',
      bodies: Array.from({ length: 10 }, (_, i) => ({ searchValue: (s(i + 20).imei ?? '').slice(4, 12), page: 1 })),
    },
    { name: 'device type', group: 'filtered', bodies: vary({ deviceTypeIds: [itemAt(TYPES, 3)] }) },
    { name: 'status New', group: 'filtered', bodies: vary({ statusIds: [STATUS.New] }) },
    { name: 'status Reserved + Returned', group: 'filtered', bodies: vary({ statusIds: [STATUS.Reserved, STATUS.Returned] }) },
    { name: 'order number', group: 'filtered', bodies: Array.from({ length: 10 }, (_, i) => ({ orderNumber: s(i * 3).orderNumber, page: 1 })) },
    { name: 'assigned Yes', group: 'filtered', bodies: vary({ assigned: true }) },
    { name: 'assigned No', group: 'filtered', bodies: vary({ assigned: false }) },
    { name: 'last config 24 hours', group: 'filtered', bodies: vary({ lastConfig: 1 }) },
    { name: 'last config 7 days', group: 'filtered', bodies: vary({ lastConfig: 2 }) },
    { name: 'last config 30 days', group: 'filtered', bodies: vary({ lastConfig: 3 }) },
    { name: 'last config older than 30 days', group: 'filtered', bodies: vary({ lastConfig: 4 }) },
    { name: 'never configured', group: 'filtered', bodies: vary({ lastConfig: 5 }) },
    {
      name: 'type + status + assigned + last config 30 days',
      group: 'filtered',
      bodies: vary({ deviceTypeIds: [itemAt(TYPES, 5)], statusIds: [STATUS.Allocated], assigned: true, lastConfig: 3 }),
    },
  ];
}

async function measureDialect(dialect: Dialect, db: DB, samples: Sample[], knownSerials: string[]): Promise<Figures> {
  const { send: post, close } = await benchApp(db, NOW);
  const list = async (body: ListBody) =>
    (await (await post('/api/v1/device/get-list', body)).json()) as { devices: unknown[]; totalCount: number; generalTotalCount: number };

  const f: Figures = {};
  const all = cases(samples);
  // warm-up: page cache, statement cache, JIT
  for (const c of all) await list(itemAt(c.bodies, 0));
  const byGroup: Record<Case['group'], number[]> = { unfiltered: [], 'other sort': [], 'column sort': [], filtered: [] };
  // CPU time of this process per request: on SQLite that is the whole request (the database runs
  // in-process), and much less disturbed than wall time when other work loads the machine.
  const cpuByGroup: Record<Case['group'], number[]> = { unfiltered: [], 'other sort': [], 'column sort': [], filtered: [] };
  let customerSort = '';
  for (const c of all) {
    const lat: number[] = [];
    const slowest: [number, ListBody][] = [];
    let total = 0;
    let general = 0;
    for (let rep = 0; rep < 2; rep++)
      for (const b of c.bodies) {
        const c0 = process.cpuUsage();
        const t = performance.now();
        const r = await list(b);
        lat.push(performance.now() - t);
        slowest.push([lat.at(-1) ?? 0, b]);
        const cu = process.cpuUsage(c0);
        cpuByGroup[c.group].push((cu.user + cu.system) / 1000);
        total = r.totalCount;
        general = r.generalTotalCount;
      }
    lat.sort((a, b) => a - b);
    byGroup[c.group].push(...lat);
    const cpu = cpuByGroup[c.group].slice(-lat.length).sort((a, b) => a - b);
    log(
      `${dialect} ${c.name.padEnd(46)} p50 ${r1(percentile(lat, 50)).toFixed(1).padStart(7)} ms  p95 ${r1(percentile(lat, 95)).toFixed(1).padStart(7)} ms  CPU p95 ${r1(percentile(cpu, 95)).toFixed(1).padStart(7)} ms  (totalCount ${total.toLocaleString('en-GB')} of ${general.toLocaleString('en-GB')})`,
    );
    // BENCH_VERBOSE=1: the slowest requests of each case, with their bodies
    if (process.env.BENCH_VERBOSE === '1')
      for (const [ms, b] of slowest.sort((x, y) => y[0] - x[0]).slice(0, 3)) log(`  slowest: ${r1(ms)} ms ${JSON.stringify(b)}`);
    f[`${dialect}_list_${c.name.replace(/[^a-z0-9]+/gi, '_').toLowerCase()}_p95_ms`] = r1(percentile(lat, 95));
    if (c.name === CUSTOMER_CASE) {
      f[`${dialect}_list_customer_sort_cpu_p95_ms`] = r1(percentile(cpu, 95));
      customerSort = `${dialect} get-list sorted by Customer (no filter, pages 1, 10 and 100, both directions; ${lat.length} requests): wall p50 ${r1(percentile(lat, 50))} ms, p95 ${r1(percentile(lat, 95))} ms; CPU p50 ${r1(percentile(cpu, 50))} ms, p95 ${r1(percentile(cpu, 95))} ms (goal p95 < ${GOAL_LIST_P95} ms); load ${load()}`;
    }
  }
  log(customerSort);
  for (const [g, lat] of Object.entries(byGroup)) {
    lat.sort((a, b) => a - b);
    const key = g.replace(/ /g, '_');
    f[`${dialect}_list_${key}_p50_ms`] = r1(percentile(lat, 50));
    f[`${dialect}_list_${key}_p95_ms`] = r1(percentile(lat, 95));
    const cpu = cpuByGroup[g as Case['group']].sort((a, b) => a - b);
    f[`${dialect}_list_${key}_cpu_p50_ms`] = r1(percentile(cpu, 50));
    f[`${dialect}_list_${key}_cpu_p95_ms`] = r1(percentile(cpu, 95));
    log(
      `${dialect} get-list ${g}: ${lat.length} requests, p50 ${f[`${dialect}_list_${key}_p50_ms`]} ms, p95 ${f[`${dialect}_list_${key}_p95_ms`]} ms (goal p95 < ${GOAL_LIST_P95} ms); CPU of this process p50 ${f[`${dialect}_list_${key}_cpu_p50_ms`]} ms, p95 ${f[`${dialect}_list_${key}_cpu_p95_ms`]} ms; load ${load()}`,
    );
  }
  // the generalTotalCount when it is not cached (every 5 s at most, and after an import)
  const cold: number[] = [];
  for (let i = 0; i < 5; i++) {
    const t = performance.now();
    await list({ page: 1 });
    cold.push(performance.now() - t);
  }
  cold.sort((a, b) => a - b);
  f[`${dialect}_list_uncached_general_total_p50_ms`] = r1(percentile(cold, 50));
  log(`${dialect} get-list with an uncached generalTotalCount (count of every device): p50 ${f[`${dialect}_list_uncached_general_total_p50_ms`]} ms`);

  // 5,000 serials in one request: 4,900 known, 100 unknown, shuffled
  const r = rng(5000);
  const serials = [...knownSerials.slice(0, 4900), ...Array.from({ length: 100 }, (_, i) => `ZZBENCH${String(i).padStart(5, '0')}`)].sort(() => r() - 0.5);
  // Timed until the answer's last byte (what the server does); reading the 2.5 MB of JSON is the
  // client's work, done after the clocks stop.
  const wall: number[] = [];
  const cpu: number[] = [];
  let placeholders = 0;
  for (let i = 0; i < 11; i++) {
    const c0 = process.cpuUsage();
    const t = performance.now();
    const bytes = await (await post('/api/v1/device/get-list-by-serials', { serials })).arrayBuffer();
    wall.push(performance.now() - t);
    const cu = process.cpuUsage(c0);
    cpu.push((cu.user + cu.system) / 1000);
    const body = JSON.parse(new TextDecoder().decode(bytes)) as { devices: { etag: string }[] };
    placeholders = body.devices.filter((d) => d.etag === 'not-found').length;
    if (body.devices.length !== serials.length) throw new Error(`get-list-by-serials answered ${body.devices.length} rows for ${serials.length} serials`);
  }
  // the first request (cold caches) is reported apart
  const warmWall = wall.slice(1);
  const warmCpu = cpu.slice(1);
  const key = `${dialect}_by_serials_5000`;
  f[`${key}_p50_ms`] = r1(percentileOf(warmWall, 50));
  f[`${key}_p95_ms`] = r1(percentileOf(warmWall, 95));
  f[`${key}_cpu_p50_ms`] = r1(percentileOf(warmCpu, 50));
  f[`${key}_cpu_p95_ms`] = r1(percentileOf(warmCpu, 95));
  log(
    `${dialect} get-list-by-serials, 5,000 serials (${placeholders} unknown; ${warmWall.length} requests after a first, cold one of ${r1(itemAt(wall, 0))} ms): wall p50 ${f[`${key}_p50_ms`]} ms, p95 ${f[`${key}_p95_ms`]} ms; CPU p50 ${f[`${key}_cpu_p50_ms`]} ms, p95 ${f[`${key}_cpu_p95_ms`]} ms (goal < ${GOAL_SERIALS_MS} ms); load ${load()}`,
  );

  // export of the 100,000 devices of one type
  if (!process.env.BENCH_DEVICES_NO_EXPORT) {
    (globalThis as { gc?: () => void }).gc?.();
    const m0 = process.memoryUsage();
    let peakRss = m0.rss;
    let peakHeap = m0.heapUsed;
    const sampler = setInterval(() => {
      const m = process.memoryUsage();
      peakRss = Math.max(peakRss, m.rss);
      peakHeap = Math.max(peakHeap, m.heapUsed);
    }, 20);
    const c0 = process.cpuUsage();
    const t = performance.now();
    const res = await post('/api/v1/device/export/list-with-filters', { deviceTypeIds: [EXPORT_TYPE] });
    const bytes = (await res.arrayBuffer()).byteLength;
    const s = (performance.now() - t) / 1000;
    const cu = process.cpuUsage(c0);
    f[`${dialect}_export_100k_cpu_s`] = r1((cu.user + cu.system) / 1e6);
    clearInterval(sampler);
    const m1 = process.memoryUsage();
    peakRss = Math.max(peakRss, m1.rss);
    peakHeap = Math.max(peakHeap, m1.heapUsed);
    const mb = (b: number) => Math.round(b / 1e6);
    f[`${dialect}_export_100k_s`] = r1(s);
    f[`${dialect}_export_100k_file_mb`] = r1(bytes / 1e6);
    f[`${dialect}_export_100k_peak_rss_growth_mb`] = mb(peakRss - m0.rss);
    f[`${dialect}_export_100k_peak_heap_growth_mb`] = mb(peakHeap - m0.heapUsed);
    log(
      `${dialect} export of ${(N / TYPES.length).toLocaleString('en-GB')} devices to .xlsx: ${r1(s)} s (CPU of this process ${f[`${dialect}_export_100k_cpu_s`]} s), ${r1(bytes / 1e6)} MB file; peak RSS +${mb(peakRss - m0.rss)} MB, peak heap +${mb(peakHeap - m0.heapUsed)} MB (goals < ${GOAL_EXPORT_S} s, < ${GOAL_EXPORT_MB} MB)`,
    );
  }
  await close();
  return f;
}

export async function benchDevices(): Promise<Figures> {
  log(`load ${load()} (2 cores; other work may be running)`);
  let samples: Sample[] = [];
  let known: string[] = [];
  return onKeptData(
    KEPT,
    { devices: N },
    {
      loadSqlite,
      loadPostgres,
      skipPg: process.env.BENCH_DEVICES_PG === '0',
      beforeSqlite: () => {
        const raw = new SQLite(SQLITE_FILE, { readonly: true });
        samples = raw
          .prepare(`select serialNumber, imei, orderNumber from devices where orderNumber is not null and rowid % 4999 = 7 limit 200`)
          .all() as Sample[];
        known = (raw.prepare(`select serialNumber from devices where rowid % 197 = 3 limit 4900`).all() as { serialNumber: string }[]).map(
          (x) => x.serialNumber,
        );
        raw.close();
      },
      measure: async (dialect, db) => {
        // statistics for indexes a migration added since the load (the loader ran ANALYZE)
        if (dialect === 'sqlite') await sql`analyze`.execute(db);
        const f = await measureDialect(dialect, db, samples, known);
        const plans = await checkPlans(dialect, (l) =>
          dialect === 'sqlite'
            ? new Kysely<Database>({ dialect: new SqliteDialect({ database: new SQLite(SQLITE_FILE, { readonly: true }) }), log: l })
            : new Kysely<Database>({ dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: pgUrl(PG_DB), max: 2 }) }), log: l }),
        );
        return { ...f, ...plans };
      },
    },
  );
}

runAlone(import.meta.url, benchDevices);
