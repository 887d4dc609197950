// Palette search latency: GET /api/search through app.request() with a super-admin token, over a
// temporary SQLite file holding N devices plus proportional customers (2%, ≤ 20k), persons (20%,
// ≤ 200k) and alarm reports (50%, ≤ 500k). ~300 representative queries per size: serial
// prefixes (3-8 chars), full serials, serial and IMEI fragments, phone numbers in several
// formats, customer/person/alarm names and ids, e-mails, 1-2 character queries and misses.
// Rows go in through the real schema (migrations 001 + 002), so the FTS triggers are paid for
// during the load; the trigger overhead is also measured on its own (same 100k-device batch with
// and without the search triggers). Imported by tests/bench/run.ts; goals: p95 < 15 ms at 100k,
// < 30 ms at 1M.
import SQLite from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import { randomBytes } from 'node:crypto';
import { rmSync, statSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createApp } from '../../src/server/app.js';
import { testConfig } from '../../src/server/platform/config.js';
import { createOutbox } from '../../src/server/mail/outbox.js';
import type { DB } from '../../src/server/db/index.js';
import type { Database } from '../../src/server/db/schema.js';
import { migrateToLatest } from '../../src/server/db/migrations.js';
import { m002 } from '../../src/server/db/migrations/002-search.js';
import { seedReferenceData } from '../../src/server/seed/reference.js';
import { issueAccessToken } from '../../src/server/auth/tokens.js';
import { PROVIDER_TENANT_ID } from '../../src/shared/tenants.js';
import { optimizeSearchIndex } from '../../src/server/modules/search/maintenance.js';
import { itemAt, percentile, pick, rng } from './stats.js';
import { CUSTOMER_FLAGS } from '../helpers/customer-rows.js';

// ---- deterministic data

type Rand = ReturnType<typeof rng>;
const digits = (r: Rand, n: number) => {
  let s = '';
  for (let i = 0; i < n; i++) s += Math.floor(r() * 10);
  return s;
};

const SERIAL_PREFIX: [number, string][] = [
  [620, 'SG620'],
  [621, 'SG621'],
  [640, 'SG640'],
  [740, 'SG740'],
  [750, 'SG750'],
  [370, 'MG370'],
  [10, 'IDC'],
  [20, 'TWX'],
  [30, 'T4'],
  [15, 'EV'],
  [60, 'SCAM'],
  [803, 'SPG3'],
  [804, 'GEN4'],
  [810, 'SPX'],
  [3, 'APP'],
  [400, 'GIM2'],
];
const FIRST = [
  'Oliver',
  'Amelia',
  'George',
  'Isla',
  'Harry',
  'Ava',
  'Noah',
  'Mia',
  'Jack',
  'Ivy',
  'Leo',
  'Grace',
  'Arthur',
  'Freya',
  'Oscar',
  'Lily',
  'Charlie',
  'Florence',
  'Thomas',
  'Emily',
  'James',
  'Sophie',
  'William',
  'Poppy',
  'Henry',
  'Evie',
  'Alfie',
  'Ella',
  'Joshua',
  'Rosie',
  'Jacob',
  'Daisy',
  'Samuel',
  'Chloe',
  'Daniel',
  'Lucy',
  'Mohammed',
  'Aisha',
  'Ethan',
  'Zara',
];
const LAST = [
  'Smith',
  'Jones',
  'Taylor',
  'Brown',
  'Williams',
  'Wilson',
  'Johnson',
  'Davies',
  'Robinson',
  'Wright',
  'Thompson',
  'Evans',
  'Walker',
  'White',
  'Roberts',
  'Green',
  'Hall',
  'Wood',
  'Jackson',
  'Clarke',
  'Patel',
  'Khan',
  'Lewis',
  'James',
  'Phillips',
  'Mason',
  'Mitchell',
  'Rose',
  'Davis',
  'Rodriguez',
  'Cox',
  'Alexander',
  'Morgan',
  'Moore',
  'Martin',
  'Price',
];
const TRADE = [
  'Harbour',
  'Northern',
  'Albion',
  'Pennine',
  'Thames',
  'Severn',
  'Summit',
  'Beacon',
  'Crown',
  'Oak',
  'Granite',
  'Meridian',
  'Kestrel',
  'Falcon',
  'Heritage',
  'Riverside',
  'Lakeside',
  'Castle',
  'Anchor',
  'Phoenix',
];
const TRADE2 = ['Logistics', 'Care', 'Security', 'Utilities', 'Housing', 'Facilities', 'Health', 'Transport', 'Energy', 'Services'];
const SUFFIX = ['Ltd', 'plc', 'Group', 'Trust', 'LLP', 'Council'];

