// Records open in tabs, against a real server in a process of its own (tests/bench/live-server.ts)
// over a SQLite file, as `npm start` runs: BENCH_HUB_CLIENTS users (default 500, ARC controllers)
// each connect the official @microsoft/signalr client and open one of the alarm reports
// (BENCH_RECORD_WATCHERS users per report, default 10, so each report is open in that many tabs);
// then BENCH_RECORD_NOTES notes (default 200) are added, BENCH_RECORD_RATE a second (default 10),
// each by one of the report's users through POST /alarm-report/add-note. Measured: from sending
// the note to its RecordChanged arriving at each of the report's other tabs, p50/p95/p99 (goal
// p95 < 2 s, the time the product promises), and how many arrived of those expected (0 lost);
// the connect and open time of all users; the server's CPU per note.
// Imported by tests/bench/run.ts (`npm run bench -- record-notes`).
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawn, type ChildProcess } from 'node:child_process';
import { HttpTransportType, HubConnectionBuilder, LogLevel, type HubConnection } from '@microsoft/signalr';
import { percentile } from './stats.js';
import { testConfig } from '../../src/server/platform/config.js';
import { openSqlite } from '../../src/server/db/index.js';
import { migrateToLatest } from '../../src/server/db/migrations.js';
import { seedReferenceData } from '../../src/server/seed/reference.js';
import { signedIn } from '../helpers/auth.js';
import { insertAlarmReport } from '../helpers/alarm-reports.js';
import { RECORD_CHANGED_EVENT, RECORD_METHODS, type OpenRecordResult, type RecordChangedEvent } from '../../src/shared/schemas/record-live.js';

