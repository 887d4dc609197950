// Live devices, by keyboard in Chromium against the real server: open a device with g d and
// its serial, see its configuration, watch a message posted to the ingestion endpoint (as a
// gateway would) arrive in the Message Stream live, then queue a configuration change for it
// from Configure & Test Devices (b a, b e), find the desired configuration stored, and watch the
// Current Configuration tab show it once the device (played by the test, as a gateway) applies it.
import { test, expect, type Page } from '@playwright/test';
import { signedInAs, dbQuery, BASE, focusPage, screenshots } from './helpers';
import { E2E_GATEWAY_KEY } from './env';
import { MSG } from '../../src/shared/messages';
import { CAPABILITY, DEVICE_CAPABILITIES } from '../../src/shared/codes';
import { GATEWAY_KEY_HEADER } from '../../src/shared/schemas/live';

type Row = { id: string; serialNumber: string; imei: string; type: number; firmwareVersion: string | null; trackingSeconds: number | null; isTracking: number };
/** A configurable device with an IMEI and a known configuration. */
const sample = () => {
  const configurable = Object.entries(DEVICE_CAPABILITIES)
    .filter(([, caps]) => caps & CAPABILITY.ChangeConfiguration)
    .map(([t]) => Number(t));
  return dbQuery<Row>(
    `select d.id, d.serialNumber, d.imei, d.type, c.firmwareVersion, c.trackingSeconds, c.isTracking
       from devices d join deviceConfigurations c on c.deviceId = d.id
      where d.imei is not null and c.lastUpdated is not null and d.type in (${configurable.join(',')})
      order by d.serialNumber limit 1`,
  )[0]!;
};

const shot = (page: Page, name: string) => screenshots(page, 'live', name);

type Ingested = { Accepted: number; Commands: { Id: string; Kind: string; Configuration: Record<string, unknown> | null }[] };
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

/** Press a shortcut sequence outside any field. */
async function keys(page: Page, ...steps: string[]) {
  for (const k of steps) await page.keyboard.press(k);
}

