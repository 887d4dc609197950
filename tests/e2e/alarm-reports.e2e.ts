// Alarm reports in Chromium against the real server, by keyboard: an ARC supervisor opens the
// list (g r), filters it, opens a report (Enter) and a second one beside it (Ctrl+Enter), adds a
// note (Alt+N), toggles 'Escalation plan followed' (Alt+Shift+F) and prints (Ctrl+P) the Closed
// Alarm Report; an ARC controller may annotate but neither export nor print.
import { test, expect, type Page } from '@playwright/test';
import { signedInAs, dbQuery, focusPage, screenshots } from './helpers';
import { capturePrint, printedDocument, printToPdf, squash } from '../helpers/print-pdf';
import { MSG } from '../../src/shared/messages';

type Report = { id: string; alarmId: string; personFullName: string; escalationPlanFollowed: number };
/** Recent Real Incidents: what the list shows by default (last 7 days, verification type 1), newest first. */
const recent = () =>
  dbQuery<Report>(
    `select id, alarmId, personFullName, escalationPlanFollowed from alarmReports
     where verificationType = 1 and alarmClosed >= ? order by alarmClosed desc limit 2`,
    new Date(Date.now() - 6 * 86_400_000).toISOString(),
  );

const shot = (page: Page, name: string) => screenshots(page, 'alarm-reports', name);

