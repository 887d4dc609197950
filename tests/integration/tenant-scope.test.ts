// Tenant scoping in the repositories (src/server/auth/tenant-scope.ts), without HTTP, on SQLite and,
// with TEST_DB=pg, PostgreSQL. The database holds the rows of two customers (A and B, each with its
// own tenant), an unallocated device and provider staff. A caller scoped to customer A's tenant
// reads A's rows only — lists, counts (the kept device counts and alarm statistics hold every
// customer, so these must not answer a scoped caller), exports (the export worker's read path) and
// the palette search — and a row of B asked for by id answers as not found. Unscoped (provider
// staff) the same calls see both customers.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { randomUUID } from 'node:crypto';
import { MessageChannel } from 'node:worker_threads';
import * as v from 'valibot';
import { readXlsx } from '../helpers/xlsx.js';
import { createTestDb, type TestDb } from '../helpers/db.js';
import { insertPerson } from '../helpers/auth.js';
import { insertCustomer, insertDevice } from '../helpers/live.js';
import { insertAlarmReport } from '../helpers/alarm-reports.js';
import { search } from '../helpers/search.js';
import { ALL_TENANTS, tenantScope, type TenantScope } from '../../src/server/auth/tenant-scope.js';
import { PROVIDER_TENANT_ID } from '../../src/shared/tenants.js';
import { P } from '../../src/shared/permissions.js';
import * as devices from '../../src/server/modules/devices/repo.js';
import * as customers from '../../src/server/modules/customers/repo.js';
import { findCustomerByTenant } from '../../src/server/lib/customer-lookups.js';
import * as persons from '../../src/server/modules/persons/repo.js';
import * as alarms from '../../src/server/modules/alarm-reports/repo.js';
import * as live from '../../src/server/modules/live/repo.js';
import '../../src/server/modules/export-definitions.js'; // the modules' export kinds
import { exportTask, type ExportJob, type TaskMessage } from '../../src/server/exports/task.js';
import { deviceListBody, placeholderDevice } from '../../src/shared/schemas/devices.js';
import { customerAdminListQuery, customerListBody } from '../../src/shared/schemas/customers.js';
import { personListQuery } from '../../src/shared/schemas/persons.js';
import { alarmReportExportBody, alarmReportFilterBody, alarmReportListBody, DATE_RANGE, responseTargetsBody } from '../../src/shared/schemas/alarm-reports.js';
import { configurationListBody, lastMessagesBody } from '../../src/shared/schemas/live.js';

const NOW = new Date('2026-11-22T12:00:00.000Z');
let t: TestDb;

const A = {
  tenantId: randomUUID(),
  id: '',
  devices: [] as { id: string; serialNumber: string; imei: string }[],
  persons: [] as string[],
  alarmIds: [] as string[],
  reportIds: [] as string[],
};
const B = {
  tenantId: randomUUID(),
  id: '',
  devices: [] as { id: string; serialNumber: string; imei: string }[],
  persons: [] as string[],
  alarmIds: [] as string[],
  reportIds: [] as string[],
};
let scopeA: TenantScope;
let unallocated: { id: string; serialNumber: string };

async function addMessage(deviceId: string, identity: string, serial: string, date: string) {
  const id = randomUUID();
  await t.db
    .insertInto('deviceMessages')
    .values({
      id,
      deviceId,
      deviceIdentity: identity,
      serial,
      deviceType: 640,
      date,
      message: 'Heartbeat',
      signal: 60,
      battery: 80,
      properties: '{}',
      rawMessage: 'raw',
    })
    .execute();
  await t.db
    .insertInto('deviceLastMessages')
    .values({ deviceId, deviceIdentity: identity, messageId: id, date, message: 'Heartbeat', battery: 80, signal: 60, isConnected: 1, receivedAt: date })
    .execute();
}

