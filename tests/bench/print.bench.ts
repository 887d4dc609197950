// Closed Alarm Report printing: time from the print command (Ctrl+P on a report tab,
// opened by its link) to the print frame holding the report (react-to-print copies it in one go; its first section,
// 'Alarm details', is in the frame's text), over the cached scale-1 demo data. Measured in the page: a capture keydown
// listener takes the start, a MutationObserver plus polling of react-to-print's frame takes the end.
import Database from 'better-sqlite3';
import { log, loadNote, round1, signIn, SQLITE_FILE, startServer, withBench } from './browser.js';
import { percentile } from './stats.js';

const REPORTS = Number(process.env.BENCH_PRINT_REPORTS ?? 15);

const INIT_SCRIPT = String.raw`(() => {
  const B = (window.__print = { start: null, ready: null });
  document.addEventListener('keydown', (e) => { if ((e.ctrlKey || e.metaKey) && e.key.toLowerCase() === 'p') B.start = performance.now(); }, true);
  const watch = () => new MutationObserver(() => {
    const frame = document.getElementById('printWindow');
    if (!frame) return;
    const read = () => {
      if (B.ready !== null) return;
      const text = (frame.contentDocument && frame.contentDocument.body && frame.contentDocument.body.innerText) || '';
      if (text.includes('Alarm details')) B.ready = performance.now();
      else if (frame.isConnected) setTimeout(read, 5);
    };
    read();
  }).observe(document.body, { childList: true });
  if (document.body) watch(); else document.addEventListener('DOMContentLoaded', watch);
})();`;

export async function benchPrint(): Promise<Record<string, number | string>> {
  const warm = await startServer(); // generates the cached scale-1 data on the first run
  await warm.stop();
  const db = new Database(SQLITE_FILE, { readonly: true, fileMustExist: true });
  const ids = (db.prepare('select alarmId from alarmReports order by alarmClosed desc limit ?').all(REPORTS) as { alarmId: string }[]).map((r) => r.alarmId);
  db.close();
  const loadBefore = loadNote();
  return withBench(
    async ({ page, server }) => {
      await signIn(page, server.url, 'arc-supervisor@demo.test');
      const ms: number[] = [];
      for (const id of ids) {
        await page.goto(`/alarm-reports/${id}`);
        await page.getByRole('button', { name: 'Export to PDF' }).waitFor({ state: 'visible', timeout: 30_000 });
        await page.getByText('Alarm details').first().waitFor({ state: 'visible', timeout: 30_000 });
        await page.evaluate(() => {
          const w = window as unknown as { __print: { start: number | null; ready: number | null } };
          w.__print.start = null;
          w.__print.ready = null;
        });
        await page.locator('body').focus();
        await page.keyboard.press('Control+p');
        const r = await page
          .waitForFunction(() => (window as unknown as { __print: { ready: number | null } }).__print.ready !== null, undefined, { timeout: 10_000 })
          .then(() => page.evaluate(() => (window as unknown as { __print: { start: number; ready: number } }).__print))
          .catch(() => null);
        if (r) ms.push(r.ready - r.start);
        else
          log(
            `not printed: ${JSON.stringify(
              await page.evaluate(() => ({
                url: location.pathname,
                start: (window as unknown as { __print: { start: number | null } }).__print.start,
                frame: !!document.getElementById('printWindow'),
                iframes: document.querySelectorAll('iframe').length,
              })),
            )}`,
          );
      }
      ms.sort((a, b) => a - b);
      const figures = {
        reports: ids.length,
        printed: ms.length,
        p50Ms: round1(percentile(ms, 50)),
        p95Ms: round1(percentile(ms, 95)),
        maxMs: round1(ms.at(-1) ?? NaN),
        load: `${loadBefore} / ${loadNote()}`,
      };
      log(
        `print command → report in the print frame: p50 ${figures.p50Ms} ms, p95 ${figures.p95Ms} ms, max ${figures.maxMs} ms (${ms.length}/${ids.length} printed)`,
      );
      log(`${figures.load} (2 cores; other work may be running)`);
      return figures;
    },
    { signedIn: false, initScript: INIT_SCRIPT },
  );
}
