// The demo data's counting tables and schema after a seed, on SQLite and (TEST_DB=pg) PostgreSQL,
// where the load runs without secondary indexes and counting triggers and counts once at the end
// (src/server/seed/pg-bulk.ts):
// - alarmStats, alarmReportNames, alarmMonthTops, deviceCounts and the devices' customer sort names
//   equal a count of the raw rows made here in JavaScript;
// - the indexes, triggers and foreign keys are those the migrations created, the triggers count again after the
//   load (a report inserted afterwards is counted), and a load that fails leaves no rows and the
//   schema as it was;
// - PostgreSQL: the same seed on SQLite gives the same rows in every table the seed fills and the
//   same counting tables (kept there by the triggers row by row).
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { sql } from 'kysely';
import { createTestDb, type TestDb } from '../helpers/db.js';
import { DEMO_TABLES, seedDemoData } from '../../src/server/seed/demo.js';
import { migrateToLatest } from '../../src/server/db/migrations.js';
import { seedReferenceData } from '../../src/server/seed/reference.js';
import { openSqlite, type DB } from '../../src/server/db/index.js';
import { COMPLETED_BANDS, STARTED_BANDS, bandOf } from '../../src/shared/schemas/alarm-reports.js';
import { DIMS, GRAINS, INT_DIMS, MONTH_GRAIN } from '../../src/server/modules/alarm-reports/aggregates.js';

const NOW = new Date('2025-11-02T10:00:00.000Z');
const SEED = 11;
const SCALE = 0.01;
const OPTS = { seed: SEED, scale: SCALE, password: 'Bulk-Test-Passw0rd!', now: NOW };

let t: TestDb;
let schemaBefore: Schema;
const logs: Record<string, unknown>[] = [];

beforeAll(async () => {
  t = await createTestDb();
  schemaBefore = await schema(t.db);
  await seedDemoData(t.db, { ...OPTS, log: (e) => void logs.push(e) });
}, 240_000);
afterAll(() => t?.close());

const rows = async <T = any>(db: DB, text: string) => (await sql.raw(text).execute(db)).rows as T[];

type Schema = { indexes: string[]; triggers: string[]; tables: string[] };
/** Every index (with its definition), trigger (with whether it is enabled) and constraint or table definition of the database. */
async function schema(db: DB): Promise<Schema> {
  if (t.dialect === 'pg')
    return {
      indexes: (await rows<{ d: string }>(db, `select indexname || ' ' || indexdef as d from pg_indexes where schemaname = current_schema() order by 1`)).map(
        (r) => r.d,
      ),
      triggers: (
        await rows<{ d: string }>(
          db,
          `select c.relname || '.' || tg.tgname || ' ' || tg.tgenabled::text as d from pg_trigger tg join pg_class c on c.oid = tg.tgrelid
           where not tg.tgisinternal order by 1`,
        )
      ).map((r) => r.d),
      tables: (
        await rows<{ d: string }>(
          db,
          `select conrelid::regclass::text || ' ' || conname || ' ' || pg_get_constraintdef(oid) as d from pg_constraint
           where connamespace = current_schema()::regnamespace order by 1`,
        )
      ).map((r) => r.d),
    };
  const all = await rows<{ type: string; d: string }>(
    db,
    `select type, name || ' ' || coalesce(sql, '') as d from sqlite_master where type in ('index', 'trigger', 'table') order by name`,
  );
  const of = (type: string) => all.filter((r) => r.type === type).map((r) => r.d);
  return { indexes: of('index'), triggers: of('trigger'), tables: of('table') };
}

const london = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/London', year: 'numeric', month: '2-digit', day: '2-digit' });
const londonDay = (iso: string) => london.format(new Date(iso));
const max = <T>(a: T, b: T) => (a > b ? a : b);

/** A keyed count table: key → counts, added up per key. */
function tally() {
  const m = new Map<string, number[]>();
  return {
    m,
    add(key: unknown[], counts: number[]) {
      const k = JSON.stringify(key);
      const cur = m.get(k);
      if (cur) for (let i = 0; i < counts.length; i++) cur[i]! += counts[i]!;
      else m.set(k, [...counts]);
    },
  };
}
const asMap = (list: { key: unknown[]; counts: unknown[] }[]) => new Map(list.map((r) => [JSON.stringify(r.key), r.counts.map(Number)]));
const sorted = (m: Map<string, number[]>) => [...m.entries()].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));

/** The statistics of every grain counted from the reports. */
async function recountStats(db: DB) {
  const reports = await rows(db, `select * from "alarmReports"`);
  const out = tally();
  const months = new Set(Object.values(MONTH_GRAIN));
  for (const r of reports) {
    const day = londonDay(r.alarmClosed);
    const counts = [
      1,
      ...STARTED_BANDS.map((b) => (bandOf(STARTED_BANDS, r.verificationStartedSeconds) === b ? 1 : 0)),
      ...COMPLETED_BANDS.map((b) => (bandOf(COMPLETED_BANDS, r.verificationCompletedSeconds) === b ? 1 : 0)),
    ];
    for (const [g, keep] of Object.entries(GRAINS)) {
      const dims = DIMS.map((d) => {
        const int = (INT_DIMS as readonly string[]).includes(d);
        return keep.includes(d) ? (r[d] ?? (int ? -1 : '')) : int ? -1 : '';
      });
      out.add([Number(g), months.has(Number(g)) ? day.slice(0, 7) : day, r.verificationType, ...dims], counts);
    }
  }
  return out.m;
}

