// `npm run bench`: prints the figures the issues ask for. Goals are printed beside the figures;
// nothing here fails a build (speed goals live in benchmarks, not timed tests).
// Select parts: `npm run bench -- seed search token palette persons-list devices paging scan alarm-reports print customers ingest record-notes exports alarm-intelligence management-report fleet alarm-import crash soak first-load`.
// `crash` (kill -9 under load, about 23 minutes) and `soak` (a compressed shift, an hour or so at full size) run only when named.
import { loadavg } from 'node:os';

const parts = process.argv.slice(2);
const ONLY_WHEN_NAMED = new Set(['crash', 'soak']);
const want = (p: string) => (parts.length === 0 && !ONLY_WHEN_NAMED.has(p)) || parts.includes(p);

type Figures = Record<string, number | string>;
const all: Record<string, Figures> = {};

async function section(name: string, fn: () => Promise<Figures>) {
  if (!want(name)) return;
  const load = () =>
    loadavg()
      .map((l) => l.toFixed(2))
      .join(' ');
  console.log(`\n== ${name}  (load before: ${load()})`);
  const t = performance.now();
  const cpu = process.cpuUsage();
  try {
    all[name] = await fn();
  } catch (e) {
    console.log(`  ${name} failed: ${(e as Error).stack ?? e}`);
    all[name] = { error: String((e as Error).message ?? e) };
  }
  const used = process.cpuUsage(cpu);
  // The bench process's own CPU; servers and browsers it starts are other processes.
  console.log(
    `  (${((performance.now() - t) / 1000).toFixed(1)} s wall, ${((used.user + used.system) / 1e6).toFixed(1)} s CPU of this process, load after: ${load()})`,
  );
}

async function main() {
  await section('seed', async () => (await import('./seed.bench.js')).benchSeed());
  await section('search', async () => (await import('./search.bench.js')).benchSearch());
  await section('token', async () => (await import('./token.bench.js')).benchToken());
  await section('palette', async () => (await import('./palette.bench.js')).benchPalette());
  await section('persons-list', async () => (await import('./persons-list.bench.js')).benchPersonsList());
  await section('devices', async () => (await import('./devices.bench.js')).benchDevices());
  await section('paging', async () => (await import('./paging.bench.js')).benchPaging());
  await section('scan', async () => (await import('./scan.bench.js')).benchScan());
  await section('alarm-reports', async () => (await import('./alarm-reports.bench.js')).benchAlarmReports());
  await section('print', async () => (await import('./print.bench.js')).benchPrint());
  await section('customers', async () => (await import('./customers.bench.js')).benchCustomers());
  await section('ingest', async () => (await import('./ingest.bench.js')).benchIngest());
  await section('record-notes', async () => (await import('./record-notes.bench.js')).benchRecordNotes());
  await section('exports', async () => (await import('./exports.bench.js')).benchExports());
  await section('alarm-intelligence', async () => (await import('./alarm-intelligence.bench.js')).benchAlarmIntelligence());
  await section('management-report', async () => (await import('./management-report.bench.js')).benchManagementReport());
  await section('fleet', async () => (await import('./fleet.bench.js')).benchFleet());
  await section('alarm-import', async () => (await import('./alarm-import.bench.js')).benchAlarmImport());
  await section('crash', async () => (await import('./crash.bench.js')).benchCrash());
  await section('soak', async () => (await import('./soak.bench.js')).benchSoak());
  await section('first-load', async () => (await import('./first-load.bench.js')).benchFirstLoad());
  console.log('\n== summary');
  for (const [k, f] of Object.entries(all)) for (const [m, v] of Object.entries(f)) console.log(`  ${k}.${m}: ${v}`);
}

main().then(
  () => process.exit(0),
  (e) => {
    console.error(e);
    process.exit(1);
  },
);
