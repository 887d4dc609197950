// Device message ingestion and the live side's REST calls, against the real app on SQLite
// (PostgreSQL with TEST_DB=pg): gateway key, per-entry refusals beside stored entries,
// idempotency on messageId, 10 MB batches, last message and connection state, configuration a
// device reports, the desired-configuration queue handed out on 'Power on' and applied, refresh
// requests, the message stream's continuation tokens, the detailed message, and the CSV downloads.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { randomUUID } from 'node:crypto';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { tokenFor } from '../helpers/auth.js';
import { GATEWAY_KEY, insertDevice, message } from '../helpers/live.js';
import { at, first } from '../helpers/lists.js';
import { forgetIngestDevices } from '../../src/server/modules/live/ingest.js';
import { MSG, CODE } from '../../src/shared/messages.js';
import { ARC_PHONE_NUMBER, CALL_BUTTON, LIVE_TEXT, type IngestMessageInput, type IngestResponse } from '../../src/shared/schemas/live.js';

let t: TestApp;
let admin: string;
const IMEI = { a: '356000000000001', b: '356000000000002', c: '356000000000003', d: '356000000000004' };
const dev: Record<string, { id: string; serialNumber: string }> = {};

beforeAll(async () => {
  t = await createTestApp();
  admin = await tokenFor(t.config, ['SuperAdminRole']);
  dev.a = await insertDevice(t.db, { serialNumber: 'LIVE-A-001', imei: IMEI.a, type: 640, firmwareVersion: '4.3.1' });
  dev.b = await insertDevice(t.db, { serialNumber: 'LIVE-B-001', imei: IMEI.b, type: 640, firmwareVersion: '4.3.1' });
  dev.c = await insertDevice(t.db, { serialNumber: 'LIVE-C-001', imei: IMEI.c, type: 640, firmwareVersion: '5.1.0' });
  dev.d = await insertDevice(t.db, { serialNumber: 'LIVE-D-001', imei: IMEI.d, type: 3, firmwareVersion: '6.12.0' });
  dev.esim = await insertDevice(t.db, { serialNumber: 'ESIM-0001', imei: null, type: 70, firmwareVersion: null });
});
afterAll(async () => {
  await t.close();
});

const ingest = (batch: unknown, key = GATEWAY_KEY) =>
  t.request('/api/v1/device-messages/ingest', { method: 'POST', json: batch, headers: key ? { 'X-Gateway-Key': key } : {} });
const stored = async (deviceId: string) =>
  (await t.db.selectFrom('deviceMessages').select(['id', 'message']).where('deviceId', '=', deviceId).execute()).map((r) => r.id);
const api = async (path: string, init: Parameters<TestApp['request']>[1] = {}) => {
  const res = await t.request(path, { token: admin, ...init });
  return { status: res.status, body: await res.json() };
};

describe('gateway key', () => {
  test('missing or wrong X-Gateway-Key: 403 and nothing stored', async () => {
    const m = message(IMEI.a);
    for (const key of ['', 'wrong-key', `${GATEWAY_KEY}x`]) {
      const res = await ingest([m], key);
      expect(res.status).toBe(403);
      expect((await res.json()).Content).toEqual({ Message: LIVE_TEXT.gatewayKey, Code: 'gateway_key_invalid' });
    }
    expect(await stored(dev.a!.id)).not.toContain(m.messageId);
  });

  test('a server without keys refuses every gateway', async () => {
    const other = await createTestApp({ gatewayKeys: [] });
    try {
      const res = await other.request('/api/v1/device-messages/ingest', { method: 'POST', json: [message(IMEI.a)], headers: { 'X-Gateway-Key': '' } });
      expect(res.status).toBe(403);
    } finally {
      await other.close();
    }
  });
});

