// Alarm report intelligence in Chromium against the real server and its demo data: an ARC
// supervisor opens a report of a customer with intelligence on, generates its Analysis (stored on
// the server), prints the Closed Alarm Report with the Analysis after the controller notes and
// reads the PDF back; a report of a customer with auto-generate shows the seeded analysis; a
// customer with intelligence off shows no Analysis section.
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { test, expect, type Page } from '@playwright/test';
import { signedInAs, dbQuery } from './helpers';

type Report = { id: string; alarmId: string; personFullName: string };
const reportOf = (intel: number, auto: number) =>
  dbQuery<Report>(
    `select r.id, r.alarmId, r.personFullName from alarmReports r join customers c on c.id = r.customerId
     where c.enableAlarmReportIntelligence = ? and c.autoGenerateAlarmIntelligence = ? order by r.alarmClosed desc limit 1`,
    intel,
    auto,
  )[0];

async function shot(page: Page, name: string) {
  for (const [w, h] of [
    [1440, 900],
    [1024, 768],
  ] as const) {
    await page.setViewportSize({ width: w, height: h });
    await page.screenshot({ path: `.tmp/e2e-results/alarm-intelligence-${name}-${w}x${h}.png` });
  }
  await page.setViewportSize({ width: 1440, height: 900 });
}

async function open(page: Page, r: Report) {
  await page.goto(`/alarm-reports/${r.alarmId}`);
  await expect(page.getByRole('heading', { level: 1, name: r.personFullName, exact: true })).toBeVisible();
}

test('ARC supervisor: generate the Analysis, see it stored, print it after the controller notes', async ({ page }) => {
  const report = reportOf(1, 0);
  expect(report, 'demo data has a report of a customer with intelligence on and auto-generate off').toBeTruthy();
  await signedInAs(page, 'arc-supervisor@demo.test');
  await open(page, report!);

  const region = page.getByRole('region', { name: 'Analysis' });
  await expect(region).toContainText('No analysis has been generated for this report yet.');
  await region.getByRole('button', { name: 'Generate analysis' }).click();
  await expect(page.getByText('Analysis generated.')).toBeVisible();
  const summary = region.getByTestId('analysis-summary');
  await expect(summary).toContainText(/alarm for .+ raised at \d\d \w{3} \d\d \d\d:\d\d:\d\d/);
  await expect(region.getByRole('table', { name: 'Timeline' })).toContainText('Verification started');
  await expect(region.getByRole('button', { name: 'Regenerate analysis' })).toBeVisible();
  const stored = dbQuery<{ analysis: string }>('select analysis from alarmReportAnalyses where alarmReportId = ?', report!.id)[0];
  expect(stored, 'the analysis is stored with the report').toBeTruthy();
  const summaryText = (JSON.parse(stored!.analysis) as { Summary: string }).Summary;
  await expect(summary).toHaveText(summaryText);
  await region.scrollIntoViewIfNeeded();
  await shot(page, 'detail');

  // Ctrl+P: the printed report has the Analysis after the controller notes, before the journal.
  await page.evaluate(() => {
    const w = window as unknown as { __printed: string; __printedHtml: string };
    w.__printed = '';
    w.__printedHtml = '';
    new MutationObserver(() => {
      const frame = document.getElementById('printWindow') as HTMLIFrameElement | null;
      if (!frame) return;
      const read = () => {
        const text = frame.contentDocument?.body?.innerText ?? '';
        if (text.length > w.__printed.length) {
          w.__printed = text;
          w.__printedHtml = frame.contentDocument?.documentElement.outerHTML ?? '';
        }
        if (frame.isConnected) setTimeout(read, 50);
      };
      read();
    }).observe(document.body, { childList: true });
  });
  await page.locator('body').focus();
  await page.keyboard.press('ControlOrMeta+p');
  await expect.poll(() => page.evaluate(() => (window as unknown as { __printed: string }).__printed.length), { timeout: 15_000 }).toBeGreaterThan(200);
  const printed = await page.evaluate(() => (window as unknown as { __printed: string }).__printed);
  const order = ['Closed Alarm Report', 'Controller notes', 'Analysis', summaryText, 'Escalation plan check', 'Activity journal'];
  const at = order.map((t) =>
    printed.indexOf(t, printed.indexOf('Controller notes') >= 0 && t !== 'Closed Alarm Report' ? printed.indexOf('Controller notes') : 0),
  );
  expect(
    at.every((i) => i >= 0),
    `printed text has every part: ${JSON.stringify(at)}`,
  ).toBe(true);
  expect([...at].sort((a, b) => a - b)).toEqual(at);

  // The same document printed to PDF (A4), read back with pdf.js.
  const html = await page.evaluate(() => (window as unknown as { __printedHtml: string }).__printedHtml);
  const paper = await page.context().newPage();
  await paper.goto('/health');
  await paper.setContent(html, { waitUntil: 'load' });
  const pdf = await paper.pdf({ format: 'A4', printBackground: true });
  await paper.screenshot({ path: '.tmp/e2e-results/alarm-intelligence-print.png', fullPage: true });
  await paper.close();
  const squash = (t: string) => t.replace(/\s+/g, '');
  const pdfText = squash(await pdfToText(pdf));
  const notesAt = pdfText.indexOf(squash('Controller notes'));
  const onPaper = [notesAt, pdfText.indexOf(squash(summaryText), notesAt), pdfText.indexOf(squash('Activity journal'), notesAt)];
  expect(
    onPaper.every((i) => i >= 0),
    `PDF text has the Analysis after the notes: ${JSON.stringify(onPaper)}`,
  ).toBe(true);
  expect([...onPaper].sort((a, b) => a - b)).toEqual(onPaper);
});

test('auto-generate on: the seeded analysis shows; intelligence off: no Analysis section', async ({ page }) => {
  const auto = reportOf(1, 1);
  const off = reportOf(0, 0);
  expect(auto && off, 'demo data has both kinds of customer').toBeTruthy();
  await signedInAs(page, 'arc-supervisor@demo.test');
  await open(page, auto!);
  const region = page.getByRole('region', { name: 'Analysis' });
  await expect(region).toContainText('Generated');
  await expect(region).toContainText('automatically');
  await expect(region.getByRole('button', { name: 'Regenerate analysis' })).toBeVisible();

  await open(page, off!);
  await expect(page.getByRole('region', { name: 'Additional notes' })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Analysis' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: /analysis/i })).toHaveCount(0);
});

/** The text of a PDF, page by page (pdf.js, as a reader's copy-paste would give it). */
async function pdfToText(pdf: Buffer) {
  const doc = await getDocument({ data: new Uint8Array(pdf), isEvalSupported: false }).promise;
  let text = '';
  for (let i = 1; i <= doc.numPages; i++) {
    const content = await (await doc.getPage(i)).getTextContent();
    text += content.items.map((it) => ('str' in it ? it.str : '')).join(' ') + '\n';
  }
  return text;
}