beforeAll(async () => {
  t = await createTestDb();
  A.id = (await insertCustomer(t.db, A.tenantId, 'TS Alpha Care')).id;
  B.id = (await insertCustomer(t.db, B.tenantId, 'TS Beta Care')).id;
  let n = 0;
  for (const [c, tag, count] of [
    [A, 'A', 3],
    [B, 'B', 2],
  ] as const) {
    for (let i = 1; i <= count; i++) {
      const imei = `35999900000${String(++n).padStart(4, '0')}`;
      const d = await insertDevice(t.db, { serialNumber: `TSCOPE-${tag}-${i}`, imei, status: 3, customerId: c.id });
      c.devices.push({ id: d.id, serialNumber: d.serialNumber, imei });
      await addMessage(d.id, imei, d.serialNumber, `2026-11-2${i}T08:00:00.000Z`);
    }
    for (let i = 1; i <= count - 1; i++)
      c.persons.push(
        await insertPerson(t.db, { email: `ts-${tag.toLowerCase()}${i}@tenant.test`, roles: ['AdminRole', 'PortalUserRole'], tenantId: c.tenantId }),
      );
    for (let i = 1; i <= count; i++) {
      const alarmId = randomUUID();
      const id = randomUUID();
      await insertAlarmReport(t.db, {
        id,
        alarmId,
        customerId: c.id,
        customerAccountFullName: `TS ${tag} Account`,
        personFullName: `TS Person ${tag}${i}`,
        deviceSerial: `TSCOPE-${tag}-${i}`,
        alarmClosed: `2026-11-${17 + i}T10:00:00.000Z`,
        verificationStartedSeconds: 5 + 10 * i,
      });
      c.alarmIds.push(alarmId);
      c.reportIds.push(id);
    }
  }
  unallocated = await insertDevice(t.db, { serialNumber: 'TSCOPE-FREE-1', status: 1 });
  await insertPerson(t.db, { email: 'ts-staff@provider.test', roles: ['SuperAdminRole'] });
  scopeA = tenantScope({ tenantId: A.tenantId });
}, 60_000);
afterAll(async () => {
  await t?.close();
});

const serialsOf = (c: typeof A) => c.devices.map((d) => d.serialNumber).sort();

test('the scope of a caller: provider staff read every tenant, anyone else their own', () => {
  expect(tenantScope({ tenantId: PROVIDER_TENANT_ID })).toEqual(ALL_TENANTS);
  expect(scopeA).toEqual({ all: false, tenantId: A.tenantId });
});

describe('devices', () => {
  const list = (scope: TenantScope, body: Record<string, unknown> = {}) =>
    devices.listDevices(t.db, scope, v.parse(deviceListBody, { pageSize: 100, ...body }), NOW);

  test('the asset list: own devices only, both counts equal own rows (unfiltered, filtered, searched)', async () => {
    const mine = await list(scopeA);
    expect(mine.devices.map((d) => d.serialNumber).sort()).toEqual(serialsOf(A));
    expect(mine.totalCount).toBe(3);
    expect(mine.generalTotalCount).toBe(3);
    // A filter the kept counts answer for everyone: counted from the caller's rows instead.
    const allocated = await list(scopeA, { statusIds: [3] });
    expect(allocated.devices.map((d) => d.serialNumber).sort()).toEqual(serialsOf(A));
    expect([allocated.totalCount, allocated.generalTotalCount]).toEqual([3, 3]);
    const never = await list(scopeA, { lastConfig: 5 });
    expect([never.devices.length, never.totalCount]).toEqual([3, 3]);
    const searched = await list(scopeA, { searchValue: 'TSCOPE-B' });
    expect([searched.devices.length, searched.totalCount]).toEqual([0, 0]);
    // One customer's list (customers: get-device-list) of another customer: empty.
    const theirs = await devices.listDevices(t.db, scopeA, v.parse(deviceListBody, {}), NOW, B.id);
    expect([theirs.devices.length, theirs.totalCount, theirs.generalTotalCount]).toEqual([0, 0, 0]);
  });

  test('unscoped, the same list holds both customers and the unallocated device', async () => {
    const all = await list(ALL_TENANTS, { searchValue: 'TSCOPE-' });
    expect(all.devices.map((d) => d.serialNumber).sort()).toEqual([...serialsOf(A), ...serialsOf(B), 'TSCOPE-FREE-1'].sort());
    expect(all.totalCount).toBe(6);
  });

  test("lookups: another customer's device (or an unallocated one) answers as unknown", async () => {
    const [a1] = A.devices;
    const [b1] = B.devices;
    expect((await devices.findDeviceById(t.db, scopeA, a1!.id))?.serialNumber).toBe('TSCOPE-A-1');
    expect(await devices.findDeviceById(t.db, scopeA, b1!.id)).toBeUndefined();
    expect(await devices.findDeviceById(t.db, scopeA, unallocated.id)).toBeUndefined();
    expect((await devices.findDeviceById(t.db, ALL_TENANTS, b1!.id))?.serialNumber).toBe('TSCOPE-B-1');
    expect(await devices.findDeviceBySerial(t.db, scopeA, 'tscope-b-1')).toBeUndefined();
    expect(await devices.findDeviceRow(t.db, scopeA, b1!.id)).toBeUndefined();
    expect((await devices.listDevicesByIds(t.db, scopeA, [b1!.id, a1!.id])).map((d) => d.id)).toEqual([a1!.id]);
    const bySerials = await devices.listDevicesBySerials(t.db, scopeA, ['TSCOPE-B-1', 'TSCOPE-A-1']);
    // Another customer's serial reads as an unknown one: the spec's placeholder row.
    expect(bySerials.map((d) => d.id)).toEqual([placeholderDevice('TSCOPE-B-1').id, a1!.id]);
  });

  test('the export read path: total and pages of own devices', async () => {
    const f = v.parse(deviceListBody, {});
    expect(await devices.countFilteredDevices(t.db, scopeA, f, NOW)).toBe(3);
    expect((await devices.deviceExportPage(t.db, scopeA, f, NOW, undefined, null, 100)).map((d) => d.serialNumber)).toEqual(serialsOf(A));
  });
});

