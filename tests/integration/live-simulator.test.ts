// The device simulator against a real server on a random port: it reaches the server only
// through the public ingestion endpoint; heartbeats land in the message stream; an SOS pressed on
// a simulated device is stored and streamed; a configuration queued for a device is picked up when
// the device powers on and reported back applied.
import { afterAll, beforeAll, expect, test } from 'vitest';
import { createServer, type AppServer } from '../../src/server/server.js';
import { testConfig } from '../../src/server/platform/config.js';
import { createOutbox } from '../../src/server/mail/outbox.js';
import { createTestDb, type TestDb } from '../helpers/db.js';
import { signedIn } from '../helpers/auth.js';
import { GATEWAY_KEY, insertDevice } from '../helpers/live.js';
import { createSimulator, type Simulator } from '../../src/server/simulator/simulator.js';
import { simulatedDevices } from '../../src/server/simulator/devices.js';
import { MSG } from '../../src/shared/messages.js';

let tdb: TestDb;
let srv: AppServer;
let sim: Simulator;
let admin: string;

beforeAll(async () => {
  tdb = await createTestDb();
  const config = testConfig();
  const log = () => {};
  srv = await createServer({ db: tdb.db, config, outbox: createOutbox({ log, now: () => config.now() }), log }, { port: 0, hostname: '127.0.0.1' });
  admin = (await signedIn(tdb.db, config, ['SuperAdminRole'])).token;
  await insertDevice(tdb.db, { serialNumber: 'SIM-0001', imei: '354000000000001', type: 640, status: 1 });
  await insertDevice(tdb.db, { serialNumber: 'SIM-0002', imei: '354000000000002', type: 640, status: 1 });
  await insertDevice(tdb.db, { serialNumber: 'SIM-0003', imei: '354000000000003', type: 750, status: 3 });
  await insertDevice(tdb.db, { serialNumber: 'SIM-NOIMEI', imei: null, type: 640, status: 1 });
  const devices = await simulatedDevices(tdb.db, 4);
  expect(devices.map((d) => d.serial)).toEqual(['SIM-0001', 'SIM-0002', 'SIM-0003']);
  sim = createSimulator({ baseUrl: `http://127.0.0.1:${srv.port}`, gatewayKey: GATEWAY_KEY, devices, seed: 3, allOn: true });
});
afterAll(async () => {
  await sim?.stop();
  await srv?.close();
  await tdb?.close();
});

const get = async (path: string) => (await fetch(`http://127.0.0.1:${srv.port}${path}`, { headers: { authorization: `Bearer ${admin}` } })).json();
const send = async (method: string, path: string, body: unknown) =>
  (
    await fetch(`http://127.0.0.1:${srv.port}${path}`, {
      method,
      headers: { authorization: `Bearer ${admin}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    })
  ).json();

test('ticks send one message per device that is on; SOS pressed on a device arrives', async () => {
  await sim.tick();
  const last = await send('POST', '/devices/get-last-messages', { deviceIdentities: ['354000000000001', '354000000000002', '354000000000003'] });
  expect(last.Items.filter((r: { IsEmpty: boolean }) => !r.IsEmpty).length).toBeGreaterThanOrEqual(2);
  expect(sim.trigger('SIM-0003', 'sos')).toBe(true);
  await sim.tick();
  const stream = await get('/devices/get-message-stream?deviceIdentity=354000000000003');
  expect(stream.Items.map((m: { Message: string }) => m.Message)).toContain('SOS alarm');
});

test('a queued configuration is applied when the device powers on', async () => {
  const q = await send('PUT', '/api/v1/device/desired-configuration', {
    serials: ['SIM-0001', 'SIM-0002'],
    isTrackingEnabled: true,
    trackingIntervalMinutes: 45,
    call2Button: 2,
    custom2Number: { phoneNumber: '+447700900555' },
  });
  expect(q.Content.Message).toBe(MSG.configQueued);
  sim.trigger('SIM-0001', 'off');
  await sim.tick();
  expect((await get('/ps-admin/devices/get-configuration?Serial=SIM-0001')).PendingChanges).toBe(1);
  sim.trigger('SIM-0001', 'on');
  await sim.tick();
  const cfg = await get('/ps-admin/devices/get-configuration?Serial=SIM-0001');
  expect(cfg).toMatchObject({
    PendingChanges: 0,
    IsTracking: true,
    TrackingSeconds: 2700,
    Call2Type: { Value: 2 },
    Call2Number: '+447700900555',
    LastUpdated: expect.any(String),
  });
  const queue = await get('/api/v1/device/desired-configuration?serial=SIM-0001');
  expect(queue.Items[0]).toMatchObject({ SentAt: expect.any(String), AppliedAt: expect.any(String) });
  // the other device of the box has not been turned on yet
  expect((await get('/ps-admin/devices/get-configuration?Serial=SIM-0002')).PendingChanges).toBe(1);
  // refresh requests are answered with any message
  await send('PUT', '/device-configuration', { serial: 'SIM-0003' });
  sim.trigger('SIM-0003', 'sos');
  await sim.tick();
  expect((await get('/ps-admin/devices/get-configuration?Serial=SIM-0003')).RefreshRequestedAt).toBeNull();
});
