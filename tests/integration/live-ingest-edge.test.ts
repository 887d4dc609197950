// The ingestion edge (POST /api/v1/device-messages/ingest) against hostile or broken gateways, on
// SQLite (PostgreSQL with TEST_DB=pg): the gateway key is checked from the headers before any byte
// of the body is read, each gateway key has its own rate limit, a message dated far in the future
// or on a day the calendar does not have is refused on its own, a deviceType other than the
// device's is refused on its own, and a client that drops its upload is logged as an aborted
// request (never a 503 'database unavailable').
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { GATEWAY_KEY, insertDevice, message } from '../helpers/live.js';
import { CODE } from '../../src/shared/messages.js';
import { LIVE_CODE, LIVE_TEXT, type IngestResponse } from '../../src/shared/schemas/live.js';

let t: TestApp;
const IMEI = '357000000000101';
const SURECAM_IMEI = '357000000000160';
let deviceId = '';
let surecamId = '';

beforeAll(async () => {
  t = await createTestApp();
  deviceId = (await insertDevice(t.db, { serialNumber: 'EDGE-A-001', imei: IMEI, type: 640 })).id;
  surecamId = (await insertDevice(t.db, { serialNumber: 'EDGE-CAM-001', imei: SURECAM_IMEI, type: 60 })).id;
});
afterAll(async () => {
  await t.close();
});

const ingest = (batch: unknown, key = GATEWAY_KEY) =>
  t.request('/api/v1/device-messages/ingest', { method: 'POST', json: batch, headers: key ? { 'X-Gateway-Key': key } : {} });
const storedIds = async (id: string) => (await t.db.selectFrom('deviceMessages').select('id').where('deviceId', '=', id).execute()).map((r) => r.id);

/** A chunked body (no Content-Length) of `chunks` × 1 MB that counts how much of it the server pulled. */
function countingBody(chunks: number, fail?: Error) {
  const seen = { bytes: 0 };
  let sent = 0;
  const chunk = new TextEncoder().encode(`[${' '.repeat(1024 * 1024 - 2)},`);
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (fail && sent === 1) return controller.error(fail);
      if (sent++ >= chunks) return controller.close();
      seen.bytes += chunk.byteLength;
      controller.enqueue(chunk);
    },
  });
  return { stream, seen };
}
const streamed = (app: TestApp, body: ReadableStream<Uint8Array>, headers: Record<string, string>) =>
  app.app.request('/api/v1/device-messages/ingest', {
    method: 'POST',
    body,
    headers: { 'content-type': 'application/json', 'x-forwarded-for': '203.0.113.9', ...headers },
    duplex: 'half',
  } as RequestInit);

describe('gateway key before the body', () => {
  test('a chunked 19 MB body without a valid X-Gateway-Key is refused (403) without reading it', async () => {
    for (const headers of [{}, { 'X-Gateway-Key': 'wrong-key' }] as Record<string, string>[]) {
      const { stream, seen } = countingBody(19);
      const res = await streamed(t, stream, headers);
      expect(res.status).toBe(403);
      expect((await res.json()).Content.Code).toBe(LIVE_CODE.gatewayKey);
      // the stream hands out its first chunk at most when the request is built; nothing more is read
      expect(seen.bytes).toBeLessThanOrEqual(1024 * 1024);
    }
  });
});

describe('rate limit per gateway', () => {
  test('a gateway over its batches per 10 s gets 429 with Retry-After; another gateway key is not affected', async () => {
    const app = await createTestApp({ gatewayKeys: ['gateway-one', 'gateway-two'], gatewayBatchesPer10s: 3 });
    try {
      await insertDevice(app.db, { serialNumber: 'EDGE-RL-001', imei: IMEI, type: 640 });
      const send = (key: string) => app.request('/api/v1/device-messages/ingest', { method: 'POST', json: [message(IMEI)], headers: { 'X-Gateway-Key': key } });
      for (let i = 0; i < 3; i++) expect((await send('gateway-one')).status).toBe(200);
      const over = await send('gateway-one');
      expect(over.status).toBe(429);
      expect(Number(over.headers.get('Retry-After'))).toBeGreaterThan(0);
      expect((await over.json()).Content).toEqual({ Message: LIVE_TEXT.tooManyBatches, Code: CODE.rateLimited });
      expect((await send('gateway-two')).status).toBe(200);
      // the refused batch read no body either: a 19 MB upload over the limit is not pulled
      const { stream, seen } = countingBody(19);
      expect((await streamed(app, stream, { 'X-Gateway-Key': 'gateway-one' })).status).toBe(429);
      expect(seen.bytes).toBeLessThanOrEqual(1024 * 1024);
    } finally {
      await app.close();
    }
  });
});

