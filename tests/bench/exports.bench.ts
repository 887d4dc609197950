// `npm run bench -- exports`: exports run in the worker pool and stream (src/server/exports).
// A SQLite file with BENCH_EXPORT_DEVICES devices (default 1,000,000; a tenth of them of one type)
// and BENCH_EXPORT_ALARMS alarm reports (default 1,000,000) is built once under .tmp/bench-exports,
// a server process (export-server.ts) is started on it, and this process measures as a client:
//  1. one export of the typed tenth (100,000 devices by default; BENCH_EXPORT_RUNS times, one after
//     another): time to first byte, to last byte,
//     peak server RSS growth (goals < 500 ms, < 5 s, < 100 MB);
//  2. a cheap authenticated GET polled every 100 ms while 3 such exports (three users) and 1 All Time
//     alarm export run: p95 and max (goals < 50 ms, < 250 ms), server RSS growth (goal < 150 MB);
//  3. every device and every alarm report exported: completes, peak RSS growth (flat memory).
// Times are wall time as a client sees them, printed with the load and the server's CPU time.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { loadavg } from 'node:os';
import { randomUUID } from 'node:crypto';
import { createInterface } from 'node:readline';
import { sql } from 'kysely';
import { openSqlite } from '../../src/server/db/index.js';
import { migrateToLatest } from '../../src/server/db/migrations.js';
import { seedReferenceData } from '../../src/server/seed/reference.js';
import { testConfig } from '../../src/server/platform/config.js';
import { insertBenchAlarmReports, insertBenchDevices, TYPE_TENTH } from './harness/export-data.js';
import { signedIn, tokenFor } from '../helpers/auth.js';
import { percentileOf } from './stats.js';

type Figures = Record<string, number | string>;
const ROOT = resolve(import.meta.dirname, '../..');
const DEVICES = Number(process.env.BENCH_EXPORT_DEVICES ?? 1_000_000);
const ALARMS = Number(process.env.BENCH_EXPORT_ALARMS ?? 1_000_000);
const TYPED = Math.round(DEVICES / 10);
const DIR = join(ROOT, '.tmp/bench-exports');
const FILE = join(DIR, `exports-${DEVICES}-${ALARMS}.sqlite`);
const READY = `${FILE}.ready`;
const MB = 1024 * 1024;
const r1 = (x: number) => Math.round(x * 10) / 10;
const log = (s: string) => console.log(`  ${s}`);

async function build() {
  for (const f of [FILE, `${FILE}-wal`, `${FILE}-shm`, READY]) rmSync(f, { force: true });
  const db = openSqlite(FILE);
  await migrateToLatest(db);
  await seedReferenceData(db);
  await insertBenchDevices(db, DEVICES);
  await insertBenchAlarmReports(db, ALARMS);
  await sql`analyze`.execute(db);
  await db.destroy();
  const { writeFileSync } = await import('node:fs');
  writeFileSync(READY, '');
}

type Server = { port: number; cpuS: () => number; rss: () => number; peakSince: (from: number) => number; mark: () => number; stop: () => Promise<void> };
async function startServer(): Promise<Server> {
  const child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'tests/bench/export-server.ts'), FILE], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const samples: number[] = [];
  let cpuUs = 0;
  let port = 0;
  await new Promise<void>((ok, fail) => {
    child.once('exit', (code) => fail(new Error(`export server exited ${code}`)));
    createInterface({ input: child.stdout! }).on('line', (line) => {
      const [k, v] = line.split(' ');
      if (k === 'ready') {
        port = Number(v);
        ok();
      } else if (k === 'rss') {
        samples.push(Number(v));
        cpuUs = Number(line.split(' ')[2]);
      }
    });
  });
  return {
    port,
    rss: () => samples[samples.length - 1] ?? 0,
    cpuS: () => cpuUs / 1e6,
    mark: () => samples.length,
    peakSince: (from) => Math.max(0, ...samples.slice(from)),
    stop: () =>
      new Promise((ok) => {
        child.once('exit', () => ok());
        child.kill('SIGTERM');
      }),
  };
}

/** One export, read to the end: ms to the first body byte and to the last, bytes. */
async function exportOnce(base: string, path: string, token: string, body: unknown) {
  const t0 = performance.now();
  const res = await fetch(base + path, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (res.status !== 200) throw new Error(`${path}: ${res.status} ${await res.text()}`);
  const reader = res.body!.getReader();
  let first = 0;
  let bytes = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (!first) first = performance.now() - t0;
    bytes += value.byteLength;
  }
  return { first, last: performance.now() - t0, bytes, rows: Number(res.headers.get('x-export-total')) };
}

