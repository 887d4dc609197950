// Next / Previous by the edge row's sort key (`after` / `before`) and jumps to any page answer the
// same rows as numbered pages, on SQLite and on PostgreSQL (TEST_DB=pg): a property test over
// random data (ties and missing values included), random filters and every sort, walking Next to
// the end and Previous back to the start, and jumping to each page, each page compared with the
// slice of the whole selection read as one page.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import fc from 'fast-check';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { insertPerson, tokenFor } from '../helpers/auth.js';
import { ROLE_IDS } from '../../src/shared/permissions.js';
import { CUSTOMER_ORDER_BY, type CustomerList } from '../../src/shared/schemas/customers.js';
import { PERSON_ORDER_BY } from '../../src/shared/schemas/persons.js';
import { insertDevice } from '../helpers/live.js';
import { insertCustomer } from '../helpers/customers.js';
import { insertAlarmReport } from '../helpers/alarm-reports.js';
import { ALARM_TYPES, ASSET_STATUSES, DEVICE_TYPES, TIER_TYPES, VERIFICATION_CATEGORIES, VERIFICATION_TYPES } from '../../src/shared/codes.js';
import { ALARM_REPORT_SORT_BY, type AlarmReportList } from '../../src/shared/schemas/alarm-reports.js';
import { DEVICE_ORDER_BY, type DeviceList } from '../../src/shared/schemas/devices.js';

const NOW = new Date('2026-11-01T12:00:00.000Z');
const DAY = 86_400_000;
const TYPES = [3, 10, 15, 20];
const STATUSES = ASSET_STATUSES.map((s) => s.Value);

let t: TestApp;
let admin: string;

