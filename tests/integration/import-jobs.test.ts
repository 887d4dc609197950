// CSV imports as jobs of the export pool (SQLite file, and PostgreSQL with TEST_DB=pg): a large
// device import reports its progress (rows written of total) at the job's progress endpoint, growing
// to the total while it runs, and while its file is parsed the rows read of an estimate; a cancelled import (DELETE, while it writes or while its file is
// parsed) writes nothing and leaves no import busy; a second import of the same user is refused
// with 429; while an import is written (on its own connection) another request that reads the
// database is answered before it ends; the devices-to-allocate import reports its rows the same way.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { randomUUID } from 'node:crypto';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { signedIn, tokenFor } from '../helpers/auth.js';
import { insertCustomer, insertDevice } from '../helpers/live.js';
import { CODE, MSG } from '../../src/shared/messages.js';
import { IMPORT_MAX_ROWS } from '../../src/shared/schemas/devices.js';
import { EXPORT_ID_HEADER, type ExportProgress } from '../../src/shared/schemas/exports.js';

const ROWS = 5000;
let t: TestApp;
beforeAll(async () => {
  // Steps of 50 rows: an import of thousands of rows takes many steps, each a turn of the event loop.
  t = await createTestApp({ exports: { workers: 1, queue: 1, importStep: 50 } }, { fileDb: true });
}, 60_000);
afterAll(() => t?.close());

const csvFile = (text: string) => {
  const fd = new FormData();
  fd.append('File', new File([text], 'devices.csv', { type: 'text/csv' }));
  return fd;
};
const deviceCsv = (prefix: string, n: number) =>
  `SerialNumber,Type\n${Array.from({ length: n }, (_, i) => `${prefix}${String(i).padStart(6, '0')},620`).join('\n')}\n`;
const startImport = (token: string, id: string, prefix: string, n: number) =>
  Promise.resolve(t.request('/api/v1/import/devices', { method: 'POST', token, body: csvFile(deviceCsv(prefix, n)), headers: { [EXPORT_ID_HEADER]: id } }));
const progress = async (token: string, id: string) => {
  const r = await t.request(`/api/v1/export/progress/${id}`, { token });
  return r.status === 200 ? ((await r.json()) as ExportProgress) : undefined;
};
const stored = async (prefix: string) =>
  Number(
    (
      await t.db
        .selectFrom('devices')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('serialNumber', 'like', `${prefix}%`)
        .executeTakeFirstOrThrow()
    ).n,
  );

/** A turn of the event loop: an in-process request is answered in microtasks, and the import needs the loop. */
const turn = () => new Promise((r) => setImmediate(r));

/** Every progress answer of a job seen while `running` has not settled. */
async function watch(token: string, id: string, running: Promise<unknown>): Promise<ExportProgress[]> {
  let settled = false;
  void running.then(
    () => (settled = true),
    () => (settled = true),
  );
  const seen: ExportProgress[] = [];
  while (!settled) {
    const p = await progress(token, id);
    if (p) seen.push(p);
    await turn();
  }
  return seen;
}

/** Polls the job's progress until `reached` holds, keeping every answer in `seen`, and returns that answer. */
async function pollUntil(token: string, id: string, reached: (p: ExportProgress) => boolean, what: string, seen: ExportProgress[] = []) {
  for (;;) {
    const p = await progress(token, id);
    if (p) seen.push(p);
    if (p && reached(p)) return p;
    await turn();
    if (p && p.State !== 'running') throw new Error(`the import ended before it was ${what}: ${JSON.stringify(p)}`);
  }
}

/** Polls until the job has written some rows (its transaction is open). */
const untilWriting = (token: string, id: string) => pollUntil(token, id, (p) => p.Written > 0, 'seen writing');

