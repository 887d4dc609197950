// Shared setup of the browser benchmarks (palette, persons-list): build the client when missing,
// start the real server (node --import tsx src/server/main.ts) over a cached scale-1 demo data
// directory, launch Chromium through playwright-core and sign in through the form.
// Everything started here is stopped by `withBench` (also when the benchmark throws).
import { solvedCaptcha } from '../helpers/captcha';
import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { createWriteStream, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
export const DATA_DIR = join(ROOT, '.tmp/bench-data-scale1');
export const SQLITE_FILE = join(DATA_DIR, 'workspace.sqlite');
export const ADMIN_EMAIL = 'admin@demo.test';
export const DEMO_PASSWORD = 'Demo-Passw0rd!';
export const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync'];
export const VIEWPORT = { width: 1440, height: 900 };

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
export const log = (s: string) => console.log(`  ${s}`);

/** "load 1.23 0.98 0.77 (2 cores)" — the benchmarks print it beside their figures. */
export const loadNote = () =>
  `load ${loadavg()
    .map((n) => n.toFixed(2))
    .join(' ')}`;

export const round1 = (n: number) => Math.round(n * 10) / 10;

export function ensureClientBuilt() {
  if (existsSync(join(ROOT, 'dist/client/index.html'))) return;
  log('building the client (dist/client/index.html missing)…');
  execFileSync(process.execPath, [join(ROOT, 'node_modules/vite/bin/vite.js'), 'build', '--logLevel', 'warn'], { cwd: ROOT, stdio: 'inherit' });
}

function portIsFree(port: number): Promise<boolean> {
  return new Promise((res) => {
    const s = createServer();
    s.once('error', () => res(false));
    s.listen(port, '127.0.0.1', () => s.close(() => res(true)));
  });
}

export async function freePort(preferred: number): Promise<number> {
  for (let p = preferred; p < preferred + 20; p++) if (await portIsFree(p)) return p;
  return new Promise((res, rej) => {
    const s = createServer();
    s.once('error', rej);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => res(port));
    });
  });
}

export type BenchServer = { url: string; port: number; stop: () => Promise<void>; pid: number };

const children = new Set<ChildProcess>();
process.once('exit', () => {
  for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
});

/** Where the demo data of a scale is kept (scale 1: DATA_DIR). */
export const dataDirOf = (scale: number) => (scale === 1 ? DATA_DIR : join(ROOT, `.tmp/bench-data-scale${scale}`));

export type ServerOptions = {
  /** Demo data scale (1: 100,000 devices); each scale has a data directory of its own. */
  scale?: number;
  /** Run the compiled server as `npm start` does (bin/start.mjs: dist/server, compiled first when older than a source). */
  compiled?: boolean;
  /** More environment for the server (GATEWAY_KEYS, SIMULATOR ...). */
  env?: Record<string, string>;
};

/** The real server over the cached demo data (scale 1 unless told; generated on the first run, ~1 min or more). */
export async function startServer(preferredPort = 8391, opts: ServerOptions = {}): Promise<BenchServer> {
  const scale = opts.scale ?? 1;
  const dataDir = dataDirOf(scale);
  const sqliteFile = join(dataDir, 'workspace.sqlite');
  /** Written once the server has answered /health over a fully generated data directory. */
  const readyMarker = join(dataDir, 'bench-ready.json');
  ensureClientBuilt();
  if (existsSync(sqliteFile) && !existsSync(readyMarker)) {
    // A generation that did not finish: start over rather than measure half a data set.
    log(`${dataDir} holds an unfinished data set: generating it again`);
    rmSync(dataDir, { recursive: true, force: true });
  }
  mkdirSync(dataDir, { recursive: true });
  const fresh = !existsSync(sqliteFile);
  if (fresh) log(`generating the scale-${scale} demo data in ${dataDir} (first run; ~1 minute at scale 1, longer on a busy machine)…`);
  const port = await freePort(preferredPort);
  const logFile = join(ROOT, '.tmp/bench-server.log');
  const out = createWriteStream(logFile, { flags: 'w' });
  const child = spawn(process.execPath, opts.compiled ? ['bin/start.mjs'] : ['--import', 'tsx', 'src/server/main.ts'], {
    cwd: ROOT,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      SCALE: String(scale),
      LOG_REQUESTS: 'false',
      SKIP_CLIENT_BUILD: '1',
      ...opts.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.add(child);
  child.stdout!.pipe(out);
  child.stderr!.pipe(out);
  const exited = new Promise<number | null>((res) => child.once('exit', (code) => res(code)));

  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    const t = setTimeout(() => child.kill('SIGKILL'), 8000);
    await exited;
    clearTimeout(t);
    children.delete(child);
  };

  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + (fresh ? 15 : 2) * 60_000;
  let dead = false;
  void exited.then(() => (dead = true));
  while (true) {
    if (dead) throw new Error(`the bench server exited early (code ${child.exitCode}); see ${logFile}`);
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`the bench server did not answer /health in time; see ${logFile}`);
    }
    try {
      const r = await fetch(`${url}/health`);
      if (r.status === 200) break;
    } catch {
      /* not listening yet */
    }
    await sleep(fresh ? 1000 : 200);
  }
  if (!existsSync(readyMarker)) writeFileSync(readyMarker, JSON.stringify({ scale, readyAt: new Date().toISOString() }) + '\n');
  return { url, port, stop, pid: child.pid ?? 0 };
}

