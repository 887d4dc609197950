// The usage report of a customer in Chromium against the real server and its demo data, by
// keyboard: a provider admin with a customer's tab open presses Ctrl+K, types "usage report" and
// Enter; the report of last month opens in a tab of its own with a row for every device allocated
// to the customer, the figures the daily usage holds for the customer's first device, and the
// usage rate against the month before; the month before prints on A4 with 'Page N of M' and the
// running header; `c u` opens it too, and the customer page links to it.
import { test, expect, type Page } from '@playwright/test';
import { dbQuery, openPalette, signedInAs } from './helpers';
import { capturePrint, printedDocument, printToPdf, positionsInOrder, squash } from '../helpers/print-pdf';
import { defaultMonth, monthLabel, shiftMonth } from '../../src/shared/management-report';
import { monthDays, monthRange } from '../../src/shared/usage-report';

/** A demo customer whose allocated devices were used last month and the month before (the seeded usage history). */
function customerWithHistory(month: string) {
  const before = monthDays(shiftMonth(month, -1));
  const { last } = monthDays(month);
  return dbQuery<{ id: string; name: string }>(
    `select c.id, c.name from customers c join devices d on d.customerId = c.id and d.status = 3
       join deviceDailyUsage u on u.deviceId = d.id and u.day >= ? and u.day <= ? and u.checkIns > 0
     group by c.id, c.name having count(distinct substr(u.day, 1, 7)) = 2 order by c.name limit 1`,
    before.first,
    last,
  )[0]!;
}
const allocated = (customerId: string) =>
  dbQuery<{ id: string; serialNumber: string }>('select id, serialNumber from devices where customerId = ? and status = 3 order by serialNumber', customerId);
const daysUsed = (deviceId: string, month: string) => {
  const { first, last } = monthDays(month);
  return dbQuery<{ n: number }>(
    'select count(*) as n from deviceDailyUsage where deviceId = ? and day >= ? and day <= ? and checkIns + powerOns + sosAlarms + falls > 0',
    deviceId,
    first,
    last,
  )[0]!.n;
};

/** Alarm reports of the customer raised from the device in the month (a day with one is a day used too). */
const alarmsRaised = (customerId: string, serial: string, month: string) => {
  const { from, to } = monthRange(month);
  return dbQuery<{ n: number }>(
    'select count(*) as n from alarmReports where customerId = ? and deviceSerial = ? and alarmStarted >= ? and alarmStarted < ?',
    customerId,
    serial,
    from,
    to,
  )[0]!.n;
};

async function openCustomer(page: Page, customer: { id: string; name: string }) {
  await page.goto(`/customers/${customer.id}/account`);
  await expect(page.getByRole('heading', { level: 1, name: customer.name })).toBeVisible();
  await page.locator('body').focus();
}

test('palette on a customer: "usage report" opens last month with every allocated device and the rate against the month before', async ({ page }) => {
  test.setTimeout(120_000);
  const month = defaultMonth(Date.now());
  const customer = customerWithHistory(month);
  expect(customer, 'a demo customer with a usage history').toBeTruthy();
  const devices = allocated(customer.id);
  await signedInAs(page, 'admin@demo.test');
  await openCustomer(page, customer);

  const input = await openPalette(page);
  await input.fill('usage report');
  await expect(page.getByRole('option', { name: /Customer: Usage Report/ })).toBeVisible();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(new RegExp(`/customers/${customer.id}/usage-report$`));
  await expect(page.getByRole('heading', { level: 1, name: `Usage Report: ${customer.name}` })).toBeVisible();
  await expect(page.getByRole('textbox', { name: 'Month', exact: true })).toHaveValue(month);

  const table = page.getByRole('table', { name: `Usage by device, ${monthLabel(month)}` });
  await expect(table).toBeVisible();
  await expect(table.locator('tbody tr')).toHaveCount(devices.length);
  for (const d of devices) await expect(table.getByText(d.serialNumber, { exact: false }).first()).toBeVisible();
  // The figures of a used device without alarms are the daily usage's.
  const used = devices.map((d) => ({ ...d, days: daysUsed(d.id, month) })).find((d) => d.days > 0 && alarmsRaised(customer.id, d.serialNumber, month) === 0)!;
  const row = table.locator('tbody tr').filter({ hasText: used.serialNumber });
  await expect(row.locator('td').nth(1)).toHaveText(String(used.days));
  await expect(page.getByTestId('usage-rate')).toHaveText(/^\d+(\.\d)? %$/);
  await expect(page.getByTestId('usage-rate-previous')).toHaveText(/^\d+(\.\d)? %$/);

  // The month before, from the month picker's button.
  await page.getByRole('button', { name: 'Previous month' }).click();
  const before = shiftMonth(month, -1);
  await expect(page).toHaveURL(new RegExp(`/customers/${customer.id}/usage-report\\?month=${before}$`));
  await expect(page.getByRole('table', { name: `Usage by device, ${monthLabel(before)}` }).locator('tbody tr')).toHaveCount(devices.length);

  // Print: A4 pages, each with 'Page N of M', continuation pages with the customer and month.
  await capturePrint(page);
  await page.getByRole('button', { name: 'Print (Export to PDF)' }).click();
  const { text, html } = await printedDocument(page);
  expect(positionsInOrder(text, ['Usage Report', customer.name, monthLabel(before), 'Person', used.serialNumber]).every((i) => i >= 0)).toBe(true);
  const pages = await printToPdf(page, html, { path: '.tmp/e2e-results/usage-report.pdf' });
  expect(squash(pages.join('\n'))).toContain(squash(used.serialNumber));
  pages.forEach((p, i) => {
    expect(squash(p), `page ${i + 1}`).toContain(squash(`Page ${i + 1} of ${pages.length}`));
    if (i > 0) expect(squash(p), `page ${i + 1}`).toContain(squash(`${customer.name} · ${monthLabel(before)}`));
  });
});

test('c u on a customer opens its usage report; the customer page links to it', async ({ page }) => {
  test.setTimeout(120_000);
  const customer = customerWithHistory(defaultMonth(Date.now()));
  await signedInAs(page, 'admin@demo.test');
  await openCustomer(page, customer);
  await expect(page.getByRole('link', { name: 'Usage report' })).toBeVisible();
  await expect(async () => {
    await page.locator('body').focus();
    await page.keyboard.press('c');
    await page.keyboard.press('u');
    await expect(page).toHaveURL(new RegExp(`/customers/${customer.id}/usage-report$`), { timeout: 2000 });
  }).toPass({ timeout: 15_000 });
  await expect(page.getByRole('heading', { level: 1, name: `Usage Report: ${customer.name}` })).toBeVisible();
  await expect(page.getByRole('table').locator('tbody tr').first()).toBeVisible();
});