const iso = (ms: number) => new Date(ms).toISOString();
const T0 = Date.UTC(2025, 0, 1);

type Counts = { devices: number; customers: number; persons: number; alarmReports: number };
export const countsFor = (devices: number): Counts => ({
  devices,
  customers: Math.max(10, Math.min(Math.round(devices * 0.02), 20_000)),
  persons: Math.max(10, Math.min(Math.round(devices * 0.2), 200_000)),
  alarmReports: Math.max(10, Math.min(Math.round(devices * 0.5), 500_000)),
});

/** Samples kept while generating, to build queries that hit real rows. */
type Samples = {
  serials: string[];
  imeis: string[];
  phones: string[];
  customers: string[];
  portals: string[];
  persons: string[];
  emails: string[];
  alarmIds: string[];
};

/** Multi-row INSERT statements (`rowsPerStatement` rows each), committed every `txRows` rows. */
function loader(raw: SQLite.Database, head: string, tuple: string, rowsPerStatement: number) {
  const full = raw.prepare(`${head} values ${Array(rowsPerStatement).fill(tuple).join(', ')}`);
  let buf: unknown[] = [];
  let rows = 0;
  return {
    add(...vals: unknown[]) {
      for (const v of vals) buf.push(v);
      if (++rows === rowsPerStatement) {
        full.run(buf);
        buf = [];
        rows = 0;
      }
    },
    flush() {
      if (!rows) return;
      raw.prepare(`${head} values ${Array(rows).fill(tuple).join(', ')}`).run(buf);
      buf = [];
      rows = 0;
    },
  };
}
function batched(raw: SQLite.Database, n: number, l: ReturnType<typeof loader>, row: (i: number) => void, txRows = 10_000) {
  for (let i = 0; i < n; i += txRows) {
    raw.transaction(() => {
      for (let j = i; j < Math.min(n, i + txRows); j++) row(j);
      l.flush();
    })();
  }
}