describe('dates', () => {
  test('a message dated far in the future is refused on its own (422) and does not become the last message', async () => {
    const now = message(IMEI, { message: 'Heartbeat' });
    const future = message(IMEI, { message: 'Power off', date: '9999-12-31T23:59:59.000Z' });
    const soon = message(IMEI, { message: 'Location update', date: new Date(Date.now() + 60_000).toISOString() });
    const res = await ingest([future, now, soon]);
    expect(res.status).toBe(207);
    const body = (await res.json()) as IngestResponse;
    expect(body.Accepted).toBe(2);
    expect(body.Results.find((r) => r.Index === 0)).toEqual({
      Index: 0,
      MessageId: future.messageId,
      Status: 422,
      Code: LIVE_CODE.futureDate,
      Message: LIVE_TEXT.futureDate,
    });
    const ids = await storedIds(deviceId);
    expect(ids).not.toContain(future.messageId);
    expect(ids).toEqual(expect.arrayContaining([now.messageId, soon.messageId]));
    const last = await t.db.selectFrom('deviceLastMessages').selectAll().where('deviceId', '=', deviceId).executeTakeFirstOrThrow();
    expect(last.messageId).toBe(soon.messageId);
    expect(last.isConnected).toBe(1);
  });

  test('impossible calendar dates are refused (400 per entry), not rolled over into the next month', async () => {
    const bad = ['2026-02-30T10:00:00Z', '2025-02-29T10:00:00Z', '2026-04-31T10:00:00Z', '2026-13-01T10:00:00Z', '2026-01-01T24:30:00Z'];
    const good = message(IMEI, { date: '2024-02-29T10:00:00.000Z' });
    const res = await ingest([...bad.map((date) => message(IMEI, { date })), good]);
    expect(res.status).toBe(207);
    const body = (await res.json()) as IngestResponse;
    expect(body.Accepted).toBe(1);
    for (let i = 0; i < bad.length; i++)
      expect(body.Results.find((r) => r.Index === i)).toMatchObject({ Status: 400, Code: CODE.validation, Message: `date: ${LIVE_TEXT.badDate}` });
    const rows = await t.db.selectFrom('deviceMessages').select('date').where('deviceId', '=', deviceId).execute();
    expect(rows.map((r) => r.date)).not.toContain('2026-03-02T10:00:00.000Z');
    expect(rows.map((r) => r.date)).toContain('2024-02-29T10:00:00.000Z');
  });
});

describe('device type', () => {
  test("a message whose deviceType is not the device's type is refused on its own (422) and not stored", async () => {
    const wrong = message(SURECAM_IMEI, { deviceType: 620 });
    const right = message(SURECAM_IMEI, { deviceType: 60 });
    const res = await ingest([wrong, right]);
    expect(res.status).toBe(207);
    const body = (await res.json()) as IngestResponse;
    expect(body.Accepted).toBe(1);
    expect(body.Results.find((r) => r.Index === 0)).toEqual({
      Index: 0,
      MessageId: wrong.messageId,
      Status: 422,
      Code: LIVE_CODE.typeMismatch,
      Message: LIVE_TEXT.typeMismatch,
    });
    const rows = await t.db.selectFrom('deviceMessages').select(['id', 'deviceType']).where('deviceId', '=', surecamId).execute();
    expect(rows).toEqual([{ id: right.messageId, deviceType: 60 }]);
  });
});

describe('dropped uploads', () => {
  test('a client that drops its upload is logged as an aborted request, never as a database failure or a 503', async () => {
    const reset = Object.assign(new Error('aborted'), { code: 'ECONNRESET' });
    const { stream } = countingBody(5, reset);
    const before = t.logs.length;
    const res = await streamed(t, stream, { 'X-Gateway-Key': GATEWAY_KEY });
    expect(res.status).not.toBe(503);
    expect(res.status).toBe(400);
    const lines = t.logs.slice(before).map((l) => String(l.msg));
    expect(lines).toContain('request aborted by the client');
    expect(lines.join('\n')).not.toMatch(/database unavailable/);
    // the database is fine: /health says so
    expect((await t.request('/health')).status).toBe(200);
  });
});
