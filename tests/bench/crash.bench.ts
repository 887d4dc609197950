// `npm run bench -- crash`: kill -9 during ingestion, many times, on SQLite and on PostgreSQL
// (tests/helpers/ingest-crash.ts). 4 gateways post batches of 100 device messages to the real
// server process; it is killed -9 at a random moment, started again on the same database, and every
// message answered 2xx is looked up. Each sequence of runs begins on an empty database (the
// server's first start generates the demo data, and the senders start the moment it is ready).
// Prints each run (acknowledged, stored, lost) and the totals; the goal is 0 lost in every run.
// Sizes: BENCH_CRASH_RUNS (20 per database), BENCH_CRASH_PER_FRESH (runs per fresh start, 5),
// BENCH_CRASH_SCALE (demo data scale, 0.01), BENCH_CRASH_DBS (sqlite,pg). PostgreSQL: a database of
// its own per fresh start, created and dropped on TEST_PG_URL's server.
import pg from 'pg';
import { crashRuns, describeRun, type CrashRun } from '../helpers/ingest-crash.js';
import { PG_ADMIN_URL } from '../helpers/db.js';

async function pgReachable() {
  const c = new pg.Client({ connectionString: PG_ADMIN_URL, connectionTimeoutMillis: 3000 });
  try {
    await c.connect();
    return true;
  } catch {
    return false;
  } finally {
    await c.end().catch(() => undefined);
  }
}

export async function benchCrash(): Promise<Record<string, number | string>> {
  const runs = Number(process.env.BENCH_CRASH_RUNS ?? 20);
  const perFresh = Number(process.env.BENCH_CRASH_PER_FRESH ?? 5);
  const scale = Number(process.env.BENCH_CRASH_SCALE ?? 0.01);
  const dbs = (process.env.BENCH_CRASH_DBS ?? 'sqlite,pg').split(',').map((s) => s.trim()) as ('sqlite' | 'pg')[];
  const out: Record<string, number | string> = {};
  for (const dialect of dbs) {
    if (dialect === 'pg' && !(await pgReachable())) {
      console.log(`  PostgreSQL at ${PG_ADMIN_URL} does not answer: skipped`);
      out['pg'] = 'skipped';
      continue;
    }
    console.log(`  ${dialect}: ${runs} runs, a fresh first start (demo data at scale ${scale}) every ${perFresh}`);
    const all: CrashRun[] = await crashRuns({ dialect, runs, perFresh, scale, pgAdminUrl: PG_ADMIN_URL, onRun: (r) => console.log(`    ${describeRun(r)}`) });
    const sum = (f: (r: CrashRun) => number) => all.reduce((a, r) => a + f(r), 0);
    const lostRuns = all.filter((r) => r.lost > 0).length;
    console.log(
      `  ${dialect} total: ${all.length} runs (${all.filter((r) => r.fresh).length} right after a fresh first start), ` +
        `acknowledged ${sum((r) => r.acknowledged)}, stored ${sum((r) => r.stored)}, lost ${sum((r) => r.lost)} (runs with a loss: ${lostRuns}; goal 0)`,
    );
    out[`${dialect}.runs`] = all.length;
    out[`${dialect}.freshRuns`] = all.filter((r) => r.fresh).length;
    out[`${dialect}.acknowledged`] = sum((r) => r.acknowledged);
    out[`${dialect}.stored`] = sum((r) => r.stored);
    out[`${dialect}.lost`] = sum((r) => r.lost);
    out[`${dialect}.runsWithLoss`] = lostRuns;
  }
  return out;
}
