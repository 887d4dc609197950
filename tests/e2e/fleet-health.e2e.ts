// Fleet Health by keyboard: the provider admin presses `g f`, sees a count for every category (the
// demo data has devices in each, the same counts the API gives), walks with Tab to "Silent" and
// opens it with Enter: Asset Management shows exactly those devices (its Filtered count is the
// Silent count, its first page the API's first page of the same filter). The page passes axe.
import { test, expect, type Page } from '@playwright/test';
import { apiToken, BASE, expectAccessibleScreen, signedInAs, tabTo, focusPage } from './helpers';
import { FLEET_CATEGORIES, FLEET_CATEGORY_LABELS, type FleetHealthDto } from '../../src/shared/schemas/fleet';

const keys = async (page: Page, ...k: string[]) => {
  await focusPage(page);
  for (const key of k) await page.keyboard.press(key);
};

test('g f, the counts, open Silent: the device list holds exactly those devices', async ({ page }) => {
  await signedInAs(page, 'admin@demo.test');
  await expect(async () => {
    await keys(page, 'g', 'f');
    await expect(page).toHaveURL(/\/fleet-health$/, { timeout: 2000 });
  }).toPass({ timeout: 15_000 });

  const token = await apiToken('admin@demo.test');
  const api = async <T>(path: string, init: RequestInit = {}) => {
    const res = await fetch(`${BASE}${path}`, { ...init, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' } });
    expect(res.status).toBe(200);
    return (await res.json()) as T;
  };
  const health = await api<FleetHealthDto>('/ps-admin/fleet-health');
  for (const c of FLEET_CATEGORIES) {
    expect(health.Counts[c], `demo devices in ${c}`).toBeGreaterThan(0);
    await expect(page.getByTestId(`fleet-count-${c}`)).toHaveAccessibleName(`${FLEET_CATEGORY_LABELS[c]}: ${health.Counts[c]}`);
  }
  await expect(page.getByRole('table', { name: 'Customers, worst first' })).toBeVisible();
  await expectAccessibleScreen(page, 'Fleet Health');

  const silent = page.getByTestId('fleet-count-silent');
  await tabTo(page, silent);
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/asset-management\?f\.fleet=silent$/);
  // The demo devices' last messages are spread over time, so one may fall silent while the test
  // runs (and none wakes: nothing sends messages here): every count read later lies between the
  // Silent count read before it and the one read after it.
  const silentNow = async () => (await api<FleetHealthDto>('/ps-admin/fleet-health')).Counts.silent;
  const between = async (read: () => Promise<number>, before?: number) => {
    before ??= await silentNow();
    const n = await read();
    const after = await silentNow();
    return n >= before && n <= after ? 'between' : `${n}, not within ${before}..${after}`;
  };
  const filtered = page.getByTestId('assets-filtered');
  // the list was asked for after `health` was read
  await expect.poll(() => between(async () => Number(((await filtered.textContent()) ?? '').replace(/,/g, '')), health.Counts.silent)).toBe('between');
  let firstPage: { devices: { serialNumber: string }[]; totalCount: number } | undefined;
  const listed = () =>
    api<{ devices: { serialNumber: string }[]; totalCount: number }>('/api/v1/device/get-list', {
      method: 'POST',
      body: JSON.stringify({ fleetHealth: 'silent', page: 1, pageSize: 10 }),
    });
  await expect.poll(() => between(async () => (firstPage = await listed()).totalCount)).toBe('between');
  const table = page.getByRole('grid', { name: 'Assets' }).or(page.getByRole('table', { name: 'Assets' }));
  for (const d of firstPage!.devices) await expect(table.getByText(d.serialNumber, { exact: true })).toBeVisible();
  await expect(page.getByLabel('Fleet health', { exact: true })).toHaveValue('silent');
});
