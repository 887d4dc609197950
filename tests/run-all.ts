// `npm test`: the whole suite, in order. Typecheck, lint and format, unit tests, integration tests on SQLite,
// the same integration tests on PostgreSQL (always in CI; locally when it is reachable), then
// the end-to-end tests in Chromium against the compiled server (`npm run build`, then started as `npm start` starts it). Prints one closing line
// "tests: N passed, N failed" and exits non-zero when anything failed.
import { spawn, spawnSync } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, rmSync } from 'node:fs';
import pg from 'pg';
import { Redis } from 'ioredis';
import { resolve } from 'node:path';
import { stripVTControlCharacters } from 'node:util';

const CI = process.env.CI === 'true' || process.env.CI === '1';
const only = process.argv.slice(2); // e.g. `npm test -- unit integration`
const want = (step: string) => only.length === 0 || only.includes(step);
mkdirSync('.tmp', { recursive: true });

type Result = {
  step: string;
  passed: number;
  failed: number;
  skipped: number;
  ok: boolean;
  note?: string;
  seconds?: number;
  cpu?: number;
  /** The names of the tests that failed, printed again under the summary so a long log need not be searched. */
  failures?: string[];
};
const results: Result[] = [];
const began = Date.now();
/** CPU seconds used by the finished child processes (Linux: cutime + cstime of /proc/self/stat), or 0 elsewhere. */
function childCpu() {
  try {
    const f = (readFileSync('/proc/self/stat', 'utf8').split(') ')[1] ?? '').split(' ');
    return (Number(f[13]) + Number(f[14])) / 100; // fields 16 and 17, in clock ticks of 1/100 s
  } catch {
    return 0;
  }
}
/** When the step now running started: each result is stamped with the time and CPU since the previous one. */
let stepStart = Date.now();
let stepCpu = childCpu();
function record(r: Result) {
  const now = Date.now();
  const cpu = childCpu();
  results.push({ ...r, seconds: (now - stepStart) / 1000, cpu: cpu - stepCpu });
  stepStart = now;
  stepCpu = cpu;
}

/**
 * The niceness of the steps that run while the end-to-end tests run in the background (0 when
 * they do not): the browser tests wait on pages and timers and take the CPU when they need it,
 * the other steps take what is left (see `main`).
 */
let niceness = 0;
const canNice = process.platform === 'linux' && existsSync('/usr/bin/nice');
function run(cmd: string, args: string[], env: Record<string, string> = {}) {
  const [c, a] = niceness > 0 && canNice ? ['/usr/bin/nice', ['-n', String(niceness), cmd, ...args]] : [cmd, args];
  const r = spawnSync(c, a, { stdio: 'inherit', env: { ...process.env, ...env } });
  return r.status === 0;
}

function vitest(step: string, project: string, env: Record<string, string> = {}, files: string[] = [], alsoProjects: string[] = []) {
  const out = `.tmp/vitest-${step}.json`;
  const loadErrors = `.tmp/vitest-${step}-load-errors.json`;
  rmSync(out, { force: true });
  rmSync(loadErrors, { force: true });
  const projects = [project, ...alsoProjects].flatMap((p) => ['--project', p]);
  const ok = run(
    process.execPath,
    [
      'node_modules/vitest/vitest.mjs',
      'run',
      ...projects,
      '--reporter=default',
      '--reporter=json',
      '--reporter=./tests/load-errors-reporter.ts',
      `--outputFile.json=${out}`,
      ...files,
    ],
    { ...env, VITEST_LOAD_ERRORS: loadErrors },
  );
  let passed = 0,
    failed = 0,
    skipped = 0;
  const failures: string[] = [];
  if (existsSync(out)) {
    const j = JSON.parse(readFileSync(out, 'utf8'));
    const why: Record<string, string[]> = existsSync(loadErrors) ? JSON.parse(readFileSync(loadErrors, 'utf8')) : {};
    passed = j.numPassedTests;
    failed = j.numFailedTests;
    skipped = j.numPendingTests + (j.numTodoTests ?? 0);
    for (const file of j.testResults ?? []) {
      const where = String(file.name ?? '').replace(`${process.cwd()}/`, '');
      const bad = (file.assertionResults ?? []).filter((t: { status: string }) => t.status === 'failed');
      for (const t of bad) failures.push(`${where} › ${t.fullName ?? t.title}`);
      if (bad.length === 0 && file.status === 'failed')
        failures.push(`${where} (did not load: ${(why[file.name] ?? [String(file.message ?? '').split('\n')[0]]).join(' / ')})`);
    }
    if (why['(unhandled)']) failures.push(`unhandled errors: ${why['(unhandled)'].join(' / ')}`);
    if (!ok && failed === 0) failed = 1; // a suite that failed to load
  } else if (!ok) failed = 1;
  record({ step, passed, failed, skipped, ok, failures });
}

