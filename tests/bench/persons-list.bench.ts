// Person list scrolling in Chromium over the default demo data (scale 1: 20,000 persons).
// Goal (issue): no long task over 50 ms, DOM rows under 60, while scrolling through 20,000 rows.
//
// a) "screen": the real User Management screen (g u), 100 rows per page; for each of PAGES pages
//    the grid is scrolled to its end with mouse-wheel steps, then "Next page" is pressed (keyboard).
//    Long tasks (PerformanceObserver 'longtask', buffered) are kept from the first scroll on; the
//    rendered body rows (role=row other than the header row) are counted on every wheel step
//    (from here) and on every scroll event and animation frame (in the page).
// b) "all": the DataTable widget itself in its "all rows" mode over all 20,000 persons in one
//    scrollable list (tests/bench/harness/persons-list.tsx: the endpoint fetched 100 rows at a
//    time through onEndReached, the person list's columns), scrolled top to bottom with 600 px
//    wheel steps every 16 ms until the last row is on screen with its data.
//
// The harness is built by Vite (the project's vite.config.ts) in production mode and served by
// Vite's preview server with the API proxied to the bench server: the dev server would serve
// React's development build, several times slower, which would not be a fair long-task figure.
// BENCH_HARNESS=dev serves it from the Vite dev server instead (createServer) for debugging.
// BENCH_PAGES (default 30, at most 200) sets how many pages the screen run goes through.
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { apiTokens, freePort, loadNote, log, ROOT, round1, sleep, withBench } from './browser.js';
import { percentileOf } from './stats.js';

const GOAL_LONG_TASK_MS = 50;
const GOAL_DOM_ROWS = 60;
const PAGES = Math.min(200, Math.max(1, Number(process.env.BENCH_PAGES ?? 30)));
const SCREEN_WHEEL_PX = 200;
const ALL_WHEEL_PX = 600;
const STEP_MS = 16;

// In-page sampler: long tasks, and the rendered body rows of every grid on each scroll event and
// animation frame while `on`. Plain JavaScript so nothing transpiled leaks into the page.
const SAMPLER = String.raw`(() => {
  if (window.__ls) return;
  const S = (window.__ls = { on: false, longTasks: [], maxRows: 0, maxPlaceholders: 0, samples: 0, placeholderSamples: 0, maxRowIndex: 0 });
  try {
    new PerformanceObserver((l) => { for (const e of l.getEntries()) S.longTasks.push({ start: e.startTime, dur: e.duration }); })
      .observe({ type: 'longtask', buffered: true });
  } catch (e) {}
  S.sample = () => {
    const rows = document.querySelectorAll('[role="grid"] [role="row"]:not([aria-rowindex="1"])');
    let ph = 0;
    for (const r of rows) {
      if (r.classList.contains('lw-dt__row--placeholder')) ph++;
      else {
        const i = Number(r.getAttribute('aria-rowindex'));
        if (i > S.maxRowIndex) S.maxRowIndex = i;
      }
    }
    S.samples++;
    if (ph) S.placeholderSamples++;
    if (rows.length > S.maxRows) S.maxRows = rows.length;
    if (ph > S.maxPlaceholders) S.maxPlaceholders = ph;
    return rows.length;
  };
  S.reset = () => { S.maxRows = 0; S.maxPlaceholders = 0; S.samples = 0; S.placeholderSamples = 0; S.maxRowIndex = 0; };
  document.addEventListener('scroll', () => { if (S.on) S.sample(); }, { capture: true, passive: true });
  const frame = () => { if (S.on) S.sample(); requestAnimationFrame(frame); };
  requestAnimationFrame(frame);
})();`;

type LongTask = { start: number; dur: number };
type SamplerState = { maxRows: number; maxPlaceholders: number; samples: number; placeholderSamples: number; maxRowIndex: number; longTasks: LongTask[] };

const readSampler = (page: Page) =>
  page.evaluate(`(() => { const S = window.__ls; return { maxRows: S.maxRows, maxPlaceholders: S.maxPlaceholders, samples: S.samples,
    placeholderSamples: S.placeholderSamples, maxRowIndex: S.maxRowIndex, longTasks: S.longTasks }; })()`) as Promise<SamplerState>;