test('ARC supervisor, keyboard only: list, filter, open, side by side, note, escalation flag, print', async ({ page }) => {
  const [report] = recent();
  expect(report, 'demo data has a Real Incident closed in the last 7 days').toBeTruthy();
  await signedInAs(page, 'arc-supervisor@demo.test');

  // g r opens the list with its defaults: last 7 days, Real Incident
  await focusPage(page);
  await page.keyboard.press('g');
  await page.keyboard.press('r');
  await expect(page).toHaveURL(/\/alarm-reports$/);
  const grid = page.getByRole('grid', { name: 'Alarm reports' });
  await expect(grid.getByRole('row').nth(1)).toBeVisible();
  await expect(page.getByRole('figure', { name: 'Verification Started' })).toContainText('Under 10 s');
  await expect(page.getByRole('figure', { name: 'Response targets' })).toContainText('Within 10 s');
  await shot(page, 'list');

  // `/` reaches the search; the alarm id filters the list to that report
  await grid.focus();
  await page.keyboard.press('/');
  const search = page.getByRole('searchbox', { name: 'Search alarm reports' });
  await expect(search).toBeFocused();
  await page.keyboard.type(report!.alarmId);
  await page.keyboard.press('Enter');
  await expect(grid.getByRole('row')).toHaveCount(2); // header + the one report
  await expect(grid.getByRole('row').nth(1)).toContainText(report!.personFullName);

  // ArrowDown leaves the box for the list; Enter opens the Closed Alarm Report tab
  await search.press('ArrowDown');
  await expect(grid).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(new RegExp(`/alarm-reports/${report!.alarmId}$`));
  const heading = page.getByRole('heading', { level: 1, name: report!.personFullName, exact: true });
  await expect(heading).toBeVisible();
  // offline machine: the map falls back to the drawn position with coordinates
  await expect(page.getByTestId('alarm-map-drawn').first()).toBeVisible({ timeout: 15_000 });
  await shot(page, 'detail');

  // a call recording plays in the page (the authorised blob through an object URL, allowed by the CSP)
  const play = page
    .getByRole('button', { name: /^Play recording/ })
    .and(page.locator(':not([disabled]):not([aria-disabled="true"])'))
    .first();
  if (await play.count()) {
    await play.click();
    const audio = page.locator('audio').first();
    await expect(audio).toHaveAttribute('src', /^blob:/);
    await expect.poll(() => audio.evaluate((a: HTMLAudioElement) => (Number.isFinite(a.duration) ? a.duration : 0))).toBeGreaterThan(0);
  }

  // Alt+N: add a note (blank first: the spec's message), stored and shown
  const note = `E2E note ${Date.now()}`;
  await page.keyboard.press('Alt+n');
  const dialog = page.getByRole('dialog', { name: 'Add alarm report note' });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByLabel(/Note text/)).toBeFocused();
  await page.keyboard.press('Tab'); // Cancel
  await page.keyboard.press('Tab'); // Add
  await page.keyboard.press('Enter');
  await expect(dialog.getByText(MSG.enterNoteText)).toBeVisible();
  await dialog.getByLabel(/Note text/).focus();
  await page.keyboard.type(note);
  await page.keyboard.press('Tab');
  await page.keyboard.press('Tab');
  await page.keyboard.press('Enter');
  await expect(dialog).toBeHidden();
  await expect(page.getByText(MSG.noteAdded)).toBeVisible();
  await expect(page.getByRole('region', { name: 'Additional notes' }).getByText(note)).toBeVisible();
  await expect.poll(() => dbQuery<{ n: number }>('select count(*) as n from alarmNotes where alarmReportId = ? and note = ?', report!.id, note)[0]!.n).toBe(1);

  // Alt+Shift+F: toggle 'Escalation plan followed', stored
  const before = report!.escalationPlanFollowed === 1;
  const box = page.getByRole('checkbox', { name: 'Escalation plan followed' });
  await expect(box).toHaveAttribute('aria-checked', String(before));
  await focusPage(page);
  await page.keyboard.press('Alt+Shift+F');
  await expect(page.getByText(MSG.escalationUpdated)).toBeVisible();
  await expect(box).toHaveAttribute('aria-checked', String(!before));
  await expect.poll(() => dbQuery<{ f: number }>('select escalationPlanFollowed as f from alarmReports where id = ?', report!.id)[0]!.f).toBe(before ? 0 : 1);

  // Ctrl+P: react-to-print copies the printable report into its print frame (#printWindow) and prints
  // it; read the frame's text while it exists, then check the sections are in the spec's order.
  await capturePrint(page);
  await page.keyboard.press('ControlOrMeta+p');
  const { text: printed, html } = await printedDocument(page);
  const order = [
    'Closed Alarm Report',
    'Alarm details',
    'Profile snapshot taken',
    'User information',
    'Teams with escalation plan',
    'Controller notes',
    'Activity journal',
  ];
  const at = order.map((t) => printed.indexOf(t));
  expect(
    at.every((i) => i >= 0),
    `printed text has every section: ${JSON.stringify(at)}`,
  ).toBe(true);
  expect([...at].sort((a, b) => a - b)).toEqual(at);
  expect(printed).toContain(note);

  // The same document printed to PDF by Chromium (A4, print media), read back with pdf.js: the
  // paper copy has every section in the spec's order too.
  const pages = await printToPdf(page, html, { path: '.tmp/e2e-results/alarm-reports-print.pdf' });
  const pdfText = pages.join('\n');
  // Every page carries the footer and 'Page N of M' in its margins and has report content besides;
  // continuation pages carry the person and alarm id as a running header.
  const footer = squash(`Closed Alarm Report · Escalation plan followed: ${before ? 'No' : 'Yes'}`);
  pages.forEach((text, i) => {
    const t = squash(text);
    expect(t, `page ${i + 1}`).toContain(squash(`Page ${i + 1} of ${pages.length}`));
    expect(t, `page ${i + 1}`).toContain(footer);
    const body = t.replaceAll(footer, '').replaceAll(squash(`Page ${i + 1} of ${pages.length}`), '');
    expect(body.length, `page ${i + 1} holds more than its footer`).toBeGreaterThan(40);
    if (i > 0) expect(t, `page ${i + 1}`).toContain(squash(`${report!.personFullName} · Alarm ${report!.alarmId}`));
  });
  expect(pages.length, 'the report runs onto a continuation page').toBeGreaterThan(1);
  const onPaper = order.map((t) => squash(pdfText).indexOf(squash(t)));
  expect(
    onPaper.every((i) => i >= 0),
    `PDF text has every section: ${JSON.stringify(onPaper)}`,
  ).toBe(true);
  expect([...onPaper].sort((a, b) => a - b)).toEqual(onPaper);
  expect(squash(pdfText)).toContain(squash(note));

  // Side by side: back to the list (Alt+1) with its default rows; Ctrl+Enter opens the active row in the
  // other pane, and j moves the list while that preview follows
  await page.keyboard.press('Alt+1');
  await expect(page).toHaveURL(/\/alarm-reports(\?[^/]*)?$/); // the list tab again, its search in the link
  await expect(search).toHaveValue(report!.alarmId);
  await search.fill(''); // (the tab switch moves focus to the tab strip a moment later, so no bare typing here)
  await search.press('Enter');
  await expect(grid.getByRole('row').nth(2)).toBeVisible();
  const personOf = async (row: number) => {
    const href = await grid.getByRole('row').nth(row).locator('a.lw-row-link').getAttribute('href');
    const alarmId = href!.split('/').pop()!;
    return dbQuery<{ p: string }>('select personFullName as p from alarmReports where alarmId = ?', alarmId)[0]!.p;
  };
  const [first, second] = [await personOf(1), await personOf(2)];
  await search.press('ArrowDown');
  await expect(grid).toBeFocused();
  await page.keyboard.press('ControlOrMeta+Enter');
  await expect(page.locator('[data-pane-id]')).toHaveCount(2);
  const preview = page.locator('[data-pane-id]').nth(1);
  await expect(preview.getByRole('heading', { level: 1, name: first, exact: true })).toBeVisible();
  await expect(grid).toBeFocused();
  await page.keyboard.press('j');
  await expect(preview.getByRole('heading', { level: 1, name: second, exact: true })).toBeVisible();
  await shot(page, 'side-by-side');
});

test('ARC controller: may add notes and tick the flag, but has no export and no Export to PDF', async ({ page }) => {
  const [report] = recent();
  await signedInAs(page, 'arc-controller@demo.test');
  await focusPage(page);
  await page.keyboard.press('g');
  await page.keyboard.press('r');
  const grid = page.getByRole('grid', { name: 'Alarm reports' });
  await expect(grid.getByRole('row').nth(1)).toBeVisible();
  await expect(page.getByRole('button', { name: 'Export' })).toHaveCount(0);

  await page.goto(`/alarm-reports/${report!.alarmId}`);
  await expect(page.getByRole('heading', { level: 1, name: report!.personFullName, exact: true })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Add Note' })).toBeVisible();
  await expect(page.getByRole('checkbox', { name: 'Escalation plan followed' })).toBeEnabled();
  await expect(page.getByRole('button', { name: 'Export to PDF' })).toHaveCount(0);
  await expect(page.getByTestId('printable-report')).toHaveCount(0);
});