async function pgReachable() {
  const c = new pg.Client({ connectionString: process.env.TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test', connectionTimeoutMillis: 3000 });
  try {
    await c.connect();
    await c.end();
    return true;
  } catch {
    return false;
  }
}

const TEST_REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
async function redisReachable() {
  const c = new Redis(TEST_REDIS_URL, { lazyConnect: true, connectTimeout: 2000, maxRetriesPerRequest: 0, retryStrategy: () => null });
  c.on('error', () => {}); // reported by the result below
  try {
    await c.connect();
    return (await c.ping()) === 'PONG';
  } catch {
    return false;
  } finally {
    c.disconnect();
  }
}

type PlaywrightResult = { startTime?: string; error?: { message?: string } };
type PlaywrightSuite = {
  title?: string;
  file?: string;
  specs?: { title: string; file?: string; line?: number; tests?: { status: string; results?: PlaywrightResult[] }[] }[];
  suites?: PlaywrightSuite[];
};
/**
 * The tests of the report with that status, earliest first, each with the first line of its first
 * try's error: when one failure leaves the server in a state the later tests trip over, the first
 * line of the list names the cause, and the summary says why without the full log.
 */
function testsWithStatus(suites: PlaywrightSuite[], status: 'unexpected' | 'flaky'): string[] {
  const found: { at: string; line: string }[] = [];
  const walk = (suite: PlaywrightSuite) => {
    for (const spec of suite.specs ?? []) {
      const test = (spec.tests ?? []).find((t) => t.status === status);
      if (!test) continue;
      const first = test.results?.[0];
      const why =
        stripVTControlCharacters(first?.error?.message ?? '')
          .split('\n')
          .find((l) => l.trim() !== '') ?? '';
      const where = `tests/e2e/${spec.file ?? suite.file}:${spec.line ?? 0} › ${spec.title}`;
      found.push({ at: first?.startTime ?? '', line: why ? `${where} (${first?.startTime?.slice(11, 19) ?? ''}: ${why.trim().slice(0, 200)})` : where });
    }
    for (const s of suite.suites ?? []) walk(s);
  };
  for (const s of suites) walk(s);
  return found.sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : 0)).map((f) => f.line);
}

/**
 * Runs a command as a child process that the other steps run beside, through
 * tests/helpers/child-cpu.mjs, with its output in `logFile` (or this process's when undefined).
 * Resolves once it has exited with its status, wall seconds and CPU seconds (undefined where
 * they cannot be read). It is reaped in that turn of the event loop, and from then on its CPU
 * counts in this process's children's: it is taken out of the step running beside it there.
 */
function inBackground(
  name: string,
  cmd: string,
  args: string[],
  logFile: string | undefined,
  env: NodeJS.ProcessEnv = process.env,
): Promise<{ status: number | null; seconds: number; cpu?: number }> {
  const cpuFile = resolve(`.tmp/${name}-cpu.json`);
  rmSync(cpuFile, { force: true });
  const log = logFile === undefined ? undefined : openSync(logFile, 'w');
  const t0 = Date.now();
  return new Promise((done) => {
    const finish = (status: number | null) => {
      if (log !== undefined) closeSync(log);
      const ran = existsSync(cpuFile) ? (JSON.parse(readFileSync(cpuFile, 'utf8')) as { seconds: number; cpu: number | null }) : undefined;
      const cpu = ran?.cpu ?? undefined;
      stepCpu += cpu ?? 0;
      done({ status, seconds: ran?.seconds ?? (Date.now() - t0) / 1000, cpu });
    };
    const child = spawn(process.execPath, ['tests/helpers/child-cpu.mjs', cpuFile, cmd, ...args], {
      stdio: log === undefined ? 'inherit' : ['ignore', log, log],
      env,
    });
    child.on('exit', (code) => finish(code));
    child.on('error', () => finish(null));
  });
}

/**
 * The end-to-end tests in E2E_WORKERS Playwright workers (default 2), each with a server of its own
 * (its own port and data directory, tests/e2e/env.ts): most of a browser test's time is waiting for
 * the page, so two run side by side on two cores (three were no faster: they kept the load at
 * 15–19), and Playwright hands the next file to whichever worker is free.
 */
