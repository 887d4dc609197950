// First load in Chromium over a throttled link (Chromium's network emulation through CDP: 10 Mbit/s
// down and up, 40 ms latency), against the real server and the built client (dist/client, as
// `npm run build` makes it: precompressed assets, hashed files cached for a year).
//
// Each run starts Chromium with a new profile on the disk (freshProfile in browser.ts), as a person's
// browser keeps one: its HTTP cache and V8's compiled code of cached scripts on the disk. (An
// off-the-record context, Playwright's newContext, keeps no compiled code: every start there
// compiles each script afresh, which no person's browser does from its third start on.)
//
//   cold   a fresh browser profile (empty cache): from navigating to /login to the sign-in form
//          being usable (Email field enabled), then from pressing Enter on the filled form to an
//          interactive workspace (side navigation shown, nothing in the main area busy). The
//          credentials are typed at once, so the workspace's chunks, fetched ahead while the
//          sign-in page idles, are counted when they have not arrived. Goal: the sum < 1.5 s.
//   warm   the same profile opening the app again, signed in (the session is kept), from
//          navigating to / to an interactive workspace. Goal < 400 ms, and no JavaScript
//          downloaded: every script from the browser's cache.
//
// A warm start is timed on the page's own clock: from the navigation's start (performance's time
// origin, what a person pressing Enter in the address bar starts) to the first animation frame in
// which the workspace is interactive, noted by a small script of the benchmark's own that the
// browser runs before the page's (an init script). The harness learns the time by asking the page
// (CDP Runtime.evaluate) every 25 ms, so none of its own work runs on the page's main thread before
// that frame. Playwright's locators would: their injected script (evaluated in the page at the first
// locator, 25–30 ms of main thread on the 2-core machine) and their polling on every frame are the
// harness's cost, not the product's. The harness's wall time (from its goto to seeing the mark) is
// printed beside it, and Playwright's check of the same state runs after the mark, as a check.
//
// Per run: bytes over the wire by kind (scripts, stylesheets, documents, API), the page's main-
// thread time (CDP Performance.getMetrics: TaskDuration, ScriptDuration) and the load.
// `npm run bench -- first-load`; FIRST_LOAD_RUNS (default 5), BENCH_PORT (default 8391), BENCH_SCALE (default 1: the demo data
// set the other browser benchmarks use; 0.01 checks that it runs).
import { percentileOf } from './stats.js';
import { join } from 'node:path';
import { ADMIN_EMAIL, DEMO_PASSWORD, freshProfile, loadNote, log, ROOT, round1, startServer } from './browser.js';
import { SIGN_IN_BUDGET, signInBundle } from '../helpers/sign-in-bundle.js';
import type { BrowserContext, CDPSession, Page } from 'playwright-core';

const GOAL_COLD_MS = 1500;
const GOAL_WARM_MS = 400;
export const THROTTLE = { offline: false, latency: 40, downloadThroughput: (10 * 1_000_000) / 8, uploadThroughput: (10 * 1_000_000) / 8 };

type Traffic = { script: number; stylesheet: number; document: number; api: number; other: number; scriptsFromNetwork: number; scriptsFromCache: number };

/** Counts what the page fetched from the network (encoded bytes) and which scripts came from the cache. */
async function watchTraffic(cdp: CDPSession) {
  const types = new Map<string, string>();
  const cached = new Set<string>();
  const t: Traffic = { script: 0, stylesheet: 0, document: 0, api: 0, other: 0, scriptsFromNetwork: 0, scriptsFromCache: 0 };
  cdp.on('Network.requestWillBeSent', (e) => types.set(e.requestId, e.type ?? 'Other'));
  cdp.on('Network.requestServedFromCache', (e) => cached.add(e.requestId));
  cdp.on('Network.responseReceived', (e) => {
    types.set(e.requestId, e.type);
    if (e.response.fromDiskCache || e.response.fromPrefetchCache) cached.add(e.requestId);
  });
  cdp.on('Network.loadingFinished', (e) => {
    const type = types.get(e.requestId) ?? 'Other';
    const fromCache = cached.has(e.requestId);
    if (type === 'Script') {
      if (fromCache) t.scriptsFromCache++;
      else t.scriptsFromNetwork++;
    }
    if (fromCache) return;
    const bytes = e.encodedDataLength;
    if (type === 'Script') t.script += bytes;
    else if (type === 'Stylesheet') t.stylesheet += bytes;
    else if (type === 'Document') t.document += bytes;
    else if (type === 'Fetch' || type === 'XHR') t.api += bytes;
    else t.other += bytes;
  });
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', THROTTLE);
  await cdp.send('Performance.enable');
  return t;
}

async function mainThread(cdp: CDPSession) {
  const { metrics } = await cdp.send('Performance.getMetrics');
  const m = (name: string) => metrics.find((x) => x.name === name)?.value ?? 0;
  return { task: m('TaskDuration') * 1000, script: m('ScriptDuration') * 1000 };
}

