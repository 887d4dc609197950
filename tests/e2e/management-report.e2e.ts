// The monthly management report in Chromium against the real server and its demo data: an ARC
// manager opens it from the palette (all customers, last month), sees the month's numbers as the
// database counts them, steps back a month, prints it and reads the PDF back (A4, every section
// in order, 'Page N of M' and the running header); a provider admin opens one customer's report
// from the customer's tab; with the feature off there is no button, no command and the page says so.
import { test, expect, type Page } from '@playwright/test';
import { apiToken, BASE, dbQuery, openPalette, signedInAs } from './helpers';
import { capturePrint, printedDocument, printToPdf, positionsInOrder, squash } from '../helpers/print-pdf';
import { defaultMonth, monthLabel, monthRange, shiftMonth } from '../../src/shared/management-report';
import { MANAGEMENT_SECTIONS } from '../../src/shared/schemas/management-report';
import { formatCount } from '../../src/shared/numbers';

const countOf = (month: string, customerId: string | null = null) => {
  const { from, to } = monthRange(month);
  const rows = customerId
    ? dbQuery<{ n: number }>('select count(*) as n from alarmReports where customerId = ? and alarmClosed >= ? and alarmClosed < ?', customerId, from, to)
    : dbQuery<{ n: number }>('select count(*) as n from alarmReports where alarmClosed >= ? and alarmClosed < ?', from, to);
  return rows[0]!.n;
};

async function setFeature(on: boolean) {
  const token = await apiToken('admin@demo.test');
  const res = await fetch(`${BASE}/ps-admin/settings/feature`, {
    method: 'PUT',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'ExportManagementReportPDF', isEnabled: on }),
  });
  expect(res.status).toBe(200);
}

async function shot(page: Page, name: string) {
  await page.screenshot({ path: `.tmp/e2e-results/management-report-${name}.png` });
}

test('ARC manager: from the palette, last month of all customers, the month before, printed to PDF', async ({ page }) => {
  test.setTimeout(120_000);
  const month = defaultMonth(Date.now());
  await signedInAs(page, 'arc-manager@demo.test');
  await openPalette(page);
  await page.keyboard.type('Monthly Management Report');
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/management-report$/);
  const doc = page.getByTestId('management-report');
  await expect(page.getByRole('heading', { level: 1, name: 'Management Report: All customers' })).toBeVisible();
  await expect(page.getByRole('textbox', { name: 'Month', exact: true })).toHaveValue(month);
  await expect(doc).toContainText(
    `${monthLabel(month)} · ${formatCount(countOf(month))} alarms (${monthLabel(shiftMonth(month, -1))}: ${formatCount(countOf(shiftMonth(month, -1)))})`,
  );
  for (const s of MANAGEMENT_SECTIONS) await expect(doc.getByRole('heading', { level: 2, name: s })).toBeVisible();
  await expect(doc.getByRole('table', { name: 'Response targets' })).toContainText('Verification started within 10 s');
  await shot(page, 'all');

  // The month before: in the link, and its numbers.
  await page.getByRole('button', { name: 'Previous month' }).click();
  const before = shiftMonth(month, -1);
  await expect(page).toHaveURL(new RegExp(`/management-report\\?month=${before}$`));
  await expect(doc).toContainText(`${monthLabel(before)} · ${formatCount(countOf(before))} alarms`);

  // Print: every section in order on A4 pages, each with 'Page N of M', continuation pages with the running header.
  await capturePrint(page);
  await page.getByRole('button', { name: 'Print (Export to PDF)' }).click();
  const { text, html } = await printedDocument(page);
  expect(positionsInOrder(text, ['Management Report', 'All customers', ...MANAGEMENT_SECTIONS]).every((i) => i >= 0)).toBe(true);
  const pages = await printToPdf(page, html, { path: '.tmp/e2e-results/management-report.pdf' });
  const pdfText = pages.join('\n');
  const at = positionsInOrder(pdfText, ['Management Report', 'All customers', monthLabel(before), ...MANAGEMENT_SECTIONS]);
  expect(
    at.every((i) => i >= 0),
    `PDF text has every section in order: ${JSON.stringify(at)}`,
  ).toBe(true);
  expect(squash(pdfText)).toContain(squash(`${formatCount(countOf(before))} alarms`));
  pages.forEach((p, i) => {
    expect(squash(p), `page ${i + 1}`).toContain(squash(`Page ${i + 1} of ${pages.length}`));
    if (i > 0) expect(squash(p), `page ${i + 1}`).toContain(squash(`All customers · ${monthLabel(before)}`));
  });
});

const largestCustomer = () =>
  dbQuery<{ id: string; name: string }>(
    `select c.id, c.name from customers c join alarmReports r on r.customerId = c.id group by c.id, c.name order by count(*) desc limit 1`,
  )[0]!;

test("provider admin: one customer's report from the customer's tab", async ({ page }) => {
  test.setTimeout(120_000);
  const customer = largestCustomer();
  const month = defaultMonth(Date.now());
  await signedInAs(page, 'admin@demo.test');
  await page.goto(`/customers/${customer.id}/account`);
  await expect(page.getByRole('heading', { level: 1, name: customer.name })).toBeVisible();
  await page.getByRole('link', { name: 'Management report' }).click();
  await expect(page).toHaveURL(new RegExp(`/customers/${customer.id}/management-report`));
  await expect(page.getByRole('heading', { level: 1, name: `Management Report: ${customer.name}` })).toBeVisible();
  await expect(page.getByTestId('management-report')).toContainText(`${monthLabel(month)} · ${formatCount(countOf(month, customer.id))} alarms`);
  await shot(page, 'customer');
});

test('the feature off: no button on the customer, no command, the page says so', async ({ page }) => {
  test.setTimeout(120_000);
  const customer = largestCustomer();
  await signedInAs(page, 'admin@demo.test');
  await setFeature(false);
  try {
    await page.goto(`/customers/${customer.id}/account`);
    await expect(page.getByRole('heading', { level: 1, name: customer.name })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Management report' })).toHaveCount(0);
    const input = await openPalette(page);
    await input.fill('Monthly Management Report');
    await expect(page.getByRole('option', { name: /Monthly Management Report/ })).toHaveCount(0);
    await page.keyboard.press('Escape');
    await page.goto(`/customers/${customer.id}/management-report`);
    await expect(page.getByText('The management report is not enabled.')).toBeVisible();
  } finally {
    await setFeature(true);
  }
});
