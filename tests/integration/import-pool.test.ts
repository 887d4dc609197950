// CSV import parsing runs on the pool's import threads (SQLite file, and PostgreSQL with
// TEST_DB=pg): while a 20,000-row device import is being parsed on a thread, another user's request
// is answered; the import then stores every device.
// A refused file answers the same per-row message from the thread.
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { signedIn, tokenFor } from '../helpers/auth.js';
import { DEVICE_TEXT, IMPORT_MAX_ROWS } from '../../src/shared/schemas/devices.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ exports: { workers: 1, queue: 1 } }, { fileDb: true });
}, 60_000);
afterAll(() => t?.close());

const csvFile = (text: string) => {
  const fd = new FormData();
  fd.append('File', new File([text], 'devices.csv', { type: 'text/csv' }));
  return fd;
};

describe('import parsing on the pool', () => {
  test('another request is answered while a 20,000-row import is parsed on a thread; every row is stored', async () => {
    const token = await tokenFor(t.config, ['SuperAdminRole']);
    const other = await signedIn(t.db, t.config, ['SuperAdminReadonlyRole']);
    const rows = Array.from({ length: IMPORT_MAX_ROWS }, (_, i) => `POOLIMP${String(i).padStart(6, '0')};620;07700 900${String(i % 1000).padStart(3, '0')}`);
    const order: string[] = [];
    const importing = Promise.resolve(
      t.request('/api/v1/import/devices', { method: 'POST', token, body: csvFile(`SerialNumber;Type;PhoneNumber\n${rows.join('\n')}\n`) }),
    ).then((r) => (order.push('import'), r));
    // The request loop has handed the bytes to a thread: it is free for other users.
    await vi.waitFor(() => expect(t.services.exports.stats().importsParsing).toBe(1), { timeout: 30_000 });
    const info = await t.request('/api/v1/get-user-info', { token: other.token });
    order.push('info');
    expect(info.status).toBe(200);
    const res = await importing;
    expect(order).toEqual(['info', 'import']);
    const body = await res.json();
    expect(res.status, JSON.stringify(body)).toBe(200);
    expect(body.created).toBe(IMPORT_MAX_ROWS);
    expect(t.services.exports.stats().importThreads).toBeGreaterThanOrEqual(1);
    const stored = await t.db
      .selectFrom('devices')
      .select(['serialNumber', 'phoneNumber'])
      .where('serialNumber', '=', 'POOLIMP000007')
      .executeTakeFirstOrThrow();
    expect(stored.phoneNumber).toMatch(/^\+?44/);
    const n = await t.db
      .selectFrom('devices')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('serialNumber', 'like', 'POOLIMP%')
      .executeTakeFirstOrThrow();
    expect(Number(n.n)).toBe(IMPORT_MAX_ROWS);
  }, 120_000);

  test('a refused file answers the same per-row message from the thread', async () => {
    const token = await tokenFor(t.config, ['SuperAdminRole']);
    const res = await t.request('/api/v1/import/devices', { method: 'POST', token, body: csvFile('SerialNumber,Type\nOK-1,620\nBAD-1,999\n') });
    expect(res.status).toBe(400);
    const body = await res.json();
    expect(body.Content.Message).toBe(DEVICE_TEXT.importRow(3, DEVICE_TEXT.unknownType));
    expect(await t.db.selectFrom('devices').select('id').where('serialNumber', '=', 'OK-1').executeTakeFirst()).toBeUndefined();
  });
});