describe('batches', () => {
  test('bad entries are refused one by one with a 4xx each; the good ones are stored (207)', async () => {
    const good1 = message(IMEI.a, { message: 'Location update', location: { latitude: 51.5, longitude: -0.12, accuracy: 8 } });
    const good2 = message('ESIM-0001', { deviceType: 70, battery: null, signal: 40 });
    const batch: unknown[] = [
      good1,
      { ...message(IMEI.a), battery: 140 },
      message('999999999999999'),
      { ...message(IMEI.a), date: 'yesterday' },
      'not an object',
      { ...message(IMEI.a), properties: { Configuration: { TrackingSeconds: 'soon' } } },
      good2,
      { ...message(IMEI.a), message: 'bad\u202Etext' },
    ];
    const res = await ingest(batch);
    expect(res.status).toBe(207);
    const body = (await res.json()) as IngestResponse;
    expect(body).toMatchObject({ Accepted: 2, Duplicates: 0, Rejected: 6 });
    expect(body.Results.map((r) => [r.Index, r.Status, r.Code])).toEqual([
      [1, 400, CODE.validation],
      [2, 404, CODE.deviceNotFound],
      [3, 400, CODE.validation],
      [4, 400, CODE.validation],
      [5, 400, CODE.validation],
      [7, 400, CODE.validation],
    ]);
    expect(at(body.Results, 0).Message).toBe('battery: battery must be 0 to 100.');
    expect(at(body.Results, 1).Message).toBe(LIVE_TEXT.unknownDevice);
    expect(at(body.Results, 2).Message).toBe(`date: ${LIVE_TEXT.badDate}`);
    expect(await stored(dev.a!.id)).toContain(good1.messageId);
    expect(await stored(dev.esim!.id)).toEqual([good2.messageId]);
    const row = await t.db.selectFrom('deviceMessages').selectAll().where('id', '=', good1.messageId).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ deviceIdentity: IMEI.a, serial: 'LIVE-A-001', deviceType: 640, message: 'Location update', battery: 80, signal: 60 });
    expect(JSON.parse(row.location!)).toEqual({ latitude: 51.5, longitude: -0.12, accuracy: 8 });
  });

  test('a batch of only bad entries is a 400 with the per-entry results', async () => {
    const res = await ingest([{ ...message(IMEI.a), deviceType: 1234 }, message('000000000000000')]);
    expect(res.status).toBe(400);
    const body = await res.json();
    expect(body.Content.Message).toBe(LIVE_TEXT.noneStored);
    expect(body.Content.Errors).toEqual({ '0': `deviceType: ${LIVE_TEXT.unknownType}`, '1': LIVE_TEXT.unknownDevice });
    expect(body.Results).toHaveLength(2);
    expect(body.Rejected).toBe(2);
  });

  test('not an array, empty, or not JSON: 400', async () => {
    expect((await ingest({ messages: [] })).status).toBe(400);
    expect((await ingest([])).status).toBe(400);
    const res = await t.request('/api/v1/device-messages/ingest', {
      method: 'POST',
      body: '[{"messageId":',
      headers: { 'X-Gateway-Key': GATEWAY_KEY, 'content-type': 'application/json' },
    });
    expect(res.status).toBe(400);
  });

  test('the same message id twice is stored once (in one batch and across batches)', async () => {
    const m = message(IMEI.b, { message: 'SOS alarm' });
    const first = await ingest([m, m]);
    expect(first.status).toBe(200);
    expect(await first.json()).toMatchObject({ Accepted: 1, Duplicates: 1, Rejected: 0, Results: [{ Index: 1, Status: 200, Code: 'duplicate_message' }] });
    const again = await ingest([{ ...m, message: 'changed' }]);
    expect(again.status).toBe(200);
    expect(await again.json()).toMatchObject({ Accepted: 0, Duplicates: 1 });
    const rows = await t.db.selectFrom('deviceMessages').select(['id', 'message']).where('id', '=', m.messageId).execute();
    expect(rows).toEqual([{ id: m.messageId, message: 'SOS alarm' }]);
  });

  test('a 10 MB batch is taken whole', async () => {
    const pad = 'x'.repeat(420);
    const batch: IngestMessageInput[] = [];
    for (let i = 0; i < 20_000; i++) batch.push(message(i % 2 ? IMEI.c : IMEI.d, { deviceType: i % 2 ? 640 : 3, rawMessage: pad }));
    const json = JSON.stringify(batch);
    expect(json.length).toBeGreaterThan(10 * 1024 * 1024);
    const res = await t.request('/api/v1/device-messages/ingest', {
      method: 'POST',
      body: json,
      headers: { 'X-Gateway-Key': GATEWAY_KEY, 'content-type': 'application/json' },
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ Accepted: 20_000, Rejected: 0 });
    const n = await t.db
      .selectFrom('deviceMessages')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('deviceId', 'in', [dev.c!.id, dev.d!.id])
      .executeTakeFirstOrThrow();
    expect(Number(n.n)).toBe(20_000);
  }, 60_000);
});