describe('customers', () => {
  test('the list, its counts and the export: the own customer only', async () => {
    const body = v.parse(customerListBody, { pageSize: 100 });
    const mine = await customers.listCustomers(t.db, scopeA, body);
    expect(mine.customers.map((c) => c.id)).toEqual([A.id]);
    expect([mine.totalCount, mine.generalTotalCount]).toEqual([1, 1]);
    const searched = await customers.listCustomers(t.db, scopeA, v.parse(customerListBody, { searchValue: 'TS ' }));
    expect([searched.customers.map((c) => c.id), searched.totalCount]).toEqual([[A.id], 1]);
    expect(await customers.countFilteredCustomers(t.db, scopeA, body)).toBe(1);
    expect((await customers.customerExportPage(t.db, scopeA, body, null, 100)).map((c) => c.id)).toEqual([A.id]);
    const all = await customers.listCustomers(t.db, ALL_TENANTS, v.parse(customerListBody, { searchValue: 'TS ' }));
    expect(all.customers.map((c) => c.id).sort()).toEqual([A.id, B.id].sort());
  });

  test('another customer by id: not found; its administrators: none', async () => {
    expect((await customers.findCustomerRow(t.db, scopeA, A.id))?.name).toBe('TS Alpha Care');
    expect(await customers.findCustomerRow(t.db, scopeA, B.id)).toBeUndefined();
    expect((await findCustomerByTenant(t.db, scopeA, A.tenantId))?.id).toBe(A.id);
    expect(await findCustomerByTenant(t.db, scopeA, B.tenantId)).toBeUndefined();
    const q = (tenantId: string) => v.parse(customerAdminListQuery, { TenantId: tenantId, Page: '1', PageSize: '10' });
    expect((await customers.listCustomerAdmins(t.db, scopeA, q(A.tenantId))).TotalCount).toBe(2);
    expect(await customers.listCustomerAdmins(t.db, scopeA, q(B.tenantId))).toEqual({ Items: [], TotalCount: 0 });
    expect((await customers.listCustomerAdmins(t.db, ALL_TENANTS, q(B.tenantId))).TotalCount).toBe(1);
  });
});

describe('persons', () => {
  test('the list and its total: the own tenant only; another tenant by id: not found', async () => {
    const query = v.parse(personListQuery, { page: '1', pageSize: '100' });
    const mine = await persons.listPersons(t.db, scopeA, query);
    expect(mine.Items.map((p) => p.Id).sort()).toEqual([...A.persons].sort());
    expect(mine.TotalCount).toBe(2);
    const all = await persons.listPersons(t.db, ALL_TENANTS, v.parse(personListQuery, { page: '1', pageSize: '100', searchValue: 'ts-' }));
    expect(all.TotalCount).toBe(4);
    expect((await persons.findPerson(t.db, scopeA, A.persons[0]!))?.Person.Id).toBe(A.persons[0]);
    expect(await persons.findPerson(t.db, scopeA, B.persons[0]!)).toBeUndefined();
    expect(await persons.findPersonForUpdate(t.db, scopeA, B.persons[0]!)).toBeUndefined();
  });
});