test('device tab: g d opens it, configuration shows, an ingested message arrives live; a change queued from Configure & Test is stored', async ({ page }) => {
  test.setTimeout(120_000);
  const device = sample();
  await signedInAs(page, 'admin@demo.test');

  // g d + serial opens the device tab
  await focusPage(page);
  await keys(page, 'g', 'd');
  const prompt = page.getByRole('dialog', { name: 'Open device' });
  await expect(prompt).toBeVisible();
  await page.keyboard.type(device.serialNumber);
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(new RegExp(`/asset-management/${device.id}$`));
  await expect(page.getByRole('heading', { level: 1, name: device.serialNumber, exact: true })).toBeVisible();

  // its configuration, from the server
  const config = page.getByRole('region', { name: 'Configuration' });
  await expect(config.getByTestId('config-firmware')).toHaveText(device.firmwareVersion ?? '-');
  await expect(config.getByTestId('config-tracking')).toHaveText(device.isTracking ? `On - ${Math.round((device.trackingSeconds ?? 0) / 60)} minutes` : 'Off');
  await expect(page.getByTestId('device-connection')).toBeVisible();

  // the hub is connected and the device subscribed; a gateway posts an SOS: it is on top within seconds
  const stream = page.getByRole('region', { name: 'Message Stream' });
  await expect(stream.getByTestId('live-state')).toHaveAttribute('data-state', 'connected', { timeout: 15_000 });
  await shot(page, 'device');
  const messageId = `e2e-${Date.now()}`;
  const posted = Date.now();
  await ingest([
    {
      messageId,
      deviceIdentity: device.imei,
      deviceType: device.type,
      date: new Date().toISOString(),
      message: 'SOS alarm',
      battery: 47,
      signal: 71,
      rawMessage: '+RESP:GTSOS',
    },
  ]);
  const first = stream.getByRole('listitem').first();
  await expect(first).toContainText('SOS alarm', { timeout: 5_000 });
  await expect(first).toContainText('Battery 47%');
  const seenAfter = Date.now() - posted;
  expect(seenAfter).toBeLessThan(5_000);
  await expect(page.getByTestId('device-connection')).toHaveText('Connected');
  await shot(page, 'device-live');

  // the message's details open from the keyboard
  await first.getByRole('button').focus();
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog', { name: 'Device message' });
  await expect(dialog.getByLabel('Raw message')).toHaveText('+RESP:GTSOS');
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden(); // shortcuts wait while a dialog is open

  // b a: add it to the bulk list; b e: Change Configuration for the selection
  await focusPage(page);
  await keys(page, 'b', 'a');
  // (the device tab's read-only 'Serial Number' stays in the page: pick Bulk Update's field)
  const serialField = page.locator('input[id$="-bulk-serial"]');
  await expect(serialField).toBeFocused({ timeout: 20_000 });
  await page.keyboard.type(device.serialNumber);
  await page.keyboard.press('Enter');
  await expect(page.getByRole('row').filter({ hasText: device.serialNumber })).toBeVisible();
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
  await shot(page, 'change-configuration');
  await page.keyboard.press('Enter');
  const confirmDialog = page.getByRole('alertdialog');
  await expect(confirmDialog).toContainText('Send the configuration change to 1 device(s)?');
  await page.keyboard.press('Tab'); // focus starts on Cancel
  await page.keyboard.press('Enter');
  await expect(page.getByText(MSG.configQueued)).toBeVisible();
  await expect(page).toHaveURL(/\/manage\/current-configuration$/);
  const configRow = page.getByRole('row').filter({ hasText: device.serialNumber });
  await expect(configRow).toContainText('Pending');
  await shot(page, 'current-configuration');

  // stored: the desired configuration, with only the tracking group
  const stored = dbQuery<{ payload: string; kind: string; appliedAt: string | null }>(
    `select payload, kind, appliedAt from desiredConfigurations where deviceId = ? and kind = 'configuration' order by requestedAt desc limit 1`,
    device.id,
  )[0];
  expect(stored).toBeDefined();
  expect(JSON.parse(stored!.payload)).toMatchObject({ isTrackingEnabled: true, trackingIntervalMinutes: 45 });
  expect(JSON.parse(stored!.payload)).not.toHaveProperty('isManDownEnabled');

  // The device is turned on: the gateway hands it the queued change; it reports it applied, and
  // the Current Configuration tab (watching the selection live) shows the new tracking interval.
  const on = await ingest([
    { messageId: `${messageId}-on`, deviceIdentity: device.imei, deviceType: device.type, date: new Date().toISOString(), message: 'Power on' },
  ]);
  const command = on.Commands.find((c) => c.Kind === 'configuration');
  expect(command?.Configuration).toMatchObject({ isTrackingEnabled: true, trackingIntervalMinutes: 45 });
  await ingest([
    {
      messageId: `${messageId}-cfg`,
      deviceIdentity: device.imei,
      deviceType: device.type,
      date: new Date().toISOString(),
      message: 'Configuration acknowledged',
      properties: { Configuration: { IsTracking: true, TrackingSeconds: 45 * 60 }, AppliedConfigurationIds: [command!.Id] },
    },
  ]);
  await expect(configRow).toContainText('On - 45 minutes', { timeout: 5_000 });
  await expect(configRow).not.toContainText('Pending');
  expect(dbQuery<{ appliedAt: string | null }>('select appliedAt from desiredConfigurations where id = ?', command!.Id)[0]?.appliedAt).toBeTruthy();
  await shot(page, 'current-configuration-applied');

  // b t: Device Testing shows the device's last message
  await page.getByRole('grid', { name: 'Current configuration' }).focus();
  await keys(page, 'b', 't');
  await expect(page).toHaveURL(/\/manage\/device-testing$/);
  await expect(page.getByRole('row').filter({ hasText: device.serialNumber })).toContainText('Configuration acknowledged');
  await shot(page, 'device-testing');
});