async function e2e(background: boolean): Promise<Result> {
  const workers = Math.max(1, Number(process.env.E2E_WORKERS ?? 2));
  const out = resolve('.tmp/e2e.json');
  const logFile = resolve('.tmp/e2e.log');
  for (const f of [out, logFile]) rmSync(f, { force: true });
  const ran = await inBackground(
    'e2e',
    process.execPath,
    ['node_modules/@playwright/test/cli.js', 'test', '-c', 'tests/e2e/playwright.config.ts'],
    background ? logFile : undefined,
    { ...process.env, PLAYWRIGHT_JSON_OUTPUT_NAME: out, E2E_WORKERS: String(workers) },
  );
  if (background) {
    console.log(`\n---- e2e (ran in the background; its output, also in .tmp/e2e.log) ----`);
    process.stdout.write(readFileSync(logFile, 'utf8'));
    console.log('---- end of e2e ----');
  }
  const ok = ran.status === 0;
  let passed = 0,
    failed = 0,
    skipped = 0;
  const failures: string[] = [];
  const flaky: string[] = [];
  if (existsSync(out)) {
    const report = JSON.parse(readFileSync(out, 'utf8'));
    const s = report.stats ?? {};
    passed = (s.expected ?? 0) + (s.flaky ?? 0);
    failed = s.unexpected ?? 0;
    skipped = s.skipped ?? 0;
    failures.push(...testsWithStatus(report.suites ?? [], 'unexpected'));
    flaky.push(...testsWithStatus(report.suites ?? [], 'flaky'));
  }
  if (!ok && failed === 0) failed = 1;
  const note = `${workers} workers, a server each${background ? ', beside the other steps' : ''}${flaky.length ? `; passed on a second try: ${flaky.join('; ')}` : ''}`;
  return { step: 'e2e', passed, failed, skipped, ok, failures, note, seconds: ran.seconds, cpu: ran.cpu };
}

/** better-sqlite3's native module, which `npm ci` compiles (allowScripts) and `npm ci --ignore-scripts` leaves out. */
const NATIVE_SQLITE = 'node_modules/better-sqlite3/build/Release/better_sqlite3.node';

/**
 * Compiles better-sqlite3 in the background when it is not built yet (CI installs with
 * `npm ci --ignore-scripts`; see .ci/run), its output kept in .tmp/native-build.log. The compile
 * is one C file on one core for two minutes: the checks and the build, which need no native
 * module, run beside it on the other core instead of after it. Undefined when it is built.
 */
function nativeBuild(): Promise<Result> | undefined {
  if (existsSync(NATIVE_SQLITE)) return undefined;
  console.log('better-sqlite3 is not compiled yet: compiling it in the background (npm rebuild better-sqlite3) beside the checks and the build\n');
  const logFile = resolve('.tmp/native-build.log');
  return inBackground('native-build', 'npm', ['rebuild', 'better-sqlite3'], logFile).then(({ status, seconds, cpu }) => {
    const built = status === 0 && existsSync(NATIVE_SQLITE);
    if (!built) process.stdout.write(readFileSync(logFile, 'utf8'));
    const note = built ? 'beside the checks and the build' : 'see the output above';
    return { step: 'native-build', passed: built ? 1 : 0, failed: built ? 0 : 1, skipped: 0, ok: built, note, seconds, cpu };
  });
}

