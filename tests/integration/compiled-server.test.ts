// The compiled server, started as `npm start` starts it (bin/start.mjs over dist/server, no
// TypeScript loader), runs every piece of work that goes to a worker thread: the device, customer's
// devices, customer, alarm and audit exports; the device import, the devices-to-allocate file and the
// alarm report import; a scheduled alarm list and a scheduled management report built with their
// attachments. Each answers what the user would get (a whole .xlsx, the rows imported) and the
// process is still up afterwards. Demo data at a small scale gives every export rows to write.
import { afterAll, beforeAll, expect, test } from 'vitest';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import Database from 'better-sqlite3';
import { serverEnv, startServerProcess, tempDataDir, type ServerProcess } from '../helpers/process.js';
import { loadConfig } from '../../src/server/platform/config.js';
import { tokenFor } from '../helpers/auth.js';
import { IMPORT_SAMPLE } from '../../src/shared/schemas/alarm-report-import.js';
import { EXPORT_TOTAL_HEADER } from '../../src/shared/schemas/exports.js';
import { DEMO_SCHEDULE_IDS } from '../../src/server/seed/schedules.js';

const pg = process.env.TEST_DB === 'pg';
const dir = tempDataDir('compiled-server');
const env = serverEnv(dir, { DEMO_DATA: 'true', SCALE: '0.01', SEED: '7', DEMO_PASSWORD: 'Demo-Passw0rd!', SIMULATOR: 'off', LOG_REQUESTS: 'false' });
let srv: ServerProcess | undefined;
let admin = '';

const file = () => join(dir, 'workspace.sqlite');
function withDb<T>(f: (db: Database.Database) => T): T {
  const db = new Database(file());
  try {
    db.pragma('busy_timeout = 5000');
    return f(db);
  } finally {
    db.close();
  }
}
const call = (path: string, init: { method?: string; json?: unknown; body?: BodyInit; token?: string } = {}) =>
  fetch(`${srv!.url}${path}`, {
    method: init.method ?? (init.json !== undefined || init.body ? 'POST' : 'GET'),
    headers: {
      ...(init.json !== undefined ? { 'Content-Type': 'application/json' } : {}),
      Authorization: `Bearer ${init.token ?? admin}`,
    },
    body: init.json !== undefined ? JSON.stringify(init.json) : init.body,
  });

/** A whole .xlsx: a zip that ends with its central directory. */
async function expectXlsx(res: Response, what: string) {
  expect(res.status, `${what}: ${res.status} ${res.status === 200 ? '' : await res.clone().text()}`).toBe(200);
  expect(Number(res.headers.get(EXPORT_TOTAL_HEADER)), what).toBeGreaterThan(0);
  const bytes = Buffer.from(await res.arrayBuffer());
  expect(bytes.subarray(0, 2).toString('latin1'), what).toBe('PK');
  expect(bytes.includes(Buffer.from([0x50, 0x4b, 0x05, 0x06])), `${what}: end of central directory`).toBe(true);
}
const csvFile = (text: string, name = 'devices.csv') => {
  const fd = new FormData();
  fd.append('File', new File([text], name, { type: 'text/csv' }));
  return fd;
};

beforeAll(async () => {
  if (pg) return;
  srv = await startServerProcess(['bin/start.mjs'], env);
  const id = withDb((db) => (db.prepare('select id from persons where email = ?').get('admin@demo.test') as { id: string }).id);
  admin = await tokenFor(loadConfig(env), ['SuperAdminRole'], { id, email: 'admin@demo.test' });
}, 180_000);
afterAll(async () => {
  if (srv && srv.child.exitCode === null) {
    srv.child.kill('SIGTERM');
    await srv.exited;
  }
  rmSync(dir, { recursive: true, force: true });
});

test.skipIf(pg)('it is the compiled build that runs', () => {
  expect(srv!.output()).toMatch(/Started in \d+ ms \(compiled JavaScript\)/);
});

test.skipIf(pg)('every export is written on a worker thread and downloads whole', async () => {
  await expectXlsx(await call('/api/v1/device/export/list-with-filters', { json: {} }), 'devices');
  await expectXlsx(await call('/api/v1/customer/export/list-with-filters', { json: {} }), 'customers');
  const customer = withDb(
    (db) =>
      db.prepare('select customerId as id from devices where customerId is not null group by customerId order by count(*) desc limit 1').get() as {
        id: string;
      },
  );
  await expectXlsx(await call(`/api/v1/customer/export/device-list/${customer.id}`, { json: {} }), "a customer's devices");
  await expectXlsx(await call('/alarm-report/export-list', { json: { alarmClosedDateRangeOption: 7 } }), 'alarm reports');
  await expectXlsx(await call('/ps-admin/audit/export-list', { json: {} }), 'audit trail');
  expect((await fetch(`${srv!.url}/health`)).status).toBe(200);
});

