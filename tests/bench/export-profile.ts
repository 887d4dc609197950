// The device export's CPU time, measured in one thread with nothing else in the way:
//   node --import tsx tests/bench/export-profile.ts            (figures)
//   node --cpu-prof --cpu-prof-dir .tmp/prof --import tsx tests/bench/export-profile.ts   (and a profile)
// Builds (once, kept under .tmp/bench-export-profile) a SQLite file of PROFILE_DEVICES devices
// (default 1,000,000, a tenth of one type, as the export benchmark's), then runs the export task of
// that tenth (PROFILE_ALL=1: of every device, e.g. PROFILE_DEVICES=100000 for a quicker build)
// PROFILE_RUNS times (default 4; the first warms the JIT) in this thread over the task's
// port protocol, the reader acknowledging every chunk at once, and prints each run's CPU time of
// the process (every thread: the zip compresses on libuv's) and its wall time, with the load.
// PROFILE_OUT=file.xlsx keeps the last run's file.
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { loadavg } from 'node:os';
import { MessageChannel } from 'node:worker_threads';
import { sql } from 'kysely';
import { openSqlite, openSqliteReadOnly } from '../../src/server/db/index.js';
import { migrateToLatest } from '../../src/server/db/migrations.js';
import { seedReferenceData } from '../../src/server/seed/reference.js';
import '../../src/server/modules/export-definitions.js'; // the modules' export kinds
import { exportTask, type TaskMessage } from '../../src/server/exports/task.js';
import { ALL_TENANTS } from '../../src/server/auth/tenant-scope.js';
import { EXPORT_ROW_CAP } from '../../src/shared/export-format.js';
import { insertBenchDevices, TYPE_TENTH } from './harness/export-data.js';
import * as v from 'valibot';
import { deviceListBody } from '../../src/shared/schemas/devices.js';

const ROOT = resolve(import.meta.dirname, '../..');
const DEVICES = Number(process.env.PROFILE_DEVICES ?? 1_000_000);
const RUNS = Number(process.env.PROFILE_RUNS ?? 4);
const DIR = join(ROOT, '.tmp/bench-export-profile');
const FILE = join(DIR, `devices-${DEVICES}.sqlite`);
const READY = `${FILE}.ready`;
const load = () =>
  loadavg()
    .map((x) => x.toFixed(2))
    .join(' ');

if (!existsSync(READY)) {
  mkdirSync(DIR, { recursive: true });
  for (const f of [FILE, `${FILE}-wal`, `${FILE}-shm`]) rmSync(f, { force: true });
  console.log(`building ${FILE}…`);
  const db = openSqlite(FILE);
  await migrateToLatest(db);
  await seedReferenceData(db);
  await insertBenchDevices(db, DEVICES);
  await sql`analyze`.execute(db);
  await db.destroy();
  writeFileSync(READY, '');
}

const db = openSqliteReadOnly(FILE);
console.log(`load before ${load()} (2 cores)`);
for (let run = 1; run <= RUNS; run++) {
  const { port1, port2 } = new MessageChannel();
  const chunks: Uint8Array[] = [];
  let bytes = 0;
  port1.on('message', (m: TaskMessage) => {
    if (m.type === 'data') {
      bytes += m.chunk.byteLength;
      if (process.env.PROFILE_OUT && run === RUNS) chunks.push(m.chunk);
      port1.postMessage({ type: 'ack', bytes: m.chunk.byteLength });
    } else if (m.type === 'end') port1.close();
  });
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const r = await exportTask(
    db,
    {
      kind: 'devices',
      filter: v.parse(deviceListBody, process.env.PROFILE_ALL ? {} : { deviceTypeIds: [TYPE_TENTH] }),
      now: new Date().toISOString(),
      scope: ALL_TENANTS,
    },
    port2,
    EXPORT_ROW_CAP,
  );
  const wall = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  console.log(
    `run ${run}: ${r.written} rows, ${(bytes / 1024 / 1024).toFixed(1)} MB, CPU ${((cpu.user + cpu.system) / 1e6).toFixed(2)} s (user ${(cpu.user / 1e6).toFixed(2)}), wall ${(wall / 1000).toFixed(2)} s, load ${load()}`,
  );
  if (process.env.PROFILE_OUT && run === RUNS) writeFileSync(process.env.PROFILE_OUT, Buffer.concat(chunks));
}
await db.destroy();