export async function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS });
}

export async function newContext(browser: Browser, baseURL: string): Promise<BrowserContext> {
  return browser.newContext({ viewport: VIEWPORT, baseURL });
}

/**
 * Chromium with a new profile of its own on the disk, as a person's browser keeps it: its HTTP cache
 * and the compiled code V8 keeps beside a cached script are on the disk. A context of `newContext`
 * is an off-the-record profile, whose caches live in memory and which keeps no compiled code, so a
 * start there compiles every script afresh. `close` ends the browser and removes the profile.
 */
export async function freshProfile(baseURL: string): Promise<{ context: BrowserContext; close: () => Promise<void> }> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-profile-'));
  const context = await chromium.launchPersistentContext(dir, { executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS, viewport: VIEWPORT, baseURL });
  return {
    context,
    close: async () => {
      await context.close().catch(() => undefined);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Signs in through the form (labels Email and Password, Enter) and waits for the side navigation. */
export async function signIn(page: Page, baseUrl: string, email = ADMIN_EMAIL, password = DEMO_PASSWORD) {
  await page.goto(`${baseUrl}/login`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByLabel('Password', { exact: true }).press('Enter');
  await page.getByRole('navigation').first().waitFor({ state: 'visible', timeout: 60_000 });
}

/** A token straight from the API (password grant), for pages outside the app (the harness). */
export async function apiTokens(baseUrl: string, email = ADMIN_EMAIL, password = DEMO_PASSWORD) {
  const res = await fetch(`${baseUrl}/connect/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
    body: new URLSearchParams({
      grant_type: 'password',
      client_id: 'portal',
      username: email,
      password,
      captchaResponse: await solvedCaptcha((path) => fetch(`${baseUrl}${path}`)),
    }).toString(),
  });
  if (!res.ok) throw new Error(`token for ${email}: ${res.status} ${await res.text()}`);
  return (await res.json()) as { access_token: string; token_type: string; refresh_token: string; expires_in: number };
}

export type Bench = { server: BenchServer; browser: Browser; context: BrowserContext; page: Page };

/**
 * Starts the server and Chromium, opens a signed-in page (unless signedIn is false), runs `fn`
 * and always stops both. `cleanups` registered by `fn` run first (e.g. a Vite preview server).
 */
export async function withBench<T>(
  fn: (b: Bench, onCleanup: (f: () => unknown) => void) => Promise<T>,
  opts: { signedIn?: boolean; initScript?: string; server?: ServerOptions } = {},
): Promise<T> {
  const cleanups: (() => unknown)[] = [];
  let server: BenchServer | undefined;
  let browser: Browser | undefined;
  try {
    server = await startServer(undefined, opts.server);
    browser = await launchChromium();
    const context = await newContext(browser, server.url);
    if (opts.initScript) await context.addInitScript({ content: opts.initScript });
    const page = await context.newPage();
    if (opts.signedIn !== false) await signIn(page, server.url);
    return await fn({ server, browser, context, page }, (f) => cleanups.push(f));
  } finally {
    for (const f of cleanups.reverse()) {
      try {
        await f();
      } catch (e) {
        console.error(`  cleanup failed: ${(e as Error).message}`);
      }
    }
    await browser?.close().catch(() => undefined);
    await server?.stop();
  }
}