async function keptStats(db: DB) {
  const kept = await rows(db, `select * from "alarmStats"`);
  return asMap(
    kept
      .filter((r) => Number(r.n) !== 0)
      .map((r) => ({
        key: [Number(r.grain), r.day, r.verificationType, ...DIMS.map((d) => r[d])],
        counts: ['n', ...STARTED_BANDS.map((_, i) => `s${i}`), ...COMPLETED_BANDS.map((_, i) => `c${i}`)].map((c) => r[c]),
      })),
  );
}

async function recountNames(db: DB) {
  const out = tally();
  for (const r of await rows(db, `select "personFullName", "customerAccountFullName" from "alarmReports"`)) {
    out.add(['person', String(r.personFullName).toLowerCase()], [1]);
    out.add(['account', String(r.customerAccountFullName).toLowerCase()], [1]);
  }
  return out.m;
}
const keptNames = async (db: DB) => asMap((await rows(db, `select * from "alarmReportNames"`)).map((r) => ({ key: [r.kind, r.key], counts: [r.n] })));

/** The monthly tops: persons and devices per customer and for every customer ('*'), plan outcomes per customer; labels compared apart. */
async function recountTops(db: DB) {
  const out = tally();
  const labels = new Map<string, string>();
  const codes = new Map<string, number>();
  const analyses = new Map((await rows(db, `select * from "alarmReportAnalyses"`)).map((a) => [a.alarmReportId, JSON.parse(a.analysis)]));
  for (const r of await rows(db, `select * from "alarmReports"`)) {
    const month = londonDay(r.alarmClosed).slice(0, 7);
    for (const customer of [r.customerId ?? '', '*']) {
      if (r.personId !== null) {
        const k = [month, customer, 1, r.personId];
        out.add(k, [1]);
        labels.set(JSON.stringify(k), max(labels.get(JSON.stringify(k)) ?? '', r.personFullName ?? ''));
      }
      if (r.deviceSerial !== null) {
        const k = [month, customer, 2, r.deviceSerial];
        out.add(k, [1]);
        codes.set(JSON.stringify(k), max(codes.get(JSON.stringify(k)) ?? -1, r.deviceType ?? -1));
      }
    }
    const a = analyses.get(r.id);
    if (a) out.add([month, r.customerId ?? '', 3, `${a.PlanCheck?.Verdict ?? 'none'}:${a.PlanCheck?.Followed === true}`], [1]);
  }
  return { counts: out.m, labels, codes };
}

async function keptTops(db: DB) {
  const kept = (await rows(db, `select * from "alarmMonthTops"`)).filter((r) => Number(r.n) !== 0);
  const key = (r: any) => JSON.stringify([r.month, r.customerId, r.kind, r.key]);
  return {
    counts: asMap(kept.map((r) => ({ key: [r.month, r.customerId, r.kind, r.key], counts: [r.n] }))),
    labels: new Map(kept.filter((r) => r.kind === 1).map((r) => [key(r), r.label])),
    codes: new Map(kept.filter((r) => r.kind === 2).map((r) => [key(r), r.code])),
  };
}

async function recountDevices(db: DB) {
  const out = tally();
  for (const d of await rows(db, `select type, status, "isUserAssigned", "lastConfigurationDate" from devices`))
    out.add([d.type, d.status, d.isUserAssigned, d.lastConfigurationDate === null ? 0 : 1], [1]);
  return out.m;
}
const keptDevices = async (db: DB) =>
  asMap(
    (await rows(db, `select * from "deviceCounts"`))
      .filter((r) => Number(r.n) !== 0)
      .map((r) => ({ key: [r.type, r.status, r.isUserAssigned, r.configured], counts: [r.n] })),
  );

async function expectCountsExact(db: DB) {
  expect(sorted(await keptStats(db))).toEqual(sorted(await recountStats(db)));
  expect(sorted(await keptNames(db))).toEqual(sorted(await recountNames(db)));
  const tops = await recountTops(db);
  const kept = await keptTops(db);
  expect(sorted(kept.counts)).toEqual(sorted(tops.counts));
  expect([...kept.labels].sort()).toEqual([...tops.labels].sort());
  expect([...kept.codes].sort()).toEqual([...tops.codes].sort());
  expect(sorted(await keptDevices(db))).toEqual(sorted(await recountDevices(db)));
  const wrongSortNames = await rows(
    db,
    `select d.id from devices d left join customers c on c.id = d."customerId" where d."customerSortName" is distinct from c.name and not (d."customerSortName" is null and c.name is null)`,
  );
  expect(wrongSortNames).toEqual([]);
}