/** Inserts `devices` devices (and the proportional rest); returns insert timings (ms) and samples. */
/** rowsPerStatement: 500 is what the demo generator's BatchInserter uses; 1 is the worst case for the FTS triggers. */
export function generate(raw: SQLite.Database, c: Counts, opts: { seed?: number; rowsPerStatement?: number } = {}) {
  const per = opts.rowsPerStatement ?? 500;
  const r = rng(opts.seed ?? 7);
  const keep = (arr: string[], v: string, every: number, i: number) => {
    if (i % every === 0 && arr.length < 2000) arr.push(v);
  };
  const s: Samples = { serials: [], imeis: [], phones: [], customers: [], portals: [], persons: [], emails: [], alarmIds: [] };
  const ms = { customers: 0, devices: 0, persons: 0, alarmReports: 0 };
  const now = iso(T0);

  let t = performance.now();
  const customerIds: string[] = [];
  const customerNames: string[] = [];
  const insC = loader(
    raw,
    `insert into customers (id, tenantId, name, portalId, tier, status, ${CUSTOMER_FLAGS.join(', ')}, trackingInterval, etag, deviceSubscriptionsEtag, appSubscriptionsEtag, createdAt, updatedAt)`,
    `(?, ?, ?, ?, ?, ?, ${CUSTOMER_FLAGS.map(() => '0').join(', ')}, 15, '"e"', '"e"', '"e"', ?, ?)`,
    per,
  );
  batched(raw, c.customers, insC, (i) => {
    const id = `c${String(i).padStart(7, '0')}-0000-4000-8000-000000000000`;
    const name = `${pick(r, TRADE)} ${pick(r, TRADE2)} ${pick(r, SUFFIX)} ${i}`;
    const portal = String(100000 + i * 7);
    customerIds.push(id);
    customerNames.push(name);
    keep(s.customers, name, 7, i);
    keep(s.portals, portal, 11, i);
    insC.add(id, `t${i}`, name, portal, 1 + (i % 4), 1 + (i % 4), now, now);
  });
  ms.customers = performance.now() - t;

  t = performance.now();
  const insD = loader(
    raw,
    `insert into devices (id, serialNumber, imei, type, phoneNumber, status, customerId, isUserAssigned, lastUpdated, addedToSystem, etag)`,
    `(?, ?, ?, ?, ?, ?, ?, 0, ?, ?, '"e"')`,
    per,
  );
  // serial numbers: a per-type counter scrambled so that insertion order is not serial order
  const perType = new Map<number, number>();
  batched(raw, c.devices, insD, (i) => {
    const [type, prefix] = itemAt(SERIAL_PREFIX, i % SERIAL_PREFIX.length);
    const n = perType.get(type) ?? 0;
    perType.set(type, n + 1);
    const serial = `${prefix}-${String((n * 7_368_787) % 10_000_000).padStart(7, '0')}`;
    const imei = `35${digits(r, 13)}`;
    const p = r();
    const local = `7${digits(r, 9)}`;
    const phone =
      p < 0.3 ? null : p < 0.6 ? `+44${local}` : p < 0.85 ? `0${local.slice(0, 4)} ${local.slice(4)}` : `+44 ${local.slice(0, 4)} ${local.slice(4)}`;
    keep(s.serials, serial, 97, i);
    keep(s.imeis, imei, 89, i);
    if (phone) keep(s.phones, `0${local}`, 83, i);
    const cust = r() < 0.8 ? customerIds[Math.floor(r() * customerIds.length)] : null;
    const at = iso(T0 - (c.devices - i) * 30_000);
    insD.add(`d${String(i).padStart(9, '0')}-0000-4000-8000-000000000000`, serial, imei, type, phone, 1 + (i % 11 === 9 ? 0 : i % 8), cust, at, at);
  });
  ms.devices = performance.now() - t;

  t = performance.now();
  const personNames: string[] = [];
  const insP = loader(
    raw,
    `insert into persons (id, tenantId, firstName, lastName, email, phoneNumbers, profile, searchText, etag, createdAt, updatedAt)`,
    `(?, ?, ?, ?, ?, '[]', '{}', ?, '"e"', ?, ?)`,
    per,
  );
  batched(raw, c.persons, insP, (i) => {
    const f = pick(r, FIRST);
    const l = pick(r, LAST);
    const email = `${f}.${l}${i}@${pick(r, TRADE).toLowerCase()}.example`.toLowerCase();
    personNames.push(`${f} ${l}`);
    keep(s.persons, `${f} ${l}`, 13, i);
    keep(s.emails, email, 17, i);
    insP.add(`p${String(i).padStart(9, '0')}-0000-4000-8000-000000000000`, PROVIDER_TENANT_ID, f, l, email, `${f} ${l} ${email}`.toLowerCase(), now, now);
  });
  ms.persons = performance.now() - t;

  t = performance.now();
  const insA = loader(
    raw,
    `insert into alarmReports (id, alarmId, customerId, customerAccountFullName, personFullName, alarmStarted, alarmClosed,
      location, profileSnapshot, etag, alarmType, verificationType, verificationCategory, verificationStartedSeconds, verificationCompletedSeconds)`,
    `(?, ?, ?, ?, ?, ?, ?, '{}', '{}', '"e"', ?, 1, 1, ?, ?)`,
    per,
  );
  batched(raw, c.alarmReports, insA, (i) => {
    const ci = Math.floor(r() * customerIds.length);
    const alarmId = String(10_000_000 + i);
    keep(s.alarmIds, alarmId, 101, i);
    const closed = iso(T0 - Math.floor(r() * 730 * 86_400_000));
    insA.add(
      `a${String(i).padStart(9, '0')}-0000-4000-8000-000000000000`,
      alarmId,
      customerIds[ci],
      customerNames[ci],
      personNames[Math.floor(r() * personNames.length)],
      closed,
      closed,
      1 + (i % 4),
      Math.floor(r() * 60),
      Math.floor(r() * 900),
    );
  });
  ms.alarmReports = performance.now() - t;
  return { ms, samples: s };
}

// ---- queries