test("a device's new type holds for its next message once a bulk type change is saved", async () => {
  const d = await insertDevice(t.db, { serialNumber: 'TYPE-CHANGE-1', imei: '356000000000070', type: 750 });
  expect((await ingest([message('356000000000070', { deviceType: 750 })])).status).toBe(200);
  const changed = await api('/api/v1/device/change-device-type', { method: 'PUT', json: { serials: ['TYPE-CHANGE-1'], newDeviceType: 640 } });
  expect(changed.status).toBe(200);
  const res = await ingest([message('356000000000070', { deviceType: 640, message: 'After the change' })]);
  expect(res.status).toBe(200);
  expect((await t.db.selectFrom('deviceMessages').select('message').where('deviceId', '=', d.id).execute()).map((m) => m.message)).toContain(
    'After the change',
  );
  // the old type is refused now
  expect((await ingest([message('356000000000070', { deviceType: 750 })])).status).toBe(400);
});

describe('last message and connection state', () => {
  test('the latest message per device, connected until Power off; a late older message does not replace it', async () => {
    const now = Date.now();
    const newest = message(IMEI.b, { message: 'Check-in', date: new Date(now - 1_000).toISOString(), battery: 55 });
    const older = message(IMEI.b, { message: 'Heartbeat', date: new Date(now - 60_000).toISOString() });
    expect((await ingest([newest])).status).toBe(200);
    expect((await ingest([older])).status).toBe(200);
    const filter = { deviceIdentities: [IMEI.b, 'ESIM-0001', '999'], orderBy: 'SerialNumber' };
    let r = await api('/devices/get-last-messages', { method: 'POST', json: filter });
    expect(r.status).toBe(200);
    expect(r.body.TotalCount).toBe(2);
    expect(first(r.body.Items)).toMatchObject({ SerialNumber: 'ESIM-0001', IsEmpty: false });
    expect(at(r.body.Items, 1)).toMatchObject({
      SerialNumber: 'LIVE-B-001',
      Message: 'Check-in',
      Battery: 55,
      IsConnected: true,
      IsEmpty: false,
      MessageId: newest.messageId,
    });

    await ingest([message(IMEI.b, { message: 'Power off', date: new Date(now).toISOString() })]);
    r = await api('/devices/get-last-messages', { method: 'POST', json: { deviceIdentities: [IMEI.b], connected: false } });
    expect(r.body.Items).toHaveLength(1);
    expect(first(r.body.Items)).toMatchObject({ Message: 'Power off', IsConnected: false });
    const cfg = await api('/ps-admin/devices/get-configuration?Serial=live-b-001');
    expect(cfg.body.IsConnected).toEqual({ Value: false, Name: 'Not connected' });
  });

  test('a device that never spoke: IsEmpty, and withNoMessagesOnly finds it', async () => {
    const quiet = await insertDevice(t.db, { serialNumber: 'QUIET-0001', imei: '356000000000099' });
    const r = await api('/devices/get-last-messages', { method: 'POST', json: { deviceIdentities: ['356000000000099', IMEI.a], withNoMessagesOnly: true } });
    expect(r.body.Items).toEqual([
      expect.objectContaining({ DeviceId: quiet.id, IsEmpty: true, Date: null, Message: null, IsConnected: false, DeviceIdentity: '356000000000099' }),
    ]);
  });
});

