// A failing worker thread never takes the process down (SQLite file, so exports and imports run on
// real threads): an export or import whose thread throws, runs out of memory, exits, or cannot load
// its module is answered 500 in the API's error shape, its job reads 'failed', the failure is logged
// with the job's id and counted on /metrics; /health stays 200 and the next export succeeds.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { randomUUID } from 'node:crypto';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { tokenFor } from '../helpers/auth.js';
import { deviceRow } from '../helpers/customer-rows.js';
import { tempDataDir } from '../helpers/process.js';
import { FAULT, IMPORT_FAULT } from '../fixtures/faulty-worker.js';
import { CODE, MSG } from '../../src/shared/messages.js';
import { EXPORT_ID_HEADER, type ExportProgress } from '../../src/shared/schemas/exports.js';

const METRICS_TOKEN = 'worker-failure-metrics-token';
const faultyWorker = new URL('../fixtures/faulty-worker.ts', import.meta.url).href;
const realWorker = new URL('../../src/server/modules/export-worker.ts', import.meta.url).href;

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ metricsToken: METRICS_TOKEN, exports: { workers: 1, queue: 2, workerFile: faultyWorker } }, { fileDb: true });
  await t.db
    .insertInto('devices')
    .values(Array.from({ length: 20 }, (_, i) => deviceRow({ serialNumber: `WF${String(i).padStart(4, '0')}`, type: 620 })))
    .execute();
}, 60_000);
afterAll(() => t?.close());

/** export_worker_failures_total{pool, kind} as /metrics shows it. */
async function failures(app: TestApp, pool: string, kind: string) {
  const text = await (await app.request('/metrics', { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })).text();
  const line = text.split('\n').find((l) => l.startsWith(`export_worker_failures_total{pool="${pool}",kind="${kind}"}`));
  return line ? Number(line.split(' ').at(-1)) : 0;
}

const exportDevices = (app: TestApp, token: string, filter: Record<string, unknown>, id = randomUUID()) =>
  app.request('/api/v1/device/export/list-with-filters', { method: 'POST', json: filter, token, headers: { [EXPORT_ID_HEADER]: id } });
const progress = async (app: TestApp, token: string, id: string) =>
  (await (await app.request(`/api/v1/export/progress/${id}`, { token })).json()) as ExportProgress;

/** The app still serves: /health 200, and an export of the same user runs to its file. */
async function stillServes(app: TestApp, token: string) {
  expect((await app.request('/health')).status).toBe(200);
  const res = await exportDevices(app, token, { deviceTypeIds: [620] });
  expect(res.status).toBe(200);
  expect(res.headers.get('x-export-total')).toBe('20');
  expect((await res.arrayBuffer()).byteLength).toBeGreaterThan(0);
}

describe('an export whose worker thread fails', () => {
  for (const [how, code, kind] of [
    ['throws', CODE.internal, 'error'],
    ['runs out of memory', CODE.workerFailed, 'out_of_memory'],
    ['exits', CODE.workerFailed, 'exit'],
  ] as const) {
    test(`${how}: 500 in the error shape, the job failed, logged with its id, counted; the next export runs`, async () => {
      const token = await tokenFor(t.config, ['SuperAdminRole']);
      const before = await failures(t, 'export', kind);
      const id = randomUUID();
      const marker = kind === 'error' ? FAULT.throw : kind === 'out_of_memory' ? FAULT.outOfMemory : FAULT.exit;
      const res = await exportDevices(t, token, { orderNumber: marker }, id);
      expect(res.status).toBe(500);
      expect((await res.json()).Content).toEqual({ Message: MSG.deviceExportFailed, Code: code });
      expect((await progress(t, token, id)).State).toBe('failed');
      expect(t.logs).toContainEqual(expect.objectContaining({ msg: 'worker task failed', pool: 'export', job: id, kind }));
      expect(await failures(t, 'export', kind)).toBe(before + 1);
      await stillServes(t, token);
    }, 60_000);
  }
});

