// The demo data's Fleet Health, on SQLite and (TEST_DB=pg) PostgreSQL at scale 0.01: a provider's
// demo shows a realistic fleet — most allocated devices healthy, a minority silent, and devices in
// every category — right after the seed, and still after an hour of the device simulator (720 ticks,
// its default 5 s apart, sent as fast as the server answers, then Fleet Health read an hour on: no
// seeded device's last message ages past the silent threshold in that hour).
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createTestDb, type TestDb } from '../helpers/db.js';
import { GATEWAY_KEY } from '../helpers/live.js';
import { createServer, type AppServer } from '../../src/server/server.js';
import { testConfig } from '../../src/server/platform/config.js';
import { createOutbox } from '../../src/server/mail/outbox.js';
import { seedDemoData } from '../../src/server/seed/demo.js';
import { backfillLastMessages } from '../../src/server/modules/live/repo.js';
import { fleetHealth } from '../../src/server/modules/fleet/repo.js';
import { createSimulator } from '../../src/server/simulator/simulator.js';
import { simulatedDevices } from '../../src/server/simulator/devices.js';
import { FLEET_CATEGORIES, type FleetHealthDto } from '../../src/shared/schemas/fleet.js';

const NOW = new Date();
const HOUR = 3_600_000;
const TICKS_AN_HOUR = 720;
let t: TestDb;
let srv: AppServer;

beforeAll(async () => {
  t = await createTestDb();
  await seedDemoData(t.db, { seed: 7, scale: 0.01, password: 'Fleet-Demo-Passw0rd!', log: () => {}, now: NOW });
  // as the server does on start: each device's last message from the demo history
  await backfillLastMessages(t.db);
  const config = testConfig();
  const log = () => {};
  srv = await createServer({ db: t.db, config, outbox: createOutbox({ log, now: () => config.now() }), log }, { port: 0, hostname: '127.0.0.1' });
}, 240_000);
afterAll(async () => {
  await srv?.close();
  await t?.close();
});

function expectRealisticMix(h: FleetHealthDto) {
  console.log('demo fleet:', JSON.stringify({ Devices: h.Devices, Healthy: h.Devices - h.Affected, ...h.Counts }));
  expect(h.Devices).toBeGreaterThan(200);
  for (const c of FLEET_CATEGORIES) expect(h.Counts[c], c).toBeGreaterThan(0);
  expect(h.Counts.silent / h.Devices, 'silent share').toBeLessThan(0.25);
  // no other single category takes over the fleet either
  for (const c of FLEET_CATEGORIES) expect(h.Counts[c] / h.Devices, c).toBeLessThan(0.25);
  // healthy: in no category
  expect((h.Devices - h.Affected) / h.Devices, 'healthy share').toBeGreaterThan(0.6);
}

describe('the demo fleet', () => {
  test('right after the seed: devices in every category, silent under a quarter of the allocated devices, most healthy', async () => {
    expectRealisticMix(await fleetHealth(t.db, NOW));
  });

  test('after an hour of the simulator: still so', { timeout: 300_000 }, async () => {
    const devices = await simulatedDevices(t.db, 25);
    expect(devices.length).toBe(25);
    const sim = createSimulator({ baseUrl: `http://127.0.0.1:${srv.port}`, gatewayKey: GATEWAY_KEY, devices, seed: 7 });
    for (let i = 0; i < TICKS_AN_HOUR; i++) await sim.tick();
    const h = await fleetHealth(t.db, new Date(Date.now() + HOUR));
    expectRealisticMix(h);
  });
});
