// GET /metrics: Prometheus text with METRICS_TOKEN as a bearer token, refused without it, not
// served at all when no token is configured; the figures move with what the server did.
import { afterAll, beforeAll, expect, test } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { GATEWAY_KEY } from '../helpers/live.js';
import { METRICS_TOKEN_REQUIRED, startMetricsServer } from '../../src/server/platform/metrics.js';
import { MSG } from '../../src/shared/messages.js';

const TOKEN = 'metrics-test-token-0123456789';
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ metricsToken: TOKEN });
});
afterAll(async () => {
  await t.close();
});

const scrape = (authorization?: string) => t.request('/metrics', { headers: authorization ? { authorization } : {} });
/** The value of one series, e.g. value(text, 'outbox_backlog'). */
function value(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(series + ' '));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

test('without the bearer token, or with another one, /metrics is 401 and shows no figure', async () => {
  for (const auth of [undefined, 'Bearer wrong-token', `Basic ${Buffer.from(`x:${TOKEN}`).toString('base64')}`, TOKEN]) {
    const res = await scrape(auth);
    expect(res.status).toBe(401);
    const text = await res.text();
    expect(text).not.toContain('http_request_duration_seconds');
    expect(JSON.parse(text)).toEqual({ Content: { Message: METRICS_TOKEN_REQUIRED, Code: 'unauthorized' } });
    expect(text).not.toContain(MSG.sessionExpired);
  }
});

test('with the token: Prometheus text with request durations by declared route and status, and every family asked for', async () => {
  await t.request('/health');
  await t.request('/api/v1/device/00000000-0000-4000-8000-000000000001/general-details', { method: 'PUT' }); // 401: no token
  await t.request('/no/such/path/123');
  const res = await scrape(`Bearer ${TOKEN}`);
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
  const text = await res.text();
  expect(text).toMatch(/http_request_duration_seconds_count\{method="GET",route="\/health",status="200"\} [1-9]/);
  // the route as declared, never the id a client sent; unknown paths are one 'other' series
  expect(text).toMatch(/route="\/api\/v1\/device\/:deviceId\/general-details",status="401"/);
  expect(text).not.toContain('00000000-0000-4000-8000-000000000001');
  expect(text).not.toContain('/no/such/path');
  expect(text).toMatch(/route="other",status="404"/);
  for (const family of [
    'http_requests_in_flight',
    'hub_connections',
    'hub_groups',
    'hub_messages_sent_total',
    'ingest_messages_total',
    'ingest_batches_refused_total',
    'export_queue_length',
    'export_jobs_running',
    'outbox_backlog',
    'nodejs_eventloop_lag_seconds',
    'db_pool_connections',
  ])
    expect(text, family).toContain(`# TYPE ${family} `);
  // the scrape itself is in flight while it is written
  expect(value(text, 'http_requests_in_flight')).toBeGreaterThanOrEqual(1);
});

test('the outbox backlog counts messages not sent yet', async () => {
  const before = value(await (await scrape(`Bearer ${TOKEN}`)).text(), 'outbox_backlog') ?? 0;
  await t.deps.outbox.enqueue(t.db, { channel: 'email', recipient: 'metrics@staff.test', subject: 'Metrics', body: 'x' });
  await t.deps.outbox.enqueue(t.db, { channel: 'email', recipient: 'metrics2@staff.test', subject: 'Metrics', body: 'y' });
  expect(value(await (await scrape(`Bearer ${TOKEN}`)).text(), 'outbox_backlog')).toBe(before + 2);
});

test('ingestion: refused batches by reason, rejected messages by their code', async () => {
  const read = async () => await (await scrape(`Bearer ${TOKEN}`)).text();
  const series = (text: string, s: string) => value(text, s) ?? 0;
  const before = await read();
  const ingest = (body: unknown, key = GATEWAY_KEY) => t.request('/api/v1/device-messages/ingest', { json: body, headers: { 'x-gateway-key': key } });
  expect((await ingest([], 'wrong-key')).status).toBe(403);
  expect((await ingest([])).status).toBe(400);
  const unknown = await ingest([
    { messageId: 'm-metrics-1', deviceIdentity: '359999999999999', deviceType: 640, date: new Date().toISOString(), message: 'Heartbeat' },
  ]);
  expect(unknown.status).toBe(400); // no message stored: the device is unknown
  const after = await read();
  expect(series(after, 'ingest_batches_refused_total{reason="gateway_key"}')).toBe(series(before, 'ingest_batches_refused_total{reason="gateway_key"}') + 1);
  expect(series(after, 'ingest_batches_refused_total{reason="empty"}')).toBe(series(before, 'ingest_batches_refused_total{reason="empty"}') + 1);
  expect(after).toMatch(/ingest_messages_total\{result="rejected",reason="[a-z_]+"\} [1-9]/);
});

test('without METRICS_TOKEN the app port does not serve /metrics; METRICS_PORT serves it on loopback without a token', async () => {
  const plain = await createTestApp();
  try {
    const res = await plain.request('/metrics', { headers: { authorization: 'Bearer anything' } });
    expect(res.status).toBe(404);
    const server = await startMetricsServer(0, plain.db);
    try {
      const addr = server.address() as { address: string; port: number };
      expect(addr.address).toBe('127.0.0.1');
      const r = await fetch(`http://127.0.0.1:${addr.port}/metrics`);
      expect(r.status).toBe(200);
      expect(await r.text()).toContain('# TYPE http_request_duration_seconds histogram');
      expect((await fetch(`http://127.0.0.1:${addr.port}/other`)).status).toBe(404);
    } finally {
      server.close();
    }
  } finally {
    await plain.close();
  }
});
