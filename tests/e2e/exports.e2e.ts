// Exports and imports as jobs, as the user sees them: a progress bar of rows written of total while
// the file is being made, then the download under the page's file name, read back with an
// independent reader; an import of a few thousand rows shows its bar, then its result.
import { test, expect } from '@playwright/test';
import { dbQuery, signedInAs } from './helpers';
import { MSG } from '../../src/shared/messages';
import { readXlsx } from '../helpers/xlsx';

test('exporting the asset list shows its progress, then downloads the whole file', async ({ page }) => {
  await signedInAs(page, 'admin@demo.test');
  await page.goto('/asset-management');
  const filtered = page.getByTestId('assets-filtered');
  await expect(filtered).not.toHaveText('0');
  const count = Number((await filtered.innerText()).replace(/,/g, ''));
  // The download is held until the progress bar has shown the server's count of rows written.
  let release!: () => void;
  const held = new Promise<void>((r) => (release = r));
  await page.route('**/api/v1/device/export/list-with-filters', async (route) => {
    const response = await route.fetch();
    await held;
    await route.fulfill({ response });
  });
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export', exact: true }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Export' }).click();
  const progress = page.getByTestId('export-progress');
  await expect(progress).toBeVisible();
  await expect(progress).toContainText(`Exporting ${count.toLocaleString('en-GB')} of ${count.toLocaleString('en-GB')} rows…`);
  await expect(progress.getByRole('progressbar')).toBeVisible();
  await expect(progress.getByRole('button', { name: 'Cancel' })).toBeVisible();
  await page.screenshot({ path: 'test-results/export-progress.png' });
  await page.setViewportSize({ width: 1024, height: 768 });
  await expect(progress.getByRole('button', { name: 'Cancel' })).toBeInViewport();
  await page.screenshot({ path: 'test-results/export-progress-1024.png' });
  release();
  const file = await download;
  expect(file.suggestedFilename()).toMatch(/^Assets_\d{4}-\d{2}-\d{2}_\d{2}-\d{2}-\d{2}\.xlsx$/);
  await expect(progress).toBeHidden();
  const [sheet] = await readXlsx(await file.path());
  expect(sheet!.data.length - 1).toBe(count);
  expect(sheet!.data[0]).toContain('Added To System (UK time)');
});

test('importing a few thousand devices shows rows imported of total, then the result', async ({ page }) => {
  await signedInAs(page, 'admin@demo.test');
  await page.goto('/asset-management');
  await expect(page.getByTestId('assets-total')).not.toHaveText('0');
  const rows = 3000;
  const csv = `SerialNumber;Type\n${Array.from({ length: rows }, (_, i) => `E2EJOB-${String(i).padStart(5, '0')};750`).join('\n')}\n`;
  // The answer is held until the bar has shown the server's count of rows imported.
  let release!: () => void;
  const held = new Promise<void>((r) => (release = r));
  await page.route('**/api/v1/import/devices', async (route) => {
    const response = await route.fetch();
    await held;
    await route.fulfill({ response });
  });
  await page.getByLabel('Import devices from a CSV file').setInputFiles({ name: 'devices.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
  const progress = page.getByTestId('import-progress');
  await expect(progress).toBeVisible();
  await expect(progress).toContainText(MSG.importProgress(rows, rows));
  await expect(progress.getByRole('progressbar')).toBeVisible();
  await expect(progress.getByRole('button', { name: 'Cancel' })).toBeVisible();
  await page.screenshot({ path: 'test-results/import-progress.png' });
  release();
  await expect(page.getByText(MSG.importedN(rows))).toBeVisible();
  await expect(progress).toBeHidden();
  expect(dbQuery<{ n: number }>(`select count(*) as n from devices where serialNumber like 'E2EJOB-%'`)[0]!.n).toBe(rows);
});