describe('alarm reports', () => {
  const filter = { alarmClosedDateRangeOption: DATE_RANGE.Last7Days };

  test('the list, the charts and the targets count own reports (not the statistics of every customer)', async () => {
    const body = v.parse(alarmReportListBody, { ...filter, pageSize: 100 });
    // The statistics answer this filter for provider staff: all five reports.
    expect(alarms.statsGrain(body)).not.toBeNull();
    expect((await alarms.listAlarmReports(t.db, ALL_TENANTS, body, NOW)).TotalCount).toBe(5);
    const mine = await alarms.listAlarmReports(t.db, scopeA, body, NOW);
    expect(mine.AlarmReports.map((r) => r.AlarmReportId).sort()).toEqual([...A.reportIds].sort());
    expect(mine.TotalCount).toBe(3);
    const f = v.parse(alarmReportFilterBody, filter);
    expect((await alarms.verificationStarted(t.db, scopeA, f, NOW)).TotalCount).toBe(3);
    expect((await alarms.verificationCompleted(t.db, scopeA, f, NOW)).TotalCount).toBe(3);
    const types = await alarms.verificationTypeTimeFrames(t.db, scopeA, f, NOW);
    expect(
      Object.values(types.TimeFrames)
        .flat()
        .reduce((s, x) => s + x.Count, 0),
    ).toBe(3);
    const targets = await alarms.responseTargets(t.db, scopeA, v.parse(responseTargetsBody, filter), NOW);
    expect(targets.TotalCount).toBe(3);
    expect(targets.Missed.every((m) => A.reportIds.includes(m.AlarmReportId))).toBe(true);
  });

  test("another customer's report by id or alarm id: not found", async () => {
    expect((await alarms.findReportById(t.db, scopeA, A.reportIds[0]!))?.id).toBe(A.reportIds[0]);
    expect(await alarms.findReportById(t.db, scopeA, B.reportIds[0]!)).toBeUndefined();
    expect((await alarms.alarmReportDetails(t.db, scopeA, A.alarmIds[0]!))?.Id).toBe(A.reportIds[0]);
    expect(await alarms.alarmReportDetails(t.db, scopeA, B.alarmIds[0]!)).toBeUndefined();
    expect((await alarms.alarmReportDetails(t.db, ALL_TENANTS, B.alarmIds[0]!))?.Id).toBe(B.reportIds[0]);
  });

  test('the export read path: total and pages of own reports', async () => {
    const b = v.parse(alarmReportExportBody, filter);
    expect(await alarms.countExportRows(t.db, scopeA, b, NOW)).toBe(3);
    expect((await alarms.exportPage(t.db, scopeA, b, NOW, false, null, 100)).map((r) => r.AlarmReportId).sort()).toEqual([...A.reportIds].sort());
  });
});

describe('live devices', () => {
  test("the message stream and a detailed message of another customer's device: nothing", async () => {
    const a = A.devices[0]!;
    const b = B.devices[0]!;
    expect((await live.messageStream(t.db, scopeA, a.imei, undefined, 10)).Items).toHaveLength(1);
    expect((await live.messageStream(t.db, scopeA, b.imei, undefined, 10)).Items).toEqual([]);
    expect((await live.messageStream(t.db, ALL_TENANTS, b.imei, undefined, 10)).Items).toHaveLength(1);
    expect(await live.detailedMessage(t.db, scopeA, b.imei, '2026-11-21T08:00:00.000Z', '')).toBeUndefined();
    expect(await live.detailedMessage(t.db, scopeA, a.imei, '2026-11-21T08:00:00.000Z', '')).toBeDefined();
  });

  test('last messages, configurations, firmware versions and one configuration: own devices only', async () => {
    const identities = [...A.devices, ...B.devices].map((d) => d.imei);
    const last = await live.lastMessages(t.db, scopeA, v.parse(lastMessagesBody, { deviceIdentities: identities, pageSize: 100 }), NOW.getTime());
    expect(last.Items.map((r) => r.SerialNumber).sort()).toEqual(serialsOf(A));
    expect(last.TotalCount).toBe(3);
    expect(
      (await live.lastMessages(t.db, ALL_TENANTS, v.parse(lastMessagesBody, { deviceIdentities: identities, pageSize: 100 }), NOW.getTime())).TotalCount,
    ).toBe(5);
    const serials = [...serialsOf(A), ...serialsOf(B)];
    const cfg = await live.configurationList(t.db, scopeA, v.parse(configurationListBody, { serialNumbers: serials, pageSize: 100 }));
    expect([cfg.Items.map((r) => r.Serial).sort(), cfg.TotalCount]).toEqual([serialsOf(A), 3]);
    expect((await live.firmwareVersions(t.db, scopeA, serials)).Items.map((r) => r.Serial).sort()).toEqual(serialsOf(A));
    expect(await live.deviceConfiguration(t.db, scopeA, { id: B.devices[0]!.id }, NOW.getTime())).toBeUndefined();
    expect(await live.deviceConfiguration(t.db, scopeA, { serial: 'TSCOPE-B-1' }, NOW.getTime())).toBeUndefined();
    expect((await live.deviceConfiguration(t.db, scopeA, { id: A.devices[0]!.id }, NOW.getTime()))?.Serial).toBe('TSCOPE-A-1');
    expect(await live.desiredList(t.db, scopeA, B.devices[0]!.id)).toEqual([]);
  });
});

