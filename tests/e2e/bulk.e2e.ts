import { test, expect, type Page } from '@playwright/test';
import { signedInAs, dbQuery, storedBulkSerials, focusPage } from './helpers';
import { MSG } from '../../src/shared/messages';
import { formatCount } from '../../src/shared/numbers';
import { at, first } from '../helpers/lists';
import { scanSerials } from '../helpers/scanner';
import { readXlsx } from '../helpers/xlsx';

const bulkSerials = storedBulkSerials;
const pendingCount = (page: Page) => page.evaluate(() => (JSON.parse(localStorage.getItem('bulk.pendingScans') ?? '[]') as unknown[]).length);

/** A hand-held scanner (tests/helpers/scanner.ts): 5 ms per key, Enter after each serial. */
async function scan(page: Page, serials: string[]) {
  const cdp = await page.context().newCDPSession(page);
  await scanSerials(cdp, serials);
  await cdp.detach();
}

test('a scanner typing 200 serials into Bulk Update (slow server, repeats, unknown ones, a network drop and reloads) ends with the right rows, order and warnings', async ({
  page,
}) => {
  // a loaded 2-core machine: signing in, 200 scans, the checks, two reloads
  test.setTimeout(300_000);
  const known = dbQuery<{ serialNumber: string }>('select serialNumber from devices order by serialNumber limit 180').map((r) => r.serialNumber);
  expect(known).toHaveLength(180);
  const unknown = Array.from({ length: 8 }, (_, i) => `ZZNOPE${String(i + 1).padStart(4, '0')}`);
  // 180 known + 8 unknown (after known 21, 43, …, 175), with 12 repeats mixed in (after known 14,
  // 29, …, 179: every third one repeats the last unknown serial, the others a known one): 200 scans
  const scans: string[] = [];
  known.forEach((s, i) => {
    scans.push(s);
    if (i % 22 === 21) scans.push(at(unknown, (i - 21) / 22));
    if (i % 15 === 14) scans.push((i - 14) % 45 === 30 ? at(unknown, Math.floor((i - 21) / 22)) : at(known, i - 7));
  });
  expect(scans).toHaveLength(200);
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
  // a person's typing and editing is the browser's, as in any field (the field appends only a scanner's keys itself)
  await page.keyboard.type('ZZEDIT1');
  await expect(page.getByText(MSG.serialRequired)).toBeHidden();
  await page.keyboard.press('Home');
  await page.keyboard.type('Q');
  await page.keyboard.press('End');
  await page.keyboard.press('Backspace');
  await expect(field).toHaveValue('QZZEDIT');
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.press('Delete');
  await expect(field).toHaveValue('');

  const started = Date.now();
  await scan(page, scans);
  const typedMs = Date.now() - started;
  await expect(field).toBeFocused();
  await expect(field).toHaveValue('');
  await expect(page.getByTestId('bulk-counts')).toHaveText(`${firsts.length} devices on the bulk list, ${firsts.length - unknown.length} selected`, {
    timeout: 30_000,
  });
  console.log(`bulk: ${scans.length} scans typed in ${typedMs} ms, all on the list ${Date.now() - started} ms after the first key`);
  // every scan arrived, in scan order (newest first), nothing lost or doubled
  expect(firsts).toHaveLength(188);
  expect(await bulkSerials(page)).toEqual(expectedOrder);
  expect(await pendingCount(page)).toBe(0);
  await expect(page.getByTestId('bulk-not-found')).toContainText(`Devices with serial numbers ${unknown.join(', ')} were not found but are added to the list.`);
  await expect(page.getByTestId('bulk-already')).toContainText(`Devices with serial numbers ${repeats.join(', ')} are already added and will be omitted.`);
  // the newest rows on top; the last unknown serial (scanned after known 175) is a placeholder row
  const grid = page.getByRole('grid', { name: 'Bulk list' });
  await expect(grid.getByRole('row').nth(1)).toContainText(at(expectedOrder, 0));
  await expect(grid.getByRole('row').nth(2)).toContainText(at(expectedOrder, 1));
  await expect(grid.getByRole('row', { name: new RegExp(at(unknown, 7)) })).toContainText('Not found');

  await page.setViewportSize({ width: 1440, height: 900 });
  await page.screenshot({ path: '.tmp/e2e-results/bulk-1440.png' });
  await page.setViewportSize({ width: 1024, height: 768 });
  await page.screenshot({ path: '.tmp/e2e-results/bulk-1024.png' });
  await page.setViewportSize({ width: 1440, height: 900 });

  // the server becomes unreachable: scans are kept, also across a reload, and resolve when it is back
  await page.unroute('**/api/v1/device/get-list-by-serials');
  await page.route('**/api/v1/device/get-list-by-serials', (route) => route.abort('connectionrefused'));
  const late = dbQuery<{ serialNumber: string }>('select serialNumber from devices order by serialNumber limit 3 offset 400').map((r) => r.serialNumber);
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
  // Download: the selected assets, as they are now, in an .xlsx file an independent reader opens
  const download = page.waitForEvent('download');
  await drawer.getByRole('button', { name: 'Download' }).click();
  const saved = await download;
  expect(saved.suggestedFilename()).toMatch(/^SelectedAssets_\d{4}-\d{2}-\d{2}_\d{2}-\d{2}-\d{2}\.xlsx$/);
  const [sheet] = await readXlsx(await saved.path());
  const [head, ...lines] = sheet?.data ?? [];
  const col = (name: string) => (head ?? []).map(String).indexOf(name);
  expect(lines.map((l) => String(l[col('Serial Number')])).sort()).toEqual([...devices.map((d) => d.serialNumber), extra].sort());
  expect(new Set(lines.map((l) => String(l[col('Status')])))).toEqual(new Set(['Returned']));
  await drawer.getByRole('button', { name: 'Close' }).click();
  await expect(grid.getByRole('row').nth(1)).toContainText('Returned');

  // a scanner burst on another page offers to add the serial
  const burst = first(dbQuery<{ serialNumber: string }>('select serialNumber from devices order by serialNumber limit 1 offset 300')).serialNumber;
  await page.goto('/persons');
  await expect(page.getByRole('region', { name: 'Bulk list' })).toBeVisible();
  // let the page settle first (a 2-core machine busy loading the list stretches the 5 ms key gaps past the scanner rule's 35 ms)
  await expect(page.getByRole('grid', { name: 'Users' }).getByRole('row').nth(1)).toBeVisible();
  // settled: the page's list has loaded (networkidle never comes while the live hub polls on a busy machine)
  await page.waitForLoadState('networkidle', { timeout: 10_000 }).catch(() => undefined);
  await expect(page.locator('[role="grid"][aria-busy="true"]')).toHaveCount(0);
  // On a loaded 2-core machine the browser may hand a key over more than the burst rule's 35 ms
  // late; the rule's timer then lets the first keys go as typing and the offer names the rest of
  // the serial (src/app/keyboard/scanner.ts; a real scanner on a stalled page does the same). Up to three
  // bursts, each a fresh start; the offer must name the whole serial.
  const offer = page.getByRole('dialog', { name: `Scanned ${burst}` });
  for (let attempt = 1; attempt <= 3; attempt++) {
    await focusPage(page);
    await scan(page, [burst]);
    const shown = page.getByRole('dialog', { name: /^Scanned / });
    await expect(shown).toBeVisible();
    if (await offer.isVisible()) break;
    console.log(`bulk: burst ${attempt} was offered as "${await shown.getByRole('heading').textContent()}"; scanning again`);
    await shown.getByRole('button', { name: 'Cancel' }).click();
    await expect(shown).toBeHidden();
  }
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
  await expect(page.getByTestId('bulk-counts')).toHaveText(`${formatCount(serials.length)} devices on the bulk list, ${formatCount(serials.length)} selected`, {
    timeout: 30_000,
  });
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
  await expect(page.getByTestId('bulk-counts')).toHaveText(`${formatCount(serials.length)} devices on the bulk list, ${formatCount(serials.length)} selected`);
});