export function buildQueries(s: Samples, n = 300, seed = 11): string[] {
  const r = rng(seed);
  const frag = (x: string, min: number, max: number, start?: number) => {
    const len = min + Math.floor(r() * (max - min + 1));
    const from = start ?? Math.floor(r() * Math.max(1, x.length - len));
    return x.slice(from, from + len);
  };
  const makers: [number, () => string][] = [
    [0.22, () => frag(pick(r, s.serials), 3, 8, 0)], // serial prefixes, 3-8 chars
    [0.06, () => pick(r, s.serials)], // full serials (scanner / paste)
    [0.07, () => frag(pick(r, s.serials), 4, 6, 3 + Math.floor(r() * 3)).toLowerCase()], // serial middle fragments
    [0.12, () => frag(pick(r, s.imeis), 5, 8, 3 + Math.floor(r() * 6))], // IMEI fragments
    [0.03, () => pick(r, s.imeis)], // full IMEIs
    [
      0.06,
      () => {
        const p = pick(r, s.phones);
        return r() < 0.5 ? p : `+44 ${p.slice(1, 5)} ${p.slice(5)}`;
      },
    ], // phone numbers
    [0.03, () => frag(pick(r, s.phones), 5, 7, 0)], // phone prefixes
    [0.07, () => frag(pick(r, s.customers), 3, 12, 0).trim()], // customer name prefixes
    [0.02, () => pick(r, s.portals)], // customer references
    [
      0.08,
      () => {
        const p = pick(r, s.persons);
        return r() < 0.5 ? p : itemAt(p.split(' '), r() < 0.5 ? 0 : 1).slice(0, 4 + Math.floor(r() * 4));
      },
    ], // names
    [0.04, () => frag(pick(r, s.emails), 5, 10)], // e-mail fragments
    [0.04, () => pick(r, s.alarmIds)], // alarm ids
    [0.09, () => frag(pick(r, [...s.serials, ...s.persons, ...s.customers]), 1, 2, 0)], // 1-2 characters
    [0.07, () => `${pick(r, ['zq', 'xx', 'qv', 'jjk'])}${digits(r, 3)}${pick(r, ['w', 'zz', ''])}`], // misses
  ];
  const total = makers.reduce((a, [w]) => a + w, 0);
  const out: string[] = [];
  while (out.length < n) {
    let x = r() * total;
    for (const [w, make] of makers) {
      if ((x -= w) <= 0) {
        const q = make().trim();
        if (q) out.push(q);
        break;
      }
    }
  }
  return out;
}

const r2 = (x: number) => Math.round(x * 100) / 100;

function openRaw(file: string) {
  const raw = new SQLite(file);
  raw.pragma('journal_mode = WAL');
  raw.pragma('synchronous = NORMAL');
  raw.pragma('foreign_keys = ON');
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: raw }) }) as DB;
  return { raw, db };
}
const removeDb = (file: string) => {
  for (const f of [file, `${file}-wal`, `${file}-shm`]) rmSync(f, { force: true });
};

/**
 * Devices into an empty schema with and without the search triggers, CPU ms. FTS5 flushes its
 * pending terms at every statement boundary inside a trigger, so the overhead depends on how many
 * rows each INSERT statement carries: measured for 500 rows/statement (what the demo generator's
 * BatchInserter does) and for 1 row/statement (the worst case).
 */
async function triggerOverhead(n: number) {
  const cpuMs = async (per: number, withSearch: boolean) => {
    const file = join(tmpdir(), `search-trig-${randomBytes(4).toString('hex')}.db`);
    const { raw, db } = openRaw(file);
    try {
      await migrateToLatest(db);
      if (!withSearch) await m002.down!(db);
      const c0 = process.cpuUsage();
      generate(raw, { devices: n, customers: 10, persons: 0, alarmReports: 0 }, { rowsPerStatement: per });
      const c = process.cpuUsage(c0);
      return (c.user + c.system) / 1000;
    } finally {
      await db.destroy();
      removeDb(file);
    }
  };
  const out: { per: number; without: number; with: number }[] = [];
  for (const per of [500, 1]) out.push({ per, without: await cpuMs(per, false), with: await cpuMs(per, true) });
  return out;
}