function rng(seed: number) {
  let x = seed;
  return () => (x = (x * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
}
const pick = <T>(r: () => number, xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!;
/** A value from a few (ties), or missing. */
const someOf = (r: () => number, xs: readonly string[], missing = 0.25) => (r() < missing ? null : pick(r, xs));

/**
 * Walks a list of `total` rows by pages of `size`: Next from page 1 to the last, Previous back to
 * page 1, and a jump to every page; each page must be the slice of `whole`.
 */
async function walk<R>(whole: R[], size: number, read: (page: number, edge: { after?: string; before?: string }) => Promise<R[]>, idOf: (r: R) => string) {
  const pages = Math.max(1, Math.ceil(whole.length / size));
  const expected = (p: number) => whole.slice((p - 1) * size, p * size).map(idOf);
  let rows = await read(1, {});
  expect(rows.map(idOf)).toEqual(expected(1));
  for (let p = 2; p <= pages; p++) {
    rows = await read(p, { after: idOf(rows.at(-1)!) });
    expect(rows.map(idOf), `Next to page ${p}`).toEqual(expected(p));
  }
  for (let p = pages - 1; p >= 1; p--) {
    rows = await read(p, { before: idOf(rows[0]!) });
    expect(rows.map(idOf), `Previous to page ${p}`).toEqual(expected(p));
  }
  for (let p = 1; p <= pages + 1; p++) expect((await read(p, {})).map(idOf), `jump to page ${p}`).toEqual(expected(p));
}

/** The rows after (before) an edge row follow it whatever page number comes with it: the edge is read, not an offset. */
async function expectEdgeRead<R>(whole: R[], read: (page: number, edge: { after?: string; before?: string }) => Promise<R[]>, idOf: (r: R) => string) {
  expect(whole.length).toBeGreaterThan(30);
  expect((await read(99, { after: idOf(whole[4]!) })).map(idOf)).toEqual(whole.slice(5, 15).map(idOf));
  expect((await read(99, { before: idOf(whole[25]!) })).map(idOf)).toEqual(whole.slice(15, 25).map(idOf));
}

describe('device list', () => {
  beforeAll(async () => {
    t = await createTestApp({ now: () => NOW });
    admin = await tokenFor(t.config, ['SuperAdminRole']);
    const r = rng(7);
    const customers = [];
    for (const name of ['Acme', 'acme', 'Beta', 'Zed']) customers.push((await insertCustomer(t.db, { name })).id);
    for (let i = 0; i < 90; i++) {
      const age = someOf(r, ['0.5', '3', '20', '45', '300']);
      const customerId = r() < 0.5 ? pick(r, customers) : null;
      await insertDevice(t.db, {
        id: `dev-${String(i).padStart(3, '0')}-0000-4000-8000-000000000000`,
        serialNumber: `K${pick(r, ['A', 'b', 'C'])}-${String(Math.floor(r() * 1000)).padStart(4, '0')}-${i}`,
        type: pick(r, TYPES),
        status: customerId ? 4 : pick(r, STATUSES),
        customerId,
        isUserAssigned: r() < 0.4 ? 1 : 0,
        imei: someOf(r, ['35000', '35001', '35002']),
        simSerial: someOf(r, ['8944a', '8944B', '8944c']),
        phoneNumber: someOf(r, ['+447700900001', '+447700900002']),
        orderNumber: someOf(r, ['PO-1', 'PO-2', 'po-3']),
        lastConfigurationDate: age === null ? null : new Date(NOW.getTime() - Number(age) * DAY).toISOString(),
        addedToSystem: new Date(NOW.getTime() - Math.floor(r() * 5) * DAY).toISOString(),
      });
    }
  });
  afterAll(() => t.close());

  const list = async (body: Record<string, unknown>) => {
    const res = await t.request('/api/v1/device/get-list', { token: admin, json: body });
    expect(res.status).toBe(200);
    return (await res.json()) as DeviceList;
  };

  test('Next, Previous and jumps answer the numbered pages, for every sort and filter', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.record({
          deviceTypeIds: fc.subarray(TYPES, { maxLength: 2 }),
          statusIds: fc.subarray(STATUSES, { maxLength: 3 }),
          assigned: fc.constantFrom(null, true, false),
          lastConfig: fc.constantFrom(0, 0, 3, 4, 5),
          searchValue: fc.constantFrom('', '', '', '35001', '00900002'),
          orderBy: fc.constantFrom(...DEVICE_ORDER_BY),
          desc: fc.boolean(),
        }),
        fc.constantFrom(10, 25),
        async (filter, pageSize) => {
          const whole = (await list({ ...filter, page: 1, pageSize: 100 })).devices;
          const total = (await list({ ...filter, page: 1, pageSize: 10 })).totalCount;
          expect(whole.length).toBe(total);
          if (total > 30 && pageSize === 10)
            await expectEdgeRead(
              whole,
              async (page, edge) => (await list({ ...filter, page, pageSize, ...edge })).devices,
              (d) => d.id,
            );
          await walk(
            whole,
            pageSize,
            async (page, edge) => (await list({ ...filter, page, pageSize, ...edge })).devices,
            (d) => d.id,
          );
        },
      ),
      { numRuns: 40 },
    );
  }, 300_000);

  test('a search for repeated characters finds every device whose serial, IMEI or phone holds them, and only those', async () => {
    const runs = [
      { serialNumber: 'RUN-1111111', imei: null, phoneNumber: null },
      { serialNumber: 'RUN-A', imei: '351111111102345', phoneNumber: null },
      { serialNumber: 'RUN-B', imei: '351111110234567', phoneNumber: '+44 7711 111111' },
      { serialNumber: 'RUN-C', imei: '352111111111111', phoneNumber: null },
      { serialNumber: 'RUN-D1111-11', imei: '351111', phoneNumber: '07700 911111' },
    ];
    for (const [i, d] of runs.entries()) await insertDevice(t.db, { id: `run-${i}-0000-4000-8000-000000000000`, ...d });
    const found = async (searchValue: string) => (await list({ searchValue, pageSize: 100 })).devices.map((d) => d.serialNumber).sort();
    expect(await found('1111111')).toEqual(['RUN-1111111', 'RUN-A', 'RUN-B', 'RUN-C']);
    expect(await found('11111111')).toEqual(['RUN-A', 'RUN-B', 'RUN-C']);
    expect(await found('7711111111')).toEqual(['RUN-B']);
    expect(await found('d1111-11')).toEqual(['RUN-D1111-11']);
    await t.db.deleteFrom('devices').where('id', 'like', 'run-%').execute();
  });

  test('an edge row the caller cannot see, or that does not exist, answers the numbered page', async () => {
    const whole = (await list({ page: 1, pageSize: 100 })).devices;
    await expectEdgeRead(
      whole,
      async (page, edge) => (await list({ page, pageSize: 10, ...edge })).devices,
      (d) => d.id,
    );
    const page2 = (await list({ page: 2, pageSize: 10, after: 'no-such-device' })).devices;
    expect(page2.map((d) => d.id)).toEqual(whole.slice(10, 20).map((d) => d.id));
    const back = (await list({ page: 3, pageSize: 10, before: 'no-such-device' })).devices;
    expect(back.map((d) => d.id)).toEqual(whole.slice(20, 30).map((d) => d.id));
  });
});