const num = (name: string, dflt: number) => (process.env[name] ? Number(process.env[name]) : dflt);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function startServer(file: string): Promise<{ child: ChildProcess; port: number; stop: () => Promise<void> }> {
  const child = spawn(process.execPath, ['--expose-gc', '--import', 'tsx', 'tests/bench/live-server.ts', file, '0'], { stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise<number>((resolve, reject) => {
    let buf = '';
    child.stdout!.on('data', (d: Buffer) => {
      buf += d.toString();
      const m = /ready (\d+)/.exec(buf);
      if (m) resolve(Number(m[1]));
    });
    child.once('exit', (code) => reject(new Error(`bench server exited (${code})`)));
  });
  return {
    child,
    port,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}
/** The bench server's CPU time so far (user + system), in ms (live-server.ts answers SIGUSR1). */
function cpuOf(child: ChildProcess): Promise<number> {
  return new Promise((resolve) => {
    const onData = (d: Buffer) => {
      const m = /mem (\d+) (\d+) (\d+)/.exec(d.toString());
      if (!m) return;
      child.stdout!.off('data', onData);
      resolve(Number(m[3]) / 1000);
    };
    child.stdout!.on('data', onData);
    child.kill('SIGUSR1');
  });
}

export async function benchRecordNotes(): Promise<Record<string, number | string>> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-record-notes-'));
  const file = join(dir, 'bench.sqlite');
  const db = openSqlite(file);
  await migrateToLatest(db);
  await seedReferenceData(db);
  const config = testConfig({ accessTokenSeconds: 3600 });
  const out: Record<string, number | string> = {};

  const nUsers = num('BENCH_HUB_CLIENTS', 500);
  const perReport = Math.max(2, num('BENCH_RECORD_WATCHERS', 10));
  const nNotes = num('BENCH_RECORD_NOTES', 200);
  const rate = num('BENCH_RECORD_RATE', 10);
  const nReports = Math.max(1, Math.ceil(nUsers / perReport));
  const reports: string[] = [];
  for (let i = 0; i < nReports; i++) reports.push((await insertAlarmReport(db, {})).id);
  const users: { id: string; token: string; report: string }[] = [];
  for (let i = 0; i < nUsers; i++) users.push({ ...(await signedIn(db, config, ['ArcControllerRole'])), report: reports[i % nReports]! });
  await db.destroy();

  const srv = await startServer(file);
  const base = `http://127.0.0.1:${srv.port}`;
  const conns: HubConnection[] = [];
  /** note text → when it was sent; arrivals per note */
  const sentAt = new Map<string, number>();
  const latencies: number[] = [];
  let arrived = 0;
  try {
    // ---------------------------------------------------------------- every user's tab opens its report
    const t0 = performance.now();
    let next = 0;
    await Promise.all(
      Array.from({ length: 50 }, async () => {
        while (next < users.length) {
          const u = users[next++]!;
          const n = await fetch(`${base}/api/admin/negotiate?userid=${u.id}`, { method: 'POST', headers: { authorization: `Bearer ${u.token}` } });
          const { Url, AccessToken } = (await n.json()) as { Url: string; AccessToken: string };
          const c = new HubConnectionBuilder()
            .withUrl(Url, { accessTokenFactory: () => AccessToken, transport: HttpTransportType.WebSockets, skipNegotiation: true })
            .configureLogging(LogLevel.None)
            .build();
          c.on(RECORD_CHANGED_EVENT, (e: RecordChangedEvent) => {
            if (e.ByUserId === u.id || !e.Note) return;
            const at = sentAt.get(e.Note.Note);
            if (at === undefined) return;
            latencies.push(performance.now() - at);
            arrived++;
          });
          await c.start();
          const r = await c.invoke<OpenRecordResult>(RECORD_METHODS.open, 'alarm-report', u.report);
          if (!r.Open) throw new Error('openRecord refused');
          conns.push(c);
        }
      }),
    );
    out.recordUsersConnected = conns.length;
    out.recordConnectAndOpenMs = Math.round(performance.now() - t0);

    // ---------------------------------------------------------------- notes at a steady rate
    const cpu0 = await cpuOf(srv.child);
    const posts: Promise<unknown>[] = [];
    let expected = 0;
    for (let i = 0; i < nNotes; i++) {
      const u = users[(i * 7) % users.length]!;
      const text = `Bench note ${i}`;
      expected += users.filter((x) => x.report === u.report).length - 1;
      sentAt.set(text, performance.now());
      posts.push(
        fetch(`${base}/alarm-report/add-note`, {
          method: 'POST',
          headers: { authorization: `Bearer ${u.token}`, 'content-type': 'application/json' },
          body: JSON.stringify({ alarmReportId: u.report, note: text }),
        }).then((r) => r.status),
      );
      await sleep(1000 / rate);
    }
    const statuses = await Promise.all(posts);
    const end = Date.now() + 10_000;
    while (arrived < expected && Date.now() < end) await sleep(50);
    const cpuMs = (await cpuOf(srv.child)) - cpu0;

    latencies.sort((a, b) => a - b);
    out.recordNotes = nNotes;
    out.recordNotesRefused = statuses.filter((s) => s !== 200).length;
    out.recordDeliveriesExpected = expected;
    out.recordDeliveries = arrived;
    out.recordNoteToTabP50Ms = Math.round(percentile(latencies, 50));
    out.recordNoteToTabP95Ms = Math.round(percentile(latencies, 95));
    out.recordNoteToTabP99Ms = Math.round(percentile(latencies, 99));
    out.recordGoal = 'p95 < 2000 ms, 0 lost';
    out.recordServerCpuPerNoteMs = Number((cpuMs / nNotes).toFixed(2));
    out.recordLoad = loadavg()[0]!.toFixed(2);
    console.log(
      `  record notes: ${nUsers} users on ${nReports} reports (${perReport} tabs each), connected and opened in ${out.recordConnectAndOpenMs} ms; ` +
        `${nNotes} notes at ${rate}/s: note to the other tabs p50 ${out.recordNoteToTabP50Ms} ms, p95 ${out.recordNoteToTabP95Ms} ms, p99 ${out.recordNoteToTabP99Ms} ms ` +
        `(goal p95 < 2,000 ms); ${arrived} of ${expected} delivered; server CPU ${out.recordServerCpuPerNoteMs} ms per note; load ${out.recordLoad}`,
    );
  } finally {
    for (const c of conns) await c.stop().catch(() => {});
    await srv.stop();
    rmSync(dir, { recursive: true, force: true });
  }
  return out;
}