const longTaskFigures = (tasks: LongTask[], from: number, to = Infinity) => {
  const inRun = tasks.filter((t) => t.start >= from && t.start <= to);
  return {
    count: inRun.length,
    over50: inRun.filter((t) => t.dur > GOAL_LONG_TASK_MS).length,
    max: round1(inRun.reduce((m, t) => Math.max(m, t.dur), 0)),
    total: round1(inRun.reduce((m, t) => m + t.dur, 0)),
  };
};

/** Scroll state of the (first) grid: rows rendered now, whether its end is in view. */
const GRID_STATE = `(() => {
  const g = document.querySelector('[role="grid"]');
  if (!g) return null;
  return { rows: window.__ls.sample(), top: g.scrollTop, atEnd: g.scrollTop + g.clientHeight >= g.scrollHeight - 2, busy: g.getAttribute('aria-busy') === 'true' };
})()`;
type GridState = { rows: number; top: number; atEnd: boolean; busy: boolean } | null;

/** Main-thread time the renderer spent (CDP Performance metrics, seconds → ms) between two readings. */
async function mainThreadMeter(page: Page) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Performance.enable');
  const read = async () => {
    const { metrics } = await cdp.send('Performance.getMetrics');
    const m = Object.fromEntries(metrics.map((x) => [x.name, x.value]));
    return { task: m.TaskDuration ?? 0, script: m.ScriptDuration ?? 0, layout: (m.LayoutDuration ?? 0) + (m.RecalcStyleDuration ?? 0) };
  };
  const start = await read();
  return async () => {
    const end = await read();
    await cdp.detach().catch(() => undefined);
    return {
      taskMs: round1((end.task - start.task) * 1000),
      scriptMs: round1((end.script - start.script) * 1000),
      layoutMs: round1((end.layout - start.layout) * 1000),
    };
  };
}

async function moveMouseToGrid(page: Page) {
  const box = await page.getByRole('grid', { name: 'Users' }).boundingBox();
  if (!box) throw new Error('the Users grid has no box');
  await page.mouse.move(box.x + box.width / 2, box.y + Math.min(box.height / 2, 300));
}

// ---------------------------------------------------------------- a) the real screen

async function screenRun(page: Page) {
  const tOpen = (await page.evaluate('performance.now()')) as number;
  // g u: the keyboard route to User Management (focus on the page, not in a box).
  await page.locator('body').press('Escape');
  await page.keyboard.press('g');
  await page.keyboard.press('u');
  const grid = page.getByRole('grid', { name: 'Users' });
  try {
    await grid.waitFor({ state: 'visible', timeout: 10_000 });
  } catch {
    log('g u did not open User Management; using the side navigation link');
    await page.getByRole('link', { name: 'User Management' }).click();
    await grid.waitFor({ state: 'visible', timeout: 30_000 });
  }
  await page.getByLabel('Rows per page').selectOption('100');
  const firstRange = page.getByText(/^1–100 of [\d,]+$/);
  await firstRange.waitFor({ timeout: 30_000 });
  const totalText = ((await firstRange.textContent()) ?? '').split(' of ')[1] ?? '';
  const total = Number(totalText.replace(/,/g, ''));
  await page.waitForFunction(() => document.querySelector('[role="grid"]')?.getAttribute('aria-busy') !== 'true');
  await sleep(300);
  const meter = await mainThreadMeter(page);
  const tRun = (await page.evaluate('window.__ls.reset(); window.__ls.on = true; performance.now()')) as number;

  const pageChangeMs: number[] = [];
  /** In-page time windows from Enter on "Next page" to the new page shown at its top. */
  const paging: [number, number][] = [];
  let keptScroll = 0;
  let maxRowsStep = 0;
  let steps = 0;
  const t0 = performance.now();
  const pages = Math.min(PAGES, Math.ceil(total / 100));
  for (let p = 1; p <= pages; p++) {
    await moveMouseToGrid(page);
    for (let i = 0; i < 400; i++) {
      await page.mouse.wheel(0, SCREEN_WHEEL_PX);
      await sleep(STEP_MS);
      const s = (await page.evaluate(GRID_STATE)) as GridState;
      steps++;
      if (s) maxRowsStep = Math.max(maxRowsStep, s.rows);
      if (s?.atEnd) break;
    }
    if (p === pages) break;
    // Next page by keyboard: focus the button, Enter; done when the new range is shown and the
    // grid is no longer busy.
    const from = p * 100 + 1;
    // The pagination prints the range as plain numbers and the total with thousands separators.
    const range = `${from}–${Math.min(from + 99, total)} of ${totalText}`;
    const ps = (await page.evaluate('performance.now()')) as number;
    const tp = performance.now();
    const answered = page.waitForResponse(
      (r) => r.url().includes('/ps-admin/persons/get-list') && new URL(r.url()).searchParams.get('page') === String(p + 1),
      { timeout: 30_000 },
    );
    await page.getByRole('button', { name: 'Next page' }).press('Enter');
    await answered;
    await page
      .waitForFunction(
        (r) =>
          [...document.querySelectorAll('.lw-pagination__range')].some((el) => el.textContent === r) &&
          document.querySelector('[role="grid"]')?.getAttribute('aria-busy') !== 'true',
        range,
        { polling: 'raf', timeout: 30_000 },
      )
      .catch((e: Error) => {
        throw new Error(`page ${p + 1} (${range}) was not shown: ${e.message}`);
      });
    pageChangeMs.push(performance.now() - tp);
    const s = (await page.evaluate(GRID_STATE)) as GridState;
    if (s && s.top > 0) {
      // The new page opened scrolled to where the last one ended: back to its first row (Home).
      keptScroll++;
      await grid.focus();
      await page.keyboard.press('Home');
      await page.waitForFunction(() => (document.querySelector('[role="grid"]') as HTMLElement | null)?.scrollTop === 0, null, { timeout: 10_000 });
    }
    paging.push([ps, (await page.evaluate('performance.now()')) as number]);
  }
  const seconds = (performance.now() - t0) / 1000;
  const mainThread = await meter();
  const st = await readSampler(page);
  await page.evaluate('window.__ls.on = false');
  return {
    pages,
    total,
    steps,
    seconds,
    rowsScrolledPast: st.maxRowIndex - 1,
    maxDomRows: Math.max(st.maxRows, maxRowsStep),
    maxDomRowsStep: maxRowsStep,
    open: longTaskFigures(st.longTasks, tOpen, tRun),
    run: longTaskFigures(st.longTasks, tRun),
    /** long tasks that started while a page change was under way */
    paging: longTaskFigures(
      st.longTasks.filter((t) => paging.some(([a, b]) => t.start >= a && t.start <= b)),
      tRun,
    ),
    pageChangeP50: percentileOf(pageChangeMs, 50),
    pageChangeP95: percentileOf(pageChangeMs, 95),
    keptScroll,
    mainThread,
  };
}

