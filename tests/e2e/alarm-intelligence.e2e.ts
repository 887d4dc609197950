// Alarm report intelligence in Chromium against the real server and its demo data: an ARC
// supervisor opens a report of a customer with intelligence on, generates its Analysis (stored on
// the server), prints the Closed Alarm Report with the Analysis after the controller notes and
// reads the PDF back; a report of a customer with auto-generate shows the seeded analysis; a
// customer with intelligence off shows no Analysis section.
import { test, expect, type Page } from '@playwright/test';
import { signedInAs, dbQuery, focusPage, screenshots } from './helpers';
import { capturePrint, printedDocument, printToPdf, squash } from '../helpers/print-pdf';

type Report = { id: string; alarmId: string; personFullName: string };
const reportOf = (intel: number, auto: number) =>
  dbQuery<Report>(
    `select r.id, r.alarmId, r.personFullName from alarmReports r join customers c on c.id = r.customerId
     where c.enableAlarmReportIntelligence = ? and c.autoGenerateAlarmIntelligence = ? order by r.alarmClosed desc limit 1`,
    intel,
    auto,
  )[0];

const shot = (page: Page, name: string) => screenshots(page, 'alarm-intelligence', name);

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
  await capturePrint(page);
  await focusPage(page);
  await page.keyboard.press('ControlOrMeta+p');
  const { text: printed, html } = await printedDocument(page);
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
  const pdfText = squash(
    (await printToPdf(page, html, { path: '.tmp/e2e-results/alarm-intelligence-print.pdf', screenshot: '.tmp/e2e-results/alarm-intelligence-print.png' })).join(
      '\n',
    ),
  );
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