describe('the export worker', () => {
  /** Runs an export job as a pool worker does (in this thread) and reads the file back. */
  async function runExport(job: ExportJob) {
    const { port1, port2 } = new MessageChannel();
    const chunks: Uint8Array[] = [];
    let total = -1;
    port1.on('message', (m: TaskMessage) => {
      if (m.type === 'start') total = m.total;
      if (m.type === 'data') {
        chunks.push(m.chunk);
        port1.postMessage({ type: 'ack', bytes: m.chunk.byteLength });
      }
    });
    const r = await exportTask(t.db, job, port2, 1000);
    await new Promise((res) => setTimeout(res, 20)); // the last messages reach port1
    port1.close();
    const rows = chunks.length ? (await readXlsx(Buffer.concat(chunks)))[0]!.data.slice(1) : [];
    return { total, written: r.written, rows };
  }

  test('each kind narrows its rows by the scope the job carries', async () => {
    const now = NOW.toISOString();
    const devs = await runExport({ kind: 'devices', filter: v.parse(deviceListBody, {}), now, scope: scopeA });
    expect([devs.total, devs.written]).toEqual([3, 3]);
    expect(devs.rows.map((r) => r[0]).sort()).toEqual(serialsOf(A));
    const ids = await runExport({ kind: 'deviceIds', ids: [...B.devices, ...A.devices].map((d) => d.id), scope: scopeA });
    expect([ids.total, ids.rows.map((r) => r[0])]).toEqual([3, A.devices.map((d) => d.serialNumber)]);
    const custs = await runExport({ kind: 'customers', filter: v.parse(customerListBody, {}), scope: scopeA });
    expect([custs.total, custs.rows.map((r) => r[1])]).toEqual([1, ['TS Alpha Care']]);
    const reports = await runExport({
      kind: 'alarmReports',
      filter: v.parse(alarmReportExportBody, { alarmClosedDateRangeOption: DATE_RANGE.Last7Days }),
      now,
      scope: scopeA,
    });
    expect(reports.total).toBe(3);
    expect(reports.rows.map((r) => r[1])).toEqual(['TS A Account', 'TS A Account', 'TS A Account']);
    // Provider staff: both customers.
    const everyone = await runExport({ kind: 'customers', filter: v.parse(customerListBody, { searchValue: 'TS ' }), scope: ALL_TENANTS });
    expect(everyone.total).toBe(2);
  });
});

describe('palette search', () => {
  const perms = Object.values(P);
  const hitsOf = async (scope: TenantScope) => {
    const r = await search(t.db, { q: 'ts', scope: 'all', limit: 50 }, perms, scope);
    return Object.fromEntries(r.groups.map((g) => [g.kind, g.hits.map((h) => h.id).sort()]));
  };

  test('every group finds the own tenant’s records only', async () => {
    const mine = await hitsOf(scopeA);
    expect(mine.device).toEqual(A.devices.map((d) => d.id).sort());
    expect(mine.customer).toEqual([A.id]);
    expect(mine.person).toEqual([...A.persons].sort());
    expect(mine.alarmReport).toEqual([...A.reportIds].sort());
    const all = await hitsOf(ALL_TENANTS);
    expect(all.device).toHaveLength(6);
    expect(all.customer).toHaveLength(2);
    expect(all.alarmReport).toHaveLength(5);
  });
});

// The compiler makes every caller name a scope: a read without one does not build.
test('reads of tenant data take a scope (type-level)', () => {
  const f = v.parse(deviceListBody, {});
  // @ts-expect-error the scope is required
  void (() => devices.listDevices(t.db, f, NOW));
  // @ts-expect-error the scope is required
  void (() => devices.findDeviceById(t.db, 'id'));
  // @ts-expect-error the scope is required
  void (() => customers.findCustomerRow(t.db, 'id'));
  // @ts-expect-error the scope is required
  void (() => persons.findPerson(t.db, 'id'));
  // @ts-expect-error the scope is required
  void (() => alarms.findReportById(t.db, 'id'));
  // @ts-expect-error the scope is required
  void (() => live.messageStream(t.db, 'identity', undefined, 10));
  // @ts-expect-error an export job carries the scope
  const job: ExportJob = { kind: 'deviceIds', ids: [] };
  expect(job.kind).toBe('deviceIds');
});