describe('counting tables after the demo data load', () => {
  test('statistics, names, monthly tops, device counts and customer sort names equal a count of the raw rows', async () => {
    const reports = await rows(db(), `select count(*) as n from "alarmReports"`);
    expect(Number(reports[0].n)).toBe(Math.round(50_000 * SCALE));
    await expectCountsExact(db());
  });

  test('the indexes, triggers and constraints are those of the migrations, every trigger enabled', async () => {
    const after = await schema(db());
    expect(after).toEqual(schemaBefore);
    expect(after.indexes.length).toBeGreaterThan(50);
    if (t.dialect === 'pg') expect(after.tables.filter((x) => x.includes('FOREIGN KEY')).length).toBeGreaterThan(10);
    if (t.dialect === 'pg') expect(after.triggers.filter((x) => !x.endsWith(' O'))).toEqual([]);
  });

  test('PostgreSQL: each step of the load is logged with its time', () => {
    if (t.dialect !== 'pg') return;
    const phases = logs.filter((l) => l.msg === 'demo data').map((l) => l.phase);
    for (const p of ['bulk load prepare', 'counting tables', 'indexes', 'foreign keys', 'analyze']) expect(phases).toContain(p);
  });
});

describe('a load that fails', () => {
  test('leaves no demo rows, and the indexes, triggers and constraints as they were', async () => {
    const f = await createTestDb();
    try {
      const before = await schema(f.db);
      const log = (e: Record<string, unknown>) => {
        if (e.phase === 'devices') throw new Error('stopped after the devices');
      };
      await expect(seedDemoData(f.db, { ...OPTS, log })).rejects.toThrow('stopped after the devices');
      for (const table of ['persons', 'customers', 'devices', 'alarmReports', 'alarmStats', 'deviceCounts'])
        expect([table, Number((await rows(f.db, `select count(*) as n from "${table}"`))[0].n)]).toEqual([table, 0]);
      expect(await schema(f.db)).toEqual(before);
    } finally {
      await f.close();
    }
  }, 120_000);

  test('a batch the database refuses (the same demo rows again) fails the seed with its error and changes nothing', async () => {
    const count = async () => Number((await rows(db(), `select count(*) as n from persons`))[0].n);
    const before = { persons: await count(), schema: await schema(db()) };
    await expect(seedDemoData(db(), { ...OPTS, log: () => {} })).rejects.toThrow(/unique|duplicate/i);
    expect({ persons: await count(), schema: await schema(db()) }).toEqual(before);
    await expectCountsExact(db());
  }, 120_000);
});

describe('PostgreSQL and SQLite hold the same demo data', () => {
  test('every table the seed fills and every counting table, row by row', async () => {
    if (t.dialect !== 'pg') return;
    const lite = openSqlite(':memory:');
    try {
      await migrateToLatest(lite);
      await seedReferenceData(lite);
      await seedDemoData(lite, { ...OPTS, log: () => {} });
      const canonical = (r: Record<string, unknown>) => {
        const out: Record<string, unknown> = {};
        for (const k of Object.keys(r).sort()) {
          const v = r[k];
          out[k] = k === 'passwordHash' ? (v ? 'hash' : null) : typeof v === 'bigint' ? Number(v) : v;
        }
        return JSON.stringify(out);
      };
      const tables = [...DEMO_TABLES, 'alarmStats', 'alarmReportNames', 'alarmMonthTops', 'deviceCounts'];
      const skip: Record<string, string[]> = { reportSchedules: ['etag'] }; // schedules take a random etag
      for (const table of tables) {
        const read = async (d: DB) =>
          (await rows(d, `select * from "${table}"`))
            .map((r) => {
              for (const c of skip[table] ?? []) delete r[c];
              return canonical(r);
            })
            .sort();
        const [p, s] = [await read(db()), await read(lite)];
        expect([table, p.length]).toEqual([table, s.length]);
        const firstDiff = p.findIndex((x, i) => x !== s[i]);
        expect([table, firstDiff === -1 ? null : { pg: p[firstDiff], sqlite: s[firstDiff] }]).toEqual([table, null]);
      }
    } finally {
      await lite.destroy();
    }
  }, 240_000);
});

describe('after the load', () => {
  test('a report inserted after the load is counted by the triggers', async () => {
    const [r] = await rows(db(), `select * from "alarmReports" order by id limit 1`);
    const copy = { ...r, id: 'ffffffff-0000-4000-8000-000000000001', alarmId: 'ffffffff-0000-4000-8000-000000000002', personFullName: 'Zed Newcomer' };
    await db()
      .insertInto('alarmReports')
      .values(copy as never)
      .execute();
    await expectCountsExact(db());
    expect((await keptNames(db())).get(JSON.stringify(['person', 'zed newcomer']))).toEqual([1]);
  });
});

function db() {
  return t.db;
}