export async function benchExports(): Promise<Figures> {
  mkdirSync(DIR, { recursive: true });
  const f: Figures = { devices: DEVICES, alarm_reports: ALARMS };
  const load = () =>
    loadavg()
      .map((x) => x.toFixed(2))
      .join(' ');
  log(
    `load ${loadavg()
      .map((x) => x.toFixed(2))
      .join(' ')} (2 cores; other work may be running)`,
  );
  if (!existsSync(READY)) {
    log(`building ${FILE} (first run; kept for the next)…`);
    const t = performance.now();
    await build();
    f.build_s = r1((performance.now() - t) / 1000);
  }
  const config = testConfig({ accessTokenSeconds: 3600 });
  const setup = openSqlite(FILE);
  const reader = await signedIn(setup, config, ['SuperAdminReadonlyRole']);
  await setup.destroy();
  const srv = await startServer();
  const base = `http://127.0.0.1:${srv.port}`;
  const admin = () => tokenFor(config, ['SuperAdminRole']);
  try {
    await exportOnce(base, '/api/v1/device/export/list-by-ids', await admin(), { ids: [randomUUID()] }).catch(() => undefined); // warm a worker
    // 1. one export of the typed tenth, BENCH_EXPORT_RUNS times (default 1), one after another
    let base0 = srv.rss();
    let m = srv.mark();
    let cpu0 = srv.cpuS();
    const runs: { first: number; last: number; cpu: number }[] = [];
    let one: Awaited<ReturnType<typeof exportOnce>> | undefined;
    for (let i = 0; i < Math.max(1, Number(process.env.BENCH_EXPORT_RUNS ?? 1)); i++) {
      const c0 = srv.cpuS();
      one = await exportOnce(base, '/api/v1/device/export/list-with-filters', await admin(), { deviceTypeIds: [TYPE_TENTH] });
      runs.push({ first: one.first, last: one.last, cpu: srv.cpuS() - c0 });
      log(
        `one export of ${one.rows} devices: first byte ${Math.round(one.first)} ms, last ${r1(one.last / 1000)} s, server CPU ${r1(srv.cpuS() - c0)} s (load ${load()})`,
      );
    }
    const span = (xs: number[], fmt: (x: number) => number) => (xs.length === 1 ? `${fmt(xs[0]!)}` : `${fmt(Math.min(...xs))}–${fmt(Math.max(...xs))}`);
    f[`export_${TYPED}_first_byte_ms`] = `${span(
      runs.map((r) => r.first),
      Math.round,
    )} (goal < 500)`;
    f[`export_${TYPED}_last_byte_s`] = `${span(
      runs.map((r) => r.last / 1000),
      r1,
    )} (goal < 5)`;
    f[`export_${TYPED}_rss_growth_mb`] = `${r1((srv.peakSince(m) - base0) / MB)} (goal < 100)`;
    f[`export_${TYPED}_file_mb`] = r1(one!.bytes / MB);
    f[`export_${TYPED}_server_cpu_s`] = span(
      runs.map((r) => r.cpu),
      r1,
    );
    f[`export_${TYPED}_runs`] = runs.length;

    // 2. polled GET during 3 device exports and 1 All Time alarm export
    base0 = srv.rss();
    m = srv.mark();
    cpu0 = srv.cpuS();
    const latencies: number[] = [];
    let running = true;
    const poll = (async () => {
      while (running) {
        const t = performance.now();
        const r = await fetch(`${base}/api/v1/get-user-info`, { headers: { authorization: `Bearer ${reader.token}` } });
        await r.arrayBuffer();
        latencies.push(performance.now() - t);
        await new Promise((ok) => setTimeout(ok, 100));
      }
    })();
    const t0 = performance.now();
    await Promise.all([
      ...[0, 1, 2].map(async () => exportOnce(base, '/api/v1/device/export/list-with-filters', await admin(), { deviceTypeIds: [TYPE_TENTH] })),
      (async () => exportOnce(base, '/alarm-report/export-list', await admin(), { alarmClosedDateRangeOption: 7 }))(),
    ]);
    running = false;
    await poll;
    f.concurrent_exports_s = r1((performance.now() - t0) / 1000);
    f.get_during_exports_p95_ms = `${r1(percentileOf(latencies, 95))} (goal < 50)`;
    f.get_during_exports_max_ms = `${r1(Math.max(...latencies))} (goal < 250)`;
    f.get_during_exports_n = latencies.length;
    f.concurrent_server_cpu_s = r1(srv.cpuS() - cpu0);
    f.concurrent_rss_growth_mb = `${r1((srv.peakSince(m) - base0) / MB)} (goal < 150)`;

    // 3. everything
    for (const [name, path, body] of [
      ['all_devices', '/api/v1/device/export/list-with-filters', {}],
      ['all_alarm_reports', '/alarm-report/export-list', { alarmClosedDateRangeOption: 7 }],
    ] as const) {
      base0 = srv.rss();
      m = srv.mark();
      cpu0 = srv.cpuS();
      const r = await exportOnce(base, path, await admin(), body);
      f[`${name}_rows`] = r.rows;
      f[`${name}_s`] = r1(r.last / 1000);
      f[`${name}_server_cpu_s`] = r1(srv.cpuS() - cpu0);
      f[`${name}_rss_growth_mb`] = `${r1((srv.peakSince(m) - base0) / MB)} (flat: not growing with rows)`;
    }
    f.load_after = loadavg()
      .map((x) => x.toFixed(2))
      .join(' ');
  } finally {
    await srv.stop();
  }
  for (const [k, v] of Object.entries(f)) log(`${k}: ${v}`);
  return f;
}