// ---------------------------------------------------------------- b) the widget over every row

type HarnessServer = { url: string; close: () => Promise<void>; buildMs: number };

export async function startHarness(apiUrl: string, inputs = ['persons-list.html']): Promise<HarnessServer> {
  const vite = await import('vite');
  const configFile = join(ROOT, 'vite.config.ts');
  const loaded = await vite.loadConfigFromFile({ command: 'serve', mode: 'production' }, configFile, ROOT, 'silent');
  const prefixes = Object.keys((loaded?.config.server?.proxy as Record<string, unknown> | undefined) ?? {});
  if (!prefixes.length) throw new Error('vite.config.ts has no server.proxy prefixes to point at the bench server');
  const proxy = Object.fromEntries(prefixes.map((p) => [p, { target: apiUrl, ws: true, changeOrigin: false }]));
  const port = await freePort(8395);
  const t = performance.now();
  if (process.env.BENCH_HARNESS === 'dev') {
    const server = await vite.createServer({
      configFile,
      root: ROOT,
      logLevel: 'warn',
      server: { port, host: '127.0.0.1', strictPort: true, proxy, hmr: false },
    });
    await server.listen();
    return { url: `http://127.0.0.1:${port}`, close: () => server.close(), buildMs: 0 };
  }
  const outDir = join(ROOT, '.tmp/bench-harness');
  await vite.build({
    configFile,
    root: ROOT,
    logLevel: 'warn',
    mode: 'production',
    build: {
      outDir,
      emptyOutDir: true,
      sourcemap: false,
      rollupOptions: { input: inputs.map((f) => join(ROOT, 'tests/bench/harness', f)) },
    },
  });
  const buildMs = performance.now() - t;
  const server = await vite.preview({
    configFile,
    root: ROOT,
    logLevel: 'warn',
    build: { outDir },
    preview: { port, host: '127.0.0.1', strictPort: true, proxy },
  });
  return {
    url: `http://127.0.0.1:${port}`,
    buildMs,
    close: async () => {
      await server.close();
      rmSync(outDir, { recursive: true, force: true });
    },
  };
}

