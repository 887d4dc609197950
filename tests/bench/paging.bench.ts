// Every page as fast as the first, and PostgreSQL's worst device look-ups, at 1,000,000 devices and
// 1,000,000 alarm reports (the kept data sets of devices.bench.ts and alarm-reports.bench.ts,
// loaded by them when missing; BENCH_DEVICES and ALARM_BENCH_ROWS resize), through app.request():
//   - filtered device and alarm report lists: page 1, page 50 reached by Next (`after`: the last
//     row of page 49), page 50 by a jump (page number alone), the last page by a jump and the page
//     before it by Previous (`before`), each p50/p95 wall and CPU of this process (goal p95 < 50 ms);
//   - device searches whose trigrams select many devices ('0000000': every trigram is the same;
//     other patterns most devices contain), p50/p95 (goal < 50 ms on PostgreSQL);
//   - get-list-by-serials with 5,000 serials (4,900 known), p50 (goal < 100 ms on PostgreSQL).
// Each figure is printed with the machine's load; measure with nothing else running.
// BENCH_PAGING_PG=0 skips PostgreSQL; BENCH_PAGING_ROUNDS (default 8) sets the runs per request;
// BENCH_PAGING_SETS (default `devices,alarms`) names the data sets measured.
import { benchApp, load, log, onKeptData, r1, runAlone, type Dialect, type Figures } from './harness/kept-data.js';
import { percentileOf } from './stats.js';
import { KEPT as DEVICES, NOW as DEVICES_NOW, TYPES, loadPostgres as loadDevicesPostgres, loadSqlite as loadDevicesSqlite } from './devices.bench.js';
import { keptAlarms, loadAlarmsPostgres, loadAlarmsSqlite } from './alarm-reports.bench.js';
import { STATUS } from '../../src/shared/schemas/devices.js';
import { sql, type DB } from '../../src/server/db/index.js';

const GOAL_PAGE_P95 = 50;
const GOAL_SEARCH_MS = 50;
const GOAL_SERIALS_P50 = 100;
const ROUNDS = Number(process.env.BENCH_PAGING_ROUNDS ?? 8);
const ALARMS = keptAlarms(Number(process.env.ALARM_BENCH_ROWS ?? 1_000_000));
const ALARMS_NOW = new Date('2026-11-22T12:00:00.000Z');

type Body = Record<string, unknown>;
type List = { path: string; rows: (answer: Record<string, unknown>) => { id: string }[]; total: (answer: Record<string, unknown>) => number };
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

const DEVICE_CASES: [string, Body][] = [
  ['two statuses + last config 30 days, 100 rows', { statusIds: [STATUS.Reserved, STATUS.Returned], lastConfig: 3, pageSize: 100 }],
  ['two statuses, serial, 100 rows', { statusIds: [STATUS.New, STATUS.Returned], pageSize: 100 }],
  ['device type, Last Config desc', { deviceTypeIds: [TYPES[3]], orderBy: 'LastConfig', desc: true, pageSize: 25 }],
  ['assigned No, IMEI desc', { assigned: false, orderBy: 'Imei', desc: true, pageSize: 25 }],
  ['status Allocated, Customer', { statusIds: [STATUS.Allocated], orderBy: 'Customer', pageSize: 25 }],
  ['never configured, Status', { lastConfig: 5, orderBy: 'Status', pageSize: 25 }],
];
const ALARM_CASES: [string, Body][] = [
  ['All Time, one verification type, closed desc', { alarmClosedDateRangeOption: 7, alarmVerificationTypes: [1], pageSize: 100 }],
  ['12 months, Person', { alarmClosedDateRangeOption: 6, sortBy: 'PersonFullName', sortDescending: false, pageSize: 25 }],
  ['All Time, two alarm types, Tier desc', { alarmClosedDateRangeOption: 7, alarmTypes: [1, 2], sortBy: 'Tier', sortDescending: true, pageSize: 25 }],
  ['6 months, Device Type', { alarmClosedDateRangeOption: 5, sortBy: 'DeviceType', sortDescending: false, pageSize: 50 }],
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

/** Page 1, Next to page 50, a jump to page 50, the last page and Previous from it, for each case of a list. */
async function measurePages(
  dialect: Dialect,
  what: string,
  list: List,
  cases: [string, Body][],
  send: (path: string, body: Body) => Promise<Response>,
): Promise<Figures> {
  const f: Figures = {};
  const ask = async (body: Body) => (await (await send(list.path, body)).json()) as Record<string, unknown>;
  const byKind: Record<string, number[]> = {};
  for (const [name, base] of cases) {
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

/** Searches whose trigrams select many devices, and 5,000 scanned serials. */
async function measureLookups(dialect: Dialect, db: DB, send: (path: string, body: Body) => Promise<Response>): Promise<Figures> {
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
      measure: async (dialect, db) => {
        const { send, close } = await benchApp(db, ALARMS_NOW);
        try {
          return measurePages(dialect, 'alarms', ALARM_LIST, ALARM_CASES, send);
        } finally {
          await close();
        }
      },
    });
  return f;
}

runAlone(import.meta.url, benchPaging);