test('change order number by keyboard: only the devices in a customer account get it, the others keep theirs', async ({ page }) => {
  test.setTimeout(60_000);
  const inAccount = dbQuery<{ id: string; serialNumber: string }>(
    'select id, serialNumber from devices where status in (3, 4, 10) and customerId is not null order by serialNumber limit 2',
  );
  const other = first(
    dbQuery<{ id: string; serialNumber: string; orderNumber: string | null }>(
      'select id, serialNumber, orderNumber from devices where status = 2 order by serialNumber limit 1',
    ),
  );
  expect(inAccount).toHaveLength(2);
  const orderNumber = `PO-E2E-${Date.now().toString(36).toUpperCase()}`;
  await signedInAs(page, 'admin@demo.test');
  await page.goto('/asset-management/device-bulk-update');
  await expect(page.getByLabel('Serial Number', { exact: true })).toBeFocused();
  await scan(page, [...inAccount.map((d) => d.serialNumber), other.serialNumber]);
  await expect(page.getByTestId('bulk-counts')).toHaveText('3 devices on the bulk list, 3 selected');

  // Tab from the serial field to 'Change order number', Enter
  for (let i = 0; i < 15; i++) {
    await page.keyboard.press('Tab');
    if (((await page.evaluate(() => document.activeElement?.textContent)) ?? '').trim() === 'Change order number') break;
  }
  await expect(page.getByRole('button', { name: 'Change order number' })).toBeFocused();
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog', { name: 'Change order number' });
  await expect(dialog).toContainText(MSG.orderNumberForN(2));
  await expect(dialog.getByLabel('Order Number')).toBeFocused();
  // Enter on an empty field: required
  await page.keyboard.press('Enter');
  await expect(dialog.getByRole('alert')).toHaveText('Please enter an order number.');
  await page.keyboard.type(orderNumber);
  await page.keyboard.press('Enter');
  await expect(dialog).toBeHidden();
  await expect(page.getByRole('status').filter({ hasText: 'Order number updated for 2 device(s).' })).toBeVisible();

  // what the server stored: the two in a customer account, not the Reserved one
  const stored = dbQuery<{ serialNumber: string; orderNumber: string | null }>(
    `select serialNumber, orderNumber from devices where id in (?, ?, ?) order by serialNumber`,
    ...inAccount.map((d) => d.id),
    other.id,
  );
  expect(Object.fromEntries(stored.map((d) => [d.serialNumber, d.orderNumber]))).toEqual({
    [at(inAccount, 0).serialNumber]: orderNumber,
    [at(inAccount, 1).serialNumber]: orderNumber,
    [other.serialNumber]: other.orderNumber,
  });
  // the rows were read again: the table shows the new order number
  const grid = page.getByRole('grid', { name: 'Bulk list' });
  await expect(grid.getByRole('row', { name: new RegExp(at(inAccount, 0).serialNumber) })).toContainText(orderNumber);
});