describe('message stream and detailed message', () => {
  test('newest first in pages with continuation tokens; the detailed message carries its properties as a JSON string', async () => {
    const e = await insertDevice(t.db, { serialNumber: 'STREAM-0001', imei: '356000000000050' });
    const base = Date.now() - 100_000;
    const batch = Array.from({ length: 25 }, (_, i) =>
      message('356000000000050', { date: new Date(base + i * 1000).toISOString(), message: `M${i}`, properties: { Seq: i, Nested: { x: 1 } } }),
    );
    await ingest(batch);
    const p1 = await api('/devices/get-message-stream?deviceIdentity=356000000000050');
    expect(p1.status).toBe(200);
    expect(p1.body.Items.map((m: { Message: string }) => m.Message)).toEqual(Array.from({ length: 20 }, (_, i) => `M${24 - i}`));
    expect(p1.body.ContinuationToken).toEqual(expect.any(String));
    expect(first(p1.body.Items)).toMatchObject({
      Serial: 'STREAM-0001',
      DeviceIdentity: '356000000000050',
      PartitionKey: '356000000000050',
      DeviceType: { Id: 640, Name: 'SG640' },
    });
    const p2 = await api(`/devices/get-message-stream?deviceIdentity=356000000000050&continuationToken=${encodeURIComponent(p1.body.ContinuationToken)}`);
    expect(p2.body.Items.map((m: { Message: string }) => m.Message)).toEqual(['M4', 'M3', 'M2', 'M1', 'M0']);
    expect(p2.body.ContinuationToken).toBeNull();
    expect((await api('/devices/get-message-stream?deviceIdentity=356000000000050&continuationToken=garbage')).status).toBe(400);

    const m = at(batch, 7);
    const d = await api(`/devices/get-detailed-message?identity=356000000000050&messageReceived=${encodeURIComponent(m.date)}&deviceType=640`);
    expect(d.status).toBe(200);
    expect(d.body).toMatchObject({ MessageId: m.messageId, Message: 'M7', RawMessage: m.rawMessage });
    expect(JSON.parse(d.body.MessageProperties)).toEqual({ Seq: 7, Nested: { x: 1 } });
    expect((await api(`/devices/get-detailed-message?identity=356000000000050&messageReceived=2000-01-01T00:00:00Z`)).status).toBe(404);
    expect(e.id).toBeTruthy();
  });

  test("a device's history by its serial number before it had an IMEI and by its IMEI after; an unknown identity has none", async () => {
    const d = await insertDevice(t.db, { serialNumber: 'STREAM-SERIAL-1', imei: null });
    const base = Date.now() - 50_000;
    const before = [0, 1, 2].map((i) => message('STREAM-SERIAL-1', { date: new Date(base + i * 1000).toISOString(), message: `S${i}` }));
    expect((await ingest(before)).status).toBe(200);
    await t.db.updateTable('devices').set({ imei: '356000000000060' }).where('id', '=', d.id).execute();
    forgetIngestDevices();
    const after = [3, 4].map((i) => message('356000000000060', { date: new Date(base + i * 1000).toISOString(), message: `I${i}` }));
    expect((await ingest(after)).status).toBe(200);
    const texts = async (identity: string) =>
      (await api(`/devices/get-message-stream?deviceIdentity=${identity}`)).body.Items.map((m: { Message: string }) => m.Message);
    expect(await texts('STREAM-SERIAL-1')).toEqual(['S2', 'S1', 'S0']);
    expect(await texts('356000000000060')).toEqual(['I4', 'I3']);
    expect(await texts('356000000000099')).toEqual([]);
    const old = at(before, 1);
    const one = await api(`/devices/get-detailed-message?identity=STREAM-SERIAL-1&messageReceived=${encodeURIComponent(old.date)}&deviceType=640`);
    expect(one.body).toMatchObject({ MessageId: old.messageId, Message: 'S1' });
    // the message of that time is not another identity's
    expect((await api(`/devices/get-detailed-message?identity=356000000000060&messageReceived=${encodeURIComponent(old.date)}`)).status).toBe(404);
  });
});

