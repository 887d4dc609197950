import { test, expect, type Page } from '@playwright/test';
import { signedInAs, dbQuery } from './helpers';
import { MSG } from '../../src/shared/messages';
import { at, first } from '../helpers/lists';

type BulkState = { list: string[]; selected: string[]; devices: Record<string, { serialNumber: string; etag: string }> };
const bulkSerials = (page: Page) =>
  page.evaluate(() => {
    const s = JSON.parse(localStorage.getItem('bulk.state') ?? '{"list":[],"devices":{}}') as BulkState;
    return s.list.map((id) => s.devices[id]?.serialNumber ?? '(missing)');
  });
const pendingCount = (page: Page) => page.evaluate(() => (JSON.parse(localStorage.getItem('bulk.pendingScans') ?? '[]') as unknown[]).length);

/** A hand-held scanner: 5 ms per key, Enter after each serial. */
async function scan(page: Page, serials: string[]) {
  for (const s of serials) {
    await page.keyboard.type(s, { delay: 5 });
    await page.keyboard.press('Enter');
  }
}

test('a scanner typing serials into Bulk Update (slow server, repeats, unknown ones, a network drop and reloads) ends with the right rows, order and warnings', async ({
  page,
}) => {
  test.setTimeout(120_000);
  const known = dbQuery<{ serialNumber: string }>('select serialNumber from devices order by serialNumber limit 42').map((r) => r.serialNumber);
  const unknown = ['ZZNOPE0001', 'ZZNOPE0002', 'ZZNOPE0003', 'ZZNOPE0004', 'ZZNOPE0005'];
  // 42 known + 5 unknown, with 9 repeats mixed in (of both kinds): 56 scans
  const scans: string[] = [];
  known.forEach((s, i) => {
    scans.push(s);
    if (i === 3) scans.push(at(unknown, 0));
    if (i === 8) scans.push(at(known, 2));
    if (i === 12) scans.push(at(unknown, 1), at(unknown, 0));
    if (i === 20) scans.push(at(known, 20), at(unknown, 2));
    if (i === 27) scans.push(at(known, 5), at(unknown, 3));
    if (i === 33) scans.push(at(unknown, 1), at(known, 0));
    if (i === 40) scans.push(at(unknown, 4), at(known, 40), at(unknown, 4));
  });
  const seen = new Set<string>();
  const firsts: string[] = [];
  const repeats: string[] = [];
  for (const s of scans) {
    if (seen.has(s)) repeats.push(s);
    else firsts.push(s);
    seen.add(s);
  }
  const expectedOrder = [...firsts].reverse();

  // a slow server: every lookup takes 400 ms
  await page.route('**/api/v1/device/get-list-by-serials', async (route) => {
    await new Promise((r) => setTimeout(r, 400));
    await route.continue();
  });
  await signedInAs(page, 'admin@demo.test');
  await page.goto('/asset-management/device-bulk-update');
  const field = page.getByLabel('Serial Number', { exact: true });
  await expect(field).toBeFocused();

  // blank input says so
  await page.keyboard.press('Enter');
  await expect(page.getByText(MSG.serialRequired)).toBeVisible();

  await scan(page, scans);
  await expect(field).toBeFocused();
  await expect(field).toHaveValue('');
  await expect(page.getByTestId('bulk-counts')).toHaveText(`${firsts.length} devices on the bulk list, ${firsts.length - unknown.length} selected`, {
    timeout: 20_000,
  });
  expect(await bulkSerials(page)).toEqual(expectedOrder);
  expect(await pendingCount(page)).toBe(0);
  await expect(page.getByTestId('bulk-not-found')).toContainText(`Devices with serial numbers ${unknown.join(', ')} were not found but are added to the list.`);
  await expect(page.getByTestId('bulk-already')).toContainText(`Devices with serial numbers ${repeats.join(', ')} are already added and will be omitted.`);
  // the newest rows on top; the last one is a placeholder (at(unknown, 4) was scanned after at(known, 40)... order by first scan)
  const grid = page.getByRole('grid', { name: 'Bulk list' });
  await expect(grid.getByRole('row').nth(1)).toContainText(at(expectedOrder, 0));
  await expect(grid.getByRole('row').nth(2)).toContainText(at(expectedOrder, 1));
  await expect(grid.getByRole('row', { name: new RegExp(at(unknown, 4)) })).toContainText('Not found');

  await page.setViewportSize({ width: 1440, height: 900 });
  await page.screenshot({ path: '.tmp/e2e-results/bulk-1440.png' });
  await page.setViewportSize({ width: 1024, height: 768 });
  await page.screenshot({ path: '.tmp/e2e-results/bulk-1024.png' });
  await page.setViewportSize({ width: 1440, height: 900 });

  // the server becomes unreachable: scans are kept, also across a reload, and resolve when it is back
  await page.unroute('**/api/v1/device/get-list-by-serials');
  await page.route('**/api/v1/device/get-list-by-serials', (route) => route.abort('connectionrefused'));
  const late = dbQuery<{ serialNumber: string }>('select serialNumber from devices order by serialNumber limit 3 offset 100').map((r) => r.serialNumber);
  await field.focus();
  await scan(page, [...late, 'ZZNOPE0099']);
  await expect(page.getByTestId('bulk-queue')).toContainText(MSG.bulkLookupFailed);
  expect(await pendingCount(page)).toBe(4);
  await page.reload();
  await expect(page.getByLabel('Serial Number', { exact: true })).toBeFocused();
  expect(await pendingCount(page)).toBe(4);
  await page.unroute('**/api/v1/device/get-list-by-serials');
  await expect.poll(() => pendingCount(page), { timeout: 20_000 }).toBe(0);
  await expect.poll(() => bulkSerials(page)).toEqual(['ZZNOPE0099', ...[...late].reverse(), ...expectedOrder]);

  // a reload keeps the list and the selection
  await page.reload();
  await expect(page.getByTestId('bulk-counts')).toHaveText(`${firsts.length + 4} devices on the bulk list, ${firsts.length - unknown.length + 3} selected`);

  // elsewhere in the workspace the sticky bar shows, with the count
  await page.goto('/persons');
  const bar = page.getByRole('region', { name: 'Bulk list' });
  await expect(bar).toContainText(MSG.stickyBulkBar);
  await expect(bar.getByRole('button', { name: MSG.bulkUpdateCount(firsts.length + 4) })).toBeVisible();
  await page.screenshot({ path: '.tmp/e2e-results/bulk-sticky-bar.png' });
  // not on the bulk page itself
  await bar.getByRole('button', { name: MSG.bulkUpdateCount(firsts.length + 4) }).click();
  await expect(page).toHaveURL(/device-bulk-update$/);
  await expect(page.getByRole('region', { name: 'Bulk list' })).toHaveCount(0);
});