describe('alarm report list', () => {
  let a: TestApp;
  let token: string;
  const codes = (list: readonly { Value: number }[], n: number) => list.slice(0, n).map((x) => x.Value);
  beforeAll(async () => {
    a = await createTestApp({ now: () => NOW });
    token = await tokenFor(a.config, ['SuperAdminRole']);
    const r = rng(11);
    for (let i = 0; i < 90; i++) {
      const closed = new Date(NOW.getTime() - Math.floor(r() * 6) * DAY - 3600_000).toISOString();
      await insertAlarmReport(a.db, {
        id: `rep-${String(i).padStart(3, '0')}-0000-4000-8000-000000000000`,
        alarmId: `ALM-${pick(r, ['a', 'B', 'c'])}-${i}`,
        alarmClosed: closed,
        alarmStarted: closed,
        tier: r() < 0.3 ? null : pick(r, codes(TIER_TYPES, 4)),
        alarmType: pick(r, codes(ALARM_TYPES, 4)),
        verificationType: pick(r, codes(VERIFICATION_TYPES, 3)),
        verificationCategory: pick(r, codes(VERIFICATION_CATEGORIES, 3)),
        personFullName: pick(r, ['Ann Lee', 'ann lee', 'Bob Roe', 'Zoë Ng']),
        customerAccountFullName: pick(r, ['Acme Care', 'acme care', 'Beta Ltd']),
        deviceType: r() < 0.3 ? null : pick(r, codes(DEVICE_TYPES, 4)),
        deviceSerial: `SER-${pick(r, ['1', '2'])}-${i}`,
        arcControllerFullName: someOf(r, ['Carl', 'carl', 'Dana']),
      });
    }
  });
  afterAll(() => a.close());

  const list = async (body: Record<string, unknown>) => {
    const res = await a.request('/alarm-report/get-list', { token, json: body });
    expect(res.status).toBe(200);
    return (await res.json()) as AlarmReportList;
  };

  test('Next, Previous and jumps answer the numbered pages, for every sort and filter', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.record({
          alarmClosedDateRangeOption: fc.constantFrom(2, 7),
          alarmTypes: fc.subarray(codes(ALARM_TYPES, 4), { maxLength: 2 }),
          alarmVerificationTypes: fc.subarray(codes(VERIFICATION_TYPES, 3), { maxLength: 2 }),
          tierTypes: fc.subarray(codes(TIER_TYPES, 4), { maxLength: 2 }),
          searchValue: fc.constantFrom('', '', '', 'ann', 'SER-1', 'acme'),
          personFullName: fc.constantFrom('', '', 'lee'),
          sortBy: fc.constantFrom(...ALARM_REPORT_SORT_BY),
          sortDescending: fc.boolean(),
        }),
        fc.constantFrom(10, 25),
        async (filter, pageSize) => {
          const answer = await list({ ...filter, page: 1, pageSize: 100 });
          expect(answer.AlarmReports.length).toBe(answer.TotalCount);
          if (answer.TotalCount > 30 && pageSize === 10)
            await expectEdgeRead(
              answer.AlarmReports,
              async (page, edge) => (await list({ ...filter, page, pageSize, ...edge })).AlarmReports,
              (x) => x.AlarmReportId,
            );
          await walk(
            answer.AlarmReports,
            pageSize,
            async (page, edge) => (await list({ ...filter, page, pageSize, ...edge })).AlarmReports,
            (x) => x.AlarmReportId,
          );
        },
      ),
      { numRuns: 50 },
    );
  }, 300_000);
});

