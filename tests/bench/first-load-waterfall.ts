// The request waterfall of a cold sign-in and a warm start, throttled as the first-load benchmark
// throttles (10 Mbit/s, 40 ms): each request with its start and end (ms from the first request),
// C when it came from the cache, its encoded bytes, type and initiator. What waits for what does not
// change with the machine's load, unlike the timings. Not part of `npm run bench`:
//   node --import tsx tests/bench/first-load-waterfall.ts   (BENCH_PORT, default 8392; N runs, default 1;
//   PROFILE=<file> writes a CPU profile of the warm start; TRACE=<file> a Chromium trace of it (open it
//   in DevTools' Performance panel: parsing, compiling, style, layout and tasks); WAIT=<ms> waits that
//   long before Enter; CLIENT_DIR=<dir> serves another build of the client). It runs in
//   off-the-record contexts (TRACE needs the browser's tracing), which keep no compiled code of the
//   scripts: its warm starts compile every script, unlike first-load.bench.ts's profiles on the disk.
import { ADMIN_EMAIL, DEMO_PASSWORD, launchChromium, newContext, startServer } from './browser.js';
import type { CDPSession } from 'playwright-core';
import { writeFileSync } from 'node:fs';
import { INTERACTIVE_MARK, interactiveMark, THROTTLE, workspaceInteractive } from './first-load.bench.js';

type Row = { id: string; url: string; type: string; start: number; resp?: number; end?: number; cached?: boolean; bytes?: number; initiator?: string };

async function watch(cdp: CDPSession) {
  const rows = new Map<string, Row>();
  cdp.on('Network.requestWillBeSent', (e) => {
    const init = e.initiator?.url ?? e.initiator?.stack?.callFrames?.[0]?.url ?? e.initiator?.type;
    rows.set(e.requestId, { id: e.requestId, url: e.request.url, type: e.type ?? '?', start: e.timestamp * 1000, initiator: init });
  });
  cdp.on('Network.requestServedFromCache', (e) => {
    const r = rows.get(e.requestId);
    if (r) r.cached = true;
  });
  cdp.on('Network.responseReceived', (e) => {
    const r = rows.get(e.requestId);
    if (r) {
      r.resp = e.timestamp * 1000;
      if (e.response.fromDiskCache) r.cached = true;
    }
  });
  cdp.on('Network.loadingFinished', (e) => {
    const r = rows.get(e.requestId);
    if (r) {
      r.end = e.timestamp * 1000;
      r.bytes = e.encodedDataLength;
    }
  });
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', THROTTLE);
  await cdp.send('Performance.enable');
  return rows;
}
function print(label: string, rows: Map<string, Row>, t0: number) {
  const list = [...rows.values()].filter((r) => r.start >= t0 - 5).sort((a, b) => a.start - b.start);
  const base = list[0]?.start ?? t0;
  console.log(`--- ${label}`);
  for (const r of list) {
    const u = r.url.replace(/^https?:\/\/[^/]+/, '');
    console.log(
      `${String(Math.round(r.start - base)).padStart(6)} → ${String(r.end ? Math.round(r.end - base) : '?').padStart(6)}  ${r.cached ? 'C' : ' '} ${String(r.bytes ?? '').padStart(7)} ${r.type.padEnd(10)} ${u.slice(0, 90)}  ⟵ ${(r.initiator ?? '').replace(/^https?:\/\/[^/]+/, '').slice(0, 60)}`,
    );
  }
}
const server = await startServer(Number(process.env.BENCH_PORT ?? 8392), { scale: 1, compiled: true });
const browser = await launchChromium();
try {
  for (let i = 0; i < Number(process.env.N ?? 1); i++) {
    const ctx = await newContext(browser, server.url);
    const page = await ctx.newPage();
    const cdp = await ctx.newCDPSession(page);
    const rows = await watch(cdp);
    const tA = performance.now();
    await page.goto(`${server.url}/login`, { waitUntil: 'commit' });
    const email = page.getByLabel('Email');
    await email.waitFor({ state: 'visible' });
    await page.waitForFunction(() => !(document.querySelector('input[type="email"]') as HTMLInputElement | null)?.disabled, undefined, { polling: 'raf' });
    const signInMs = performance.now() - tA;
    await email.fill(ADMIN_EMAIL);
    await page.getByLabel('Password', { exact: true }).fill(DEMO_PASSWORD);
    if (process.env.WAIT) await page.waitForTimeout(Number(process.env.WAIT));
    const t1 = performance.now();
    await page.getByLabel('Password', { exact: true }).press('Enter');
    await workspaceInteractive(page);
    const afterMs = performance.now() - t1;
    print(`cold: sign-in page ${Math.round(signInMs)} ms, Enter → workspace ${Math.round(afterMs)} ms (Enter: the POST /connect/token)`, rows, 0);
    await page.close();
    const p2 = await ctx.newPage();
    const cdp2 = await ctx.newCDPSession(p2);
    const rows2 = await watch(cdp2);
    if (process.env.PROFILE) {
      await cdp2.send('Profiler.enable');
      await cdp2.send('Profiler.setSamplingInterval', { interval: 200 });
      await cdp2.send('Profiler.start');
    }
    if (process.env.TRACE) await browser.startTracing(p2, { path: process.env.TRACE, screenshots: false });
    await p2.addInitScript(INTERACTIVE_MARK);
    await p2.goto(`${server.url}/`, { waitUntil: 'commit' });
    // On the page's clock, the harness off its main thread (first-load.bench.ts).
    const warmMs = await interactiveMark(cdp2);
    if (process.env.TRACE) await browser.stopTracing();
    if (process.env.PROFILE) {
      const { profile } = await cdp2.send('Profiler.stop');
      writeFileSync(process.env.PROFILE, JSON.stringify(profile));
    }
    const { metrics } = await cdp2.send('Performance.getMetrics');
    const m = (name: string) => Math.round((metrics.find((x) => x.name === name)?.value ?? 0) * 1000);
    print(`warm ${Math.round(warmMs)} ms from the navigation's start (main thread ${m('TaskDuration')} ms, script ${m('ScriptDuration')} ms)`, rows2, 0);
    await p2.close();
    await ctx.close();
  }
} finally {
  await browser.close();
  await server.stop();
}