describe('configuration', () => {
  test('unknown configuration, then the configuration the device reports', async () => {
    const r0 = await api('/ps-admin/devices/get-configuration?Serial=LIVE-A-001');
    expect(r0.status).toBe(200);
    expect(r0.body).toMatchObject({ Id: dev.a!.id, LastUpdated: null, FirmwareVersion: '4.3.1', PendingChanges: 0, RefreshRequestedAt: null });
    const when = new Date(Date.now() - 5_000).toISOString();
    const res = await ingest([
      message(IMEI.a, {
        date: when,
        message: 'Configuration acknowledged',
        properties: {
          FirmwareVersion: '4.4.0',
          Configuration: {
            IsTracking: true,
            TrackingSeconds: 900,
            IsFallDetection: true,
            FallDetectionSettings: '030-150-200',
            SosButton: true,
            Call1Type: 1,
            Call1Number: ARC_PHONE_NUMBER,
            Call2Type: 3,
            SmsBackup: true,
            PrimaryEndPoint: '203.0.113.10:5100',
          },
        },
      }),
    ]);
    expect(res.status).toBe(200);
    const r1 = await api(`/ps-admin/devices/get-configuration-by-id?Id=${dev.a!.id}`);
    expect(r1.body).toMatchObject({
      LastUpdated: when,
      IsTracking: true,
      TrackingSeconds: 900,
      IsFallDetection: true,
      FallDetectionSettings: '030-150-200',
      FirmwareVersion: '4.4.0',
      SosButton: true,
      Call1Type: { Value: 1, Name: 'Alarm Receiving Centre' },
      Call1Number: ARC_PHONE_NUMBER,
      Call2Type: { Value: 3, Name: 'Disabled' },
      SmsBackup: true,
      PrimaryEndPoint: '203.0.113.10:5100',
      IsConnected: { Value: true, Name: 'Connected' },
    });
    const row = await t.db
      .selectFrom('devices')
      .select(['lastConfigurationDate', 'firmwareVersion', 'etag'])
      .where('id', '=', dev.a!.id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ lastConfigurationDate: when, firmwareVersion: '4.4.0', etag: '"e0"' });
    expect((await api('/ps-admin/devices/get-configuration?Serial=NOPE-404')).status).toBe(404);
  });

  test('current configuration list: filters, order, paging, rows without configuration', async () => {
    const filter = { serialNumbers: ['LIVE-A-001', 'live-b-001', 'NOPE'], orderBy: 'Serial' };
    const r = await api('/ps-admin/devices/get-configurations', { method: 'POST', json: filter });
    expect(r.status).toBe(200);
    expect(r.body.TotalCount).toBe(2);
    expect(r.body.Items.map((x: { Serial: string }) => x.Serial)).toEqual(['LIVE-A-001', 'LIVE-B-001']);
    expect(at(r.body.Items, 1)).toMatchObject({ LastUpdated: null, IsTracking: null, Call1Type: null });
    const tracked = await api('/ps-admin/devices/get-configurations', { method: 'POST', json: { ...filter, tracking: true, call1TypeIds: [1] } });
    expect(tracked.body.Items.map((x: { Serial: string }) => x.Serial)).toEqual(['LIVE-A-001']);
    const fw = await api('/ps-admin/devices/get-firmware-versions', { method: 'POST', json: { serials: ['LIVE-A-001', 'LIVE-C-001', 'X'] } });
    expect(fw.body.Items).toEqual([
      { Serial: 'LIVE-A-001', Type: { Value: 640, Name: 'SG640' }, FirmwareVersion: '4.4.0' },
      { Serial: 'LIVE-C-001', Type: { Value: 640, Name: 'SG640' }, FirmwareVersion: '5.1.0' },
    ]);
    const types = await api('/ps-admin/devices/get-configuration-types');
    expect(first(types.body.EnumValues)).toMatchObject({ Value: CALL_BUTTON.Arc, IsPreferred: true, PhoneNumber: ARC_PHONE_NUMBER });
  });

  test('CSV downloads: CurrentConfiguration_<date>.csv and TestingConfiguration_<date>.csv', async () => {
    const res = await t.request('/ps-admin/devices/download-configurations-csv', {
      method: 'POST',
      token: admin,
      json: { serialNumbers: ['LIVE-A-001', 'QUIET-0001'] },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/csv');
    expect(res.headers.get('content-disposition')).toMatch(/filename="CurrentConfiguration_\d{4}-\d{2}-\d{2}\.csv"/);
    const text = (await res.text()).replace(/^\uFEFF/, '');
    const lines = text.split('\r\n');
    expect(lines[0]).toBe('Serial Number,Device Type,Tracking,Fall Detection,Call 1 Type,Call 2 Type,Last Updated (UK time)');
    // Dates are en-GB text in London time, not ISO UTC.
    expect(lines[1]).toMatch(
      /^LIVE-A-001,SG640,On - 15 minutes,On - Default \(SG621\/640\/750\),Alarm Receiving Centre,Disabled,\d{2}\/\d{2}\/\d{4} \d{2}:\d{2}:\d{2}$/,
    );
    expect(lines[2]).toBe('QUIET-0001,SG640,No configuration for this device,,,,');
    const t2 = await t.request('/devices/download-last-messages-csv', { method: 'POST', token: admin, json: { deviceIdentities: ['356000000000099'] } });
    expect(t2.headers.get('content-disposition')).toMatch(/filename="TestingConfiguration_\d{4}-\d{2}-\d{2}\.csv"/);
    const testing = (await t2.text()).replace(/^\uFEFF/, '').split('\r\n');
    expect(testing[0]).toBe('Serial Number,Device Type,Date (UK time),Message,Battery,Signal,Connected');
    // The notice sits in the Message column; the Date column stays empty.
    expect(testing[1]).toBe('QUIET-0001,SG640,,No communication received from this device,,,No');
    const none = await t.request('/devices/download-last-messages-csv', { method: 'POST', token: admin, json: { deviceIdentities: ['nothing'] } });
    expect(none.status).toBe(400);
    expect((await none.json()).Content.Message).toBe(MSG.exportPayloadEmpty);
  });

  test('a CSV download of more rows than one chunk holds every row once, in order', async () => {
    const serials = Array.from({ length: 2500 }, (_, i) => `CSVCHUNK-${String(i).padStart(5, '0')}`);
    for (const serialNumber of serials) await insertDevice(t.db, { serialNumber });
    const res = await t.request('/ps-admin/devices/download-configurations-csv', { method: 'POST', token: admin, json: { serialNumbers: serials } });
    expect(res.status).toBe(200);
    const lines = new TextDecoder('utf-8', { ignoreBOM: true }).decode(await res.arrayBuffer()).split('\r\n');
    expect(lines[0]).toBe('\uFEFFSerial Number,Device Type,Tracking,Fall Detection,Call 1 Type,Call 2 Type,Last Updated (UK time)');
    expect(lines.slice(1).map((l) => l.split(',')[0])).toEqual(serials);
    expect(lines.filter((l) => l.includes('\uFEFF'))).toHaveLength(1);
  });
});

describe('desired configuration', () => {
  const put = (json: unknown) => api('/api/v1/device/desired-configuration', { method: 'PUT', json });

  test('validation (spec §5) and the rules that need the devices', async () => {
    expect((await put({ serials: ['LIVE-A-001'] })).body.Content.Message).toBe(MSG.atLeastOneConfig);
    const short = await put({ serials: ['LIVE-A-001'], isTrackingEnabled: true, trackingIntervalMinutes: 3 });
    expect(short.status).toBe(400);
    expect(short.body.Content.Errors).toEqual({ trackingIntervalMinutes: MSG.atLeast5 });
    const fall = await put({ serials: ['LIVE-A-001'], isManDownEnabled: true, manDownSensitivity: 255, manDownUpTime: 1, manDownNonMovementDuration: 1 });
    expect(fall.body.Content.Errors).toHaveProperty('manDownSensitivity', LIVE_TEXT.fallRange);
    const call = await put({ serials: ['LIVE-A-001'], call1Button: CALL_BUTTON.Custom, custom1Number: { phoneNumber: '' } });
    expect(call.body.Content.Errors).toEqual({ 'custom1Number.phoneNumber': LIVE_TEXT.callNumberRequired });
    const cmds = await put({
      serials: ['LIVE-A-001'],
      rawCommands: [
        { rawCommand: 'AT+X', communicationProtocol: 'SMS' },
        { rawCommand: 'AT+X', communicationProtocol: 'SMS' },
      ],
    });
    expect(cmds.body.Content.Errors).toEqual({ rawCommands: MSG.commandExists });
    expect((await put({ serials: ['LIVE-A-001'], rawCommands: [{ rawCommand: ' ', communicationProtocol: 'SMS' }] })).body.Content.Message).toBe(
      MSG.enterCustomCommand,
    );
    expect((await put({ serials: ['LIVE-A-001'], rawCommands: [{ rawCommand: 'AT', communicationProtocol: 'FAX' }] })).body.Content.Message).toBe(
      MSG.selectDeliveryMethod,
    );
    const unknown = await put({ serials: ['LIVE-A-001', 'NOPE-1'], isTrackingEnabled: false });
    expect(unknown.status).toBe(404);
    expect(unknown.body.Content.Errors).toEqual({ 'NOPE-1': 'Not found' });
    const mixed = await put({ serials: ['LIVE-A-001', 'LIVE-D-001'], isTrackingEnabled: false });
    expect(mixed.status).toBe(422);
    expect(mixed.body.Content.Message).toBe(MSG.oneDeviceType);
    const phone = await put({ serials: ['LIVE-D-001'], isTrackingEnabled: false });
    expect(phone.body.Content.Message).toBe(MSG.typeNotConfigurable(MSG.productName));
    const firmware = await put({ serials: ['LIVE-A-001', 'LIVE-C-001'], isManDownEnabled: false });
    expect(firmware.status).toBe(422);
    expect(firmware.body.Content.Message).toBe(LIVE_TEXT.sameFirmware);
    expect(await t.db.selectFrom('desiredConfigurations').select('id').execute()).toEqual([]);
  });

  test('queued, handed to the device when it powers on, applied when it reports so', async () => {
    const q = await put({
      serials: ['LIVE-A-001', 'LIVE-B-001'],
      isTrackingEnabled: true,
      trackingIntervalMinutes: 30,
      call2Button: CALL_BUTTON.Custom,
      custom2Number: { phoneNumber: '+44 7700 900123' },
    });
    expect(q.status).toBe(200);
    expect(q.body).toEqual({ Content: { Message: MSG.configQueued }, Queued: 2 });
    const cfg = await api('/ps-admin/devices/get-configuration?Serial=LIVE-A-001');
    expect(cfg.body.PendingChanges).toBe(1);

    // a heartbeat does not take it; 'Power on' does
    let r = (await (await ingest([message(IMEI.a)])).json()) as IngestResponse;
    expect(r.Commands).toEqual([]);
    r = (await (await ingest([message(IMEI.a, { message: 'Power on' })])).json()) as IngestResponse;
    expect(r.Commands).toHaveLength(1);
    const cmd = first(r.Commands);
    expect(cmd).toMatchObject({
      DeviceIdentity: IMEI.a,
      Kind: 'configuration',
      Configuration: { isTrackingEnabled: true, trackingIntervalMinutes: 30, call2Button: CALL_BUTTON.Custom, custom2Number: { phoneNumber: '+447700900123' } },
    });
    const queue = await api('/api/v1/device/desired-configuration?serial=LIVE-A-001');
    expect(first(queue.body.Items)).toMatchObject({ Id: cmd.Id, SentAt: expect.any(String), AppliedAt: null });

    const when = new Date().toISOString();
    await ingest([
      message(IMEI.a, {
        date: when,
        message: 'Configuration acknowledged',
        properties: {
          AppliedConfigurationIds: [cmd.Id],
          Configuration: { IsTracking: true, TrackingSeconds: 1800, Call2Type: 2, Call2Number: '+447700900123' },
        },
      }),
    ]);
    const after = await api('/ps-admin/devices/get-configuration?Serial=LIVE-A-001');
    expect(after.body).toMatchObject({
      PendingChanges: 0,
      LastUpdated: when,
      TrackingSeconds: 1800,
      Call2Type: { Value: 2, Name: 'Custom number' },
      Call2Number: '+447700900123',
    });
    const applied = await api('/api/v1/device/desired-configuration?serial=LIVE-A-001');
    expect(first(applied.body.Items as { AppliedAt: string | null }[]).AppliedAt).toEqual(expect.any(String));
    // the other device still waits
    expect((await api('/ps-admin/devices/get-configuration?Serial=LIVE-B-001')).body.PendingChanges).toBe(1);
  });

  test('refresh configuration and firmware: pending until the device answers', async () => {
    const r1 = await api('/device-configuration', { method: 'PUT', json: { serial: 'LIVE-C-001' } });
    expect(r1).toEqual({ status: 200, body: { Content: { Message: MSG.configUpdateRequested } } });
    const r2 = await api('/device-configuration/firmware', { method: 'PUT', json: { serial: 'LIVE-C-001' } });
    expect(r2.body.Content.Message).toBe(MSG.firmwareUpdateRequested);
    await api('/device-configuration', { method: 'PUT', json: { serial: 'LIVE-C-001' } }); // asked twice: queued once
    expect((await api('/device-configuration', { method: 'PUT', json: { serial: 'NOPE' } })).status).toBe(404);
    let cfg = await api('/ps-admin/devices/get-configuration?Serial=LIVE-C-001');
    expect(cfg.body.RefreshRequestedAt).toEqual(expect.any(String));
    expect(cfg.body.FirmwareRequestedAt).toEqual(expect.any(String));
    // any message takes refresh requests
    const r = (await (await ingest([message(IMEI.c)])).json()) as IngestResponse;
    expect(r.Commands.map((c) => c.Kind).sort()).toEqual(['refresh-configuration', 'refresh-firmware']);
    await ingest([message(IMEI.c, { properties: { FirmwareVersion: '5.2.0', Configuration: { IsTracking: false } } })]);
    cfg = await api('/ps-admin/devices/get-configuration?Serial=LIVE-C-001');
    expect(cfg.body).toMatchObject({ RefreshRequestedAt: null, FirmwareRequestedAt: null, FirmwareVersion: '5.2.0', IsTracking: false });
  });
});

test('reads need the device permissions; changes need manage', async () => {
  const controller = await tokenFor(t.config, ['ArcControllerRole']);
  const readonly = await tokenFor(t.config, ['SuperAdminReadonlyRole']);
  expect((await t.request('/devices/get-message-stream?deviceIdentity=1', { token: controller })).status).toBe(403);
  expect((await t.request('/devices/get-message-stream?deviceIdentity=1', { token: readonly })).status).toBe(200);
  expect((await t.request('/device-configuration', { method: 'PUT', token: readonly, json: { serial: 'LIVE-A-001' } })).status).toBe(403);
  expect(randomUUID()).toBeTruthy();
});