describe('customer and user lists', () => {
  let a: TestApp;
  let token: string;
  beforeAll(async () => {
    a = await createTestApp({ now: () => NOW });
    token = await tokenFor(a.config, ['SuperAdminRole']);
    const r = rng(13);
    for (let i = 0; i < 90; i++) {
      await insertCustomer(a.db, {
        id: `cus-${String(i).padStart(3, '0')}-0000-4000-8000-000000000000`,
        name: `${pick(r, ['Acme', 'acme', 'Beta', 'Zed'])} ${pick(r, ['Care', 'Ltd'])}`,
        portalId: someOf(r, ['7', '42', '100', '1000']),
        tier: r() < 0.3 ? null : pick(r, [1, 2, 3, 4]),
        status: r() < 0.3 ? null : pick(r, [1, 2, 3, 4]),
        isMigratedAccount: r() < 0.5 ? 1 : 0,
      });
      const id = await insertPerson(a.db, {
        email: `p${i}-${pick(r, ['a', 'b'])}@example.test`,
        firstName: pick(r, ['Ann', 'ann', 'Bob', 'Émile']),
        lastName: pick(r, ['Lee', 'Roe', 'lee']),
        roles: [pick(r, ['ArcManagerRole', 'SuperAdminRole', 'SuperAdminReadonlyRole'] as const)],
      });
      const login = someOf(r, ['2026-10-01T00:00:00.000Z', '2026-10-02T00:00:00.000Z']);
      if (login) await a.db.updateTable('persons').set({ lastLoginDate: login }).where('id', '=', id).execute();
    }
  });
  afterAll(() => a.close());

  const customers = async (body: Record<string, unknown>) => {
    const res = await a.request('/api/v1/customer/get-list', { token, json: body });
    expect(res.status).toBe(200);
    return (await res.json()) as CustomerList;
  };
  const persons = async (query: Record<string, string | number | boolean | undefined>) => {
    const qs = new URLSearchParams(Object.entries(query).flatMap(([k, v]) => (v === undefined ? [] : [[k, String(v)]])));
    const res = await a.request(`/ps-admin/persons/get-list?${qs}`, { token });
    expect(res.status).toBe(200);
    return (await res.json()) as { Items: { Id: string }[]; TotalCount: number };
  };

  test('customers: Next, Previous and jumps answer the numbered pages, for every sort and filter', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.record({
          searchValue: fc.constantFrom('', '', 'acme', '10'),
          tierIds: fc.subarray([1, 2, 3, 4], { maxLength: 2 }),
          statusIds: fc.subarray([1, 2, 3, 4], { maxLength: 2 }),
          migratedOnly: fc.boolean(),
          orderBy: fc.constantFrom(...CUSTOMER_ORDER_BY),
          desc: fc.boolean(),
        }),
        fc.constantFrom(10, 25),
        async (filter, pageSize) => {
          const answer = await customers({ ...filter, page: 1, pageSize: 100 });
          expect(answer.customers.length).toBe(answer.totalCount);
          if (answer.totalCount > 30 && pageSize === 10)
            await expectEdgeRead(
              answer.customers,
              async (page, edge) => (await customers({ ...filter, page, pageSize, ...edge })).customers,
              (c) => c.id,
            );
          await walk(
            answer.customers,
            pageSize,
            async (page, edge) => (await customers({ ...filter, page, pageSize, ...edge })).customers,
            (c) => c.id,
          );
        },
      ),
      { numRuns: 40 },
    );
  }, 300_000);

  test('users: Next, Previous and jumps answer the numbered pages, for every sort and search', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.record({
          searchValue: fc.constantFrom('', '', 'ann', 'lee'),
          orderBy: fc.constantFrom(...PERSON_ORDER_BY),
          desc: fc.boolean(),
          sortRoleId: fc.constantFrom(undefined, undefined, ROLE_IDS.ArcManagerRole, ROLE_IDS.SuperAdminRole),
        }),
        fc.constantFrom(10, 25),
        async (filter, pageSize) => {
          const answer = await persons({ ...filter, page: 1, pageSize: 100 });
          expect(answer.Items.length).toBe(answer.TotalCount);
          if (answer.TotalCount > 30 && pageSize === 10)
            await expectEdgeRead(
              answer.Items,
              async (page, edge) => (await persons({ ...filter, page, pageSize, ...edge })).Items,
              (p) => p.Id,
            );
          await walk(
            answer.Items,
            pageSize,
            async (page, edge) => (await persons({ ...filter, page, pageSize, ...edge })).Items,
            (p) => p.Id,
          );
        },
      ),
      { numRuns: 40 },
    );
  }, 300_000);
});