test('Clear Devices Bulk List in the other pane clears at the first click when the page is scrolled down to it', async ({ page }) => {
  // A short window: the bulk page's toolbar starts below the fold, and the click scrolls the page to it.
  await page.setViewportSize({ width: 1440, height: 360 });
  const serials = dbQuery<{ serialNumber: string }>('select serialNumber from devices order by serialNumber limit 3').map((r) => r.serialNumber);
  await signedInAs(page, 'admin@demo.test');
  // the asset list on the left, Bulk Update on the right (as the soak bench has them)
  await focusPage(page);
  for (const k of ['g', 'a', 'Alt+\\', 'g', 'b']) await page.keyboard.press(k);
  const field = page.getByLabel('Serial Number', { exact: true });
  await expect(field).toBeFocused();
  for (const s of [...serials, 'ZZNOPE0001']) {
    await page.keyboard.type(s);
    await page.keyboard.press('Enter');
  }
  const counts = page.getByTestId('bulk-counts');
  await expect(counts).toHaveText('4 devices on the bulk list, 3 selected');
  // work goes on in the left pane: Bulk Update stays shown on the right, its pane no longer focused
  await focusPage(page);
  for (const k of ['g', 'a']) await page.keyboard.press(k);
  await expect(page.locator('.ws-pane[data-focused]').getByRole('searchbox', { name: 'Search devices' })).toBeVisible();
  const clear = page.getByRole('button', { name: MSG.clearBulkList });
  expect((await clear.boundingBox())?.y ?? 0).toBeGreaterThan(360);
  // The press makes the right pane the focused one: the page must not move the focus to its serial
  // field then (that scrolled the page back up under the pointer and the click landed elsewhere).
  await clear.click();
  await expect(counts).toHaveText('0 devices on the bulk list, 0 selected', { timeout: 3000 });
});