test('CSV upload merges and selects all, last added is highlighted for 5 s, status change of the selection, a scanner burst elsewhere offers the bulk list', async ({
  page,
}) => {
  test.setTimeout(90_000);
  const devices = dbQuery<{ id: string; serialNumber: string; status: number; customerId: string | null }>(
    'select id, serialNumber, status, customerId from devices where status = 1 order by serialNumber limit 12',
  );
  await signedInAs(page, 'admin@demo.test');
  await page.goto('/asset-management/device-bulk-update');
  await expect(page.getByLabel('Serial Number', { exact: true })).toBeFocused();

  // a file that is not CSV, a CSV without the column, then a good one (semicolons, an empty cell, an unknown serial)
  const file = page.getByLabel('CSV file');
  await file.setInputFiles({ name: 'x.pdf', mimeType: 'application/pdf', buffer: Buffer.from('%PDF') });
  await expect(page.getByRole('alert')).toHaveText(MSG.notCsv);
  await file.setInputFiles({ name: 'x.csv', mimeType: 'text/csv', buffer: Buffer.from('Serial,Type\nA,B\n') });
  await expect(page.getByRole('alert')).toHaveText(MSG.csvMissingColumn('SerialNumber'));
  const csv = ['Name;serialnumber', ...devices.map((d, i) => `n${i};${d.serialNumber}`), 'empty;', 'u;ZZCSV0001'].join('\n');
  await file.setInputFiles({ name: 'serials.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
  await expect(page.getByTestId('bulk-counts')).toHaveText(`${devices.length + 1} devices on the bulk list, ${devices.length} selected`);
  await expect(page.getByTestId('bulk-not-found')).toContainText('Devices with serial numbers ZZCSV0001 were not found');
  const grid = page.getByRole('grid', { name: 'Bulk list' });
  // file order on top
  await expect(grid.getByRole('row').nth(1)).toContainText(at(devices, 0).serialNumber);

  // a typed serial: highlighted as last added, for 5 seconds
  const extra = first(
    dbQuery<{ serialNumber: string }>('select serialNumber from devices where status = 1 order by serialNumber limit 1 offset 50'),
  ).serialNumber;
  await scan(page, [extra]);
  const top = grid.getByRole('row').nth(1);
  await expect(top).toContainText(extra);
  await expect(top.locator('.bulk-last-added')).toHaveCount(1);
  await page.waitForTimeout(5200);
  await expect(top.locator('.bulk-last-added')).toHaveCount(0);

  // Change Status of the selection (13 New devices) to Returned
  await page.getByRole('button', { name: 'Change Status' }).click();
  const drawer = page.getByRole('dialog', { name: 'Change Status' });
  await drawer.getByRole('button', { name: 'Change Status' }).click();
  await expect(drawer.getByRole('alert')).toHaveText('Please select a status.');
  await expect(drawer.getByLabel('Status').locator('option', { hasText: /^Allocated$/ })).toHaveCount(0);
  await drawer.getByLabel('Status').selectOption({ label: 'Returned' });
  await drawer.getByRole('button', { name: 'Change Status' }).click();
  await expect(drawer.getByRole('status')).toHaveText(MSG.statusChangeCompleted(devices.length + 1));
  const after = dbQuery<{ n: number }>(
    `select count(*) as n from devices where status = 5 and serialNumber in (${[...devices.map((d) => d.serialNumber), extra].map(() => '?').join(',')})`,
    ...devices.map((d) => d.serialNumber),
    extra,
  );
  expect(at(after, 0).n).toBe(devices.length + 1);
  await drawer.getByRole('button', { name: 'Close' }).click();
  await expect(grid.getByRole('row').nth(1)).toContainText('Returned');

  // a scanner burst on another page offers to add the serial
  const burst = first(dbQuery<{ serialNumber: string }>('select serialNumber from devices order by serialNumber limit 1 offset 300')).serialNumber;
  await page.goto('/persons');
  await expect(page.getByRole('region', { name: 'Bulk list' })).toBeVisible();
  // let the page settle first (a 2-core machine busy loading the list stretches the 5 ms key gaps past the scanner rule's 35 ms)
  await expect(page.getByRole('grid', { name: 'Users' }).getByRole('row').nth(1)).toBeVisible();
  await page.waitForLoadState('networkidle');
  await page.locator('body').focus();
  await page.keyboard.type(burst, { delay: 5 });
  await page.keyboard.press('Enter');
  const offer = page.getByRole('dialog', { name: `Scanned ${burst}` });
  await expect(offer).toBeVisible();
  await expect(page).toHaveURL(/\/persons$/);
  await offer.getByRole('button', { name: 'Add to bulk list' }).click();
  await expect(page.getByRole('button', { name: MSG.bulkUpdateCount(devices.length + 3) })).toBeVisible();
});

test('a CSV of 5,000 serials fills the bulk list quickly, the table stays virtualised and a reload keeps it', async ({ page }) => {
  test.setTimeout(90_000);
  const serials = dbQuery<{ serialNumber: string }>('select serialNumber from devices order by serialNumber limit 5000').map((r) => r.serialNumber);
  expect(serials.length).toBeGreaterThanOrEqual(4900);
  await signedInAs(page, 'admin@demo.test');
  await page.goto('/asset-management/device-bulk-update');
  await expect(page.getByLabel('Serial Number', { exact: true })).toBeFocused();
  const started = Date.now();
  await page.getByLabel('CSV file').setInputFiles({ name: 'all.csv', mimeType: 'text/csv', buffer: Buffer.from(['SerialNumber', ...serials].join('\n')) });
  await expect(page.getByTestId('bulk-counts')).toHaveText(`${serials.length} devices on the bulk list, ${serials.length} selected`, { timeout: 30_000 });
  const ms = Date.now() - started;
  console.log(`bulk: ${serials.length} serials from CSV on the list in ${ms} ms`);
  expect(ms).toBeLessThan(10_000);
  const grid = page.getByRole('grid', { name: 'Bulk list' });
  expect(await grid.getByRole('row').count()).toBeLessThan(80);
  await expect(grid.getByRole('row').nth(1)).toContainText(at(serials, 0));
  // a scan on a full list still answers at once
  const t0 = Date.now();
  await scan(page, [at(serials, 10)]);
  await expect(page.getByRole('status').filter({ hasText: MSG.deviceAlreadyAdded })).toBeVisible();
  console.log(`bulk: repeated scan on a ${serials.length}-row list answered in ${Date.now() - t0} ms`);
  await page.reload();
  await expect(page.getByTestId('bulk-counts')).toHaveText(`${serials.length} devices on the bulk list, ${serials.length} selected`);
});
