// The bulk tabs' CSV downloads (CurrentConfiguration, TestingConfiguration) as jobs of the export
// pool (SQLite file, and PostgreSQL with TEST_DB=pg), read two rows a page here: the file holds the
// list's rows in the list's order (the same filter and sort as the screen's list), every date as
// London text (a summer and a winter one), and the job's progress ends at its total.
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { tokenFor } from '../helpers/auth.js';
import { insertDevice } from '../helpers/live.js';
import { EXPORT_ID_HEADER, EXPORT_TOTAL_HEADER, type ExportProgress } from '../../src/shared/schemas/exports.js';
import { WAIT } from '../helpers/wait.js';

const NOW = new Date('2026-11-22T12:00:00.000Z');
const SUMMER = '2026-07-01T12:05:09.000Z'; // 13:05:09 in London (BST)
const WINTER = '2026-01-15T12:05:09.000Z'; // 12:05:09 in London (GMT)
const serials = Array.from({ length: 7 }, (_, i) => `CSVPG-${String(i + 1).padStart(2, '0')}`);
let t: TestApp;
let token: string;

beforeAll(async () => {
  // Two rows a page: seven devices take four pages.
  t = await createTestApp({ now: () => NOW, exports: { workers: 1, queue: 2, csvPage: 2 } }, { fileDb: true });
  token = await tokenFor(t.config, ['SuperAdminRole']);
  for (const [i, serialNumber] of serials.entries()) {
    const d = await insertDevice(t.db, { serialNumber, type: 640 });
    if (i >= 5) continue; // the last two have no configuration and no message
    const when = i % 2 ? WINTER : SUMMER;
    const minute = 60_000 * i; // distinct dates, so the order by date is known
    const at = new Date(new Date(when).getTime() + minute).toISOString();
    await t.db
      .insertInto('deviceConfigurations')
      .values({
        deviceId: d.id,
        isConnected: 1,
        lastUpdated: at,
        isTracking: i % 2,
        trackingSeconds: 900,
        isFallDetection: 0,
        fallDetectionSettings: null,
        firmwareVersion: '4.3.1',
        sosButton: 1,
        call1Type: null,
        call1Number: null,
        call2Type: null,
        call2Number: null,
        primaryEndPoint: null,
        secondaryEndPoint: null,
        smsBackup: 0,
        etag: '"c"',
      })
      .execute();
    await t.db
      .insertInto('deviceLastMessages')
      .values({
        deviceId: d.id,
        deviceIdentity: serialNumber,
        messageId: `m-${i}`,
        date: at,
        message: `Heartbeat ${i}`,
        battery: 50 + i,
        signal: 40 + i,
        isConnected: 1,
        receivedAt: at,
      })
      .execute();
  }
}, 60_000);
afterAll(() => t?.close());

const london = (iso: string, plusMinutes: number, summer: boolean) => {
  const d = new Date(new Date(iso).getTime() + plusMinutes * 60_000 + (summer ? 3_600_000 : 0));
  const p = (n: number) => String(n).padStart(2, '0');
  return `${p(d.getUTCDate())}/${p(d.getUTCMonth() + 1)}/${d.getUTCFullYear()} ${p(d.getUTCHours())}:${p(d.getUTCMinutes())}:${p(d.getUTCSeconds())}`;
};
/** The London text of device i's dates. */
const dateOf = (i: number) => (i >= 5 ? '' : i % 2 ? london(WINTER, i, false) : london(SUMMER, i, true));
const indexOf = (serial: string) => serials.indexOf(serial);

async function download(path: string, json: unknown) {
  const res = await t.request(path, { method: 'POST', token, json });
  expect(res.status).toBe(200);
  const id = res.headers.get(EXPORT_ID_HEADER)!;
  expect(id).toBeTruthy();
  const text = new TextDecoder('utf-8', { ignoreBOM: true }).decode(await res.arrayBuffer());
  expect(text.startsWith('\uFEFF')).toBe(true);
  const lines = text.slice(1).split('\r\n');
  return { res, id, header: lines[0]!, rows: lines.slice(1).map((l) => l.split(',')) };
}
const progress = async (id: string) => (await (await t.request(`/api/v1/export/progress/${id}`, { token })).json()) as ExportProgress;

