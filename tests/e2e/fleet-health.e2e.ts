// Fleet Health by keyboard: the provider admin presses `g f`, sees a count for every category (the
// demo data has devices in each, the same counts the API gives), walks with Tab to "Silent" and
// opens it with Enter: Asset Management shows exactly those devices (its Filtered count is the
// Silent count, its first page the API's first page of the same filter). The page passes axe.
import { test, expect, type Page } from '@playwright/test';
import { apiToken, BASE, dbQuery, expectAccessibleScreen, focusPage, signedInAs, tabTo } from './helpers';
import { E2E_GATEWAY_KEY } from './env';
import { GATEWAY_KEY_HEADER } from '../../src/shared/schemas/live';
import { MSG } from '../../src/shared/messages';
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

test('g f, open Silent, narrow to one type, b l puts them on the bulk list, b e changes their configuration; as the devices acknowledge, they leave Silent and its count falls', async ({
  page,
}) => {
  test.setTimeout(180_000);
  await signedInAs(page, 'admin@demo.test');
  const token = await apiToken('admin@demo.test');
  const api = async <T>(path: string, body?: unknown) => {
    const res = await fetch(`${BASE}${path}`, {
      method: body === undefined ? 'GET' : 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    expect(res.status, `${path}: ${res.status}`).toBe(200);
    return (await res.json()) as T;
  };
  type Listed = { devices: { id: string; serialNumber: string }[]; totalCount: number };
  const silentMatching = (searchValue: string) => api<Listed>('/api/v1/device/get-list', { fleetHealth: 'silent', searchValue, page: 1, pageSize: 100 });

  // A serial's letters name its type (SG64…: type 640): a search for the start of a silent
  // device's serial, long enough to leave a handful, selects silent devices of one type — what
  // a bulk configuration change needs.
  const first = (await api<Listed>('/api/v1/device/get-list', { fleetHealth: 'silent', page: 1, pageSize: 10, orderBy: 'SerialNumber' })).devices[0]!;
  let prefix = '';
  let chosen: Listed | undefined;
  for (let n = 6; n <= first.serialNumber.length; n++) {
    prefix = first.serialNumber.slice(0, n);
    chosen = await silentMatching(prefix);
    if (chosen.totalCount <= 40) break;
  }
  expect(chosen!.totalCount).toBeGreaterThan(0);

  await expect(async () => {
    await keys(page, 'g', 'f');
    await expect(page).toHaveURL(/\/fleet-health$/, { timeout: 2000 });
  }).toPass({ timeout: 15_000 });
  const silentCount = async () => Number(((await page.getByTestId('fleet-count-silent').getAttribute('aria-label')) ?? '').replace(/\D/g, ''));
  await expect(page.getByTestId('fleet-count-silent')).toHaveAccessibleName(/^Silent: \d+$/);
  const before = await silentCount();

  // Silent → the asset list; `/` and the serial's start narrow it
  await tabTo(page, page.getByTestId('fleet-count-silent'));
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/asset-management\?f\.fleet=silent$/);
  await page.locator('[role="grid"]').first().focus();
  await page.keyboard.press('/');
  const search = page.getByRole('searchbox', { name: 'Search devices' });
  await expect(search).toBeFocused();
  await page.keyboard.type(prefix);
  await page.keyboard.press('Enter');
  const filtered = page.getByTestId('assets-filtered');
  // the search applied: the count falls from the whole of Silent (hundreds) to the few of the prefix
  // (a few more may go silent meanwhile, none leave before the change below)
  const narrowed = (c: number) => c >= chosen!.totalCount && c <= chosen!.totalCount + 20;
  await expect.poll(async () => narrowed(Number(((await filtered.textContent()) ?? '').replace(/,/g, '')))).toBe(true);
  const n = Number(((await filtered.textContent()) ?? '').replace(/,/g, ''));

  // b l: every device of the filtered list onto the bulk list, after a confirmation
  await focusPage(page);
  await keys(page, 'b', 'l');
  const ask = page.getByRole('alertdialog');
  await expect(ask).toContainText(`Put the ${n} device(s) matching the current filters on the bulk list?`);
  await page.keyboard.press('Tab'); // focus starts on Cancel
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/asset-management\/device-bulk-update$/);
  await expect(page.getByTestId('bulk-counts')).toHaveText(`${n} device${n === 1 ? '' : 's'} on the bulk list, ${n} selected`, { timeout: 30_000 });
  const onList = (await silentMatching(prefix)).devices.map((d) => d.serialNumber);
  for (const serial of onList.slice(0, 5)) await expect(page.getByRole('row').filter({ hasText: serial })).toBeVisible();

  // b e: Change Configuration for the selection — tracking on, every 45 minutes
  await page.getByRole('grid', { name: 'Bulk list' }).focus();
  await keys(page, 'b', 'e');
  await expect(page).toHaveURL(/\/manage\/change-configuration$/);
  const change = page.getByRole('checkbox', { name: 'Change tracking' });
  await expect(change).toBeEnabled();
  await change.focus();
  await page.keyboard.press('Space');
  const interval = page.getByLabel('Tracking interval (minutes)');
  await interval.focus();
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.type('45');
  await page.keyboard.press('Enter');
  const confirmDialog = page.getByRole('alertdialog');
  await expect(confirmDialog).toContainText(`Send the configuration change to ${n} device(s)?`);
  await page.keyboard.press('Tab');
  await page.keyboard.press('Enter');
  await expect(page.getByText(MSG.configQueued)).toBeVisible();

  // The devices wake (as the simulator's do): each is switched on, takes its queued change and
  // acknowledges it.
  const devices = dbQuery<{ id: string; serialNumber: string; imei: string | null; type: number }>(
    `select id, serialNumber, imei, type from devices where serialNumber in (${onList.map(() => '?').join(',')})`,
    ...onList,
  );
  expect(devices).toHaveLength(onList.length);
  const stamp = Date.now();
  const identity = (d: (typeof devices)[number]) => d.imei ?? d.serialNumber;
  const on = await ingest(
    devices.map((d, i) => ({
      messageId: `fleet-on-${stamp}-${i}`,
      deviceIdentity: identity(d),
      deviceType: d.type,
      date: new Date().toISOString(),
      message: 'Power on',
    })),
  );
  const commands = on.Commands.filter((c) => c.Kind === 'configuration');
  expect(commands.length).toBe(devices.length);
  await ingest(
    devices.map((d, i) => ({
      messageId: `fleet-ack-${stamp}-${i}`,
      deviceIdentity: identity(d),
      deviceType: d.type,
      date: new Date().toISOString(),
      message: 'Configuration acknowledged',
      properties: {
        Configuration: { IsTracking: true, TrackingSeconds: 45 * 60 },
        AppliedConfigurationIds: commands.filter((c) => c.DeviceIdentity === identity(d)).map((c) => c.Id),
      },
    })),
  );
  // stored: every queued change applied; none of them is silent any more
  expect(
    dbQuery<{ n: number }>(
      `select count(*) as n from desiredConfigurations where appliedAt is null and id in (${commands.map(() => '?').join(',')})`,
      ...commands.map((c) => c.Id),
    )[0]!.n,
  ).toBe(0);
  expect((await silentMatching(prefix)).totalCount).toBe(0);

  // Fleet Health again: the Silent count fell
  await focusPage(page);
  await keys(page, 'g', 'f');
  await expect(page).toHaveURL(/\/fleet-health$/);
  await page.reload();
  await expect(page.getByTestId('fleet-count-silent')).toHaveAccessibleName(/^Silent: \d+$/);
  expect(await silentCount()).toBeLessThan(before);
});

type Ingested = { Accepted: number; Commands: { Id: string; DeviceIdentity: string; Kind: string }[] };
/** What a gateway does: post device messages with the gateway key. */
async function ingest(messages: Record<string, unknown>[]): Promise<Ingested> {
  const res = await fetch(`${BASE}/api/v1/device-messages/ingest`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', [GATEWAY_KEY_HEADER]: E2E_GATEWAY_KEY },
    body: JSON.stringify(messages),
  });
  expect(res.status).toBe(200);
  return (await res.json()) as Ingested;
}