export async function allRowsRun(page: Page, harnessUrl: string, html = 'persons-list.html') {
  await page.goto(`${harnessUrl}/tests/bench/harness/${html}`);
  const grid = page.getByRole('grid', { name: 'Users' });
  await grid.waitFor({ state: 'visible', timeout: 60_000 });
  await page.waitForFunction(() => (window.__harness?.loaded ?? 0) > 0, null, { timeout: 60_000 });
  const total = (await page.evaluate('window.__harness.total')) as number;
  await sleep(300);
  await moveMouseToGrid(page);
  const meter = await mainThreadMeter(page);
  const tRun = (await page.evaluate('window.__ls.reset(); window.__ls.on = true; performance.now()')) as number;
  const t0 = performance.now();
  let steps = 0;
  let bottomAt = NaN;
  const maxSteps = Math.ceil((total * 44) / ALL_WHEEL_PX) * 3 + 100;
  for (; steps < maxSteps; steps++) {
    await page.mouse.wheel(0, ALL_WHEEL_PX);
    await sleep(STEP_MS);
    if (steps % 25 === 24) {
      const s = (await page.evaluate(GRID_STATE)) as GridState;
      if (s?.atEnd) {
        bottomAt = performance.now() - t0;
        break;
      }
    }
  }
  // At the end of the scroll range: wait for the last row to be on screen with its data.
  await page.waitForFunction(
    (n) => {
      const row = document.querySelector(`[role="grid"] [role="row"][aria-rowindex="${n + 1}"]`);
      return !!row && !row.classList.contains('lw-dt__row--placeholder');
    },
    total,
    { polling: 'raf', timeout: 180_000 },
  );
  const lastRowAt = performance.now() - t0;
  const mainThread = await meter();
  await sleep(200);
  const st = await readSampler(page);
  await page.evaluate('window.__ls.on = false');
  const h = (await page.evaluate('window.__harness')) as { loaded: number; total: number; requests: number; errors: number; fetchMs: number[] };
  return {
    total,
    steps,
    bottomAt,
    lastRowAt,
    rowsReached: st.maxRowIndex - 1,
    loaded: h.loaded,
    requests: h.requests,
    errors: h.errors,
    fetchP50: percentileOf(h.fetchMs, 50),
    fetchP95: percentileOf(h.fetchMs, 95),
    maxDomRows: st.maxRows,
    maxPlaceholders: st.maxPlaceholders,
    placeholderShare: st.samples ? st.placeholderSamples / st.samples : 0,
    run: longTaskFigures(st.longTasks, tRun),
    mainThread,
  };
}

