// Devices that go quiet (decision "Silent devices are announced as not connected",
// docs/decisions/live-and-hub.md): after CONNECTED_WINDOW_SECONDS without a message the
// sweep stores them as not connected and announces DeviceConnected { IsConnected: false } once;
// a device that is still talking, or already announced, is left alone.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { GATEWAY_KEY, insertDevice, message } from '../helpers/live.js';
import { markSilentDevices, startSilenceSweep } from '../../src/server/modules/live/silence.js';
import { CONNECTED_WINDOW_SECONDS } from '../../src/shared/schemas/live.js';
import type { HubEvent } from '../../src/server/realtime/hub.js';

let t: TestApp;
const IMEI = { quiet: '357000000000001', talking: '357000000000002' };
const dev: Record<string, { id: string; serialNumber: string }> = {};

beforeAll(async () => {
  t = await createTestApp();
  dev.quiet = await insertDevice(t.db, { serialNumber: 'SILENT-0001', imei: IMEI.quiet, type: 640, firmwareVersion: '4.3.1' });
  dev.talking = await insertDevice(t.db, { serialNumber: 'SILENT-0002', imei: IMEI.talking, type: 640, firmwareVersion: '4.3.1' });
});
afterAll(async () => {
  await t.close();
});

const ingest = (batch: unknown) => t.request('/api/v1/device-messages/ingest', { method: 'POST', json: batch, headers: { 'X-Gateway-Key': GATEWAY_KEY } });
const stored = async (deviceId: string) =>
  (await t.db.selectFrom('deviceLastMessages').select('isConnected').where('deviceId', '=', deviceId).executeTakeFirstOrThrow()).isConnected;

describe('silence sweep', () => {
  test('a device silent past the window is stored and announced as not connected, once; a talking one is not', async () => {
    expect((await ingest([message(IMEI.quiet), message(IMEI.talking)])).status).toBe(200);
    expect(await stored(dev.quiet!.id)).toBe(1);

    // Within the window nothing changes.
    expect(await markSilentDevices(t.db, new Date(Date.now() + (CONNECTED_WINDOW_SECONDS - 30) * 1000))).toEqual([]);

    // Rewind the quiet device's last message past the window; the other keeps talking.
    const old = new Date(Date.now() - (CONNECTED_WINDOW_SECONDS + 60) * 1000).toISOString();
    await t.db.updateTable('deviceLastMessages').set({ receivedAt: old }).where('deviceId', '=', dev.quiet!.id).execute();
    const published: HubEvent[] = [];
    const sweep = startSilenceSweep({ db: t.db, now: () => new Date(), log: () => {}, publish: async (e) => void published.push(...e) }, 3_600_000);
    try {
      expect(await sweep.runNow()).toBe(1);
      expect(published).toEqual([
        {
          event: 'DeviceConnected',
          identity: IMEI.quiet,
          payload: expect.objectContaining({ DeviceId: dev.quiet!.id, DeviceIdentity: IMEI.quiet, SerialNumber: 'SILENT-0001', IsConnected: false }),
        },
      ]);
      expect(await stored(dev.quiet!.id)).toBe(0);
      expect(await stored(dev.talking!.id)).toBe(1);
      // Already announced: the next sweep says nothing.
      expect(await sweep.runNow()).toBe(0);
      expect(published).toHaveLength(1);
    } finally {
      sweep.stop();
    }
  });
});