async function main() {
  // better-sqlite3 compiled beside the checks when the install left it out (CI).
  const native = nativeBuild();

  // Typecheck, lint and format one after another: run side by side on two cores they took longer
  // (83 s against 56 s on a fresh clone), each step's threads competing for the same cores.
  const checks = () => {
    const list: [string, string[], string | undefined][] = [];
    // TypeScript 7 (native) checks the types; the `typescript` package (5.9) serves ESLint only.
    if (want('typecheck')) list.push(['typecheck', ['node_modules/tsgo/bin/tsc', '--noEmit', '-p', 'tsconfig.json'], undefined]);
    if (want('lint')) {
      // Oxlint for the rules that need types (no dropped promises: .oxlintrc.json), ESLint for the
      // rest (typescript-eslint, react-hooks, import directions), and Oxfmt for the formatting
      // (Prettier's style and options, .oxfmtrc.json; under a second where Prettier took 33 s).
      list.push(['lint-types', ['node_modules/oxlint/bin/oxlint', '--type-aware', '--deny-warnings'], undefined]);
      list.push(['lint', ['node_modules/eslint/bin/eslint.js', '--max-warnings=0', '.'], undefined]);
      list.push(['format', ['node_modules/oxfmt/bin/oxfmt', '--check'], 'run `npm run format`']);
    }
    for (const [step, args, hint] of list) {
      const ok = run(process.execPath, args);
      record({ step, passed: ok ? 1 : 0, failed: ok ? 0 : 1, skipped: 0, ok, note: ok ? undefined : hint });
    }
  };
  if (native) checks();

  // The end-to-end tests first, in the background: a browser test spends most of its time waiting
  // for the page (two workers used about 0.65 of the two cores), so the other steps run beside
  // them, niced, and take the CPU the browsers leave. The build comes first because the
  // end-to-end servers and the integration tests' compiled servers both run dist/server (the
  // integration set-up compiles only a stale build, and nothing edits the sources during a run).
  const others = ['typecheck', 'lint', 'unit', 'integration', 'pg', 'redis', 'cluster'].some(want);
  let e2eRun: Promise<Result> | undefined;
  if (want('e2e')) {
    // What ships: the build as the README's production commands make it (`npm run build`: the client
    // and the compiled server), which the end-to-end servers then run as `npm start` does.
    const built = run('npm', ['run', '--silent', 'build']);
    record({ step: 'build', passed: built ? 1 : 0, failed: built ? 0 : 1, skipped: 0, ok: built });
    if (native) results.push(await native);
    if (built) {
      // The sign-in page's bundle within its budget, and every asset precompressed (tests/bundle-budget.ts).
      const budget = run(process.execPath, ['--import', 'tsx', 'tests/bundle-budget.ts']);
      record({
        step: 'bundle-budget',
        passed: budget ? 1 : 0,
        failed: budget ? 0 : 1,
        skipped: 0,
        ok: budget,
        note: budget ? undefined : 'see the sizes above',
      });
      const beside = others && process.env.E2E_BESIDE !== '0';
      e2eRun = e2e(beside);
      if (beside) {
        niceness = 10;
        console.log('\ne2e: running in the background beside the steps below (its output is printed when it ends)\n');
      }
    } else results.push({ step: 'e2e', passed: 0, failed: 1, skipped: 0, ok: false, note: 'the build failed' });
  } else if (native) results.push(await native);

  if (!native) checks();
  if (want('unit')) vitest('unit', 'unit', {}, [], ['unit-dom']);
  if (want('integration')) vitest('integration-sqlite', 'integration');
  if (want('integration') || want('pg')) {
    if (await pgReachable()) vitest('integration-pg', 'integration', { TEST_DB: 'pg' });
    else if (CI)
      record({
        step: 'integration-pg',
        passed: 0,
        failed: 1,
        skipped: 0,
        ok: false,
        note: 'PostgreSQL is not reachable at 127.0.0.1:5432 (required in CI)',
      });
    else record({ step: 'integration-pg', passed: 0, failed: 0, skipped: 0, ok: true, note: 'skipped: PostgreSQL not reachable' });
  }
  // Rate limits shared by two nodes through Redis and the Redis pub/sub bus (the other integration steps test them in memory).
  if (want('integration') || want('redis')) {
    if (await redisReachable())
      vitest('integration-redis', 'integration', { TEST_REDIS_URL }, [
        'tests/integration/rate-limit.test.ts',
        'tests/integration/captcha.test.ts',
        'tests/integration/redis.test.ts',
        'tests/integration/live-redis.test.ts',
        'tests/integration/settings-live.test.ts',
        'tests/integration/record-live.test.ts',
        'tests/integration/export-cluster.test.ts',
      ]);
    else if (CI)
      record({
        step: 'integration-redis',
        passed: 0,
        failed: 1,
        skipped: 0,
        ok: false,
        note: `Redis is not reachable at ${TEST_REDIS_URL} (required in CI)`,
      });
    else record({ step: 'integration-redis', passed: 0, failed: 0, skipped: 0, ok: true, note: 'skipped: Redis not reachable' });
  }
  // Two compiled nodes on a PostgreSQL and a Redis the tests start themselves: several nodes as one, and restarts of what they depend on.
  if (want('integration') || want('cluster')) vitest('integration-cluster', 'cluster');
  if (e2eRun) {
    niceness = 0;
    results.push(await e2eRun);
  }

  console.log("\nSummary (wall time, and CPU time of the step's processes)");
  for (const r of results)
    console.log(
      `  ${r.ok ? 'ok  ' : 'FAIL'} ${r.step.padEnd(20)} ${`${Math.round(r.seconds ?? 0)} s`.padStart(6)} ${(r.cpu === undefined ? 'cpu beside' : `cpu ${Math.round(r.cpu)} s`).padStart(10)}  ${r.passed} passed, ${r.failed} failed${r.skipped ? `, ${r.skipped} skipped` : ''}${r.note ? `  (${r.note})` : ''}`,
    );
  const failures = results.flatMap((r) => (r.failures ?? []).map((f) => `  ${r.step}: ${f}`));
  if (failures.length) console.log(`\nFailed:\n${failures.join('\n')}`);
  const passed = results.reduce((a, r) => a + r.passed, 0);
  const failed = results.reduce((a, r) => a + r.failed, 0);
  const skipped = results.reduce((a, r) => a + r.skipped, 0);
  console.log(`\nwhole suite: ${Math.round((Date.now() - began) / 1000)} s`);
  console.log(`tests: ${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
  process.exit(results.every((r) => r.ok) && failed === 0 ? 0 : 1);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