export async function benchPersonsList(): Promise<Record<string, number | string>> {
  const loadBefore = loadNote();
  return withBench(
    async ({ server, context, page }, onCleanup) => {
      log(`a) User Management screen, 100 rows per page, ${PAGES} pages, ${SCREEN_WHEEL_PX} px wheel steps every ${STEP_MS} ms`);
      const a = await screenRun(page);
      const ok = (cond: boolean) => (cond ? 'met' : 'NOT met');
      log(`   ${a.rowsScrolledPast.toLocaleString('en-GB')} rows scrolled past in ${a.seconds.toFixed(1)} s (${a.steps} wheel steps)`);
      log(
        `   long tasks while scrolling and paging: ${a.run.count}, over ${GOAL_LONG_TASK_MS} ms: ${a.run.over50}, max ${a.run.max} ms   goal: none over ${GOAL_LONG_TASK_MS} ms → ${ok(a.run.over50 === 0)}`,
      );
      log(
        `   of which during page changes (Enter → new page at its top): ${a.paging.count}, max ${a.paging.max} ms; while scrolling: ${a.run.count - a.paging.count}`,
      );
      log(
        `   max DOM rows ${a.maxDomRows} (${a.maxDomRowsStep} at the wheel-step samples)   goal: under ${GOAL_DOM_ROWS} → ${ok(a.maxDomRows < GOAL_DOM_ROWS)}`,
      );
      log(`   next page (Enter → new rows shown): p50 ${round1(a.pageChangeP50)} ms, p95 ${round1(a.pageChangeP95)} ms`);
      log(`   pages that opened scrolled to the previous page's end: ${a.keptScroll} of ${a.pages - 1} (brought back with Home)`);
      log(
        `   renderer main thread busy ${a.mainThread.taskMs} ms over the ${a.seconds.toFixed(1)} s (script ${a.mainThread.scriptMs} ms, style+layout ${a.mainThread.layoutMs} ms)`,
      );
      log(`   opening (g u, 100 rows per page): ${a.open.count} long tasks, max ${a.open.max} ms`);

      const token = await apiTokens(server.url);
      const harness = await startHarness(server.url);
      onCleanup(() => harness.close());
      if (harness.buildMs) log(`b) harness built in ${(harness.buildMs / 1000).toFixed(1)} s, served by vite preview at ${harness.url}`);
      await context.addInitScript({ content: `window.__benchToken = ${JSON.stringify(token.access_token)};` });
      const hp = await context.newPage();
      log(`b) DataTable "all rows" mode, every person, ${ALL_WHEEL_PX} px wheel steps every ${STEP_MS} ms`);
      const b = await allRowsRun(hp, harness.url);
      log(
        `   ${b.rowsReached.toLocaleString('en-GB')} of ${b.total.toLocaleString('en-GB')} rows reached; end of the scroll range after ${(b.bottomAt / 1000).toFixed(1)} s (${b.steps} steps), last row shown with data after ${(b.lastRowAt / 1000).toFixed(1)} s`,
      );
      log(
        `   long tasks: ${b.run.count}, over ${GOAL_LONG_TASK_MS} ms: ${b.run.over50}, max ${b.run.max} ms   goal: none over ${GOAL_LONG_TASK_MS} ms → ${ok(b.run.over50 === 0)}`,
      );
      log(`   max DOM rows ${b.maxDomRows}   goal: under ${GOAL_DOM_ROWS} → ${ok(b.maxDomRows < GOAL_DOM_ROWS)}`);
      log(
        `   rows loaded ${b.loaded.toLocaleString('en-GB')} in ${b.requests} requests of 100 (p50 ${round1(b.fetchP50)} ms, p95 ${round1(b.fetchP95)} ms), ${b.errors} errors`,
      );
      log(
        `   renderer main thread busy ${b.mainThread.taskMs} ms over the ${(b.lastRowAt / 1000).toFixed(1)} s (script ${b.mainThread.scriptMs} ms, style+layout ${b.mainThread.layoutMs} ms); ${(b.lastRowAt / b.steps).toFixed(0)} ms per wheel step on average`,
      );
      log(`   placeholder rows on screen in ${(b.placeholderShare * 100).toFixed(0)}% of sampled frames (at most ${b.maxPlaceholders} at once)`);
      const loadAfter = loadNote();
      log(`   ${loadBefore} before, ${loadAfter} after (2 cores; other work may be running)`);
      await hp.close();

      return {
        'screen.pages': a.pages,
        'screen.rowsScrolledPast': a.rowsScrolledPast,
        'screen.maxLongTaskMs': a.run.max,
        'screen.longTasksOver50': a.run.over50,
        'screen.longTasks': a.run.count,
        'screen.longTasksDuringPageChange': a.paging.count,
        'screen.maxDomRows': a.maxDomRows,
        'screen.pageChangeP50Ms': round1(a.pageChangeP50),
        'screen.pageChangeP95Ms': round1(a.pageChangeP95),
        'screen.pagesOpenedScrolled': a.keptScroll,
        'screen.seconds': round1(a.seconds),
        'screen.mainThreadMs': a.mainThread.taskMs,
        'screen.scriptMs': a.mainThread.scriptMs,
        'all.totalRows': b.total,
        'all.rowsReached': b.rowsReached,
        'all.maxLongTaskMs': b.run.max,
        'all.longTasksOver50': b.run.over50,
        'all.longTasks': b.run.count,
        'all.maxDomRows': b.maxDomRows,
        'all.secondsToBottom': round1(b.bottomAt / 1000),
        'all.secondsToLastRow': round1(b.lastRowAt / 1000),
        'all.requests': b.requests,
        'all.mainThreadMs': b.mainThread.taskMs,
        'all.scriptMs': b.mainThread.scriptMs,
        'all.placeholderFramesPct': Math.round(b.placeholderShare * 100),
        goalLongTaskMs: GOAL_LONG_TASK_MS,
        goalDomRows: GOAL_DOM_ROWS,
        load: `${loadBefore} / ${loadAfter}`,
      };
    },
    { initScript: SAMPLER },
  );
}