describe('CSV imports as jobs', () => {
  test('a large device import reports rows written of total, growing to the total; then its answer', async () => {
    const token = await tokenFor(t.config, ['SuperAdminRole']);
    const id = randomUUID();
    const importing = startImport(token, id, 'JOBIMP', ROWS);
    const seen = await watch(token, id, importing);
    const res = await importing;
    const body = await res.json();
    expect(res.status, JSON.stringify(body)).toBe(200);
    expect(body.created).toBe(ROWS);
    expect(res.headers.get(EXPORT_ID_HEADER)).toBe(id);

    const counted = seen.filter((p) => p.Total !== null);
    expect(counted.length).toBeGreaterThan(0);
    expect(counted.every((p) => p.Total === ROWS && p.Id === id)).toBe(true);
    const written = counted.map((p) => p.Written);
    expect(written).toEqual([...written].sort((a, b) => a - b));
    expect(written.some((w) => w > 0 && w < ROWS)).toBe(true);
    expect(await progress(token, id)).toMatchObject({ State: 'done', Written: ROWS, Total: ROWS });
    expect(await stored('JOBIMP')).toBe(ROWS);
    // Another user cannot see the job.
    expect(await progress(await tokenFor(t.config, ['SuperAdminRole']), id)).toBeUndefined();
  }, 120_000);

  test('while its file is parsed the job reports rows read of an estimate, growing, before the count', async () => {
    const token = await tokenFor(t.config, ['SuperAdminRole']);
    const id = randomUUID();
    const rows = Array.from({ length: IMPORT_MAX_ROWS }, (_, i) => `JOBREAD${String(i).padStart(6, '0')};620;07700 900${String(i % 1000).padStart(3, '0')}`);
    const importing = Promise.resolve(
      t.request('/api/v1/import/devices', {
        method: 'POST',
        token,
        body: csvFile(`SerialNumber;Type;PhoneNumber\n${rows.join('\n')}\n`),
        headers: { [EXPORT_ID_HEADER]: id },
      }),
    );
    // Watched until the file is counted; then the import is cancelled, since its writing is what
    // the other tests here are about.
    const seen: ExportProgress[] = [];
    await pollUntil(token, id, (p) => p.Total !== null, 'counted', seen);
    expect((await t.request(`/api/v1/export/${id}`, { method: 'DELETE', token })).status).toBe(200);
    expect((await importing).status).toBe(409);
    expect(await stored('JOBREAD')).toBe(0);
    const reading = seen.filter((p) => p.Total === null && p.Parsed).map((p) => p.Parsed!);
    // Seen while the thread parsed: rows read grow, the estimate is near the file's rows.
    expect(reading.length).toBeGreaterThan(1);
    expect(reading.some((r) => r.Rows > 0 && r.Rows < IMPORT_MAX_ROWS)).toBe(true);
    expect(reading.map((r) => r.Rows)).toEqual(reading.map((r) => r.Rows).sort((a, b) => a - b));
    expect(new Set(reading.map((r) => r.Rows)).size).toBeGreaterThan(1);
    for (const r of reading) expect(Math.abs(r.Estimate - IMPORT_MAX_ROWS)).toBeLessThan(IMPORT_MAX_ROWS * 0.05);
    // Once counted, the bar shows rows written of the total instead.
    expect(seen.filter((p) => p.Total !== null).every((p) => p.Parsed === null)).toBe(true);
  }, 120_000);

  test('while an import is written, another request that reads the database is answered before it ends', async () => {
    const token = await tokenFor(t.config, ['SuperAdminRole']);
    const other = await signedIn(t.db, t.config, ['SuperAdminReadonlyRole']);
    const id = randomUUID();
    const order: string[] = [];
    const importing = startImport(token, id, 'JOBLOOP', IMPORT_MAX_ROWS).then((r) => (order.push('import'), r));
    // Its transaction is open: rows are written but not committed.
    const p = await untilWriting(token, id);
    expect(p.Written).toBeLessThan(IMPORT_MAX_ROWS);
    // The server's connection is not held by the import: a signed-in GET (it reads the person)
    // and a count of the devices are answered while the import still writes.
    const info = await t.request('/api/v1/get-user-info', { token: other.token });
    order.push('get');
    expect(info.status).toBe(200);
    expect(await stored('JOBLOOP')).toBe(0); // the import's rows are not visible before its commit
    expect((await progress(token, id))?.State).toBe('running');
    const res = await importing;
    expect(res.status).toBe(200);
    expect(order).toEqual(['get', 'import']);
    expect(await stored('JOBLOOP')).toBe(IMPORT_MAX_ROWS);
    // The import's audit entry is written with it.
    const entry = await t.db.selectFrom('auditLog').select('details').where('action', '=', 'device.import').orderBy('id', 'desc').executeTakeFirstOrThrow();
    expect(JSON.parse(entry.details)).toEqual({ rows: IMPORT_MAX_ROWS, created: IMPORT_MAX_ROWS });
  }, 120_000);

  test('cancelled while it writes: nothing is written, no import stays busy, the answer says so', async () => {
    const token = await tokenFor(t.config, ['SuperAdminRole']);
    const id = randomUUID();
    const importing = startImport(token, id, 'JOBCAN', IMPORT_MAX_ROWS);
    const p = await untilWriting(token, id);
    expect(p.Total).toBe(IMPORT_MAX_ROWS);
    const del = await t.request(`/api/v1/export/${id}`, { method: 'DELETE', token });
    expect(del.status).toBe(200);
    expect((await del.json()).Content.Message).toBe(MSG.importCancelled);
    const res = await importing;
    expect(res.status).toBe(409);
    expect((await res.json()).Content).toEqual({ Message: MSG.importCancelled, Code: CODE.importCancelled });
    expect(await stored('JOBCAN')).toBe(0);
    expect((await progress(token, id))?.State).toBe('cancelled');
    expect(t.services.exports.stats()).toMatchObject({ imports: 0, importsParsing: 0 });
  }, 120_000);

  test('cancelled while its file is parsed: the thread stops, nothing is written; the next import runs', async () => {
    const token = await tokenFor(t.config, ['SuperAdminRole']);
    const id = randomUUID();
    let answered = false;
    const importing = startImport(token, id, 'JOBPARSE', IMPORT_MAX_ROWS).finally(() => (answered = true));
    while (t.services.exports.stats().importsParsing === 0) {
      if (answered) throw new Error('the import ended before it was seen parsing');
      await new Promise((r) => setTimeout(r, 1));
    }
    expect((await t.request(`/api/v1/export/${id}`, { method: 'DELETE', token })).status).toBe(200);
    const res = await importing;
    expect(res.status).toBe(409);
    expect(await stored('JOBPARSE')).toBe(0);
    expect(t.services.exports.stats()).toMatchObject({ imports: 0, importsParsing: 0 });
    const next = await startImport(token, randomUUID(), 'JOBNEXT', 10);
    expect(next.status).toBe(200);
    expect(await stored('JOBNEXT')).toBe(10);
  }, 120_000);

  test('a second import of the same user is refused with 429 while the first runs', async () => {
    const token = await tokenFor(t.config, ['SuperAdminRole']);
    const id = randomUUID();
    const first = startImport(token, id, 'JOBONE', ROWS);
    while (!(await progress(token, id))) await new Promise((r) => setTimeout(r, 1));
    // (the job is begun before its upload is read, so it is seen at once)
    const second = await startImport(token, randomUUID(), 'JOBTWO', 10);
    expect(second.status).toBe(429);
    expect((await second.json()).Content).toEqual({ Message: MSG.importAlreadyRunning, Code: CODE.importBusy });
    expect((await first).status).toBe(200);
    expect(await stored('JOBTWO')).toBe(0);
  }, 120_000);

  test('the devices-to-allocate import reports the rows looked up of total, then answers every serial', async () => {
    const token = await tokenFor(t.config, ['SuperAdminRole']);
    const customer = await insertCustomer(t.db);
    const known = await insertDevice(t.db, { serialNumber: 'JOBALLOC000007' });
    const serials = Array.from({ length: 3000 }, (_, i) => `JOBALLOC${String(i).padStart(6, '0')}`);
    const id = randomUUID();
    const importing = Promise.resolve(
      t.request(`/api/v1/import/devices-to-allocate/${customer.id}`, {
        method: 'POST',
        token,
        body: csvFile(`SerialNumber\n${serials.join('\n')}\n`),
        headers: { [EXPORT_ID_HEADER]: id },
      }),
    );
    const seen = await watch(token, id, importing);
    const res = await importing;
    const body = await res.json();
    expect(res.status, JSON.stringify(body)).toBe(200);
    expect(body.devices.map((d: { serialNumber: string }) => d.serialNumber)).toEqual(serials);
    expect(body.devices[7].id).toBe(known.id);
    const written = seen.filter((p) => p.Total === serials.length).map((p) => p.Written);
    expect(written.some((w) => w > 0 && w < serials.length)).toBe(true);
    expect(await progress(token, id)).toMatchObject({ State: 'done', Written: serials.length, Total: serials.length });
  }, 120_000);
});