/**
 * The page's own note of the moment the workspace became interactive (the same state as
 * `workspaceInteractive`: the first navigation shown, the main area filled and nothing in it busy, no
 * splash), checked at every animation frame from the document's start: performance.now() of that
 * frame, in ms from the navigation's start.
 */
export const INTERACTIVE_MARK = `(() => {
  const ready = () => {
    const nav = document.querySelector('nav, [role="navigation"]');
    if (!nav || !nav.checkVisibility()) return false;
    const main = document.getElementById('workspace-main');
    return !!main && main.childElementCount > 0 && !main.querySelector('[aria-busy="true"]') && !document.querySelector('.splash');
  };
  const tick = () => {
    if (ready()) window.__workspaceInteractiveAt = performance.now();
    else requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
})();`;

/** Waits for the page's note of an interactive workspace, asking every 25 ms; ms from the navigation's start. */
export async function interactiveMark(cdp: CDPSession): Promise<number> {
  const until = Date.now() + 60_000;
  while (Date.now() < until) {
    const { result } = await cdp.send('Runtime.evaluate', { expression: 'window.__workspaceInteractiveAt ?? null', returnByValue: true });
    if (typeof result.value === 'number') return result.value;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error('the workspace did not become interactive within 60 s');
}

/** The workspace is interactive: the side navigation shows and nothing in the main area is loading. */
export async function workspaceInteractive(page: Page) {
  await page.getByRole('navigation').first().waitFor({ state: 'visible', timeout: 60_000 });
  await page.waitForFunction(
    () => {
      const main = document.getElementById('workspace-main');
      return !!main && main.childElementCount > 0 && !main.querySelector('[aria-busy="true"]') && !document.querySelector('.splash');
    },
    undefined,
    { timeout: 60_000, polling: 'raf' },
  );
}

const kB = (n: number) => `${round1(n / 1000)} kB`;
const describe = (t: Traffic) =>
  `scripts ${kB(t.script)} (${t.scriptsFromNetwork} from the network, ${t.scriptsFromCache} from the cache), stylesheets ${kB(t.stylesheet)}, document ${kB(t.document)}, API ${kB(t.api)}, other ${kB(t.other)}`;

async function coldThenWarm(context: BrowserContext, url: string) {
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  const cold = await watchTraffic(cdp);
  const t0 = performance.now();
  await page.goto(`${url}/login`, { waitUntil: 'commit' });
  const email = page.getByLabel('Email');
  await email.waitFor({ state: 'visible', timeout: 60_000 });
  await page.waitForFunction(() => !(document.querySelector('input[type="email"]') as HTMLInputElement | null)?.disabled, undefined, { polling: 'raf' });
  const signInPage = performance.now() - t0;
  const signInTraffic = { ...cold };
  await email.fill(ADMIN_EMAIL);
  await page.getByLabel('Password', { exact: true }).fill(DEMO_PASSWORD);
  const t1 = performance.now();
  await page.getByLabel('Password', { exact: true }).press('Enter');
  await workspaceInteractive(page);
  const afterSignIn = performance.now() - t1;
  const coldCpu = await mainThread(cdp);
  await page.close();

  // Warm: the same profile (cache and stored session), a new tab opening the app.
  const { ms: warmMs, harnessMs: warmHarnessMs, traffic: warm, cpu: warmCpu } = await openAgain(context, url);
  // Later: a third opening. Chromium keeps V8's compiled code of a script from its second run out of
  // the HTTP cache and uses it from the third on, so this is what a user opening the app again on
  // another day meets.
  const later = await openAgain(context, url);
  return {
    signInPage,
    afterSignIn,
    cold: signInPage + afterSignIn,
    signInTraffic,
    coldTraffic: cold,
    coldCpu,
    warm: warmMs,
    warmHarness: warmHarnessMs,
    warmTraffic: warm,
    warmCpu,
    later: later.ms,
    laterCpu: later.cpu,
  };
}

/**
 * A new tab of the same profile opening the app, signed in: ms from the navigation's start to an
 * interactive workspace on the page's clock, the harness's wall time, traffic and main thread.
 */
async function openAgain(context: BrowserContext, url: string) {
  const again = await context.newPage();
  const cdp = await context.newCDPSession(again);
  const traffic = await watchTraffic(cdp);
  await again.addInitScript(INTERACTIVE_MARK);
  const t = performance.now();
  await again.goto(`${url}/`, { waitUntil: 'commit' });
  const ms = await interactiveMark(cdp);
  const harnessMs = performance.now() - t;
  const cpu = await mainThread(cdp);
  await workspaceInteractive(again);
  await again.close();
  return { ms, harnessMs, traffic, cpu };
}

export async function benchFirstLoad(): Promise<Record<string, number | string>> {
  const runs = Number(process.env.FIRST_LOAD_RUNS ?? 5);
  const scale = Number(process.env.BENCH_SCALE ?? 1);
  const bundle = signInBundle(join(ROOT, 'dist/client'));
  log(
    `sign-in bundle (static graph of index.html): JavaScript ${kB(bundle.total.js.gzip)} gzip / ${kB(bundle.total.js.brotli)} brotli (budget ${kB(SIGN_IN_BUDGET.js)} gzip), CSS ${kB(bundle.total.css.gzip)} gzip / ${kB(bundle.total.css.brotli)} brotli (budget ${kB(SIGN_IN_BUDGET.css)} gzip)`,
  );
  // The compiled server, as `npm start` runs it, serving dist/client.
  const server = await startServer(Number(process.env.BENCH_PORT ?? 8391), { scale, compiled: true });
  const results: Awaited<ReturnType<typeof coldThenWarm>>[] = [];
  try {
    // One run first to warm the server (JIT, SQLite page cache); not counted.
    {
      const profile = await freshProfile(server.url);
      await coldThenWarm(profile.context, server.url).finally(profile.close);
    }
    for (let i = 0; i < runs; i++) {
      // A new browser profile on the disk: empty caches, no session.
      const profile = await freshProfile(server.url);
      const r = await coldThenWarm(profile.context, server.url).finally(profile.close);
      results.push(r);
      log(
        `run ${i + 1}: sign-in page ${Math.round(r.signInPage)} ms + Enter → workspace ${Math.round(r.afterSignIn)} ms = cold ${Math.round(r.cold)} ms; warm ${Math.round(r.warm)} ms (the harness's wall ${Math.round(r.warmHarness)} ms); later ${Math.round(r.later)} ms; ${loadNote()}`,
      );
      log(`  sign-in page: ${describe(r.signInTraffic)}`);
      log(`  cold, in all: ${describe(r.coldTraffic)}; main thread ${Math.round(r.coldCpu.task)} ms (script ${Math.round(r.coldCpu.script)} ms)`);
      log(`  warm: ${describe(r.warmTraffic)}; main thread ${Math.round(r.warmCpu.task)} ms (script ${Math.round(r.warmCpu.script)} ms)`);
      log(`  later: main thread ${Math.round(r.laterCpu.task)} ms (script ${Math.round(r.laterCpu.script)} ms)`);
    }
  } finally {
    await server.stop();
  }
  const med = (f: (r: (typeof results)[number]) => number) => Math.round(percentileOf(results.map(f), 50));
  const max = (f: (r: (typeof results)[number]) => number) => Math.round(Math.max(...results.map(f)));
  const cpu = process.cpuUsage();
  const figures = {
    signInJsGzipKb: round1(bundle.total.js.gzip / 1000),
    signInCssGzipKb: round1(bundle.total.css.gzip / 1000),
    signInPageMsP50: med((r) => r.signInPage),
    coldMsP50: med((r) => r.cold),
    coldMsMax: max((r) => r.cold),
    warmMsP50: med((r) => r.warm),
    warmMsMax: max((r) => r.warm),
    warmHarnessMsP50: med((r) => r.warmHarness),
    laterMsP50: med((r) => r.later),
    signInScriptKb: round1(
      percentileOf(
        results.map((r) => r.signInTraffic.script),
        50,
      ) / 1000,
    ),
    coldScriptKb: round1(
      percentileOf(
        results.map((r) => r.coldTraffic.script),
        50,
      ) / 1000,
    ),
    warmScriptBytesMax: Math.max(...results.map((r) => r.warmTraffic.script)),
    warmScriptsFromNetworkMax: Math.max(...results.map((r) => r.warmTraffic.scriptsFromNetwork)),
    coldMainThreadMsP50: med((r) => r.coldCpu.task),
    warmMainThreadMsP50: med((r) => r.warmCpu.task),
    laterMainThreadMsP50: med((r) => r.laterCpu.task),
    benchCpuMs: Math.round((cpu.user + cpu.system) / 1000),
    load: loadNote(),
  };
  log(
    `cold p50 ${figures.coldMsP50} ms (max ${figures.coldMsMax}; goal < ${GOAL_COLD_MS}); warm p50 ${figures.warmMsP50} ms on the page's clock (max ${figures.warmMsMax}; goal < ${GOAL_WARM_MS}; the harness's wall p50 ${figures.warmHarnessMsP50} ms); a third visit p50 ${figures.laterMsP50} ms; second visit JavaScript over the network: ${figures.warmScriptBytesMax} bytes in ${figures.warmScriptsFromNetworkMax} scripts (goal 0) — ${runs} runs at scale ${scale}, 10 Mbit/s, 40 ms; ${figures.load}`,
  );
  return figures;
}