export async function benchSearch(opts: { sizes?: number[]; queries?: number; triggerRows?: number } = {}): Promise<Record<string, number>> {
  const sizes = opts.sizes ?? [100_000, 1_000_000];
  const figures: Record<string, number> = {};

  const trigRows = opts.triggerRows ?? Math.min(100_000, Math.max(...sizes));
  const trig = await triggerOverhead(trigRows);
  const k = `${trigRows / 1000}k`;
  for (const { per, without: a, with: b } of trig) {
    figures[`insert_${k}_devices_${per}rows_stmt_no_search_cpu_ms`] = Math.round(a);
    figures[`insert_${k}_devices_${per}rows_stmt_with_search_cpu_ms`] = Math.round(b);
    console.log(
      `  insert ${trigRows} devices, ${per} row(s)/statement: ${Math.round(a)} ms CPU without search triggers, ${Math.round(b)} ms with (+${Math.round(b - a)} ms, ${(((b - a) / trigRows) * 1000).toFixed(1)} µs/row)`,
    );
  }

  for (const size of sizes) {
    const label = size >= 1_000_000 ? `${size / 1_000_000}M` : `${size / 1000}k`;
    const file = join(tmpdir(), `search-bench-${randomBytes(4).toString('hex')}.db`);
    const { raw, db } = openRaw(file);
    try {
      await migrateToLatest(db);
      await seedReferenceData(db);
      const counts = countsFor(size);
      const t0 = performance.now();
      const { ms, samples } = generate(raw, counts);
      const loadMs = performance.now() - t0;
      raw.pragma('wal_checkpoint(TRUNCATE)');
      const mb = statSync(file).size / 1e6;
      console.log(
        `  ${label}: loaded ${counts.devices} devices, ${counts.customers} customers, ${counts.persons} persons, ${counts.alarmReports} alarm reports in ${(loadMs / 1000).toFixed(1)} s (devices ${(ms.devices / 1000).toFixed(1)} s); file ${mb.toFixed(0)} MB`,
      );

      const config = testConfig();
      const log = () => {};
      const { app } = createApp({ db, config, outbox: createOutbox({ log, now: () => config.now() }), log });
      const token = await issueAccessToken(config, { id: 'bench', tenantId: PROVIDER_TENANT_ID, email: 'bench@bench.test', roles: ['SuperAdminRole'] });
      const headers = { authorization: `Bearer ${token}` };
      const queries = buildQueries(samples, opts.queries ?? 300);
      const measure = async (tag: string) => {
        let hits = 0;
        const run = async (q: string) => {
          const res = await app.request(`/api/search?q=${encodeURIComponent(q)}`, { headers });
          if (res.status !== 200) throw new Error(`search ${JSON.stringify(q)}: ${res.status} ${await res.text()}`);
          const body = (await res.json()) as { groups: { hits: unknown[] }[] };
          hits += body.groups.reduce((a, g) => a + g.hits.length, 0);
        };
        for (const q of queries.slice(0, 30)) await run(q); // warm-up (page cache, statement cache)
        hits = 0;
        const lat: number[] = [];
        const cpu: number[] = [];
        const slow: [number, string][] = [];
        for (const q of queries) {
          const c0 = process.cpuUsage();
          const t = performance.now();
          await run(q);
          const d = performance.now() - t;
          const c = process.cpuUsage(c0);
          cpu.push((c.user + c.system) / 1000);
          lat.push(d);
          slow.push([d, q]);
        }
        lat.sort((a, b) => a - b);
        cpu.sort((a, b) => a - b);
        slow.sort((a, b) => b[0] - a[0]);
        const key = `${label}${tag}`;
        figures[`${key}_p50_ms`] = r2(percentile(lat, 50));
        figures[`${key}_p95_ms`] = r2(percentile(lat, 95));
        figures[`${key}_p99_ms`] = r2(percentile(lat, 99));
        figures[`${key}_max_ms`] = r2(lat.at(-1) ?? NaN);
        // CPU time of this process per query: less disturbed by other load on the machine
        figures[`${key}_cpu_p50_ms`] = r2(percentile(cpu, 50));
        figures[`${key}_cpu_p95_ms`] = r2(percentile(cpu, 95));
        const [load = NaN] = loadavg(); // 1-minute average
        figures[`${key}_loadavg`] = r2(load);
        const goal = size >= 1_000_000 ? 30 : 15;
        console.log(
          `  ${key}: ${queries.length} queries, avg ${(hits / queries.length).toFixed(1)} hits; p50 ${figures[`${key}_p50_ms`]} ms, p95 ${figures[`${key}_p95_ms`]} ms (goal < ${goal}), p99 ${figures[`${key}_p99_ms`]} ms, max ${figures[`${key}_max_ms`]} ms; CPU p50 ${figures[`${key}_cpu_p50_ms`]} / p95 ${figures[`${key}_cpu_p95_ms`]} ms; load average ${load.toFixed(1)}`,
        );
        console.log(
          `  ${key}: slowest: ${slow
            .slice(0, 5)
            .map(([d, q]) => `${JSON.stringify(q)} ${d.toFixed(1)} ms`)
            .join(', ')}`,
        );
      };
      figures[`${label}_load_s`] = Math.round(loadMs / 100) / 10;
      figures[`${label}_file_mb`] = Math.round(mb);
      // as loaded (segments merged only by FTS5's automerge) …
      await measure('');
      // … and after optimizeSearchIndex() (what a bulk loader may call at the end)
      const t1 = performance.now();
      await optimizeSearchIndex(db);
      figures[`${label}_optimize_s`] = Math.round((performance.now() - t1) / 100) / 10;
      console.log(`  ${label}: optimizeSearchIndex ${figures[`${label}_optimize_s`]} s`);
      await measure('_optimized');
    } finally {
      await db.destroy();
      removeDb(file);
    }
  }
  return figures;
}

/** A quick variant (10k devices, ~1 s of loading) for smoke runs. */
export const benchSearchQuick = () => benchSearch({ sizes: [10_000], triggerRows: 10_000 });
