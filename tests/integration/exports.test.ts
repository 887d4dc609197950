// Exports as jobs of the worker pool (src/server/exports) on SQLite (a file, so worker threads open
// it) and, with TEST_DB=pg, PostgreSQL: another request is answered while a large export runs; a
// second export of the same user and a full queue are refused with 429; a cancelled export frees
// its worker and leaves nothing behind; bodies that are not objects are refused; the file read back
// holds the filtered rows in order with London-time dates (a summer and a winter one).
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { randomUUID } from 'node:crypto';
import { readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { readXlsx } from '../helpers/xlsx.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { signedIn, tokenFor } from '../helpers/auth.js';
import { insertAlarmReport } from '../helpers/alarm-reports.js';
import { deviceRow as stockDeviceRow } from '../helpers/customer-rows.js';
import type { DeviceTable } from '../../src/server/db/schema.js';
import { CODE, MSG } from '../../src/shared/messages.js';
import { EXPORT_ID_HEADER, type ExportProgress } from '../../src/shared/schemas/exports.js';
import { WAIT } from '../helpers/wait.js';

const NOW = new Date('2026-11-22T12:00:00.000Z');
const BIG = 50_000; // devices of type 750 (the big export)
let t: TestApp;

const FIXED_DATE = '2026-01-01T00:00:00.000Z';
/** A stock device (the shared test row) with fixed dates, so the file's date cells are known. */
const deviceRow = (serialNumber: string, over: Partial<DeviceTable> = {}) =>
  stockDeviceRow({ serialNumber, dateReceived: FIXED_DATE, lastUpdated: FIXED_DATE, addedToSystem: FIXED_DATE, ...over });

const exportBody = (filter: Record<string, unknown>) => ({ method: 'POST', json: filter }) as const;
const progress = async (token: string, id: string) => (await (await t.request(`/api/v1/export/progress/${id}`, { token })).json()) as ExportProgress;

beforeAll(async () => {
  // One worker and room for one waiting export: the queue limit is reachable with three users.
  t = await createTestApp({ now: () => NOW, exports: { workers: 1, queue: 1 } }, { fileDb: true });
  for (let i = 0; i < BIG; i += 500)
    await t.db
      .insertInto('devices')
      .values(Array.from({ length: Math.min(500, BIG - i) }, (_, k) => deviceRow(`BIG${String(i + k).padStart(6, '0')}`, { type: 750 })))
      .execute();
  await t.db
    .insertInto('devices')
    .values([
      deviceRow('LDN-2', { type: 803, addedToSystem: '2026-01-15T12:00:00.000Z', simSerial: '8944000000000000002' }),
      deviceRow('LDN-1', { type: 803, addedToSystem: '2026-07-01T12:00:00.000Z', lastConfigurationDate: '2026-03-29T00:30:00.000Z' }),
      deviceRow('LDN-3', { type: 620, addedToSystem: '2026-07-01T12:00:00.000Z' }),
    ])
    .execute();
}, 120_000);
afterAll(() => t?.close());

describe('the export pool', () => {
  test('exports run on a worker thread over a database connection of its own', () => {
    expect(t.deps.dbSource).toBeDefined();
  });

  test('another request is answered while a large export runs; a second export of the same user is refused', async () => {
    const token = await tokenFor(t.config, ['SuperAdminRole']);
    const other = await signedIn(t.db, t.config, ['SuperAdminReadonlyRole']);
    const res = await t.request('/api/v1/device/export/list-with-filters', { ...exportBody({ deviceTypeIds: [750] }), token });
    expect(res.status).toBe(200);
    const id = res.headers.get(EXPORT_ID_HEADER)!;
    expect(res.headers.get('x-export-total')).toBe(String(BIG));
    // The download is not read: the worker waits for it, so the export is still running while
    // another user's request is answered.
    const info = await t.request('/api/v1/get-user-info', { token: other.token });
    expect(info.status).toBe(200);
    const during = await progress(token, id);
    expect(during.State).toBe('running');
    expect(during.Total).toBe(BIG);
    expect(during.Written).toBeLessThan(BIG);

    const second = await t.request('/api/v1/customer/export/list-with-filters', { ...exportBody({}), token });
    expect(second.status).toBe(429);
    expect((await second.json()).Content).toEqual({ Message: MSG.exportAlreadyRunning, Code: CODE.exportBusy });

    const [sheet] = await readXlsx(Buffer.from(await res.arrayBuffer()));
    expect(sheet!.data.length - 1).toBe(BIG);
    expect(sheet!.data[1]![0]).toBe('BIG000000');
    expect(sheet!.data[BIG]![0]).toBe(`BIG${String(BIG - 1).padStart(6, '0')}`);
    await vi.waitFor(async () => expect((await progress(token, id)).State).toBe('done'), WAIT);
    expect(await progress(token, id)).toMatchObject({ Written: BIG, Total: BIG, Omitted: 0 });
    // 20 s alone on PostgreSQL on a 2-core machine; over 60 s with the rest of the suite beside it.
  }, 180_000);

  test('a full queue is refused with 429 in the error shape', async () => {
    const a = await tokenFor(t.config, ['SuperAdminRole']);
    const b = await tokenFor(t.config, ['SuperAdminRole']);
    const c = await tokenFor(t.config, ['SuperAdminRole']);
    const running = await t.request('/api/v1/device/export/list-with-filters', { ...exportBody({ deviceTypeIds: [750] }), token: a });
    expect(running.status).toBe(200); // holds the one worker: its download is not read yet
    // The waiting and the refused export are small: only the running one needs to hold the worker.
    const waiting = t.request('/api/v1/device/export/list-with-filters', { ...exportBody({ deviceTypeIds: [803] }), token: b });
    await vi.waitFor(() => expect(t.services.exports.stats().queued).toBe(1), WAIT);
    const refused = await t.request('/api/v1/device/export/list-with-filters', { ...exportBody({ deviceTypeIds: [803] }), token: c });
    expect(refused.status).toBe(429);
    expect((await refused.json()).Content).toEqual({ Message: MSG.exportQueueFull, Code: CODE.exportQueueFull });
    await running.body!.cancel();
    const second = await waiting;
    expect(second.status).toBe(200);
    expect((await readXlsx(Buffer.from(await second.arrayBuffer())))[0]!.data).toHaveLength(3);
  });

  test('a cancelled export stops its worker and leaves no busy task and no temporary file', async () => {
    const before = new Set(readdirSync(tmpdir()));
    const token = await tokenFor(t.config, ['SuperAdminRole']);
    const res = await t.request('/api/v1/device/export/list-with-filters', { ...exportBody({ deviceTypeIds: [750] }), token });
    const id = res.headers.get(EXPORT_ID_HEADER)!;
    const reader = res.body!.getReader();
    expect((await reader.read()).value?.length).toBeGreaterThan(0);
    const cancelled = await t.request(`/api/v1/export/${id}`, { method: 'DELETE', token });
    expect((await cancelled.json()).Content.Message).toBe(MSG.exportCancelled);
    // The download breaks off: it never ends as if the file were whole.
    const drain = async () => {
      for (;;) if ((await reader.read()).done) return 'ended';
    };
    await expect(drain()).rejects.toThrow();
    await vi.waitFor(() => expect(t.services.exports.stats()).toMatchObject({ running: 0, queued: 0, busyTasks: 0 }), WAIT);
    const after = await progress(token, id);
    expect(after.State).toBe('cancelled');
    expect(after.Written).toBeLessThan(BIG);
    expect([...readdirSync(tmpdir())].filter((f) => !before.has(f) && /^(tmp|exceljs)/i.test(f))).toEqual([]);
    // The worker is free: the same user exports again at once.
    const again = await t.request('/api/v1/device/export/list-by-ids', { ...exportBody({ ids: [randomUUID()] }), token });
    expect(again.status).toBe(400);
    expect((await again.json()).Content.Message).toBe(MSG.exportPayloadEmpty);
  });

  test('right after Cancel the same user starts another export (no 429 while the old thread stops)', async () => {
    const token = await tokenFor(t.config, ['SuperAdminRole']);
    const res = await t.request('/api/v1/device/export/list-with-filters', { ...exportBody({ deviceTypeIds: [750] }), token });
    const id = res.headers.get(EXPORT_ID_HEADER)!;
    const cancelled = await t.request(`/api/v1/export/${id}`, { method: 'DELETE', token });
    expect(cancelled.status).toBe(200);
    const next = await t.request('/api/v1/device/export/list-with-filters', { ...exportBody({ deviceTypeIds: [803] }), token });
    expect(next.status).toBe(200);
    expect((await readXlsx(Buffer.from(await next.arrayBuffer())))[0]!.data).toHaveLength(3); // the header and the two devices of type 803
    await res.body!.cancel().catch(() => {});
    await vi.waitFor(() => expect(t.services.exports.stats()).toMatchObject({ running: 0, queued: 0, busyTasks: 0 }), WAIT);
  });

  test('a body that is not an object is refused, never read as no filters', async () => {
    const token = await tokenFor(t.config, ['SuperAdminRole']);
    // the earlier tests' exports finish first (on a loaded machine one may still be writing), so
    // a task left busy below could only come from these refused requests
    for (let i = 0; i < 200 && t.services.exports.stats().busyTasks > 0; i++) await new Promise((r) => setTimeout(r, 50));
    expect(t.services.exports.stats().busyTasks).toBe(0);
    for (const path of [
      '/api/v1/device/export/list-with-filters',
      '/api/v1/customer/export/list-with-filters',
      '/alarm-report/export-list',
      '/api/v1/device/get-list',
    ])
      for (const json of [[{ deviceTypeIds: [750] }], [[1]], 'x', 7]) {
        const res = await t.request(path, { method: 'POST', token, json });
        expect(res.status, `${path} ${JSON.stringify(json)}`).toBe(400);
        expect((await res.json()).Content.Message).toBe(MSG.bodyNotObject);
      }
    expect(t.services.exports.stats().busyTasks).toBe(0);
  });

  test('someone else cannot see or cancel an export', async () => {
    const owner = await tokenFor(t.config, ['SuperAdminRole']);
    const stranger = await tokenFor(t.config, ['SuperAdminRole']);
    const res = await t.request('/api/v1/device/export/list-with-filters', { ...exportBody({ deviceTypeIds: [803] }), token: owner });
    const id = res.headers.get(EXPORT_ID_HEADER)!;
    await res.arrayBuffer();
    expect((await t.request(`/api/v1/export/progress/${id}`, { token: stranger })).status).toBe(404);
    expect((await t.request(`/api/v1/export/${id}`, { method: 'DELETE', token: stranger })).status).toBe(404);
    expect((await progress(owner, id)).State).toBe('done');
  });
});

describe('the file', () => {
  test('devices: the filtered rows in serial order, dates in London time (summer and winter), SIM Serial column', async () => {
    const token = await tokenFor(t.config, ['SuperAdminRole']);
    const res = await t.request('/api/v1/device/export/list-with-filters', { ...exportBody({ deviceTypeIds: [803] }), token });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-disposition')).toBe('attachment; filename="Devices_20261122_120000.xlsx"');
    const [sheet] = await readXlsx(Buffer.from(await res.arrayBuffer()));
    const [header, ...rows] = sheet!.data;
    expect(header).toEqual([
      'Serial Number',
      'IMEI',
      'SIM Serial',
      'Device Type',
      'Status',
      'Customer Account',
      'Order Number',
      'Phone Number',
      'Assigned',
      'Firmware',
      'Last Config (UK time)',
      'Added To System (UK time)',
    ]);
    expect(rows.map((r) => r[0])).toEqual(['LDN-1', 'LDN-2']);
    // A date cell holds a fraction of a day: compared to the second, as a spreadsheet shows it.
    const wall = (x: unknown) => new Date(Math.round((x as Date).getTime() / 1000) * 1000).toISOString();
    // 1 July 12:00 UTC is 13:00 in London (BST); 15 January 12:00 UTC is 12:00 (GMT).
    expect(wall(rows[0]![11])).toBe('2026-07-01T13:00:00.000Z');
    expect(wall(rows[1]![11])).toBe('2026-01-15T12:00:00.000Z');
    // Half an hour before the clocks go forward (01:00 UTC on 29 March 2026) London is still on GMT.
    expect(wall(rows[0]![10])).toBe('2026-03-29T00:30:00.000Z');
    expect(rows[0]![10]).toBeInstanceOf(Date);
    expect(rows[1]![2]).toBe('8944000000000000002');
    expect(rows[1]![10]).toBeNull();
  });

  test('alarm reports: newest first, closed dates in London time', async () => {
    const M = 'London Time Marker Ltd';
    await insertAlarmReport(t.db, { customerAccountFullName: M, alarmClosed: '2026-01-15T12:00:00.000Z', personFullName: 'Winter Person' });
    await insertAlarmReport(t.db, { customerAccountFullName: M, alarmClosed: '2026-07-01T12:00:00.000Z', personFullName: 'Summer Person' });
    const token = await tokenFor(t.config, ['SuperAdminRole']);
    const res = await t.request('/alarm-report/export-list', { ...exportBody({ customerAccountFullName: M, alarmClosedDateRangeOption: 7 }), token });
    expect(res.status).toBe(200);
    const [sheet] = await readXlsx(Buffer.from(await res.arrayBuffer()));
    const [header, ...rows] = sheet!.data;
    expect(header![0]).toBe('Date / Time (UK time)');
    const wall = (x: unknown) => new Date(Math.round((x as Date).getTime() / 1000) * 1000).toISOString();
    expect(rows.map((r) => [r[6], wall(r[0])])).toEqual([
      ['Summer Person', '2026-07-01T13:00:00.000Z'],
      ['Winter Person', '2026-01-15T12:00:00.000Z'],
    ]);
  });
});