describe('configuration CSVs read a page at a time', () => {
  test('CurrentConfiguration: the list’s rows in its order (last updated, newest first), London dates, over several pages', async () => {
    // Unknown and repeated serials (another case) are left out once, as the list does.
    const filter = { serialNumbers: [...serials].reverse().concat(['NOPE-1', 'csvpg-03']), orderBy: 'LastUpdated', desc: true };
    const list = await (await t.request('/ps-admin/devices/get-configurations', { method: 'POST', token, json: { ...filter, pageSize: 100 } })).json();
    const { res, id, header, rows } = await download('/ps-admin/devices/download-configurations-csv', filter);
    expect(header).toBe('Serial Number,Device Type,Tracking,Fall Detection,Call 1 Type,Call 2 Type,Last Updated (UK time)');
    expect(res.headers.get(EXPORT_TOTAL_HEADER)).toBe(String(serials.length));
    const inList = list.Items.map((r: { Serial: string }) => r.Serial);
    expect(inList).toHaveLength(serials.length);
    expect(rows.map((r) => r[0])).toEqual(inList);
    // Newest first, summer before winter; the two without a configuration last (by serial, in the list's direction).
    expect(rows.map((r) => r[0])).toEqual(['CSVPG-05', 'CSVPG-03', 'CSVPG-01', 'CSVPG-04', 'CSVPG-02', 'CSVPG-07', 'CSVPG-06']);
    for (const r of rows) expect(r[6], r[0]).toBe(dateOf(indexOf(r[0]!)));
    expect(rows[0]).toEqual(['CSVPG-05', 'SG640', 'Off', 'Off', '-', '-', '01/07/2026 13:09:09']);
    expect(rows[3]).toEqual(['CSVPG-04', 'SG640', 'On - 15 minutes', 'Off', '-', '-', '15/01/2026 12:08:09']);
    expect(rows[6]).toEqual(['CSVPG-06', 'SG640', 'No configuration for this device', '', '', '', '']);
    await vi.waitFor(async () => expect(await progress(id)).toMatchObject({ State: 'done', Written: serials.length, Total: serials.length }), WAIT);
  });

  test('TestingConfiguration: the list’s rows in its order (date, oldest first), London dates, over several pages', async () => {
    const filter = { deviceIdentities: serials, orderBy: 'Date', desc: false };
    const list = await (await t.request('/devices/get-last-messages', { method: 'POST', token, json: { ...filter, pageSize: 100 } })).json();
    const { id, header, rows } = await download('/devices/download-last-messages-csv', filter);
    expect(header).toBe('Serial Number,Device Type,Date (UK time),Message,Battery,Signal,Connected');
    expect(rows.map((r) => r[0])).toEqual(list.Items.map((r: { SerialNumber: string }) => r.SerialNumber));
    expect(rows.map((r) => r[0])).toEqual(['CSVPG-02', 'CSVPG-04', 'CSVPG-01', 'CSVPG-03', 'CSVPG-05', 'CSVPG-06', 'CSVPG-07']);
    for (const r of rows) expect(r[2], r[0]).toBe(dateOf(indexOf(r[0]!)));
    expect(rows[0]).toEqual(['CSVPG-02', 'SG640', '15/01/2026 12:06:09', 'Heartbeat 1', '51', '41', 'No']);
    expect(rows[6]).toEqual(['CSVPG-07', 'SG640', '', 'No communication received from this device', '', '', 'No']);
    await vi.waitFor(async () => expect(await progress(id)).toMatchObject({ State: 'done', Written: serials.length, Total: serials.length }), WAIT);
  });

  test('a filter keeps the matching rows only', async () => {
    const { rows } = await download('/ps-admin/devices/download-configurations-csv', { serialNumbers: serials, tracking: true });
    expect(rows.map((r) => r[0])).toEqual(['CSVPG-02', 'CSVPG-04']);
  });
});