test.skipIf(pg)('the CSV imports are parsed and written on worker threads', async () => {
  const prefix = `CS${Date.now().toString().slice(-6)}`;
  const serials = Array.from({ length: 20 }, (_, i) => `${prefix}${String(i).padStart(4, '0')}`);
  const imported = await call('/api/v1/import/devices', { body: csvFile(`SerialNumber,Type\n${serials.map((s) => `${s},620`).join('\n')}\n`) });
  expect(imported.status, await imported.clone().text()).toBe(200);
  expect(withDb((db) => (db.prepare('select count(*) as n from devices where serialNumber like ?').get(`${prefix}%`) as { n: number }).n)).toBe(20);

  const customer = withDb((db) => db.prepare('select id from customers order by id limit 1').get() as { id: string });
  const allocated = await call(`/api/v1/import/devices-to-allocate/${customer.id}`, { body: csvFile(`SerialNumber\n${serials.slice(0, 5).join('\n')}\n`) });
  expect(allocated.status, await allocated.clone().text()).toBe(200);
  // the file's serials, looked up for the allocation dialog
  const found = ((await allocated.json()) as { devices: { serialNumber?: string; SerialNumber?: string }[] }).devices;
  expect(found.map((d) => d.serialNumber ?? d.SerialNumber).sort()).toEqual(serials.slice(0, 5));

  const alarmId = randomUUID();
  const report = await call('/alarm-report/import', { json: { AlarmReports: [{ ...IMPORT_SAMPLE, AlarmId: alarmId, CustomerId: customer.id }] } });
  expect(report.status, await report.clone().text()).toBe(200);
  expect(withDb((db) => db.prepare('select count(*) as n from alarmReports where alarmId = ?').get(alarmId) as { n: number }).n).toBe(1);
});

test.skipIf(pg)(
  'a scheduled alarm list and a scheduled management report fall due and are built with their files',
  async () => {
    // Stop, make the demo schedule and a management report schedule due, start again: the
    // scheduler's first look (at start) builds both.
    srv!.child.kill('SIGTERM');
    expect(await srv!.exited).toBe(0);
    const past = new Date(Date.now() - 60_000).toISOString();
    const managementId = randomUUID();
    withDb((db) => {
      db.prepare("update features set isEnabled = 1 where name in ('ScheduledReports', 'ExportManagementReportPDF')").run();
      const demo = db.prepare('select * from reportSchedules where id = ?').get(DEMO_SCHEDULE_IDS[1]) as Record<string, unknown>;
      expect(demo).toBeTruthy();
      db.prepare('update reportSchedules set nextDueAt = ? where id = ?').run(past, DEMO_SCHEDULE_IDS[1]);
      const cols = Object.keys(demo);
      const row = {
        ...demo,
        id: managementId,
        name: 'Monthly management',
        report: 'managementReport',
        frequency: 'monthly',
        dayOfWeek: null,
        dayOfMonth: 1,
        nextDueAt: past,
      };
      db.prepare(`insert into reportSchedules (${cols.join(', ')}) values (${cols.map((c) => `@${c}`).join(', ')})`).run(row);
    });
    srv = await startServerProcess(['bin/start.mjs'], env);
    const runs = async () =>
      withDb((db) =>
        db.prepare('select scheduleId, state, rows, error from reportScheduleRuns where scheduleId in (?, ?)').all(DEMO_SCHEDULE_IDS[1], managementId),
      ) as {
        scheduleId: string;
        state: string;
        rows: number | null;
        error: string | null;
      }[];
    await expect.poll(async () => (await runs()).filter((r) => r.state !== 'running').length, { timeout: 60_000, interval: 250 }).toBe(2);
    for (const r of await runs()) expect(r, JSON.stringify(r)).toMatchObject({ state: 'queued', error: null });
    expect((await runs()).find((r) => r.scheduleId === DEMO_SCHEDULE_IDS[1])!.rows).toBeGreaterThan(0);
    // both files went to the outbox as attachments
    const files = withDb(
      (db) =>
        db
          .prepare('select distinct a.fileName, length(a.content) as size from outbox o join outboxAttachments a on a.id = o.attachmentId where o.ref like ?')
          .all('scheduleRun:%') as { fileName: string; size: number }[],
    );
    expect(files.length).toBeGreaterThanOrEqual(2);
    for (const f of files) expect(f.size, f.fileName).toBeGreaterThan(1000);
    expect((await fetch(`${srv!.url}/health`)).status).toBe(200);
  },
  180_000,
);