describe('an import whose worker thread fails', () => {
  const csv = (marker: string) => {
    const fd = new FormData();
    fd.append('File', new File([`SerialNumber,Type\n${marker},620\n`], 'devices.csv', { type: 'text/csv' }));
    return fd;
  };
  for (const [how, marker, kind] of [
    ['throws', IMPORT_FAULT.throw, 'error'],
    ['exits', IMPORT_FAULT.exit, 'exit'],
  ] as const) {
    test(`${how}: answered in the error shape, the job failed, counted; nothing imported; the next import runs`, async () => {
      const token = await tokenFor(t.config, ['SuperAdminRole']);
      const before = await failures(t, 'import', kind);
      const id = randomUUID();
      const res = await t.request('/api/v1/import/devices', { method: 'POST', token, body: csv(marker), headers: { [EXPORT_ID_HEADER]: id } });
      expect(res.status).toBe(500);
      expect((await res.json()).Content).toEqual(
        kind === 'exit' ? { Message: MSG.importFailed, Code: CODE.workerFailed } : { Message: MSG.default, Code: CODE.internal },
      );
      expect((await progress(t, token, id)).State).toBe('failed');
      expect(t.logs).toContainEqual(expect.objectContaining({ msg: 'worker task failed', pool: 'import', job: id, kind }));
      expect(await failures(t, 'import', kind)).toBe(before + 1);
      expect(await t.db.selectFrom('devices').select('id').where('serialNumber', '=', marker).execute()).toEqual([]);
      expect((await t.request('/health')).status).toBe(200);
      const serial = `WFOK${randomUUID().slice(0, 6)}`;
      const ok = await t.request('/api/v1/import/devices', { method: 'POST', token, body: csv(serial) });
      expect(ok.status).toBe(200);
      expect(await t.db.selectFrom('devices').select('id').where('serialNumber', '=', serial).execute()).toHaveLength(1);
    }, 60_000);
  }
});

describe('worker threads that cannot load their module', () => {
  const dir = tempDataDir('worker-missing');
  const file = join(dir, 'worker.mjs');
  let m: TestApp;
  beforeAll(async () => {
    m = await createTestApp({ metricsToken: METRICS_TOKEN, exports: { workers: 1, queue: 2, workerFile: pathToFileURL(file).href } }, { fileDb: true });
    await m.db
      .insertInto('devices')
      .values(Array.from({ length: 20 }, (_, i) => deviceRow({ serialNumber: `WM${String(i).padStart(4, '0')}`, type: 620 })))
      .execute();
  }, 60_000);
  afterAll(async () => {
    await m?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test('the export is answered 500 worker_failed and counted; once the module is there the pool starts threads again', async () => {
    const token = await tokenFor(m.config, ['SuperAdminRole']);
    const before = await failures(m, 'export', 'load');
    const id = randomUUID();
    const res = await exportDevices(m, token, { deviceTypeIds: [620] }, id);
    expect(res.status).toBe(500);
    expect((await res.json()).Content).toEqual({ Message: MSG.deviceExportFailed, Code: CODE.workerFailed });
    expect((await progress(m, token, id)).State).toBe('failed');
    expect(m.logs).toContainEqual(expect.objectContaining({ msg: 'worker thread failed', pool: 'export', kind: 'load' }));
    expect(m.logs).toContainEqual(expect.objectContaining({ msg: 'worker task failed', pool: 'export', job: id, kind: 'load' }));
    expect(await failures(m, 'export', 'load')).toBe(before + 1);
    expect((await m.request('/health')).status).toBe(200);
    // Piscina starts no more threads for a pool whose threads failed to load: the pool was replaced,
    // so a module that loads now serves the next export.
    writeFileSync(file, `export { default, parseImport, writeImport } from ${JSON.stringify(realWorker)};\n`);
    await stillServes(m, token);
  }, 60_000);
});
