// Scanning anywhere: scans outside the bulk page are never lost (they gather in one offer), a
// scanner's Enter never presses a button, nothing throws; read-only staff see no bulk change.
import { test, expect, type Page } from '@playwright/test';
import { signedInAs, dbQuery, storedBulkSerials, focusPage } from './helpers';
import { MSG } from '../../src/shared/messages';
import { scanSerials } from '../helpers/scanner';

const bulkSerials = storedBulkSerials;

async function scan(page: Page, serials: string[]) {
  const cdp = await page.context().newCDPSession(page);
  await scanSerials(cdp, serials);
  await cdp.detach();
}

/** Three scans with `gapMs` between them (the scanner's own 5 ms per key inside each). */
async function scanApart(page: Page, serials: string[], gapMs: number) {
  for (const [i, s] of serials.entries()) {
    if (i) await page.waitForTimeout(gapMs);
    await scan(page, [s]);
  }
}

const serialsAt = (offset: number) =>
  dbQuery<{ serialNumber: string }>('select serialNumber from devices order by serialNumber limit 3 offset ?', offset).map((r) => r.serialNumber);

test('three scans on User Management, 1.5 s and then 80 ms apart: every one is kept in one offer, no Enter presses a button, no page error', async ({
  page,
}) => {
  test.setTimeout(120_000);
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  await signedInAs(page, 'admin@demo.test');
  await page.goto('/persons');
  await expect(page.getByRole('grid', { name: 'Users' }).getByRole('row').nth(1)).toBeVisible();
  // settled: the page's list has loaded (networkidle never comes while the live hub polls on a busy machine)
  await page.waitForLoadState('networkidle', { timeout: 10_000 }).catch(() => undefined);
  await expect(page.locator('[role="grid"][aria-busy="true"]')).toHaveCount(0);
  await focusPage(page);
  const before = await bulkSerials(page);

  // 1.5 s apart
  const slow = serialsAt(310);
  await scanApart(page, slow, 1500);
  const offer = page.getByRole('dialog', { name: MSG.scanOfferTitle(slow) });
  await expect(offer).toBeVisible();
  await expect(offer.getByRole('list', { name: 'Scanned serial numbers' }).getByRole('listitem')).toHaveText(slow);
  // no scan's Enter pressed "Add": the bulk list is as it was
  expect(await bulkSerials(page)).toEqual(before);
  // the offer survives a reload
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.screenshot({ path: '.tmp/e2e-results/scan-offer-1440.png' });
  await page.setViewportSize({ width: 1024, height: 768 });
  await page.screenshot({ path: '.tmp/e2e-results/scan-offer-1024.png' });
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.reload();
  await expect(page.getByRole('dialog', { name: MSG.scanOfferTitle(slow) })).toBeVisible();
  await page.getByRole('button', { name: MSG.scanOfferAdd(3) }).click();
  await expect(page.getByRole('dialog')).toBeHidden();
  await expect.poll(() => bulkSerials(page)).toEqual([...[...slow].reverse(), ...before]);

  // 80 ms apart
  await expect(page.getByRole('grid', { name: 'Users' }).getByRole('row').nth(1)).toBeVisible();
  await focusPage(page);
  const fast = serialsAt(320);
  await scanApart(page, fast, 80);
  const offer2 = page.getByRole('dialog', { name: MSG.scanOfferTitle(fast) });
  await expect(offer2).toBeVisible();
  await expect(offer2.getByRole('list', { name: 'Scanned serial numbers' }).getByRole('listitem')).toHaveText(fast);
  expect(await bulkSerials(page)).toEqual([...[...slow].reverse(), ...before]);
  await offer2.getByRole('button', { name: MSG.scanOfferAdd(3) }).click();
  await expect.poll(() => bulkSerials(page)).toEqual([...[...fast].reverse(), ...[...slow].reverse(), ...before]);
  expect(errors).toEqual([]);
});

test('fast keys after "/" on a list are typed into its search box, not taken as a scan', async ({ page }) => {
  await signedInAs(page, 'admin@demo.test');
  await page.goto('/persons');
  await expect(page.getByRole('grid', { name: 'Users' }).getByRole('row').nth(1)).toBeVisible();
  // settled: the page's list has loaded (networkidle never comes while the live hub polls on a busy machine)
  await page.waitForLoadState('networkidle', { timeout: 10_000 }).catch(() => undefined);
  await expect(page.locator('[role="grid"][aria-busy="true"]')).toHaveCount(0);
  await focusPage(page);
  const cdp = await page.context().newCDPSession(page);
  // '/', then "10076" 5 ms per key (automation, a text expander), no Enter
  await cdp.send('Input.dispatchKeyEvent', { type: 'keyDown', key: '/', code: 'Slash', windowsVirtualKeyCode: 191, text: '/', unmodifiedText: '/' });
  await cdp.send('Input.dispatchKeyEvent', { type: 'keyUp', key: '/', code: 'Slash', windowsVirtualKeyCode: 191 });
  for (const ch of '10076') {
    await cdp.send('Input.dispatchKeyEvent', {
      type: 'keyDown',
      key: ch,
      code: `Digit${ch}`,
      windowsVirtualKeyCode: ch.charCodeAt(0),
      text: ch,
      unmodifiedText: ch,
    });
    await cdp.send('Input.dispatchKeyEvent', { type: 'keyUp', key: ch, code: `Digit${ch}`, windowsVirtualKeyCode: ch.charCodeAt(0) });
  }
  await cdp.detach();
  await expect(page.getByRole('dialog', { name: /^Scanned/ })).toHaveCount(0);
  // '/' focused the list's filter and the keys after it are in it
  await expect(page.locator(':focus')).toHaveValue('10076');
});

test('a read-only admin sees no bulk change they cannot make', async ({ page }) => {
  const serial = serialsAt(330)[0]!;
  await signedInAs(page, 'admin-readonly@demo.test');
  await page.goto('/asset-management/device-bulk-update');
  const field = page.getByLabel('Serial Number', { exact: true });
  await expect(field).toBeFocused();
  await field.fill(serial);
  await field.press('Enter');
  await expect(page.getByTestId('bulk-counts')).toHaveText('1 device on the bulk list, 1 selected');
  for (const name of ['Change type', 'Change order number', 'Change Status']) await expect(page.getByRole('button', { name })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Change Configuration' })).toBeEnabled();
  await page.screenshot({ path: '.tmp/e2e-results/bulk-read-only.png' });
});
