// GET /api/search (palette record search) against SQLite (FTS5 trigram + B-tree prefix ranges)
// and, with TEST_DB=pg, PostgreSQL (pg_trgm + C-collated prefix indexes).
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { randomUUID } from 'node:crypto';
import SQLite from 'better-sqlite3';
import { Kysely, SqliteDialect, sql, type CompiledQuery } from 'kysely';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { signedIn } from '../helpers/auth.js';
import { createTestDb } from '../helpers/db.js';
import { at, first } from '../helpers/lists.js';
import type { Insertable } from 'kysely';
import type { AlarmReportTable, Database, DeviceTable, PersonTable } from '../../src/server/db/schema.js';
import type { DB } from '../../src/server/db/index.js';
import { migrateToLatest } from '../../src/server/db/migrations.js';
import { m002, sqlitePhoneKey } from '../../src/server/db/migrations/002-search.js';
import { m029 } from '../../src/server/db/migrations/029-device-search-runs.js';
import { m040 } from '../../src/server/db/migrations/040-list-search-keys.js';
import { phoneKey, prefixEnd, queryPhoneKey } from '../../src/server/lib/search-keys.js';
import { search } from '../helpers/search.js';
import { customerRow } from '../helpers/customer-rows.js';
import { optimizeSearchIndex, rebuildSearchIndex } from '../../src/server/modules/search/maintenance.js';
import { SEARCH_MESSAGES, type SearchResponse } from '../../src/shared/schemas/search.js';

// ---- fixtures

const iso = (daysAgo: number) => new Date(Date.UTC(2025, 5, 1) - daysAgo * 86_400_000).toISOString();

function deviceRow(over: {
  serialNumber: string;
  imei?: string | null;
  phoneNumber?: string | null;
  customerId?: string | null;
  type?: number;
  addedDaysAgo?: number;
  id?: string;
}): Insertable<DeviceTable> {
  const at = iso(over.addedDaysAgo ?? 10);
  return {
    id: over.id ?? randomUUID(),
    serialNumber: over.serialNumber,
    imei: over.imei ?? null,
    imsi: null,
    type: over.type ?? 620,
    phoneNumber: over.phoneNumber ?? null,
    simPhoneNumber: null,
    simSerial: null,
    simTypeId: null,
    simStatus: null,
    supplier: null,
    status: 1,
    customerId: over.customerId ?? null,
    orderNumber: null,
    isUserAssigned: 0,
    assignedPersonId: null,
    firmwareVersion: null,
    lastConfigurationDate: null,
    dateReceived: null,
    lastUpdated: at,
    addedToSystem: at,
    etag: '"e"',
  };
}
function personRow(over: { firstName: string; lastName: string; email: string; id?: string }): Insertable<PersonTable> {
  const now = iso(0);
  return {
    id: over.id ?? randomUUID(),
    tenantId: randomUUID(),
    firstName: over.firstName,
    lastName: over.lastName,
    email: over.email.toLowerCase(),
    passwordHash: null,
    isLocked: 0,
    failedAttempts: 0,
    lastLoginDate: null,
    personStatus: 1,
    loginMethod: 1,
    twoFactorType: null,
    twoFactorPhone: null,
    phoneNumbers: '[]',
    profile: '{}',
    searchText: `${over.firstName} ${over.lastName} ${over.email}`.toLowerCase(),
    etag: '"e"',
    createdAt: now,
    updatedAt: now,
  };
}
function alarmRow(over: {
  alarmId: string;
  personFullName: string;
  customerAccountFullName: string;
  closedDaysAgo: number;
  customerId?: string | null;
  id?: string;
}): Insertable<AlarmReportTable> {
  const closed = iso(over.closedDaysAgo);
  return {
    id: over.id ?? randomUUID(),
    alarmId: over.alarmId,
    customerId: over.customerId ?? null,
    customerAccountFullName: over.customerAccountFullName,
    tier: 2,
    alarmType: 1,
    verificationType: 1,
    verificationCategory: 1,
    personId: null,
    personFullName: over.personFullName,
    deviceType: null,
    deviceSerial: null,
    arcControllerId: null,
    arcControllerFullName: null,
    alarmStarted: closed,
    alarmClosed: closed,
    verificationStartedSeconds: 5,
    verificationCompletedSeconds: 100,
    escalationPlanFollowed: 0,
    incomingCallPhoneNumber: null,
    location: '{}',
    profileSnapshot: '{}',
    etag: '"e"',
  };
}

const FIRST = ['Oliver', 'Amelia', 'George', 'Isla', 'Harry', 'Ava', 'Noah', 'Mia', 'Jack', 'Ivy'];
const LAST = ['Taylor', 'Brown', 'Wilson', 'Evans', 'Thomas', 'Roberts', 'Walker', 'Wright', 'Green', 'Hall'];

const ids = {
  acme: randomUUID(),
  zetaCustomer: randomUUID(),
  dExact: randomUUID(),
  dPrefix: randomUUID(),
  dSub: randomUUID(),
  dPhone: randomUUID(),
  dZeta: randomUUID(),
  pZeta: randomUUID(),
  pMira: randomUUID(),
  aZetaOld: randomUUID(),
  aZetaNew: randomUUID(),
};

async function insertFixtures(db: DB) {
  const customers = [
    customerRow({ id: ids.acme, name: 'Acme Security Ltd', portalId: '700123', tier: 3, status: 1 }),
    customerRow({ id: ids.zetaCustomer, name: 'Zetaworks Care', portalId: '700999' }),
  ];
  for (let i = 0; i < 40; i++)
    customers.push(customerRow({ name: `${LAST[i % 10]} ${['Holdings', 'Services', 'Group', 'Partners'][i % 4]} ${i}`, portalId: String(500000 + i) }));
  await db.insertInto('customers').values(customers).execute();

  const devices = [
    deviceRow({ id: ids.dExact, serialNumber: 'AB1234', imei: '359000000000001', customerId: ids.acme, type: 620, addedDaysAgo: 5 }),
    deviceRow({ id: ids.dPrefix, serialNumber: 'AB12345', imei: '359000000000002', addedDaysAgo: 4 }),
    deviceRow({ id: ids.dSub, serialNumber: 'XAB1234', imei: '359000000000003', addedDaysAgo: 3 }),
    deviceRow({ id: ids.dPhone, serialNumber: 'PH-0001', imei: '351234567890123', phoneNumber: '+44 7700 900123', addedDaysAgo: 2 }),
    deviceRow({ id: ids.dZeta, serialNumber: 'ZETA-77', imei: '359000000000077', addedDaysAgo: 1 }),
  ];
  for (let i = 0; i < 300; i++)
    devices.push(
      deviceRow({
        serialNumber: `SG620-${String(i).padStart(6, '0')}`,
        imei: `35${String(7000000000000 + i * 7919)}`,
        phoneNumber: `07${String(800000000 + i * 37)}`,
        customerId: i % 3 === 0 ? ids.acme : null,
        addedDaysAgo: 300 - i,
      }),
    );
  for (let i = 0; i < devices.length; i += 100)
    await db
      .insertInto('devices')
      .values(devices.slice(i, i + 100))
      .execute();

  const persons = [
    personRow({ id: ids.pZeta, firstName: 'Zeta', lastName: 'Jones', email: 'zeta.jones@example.test' }),
    personRow({ id: ids.pMira, firstName: 'Mira', lastName: 'Okafor', email: 'm.okafor@example.test' }),
  ];
  for (let i = 0; i < 100; i++)
    persons.push(personRow({ firstName: at(FIRST, i % 10), lastName: at(LAST, Math.floor(i / 10)), email: `user${i}@example.test` }));
  await db.insertInto('persons').values(persons).execute();

  const alarms = [
    alarmRow({ id: ids.aZetaOld, alarmId: '9100001', personFullName: 'Zeta Jones', customerAccountFullName: 'Zetaworks Care', closedDaysAgo: 50 }),
    alarmRow({ id: ids.aZetaNew, alarmId: '9100002', personFullName: 'Zeta Jones', customerAccountFullName: 'Zetaworks Care', closedDaysAgo: 2 }),
  ];
  for (let i = 0; i < 120; i++)
    alarms.push(
      alarmRow({
        alarmId: String(8000000 + i),
        personFullName: `${FIRST[i % 10]} ${LAST[(i * 3) % 10]}`,
        customerAccountFullName: i % 2 ? 'Acme Security Ltd' : `${LAST[i % 10]} Group ${i}`,
        closedDaysAgo: 200 - i,
      }),
    );
  await db.insertInto('alarmReports').values(alarms).execute();
}

// ---- the app

let t: TestApp;
let admin: string;
let readonly: string;
let controller: string;
let portal: string;

beforeAll(async () => {
  t = await createTestApp();
  await insertFixtures(t.db);
  admin = (await signedIn(t.db, t.config, ['SuperAdminRole'])).token;
  readonly = (await signedIn(t.db, t.config, ['SuperAdminReadonlyRole'])).token;
  controller = (await signedIn(t.db, t.config, ['ArcControllerRole'])).token;
  portal = (await signedIn(t.db, t.config, ['PortalUserRole'])).token;
}, 60_000);
afterAll(async () => {
  await t?.close();
});

async function find(q: string, opts: { token?: string; scope?: string; limit?: number } = {}) {
  const p = new URLSearchParams({ q });
  if (opts.scope) p.set('scope', opts.scope);
  if (opts.limit !== undefined) p.set('limit', String(opts.limit));
  const res = await t.request(`/api/search?${p}`, { token: opts.token ?? admin });
  expect(res.status).toBe(200);
  return (await res.json()) as SearchResponse;
}
const group = (r: SearchResponse, kind: string) => r.groups.find((g) => g.kind === kind);
const titles = (r: SearchResponse, kind: string) => group(r, kind)?.hits.map((h) => h.title) ?? [];

describe('devices', () => {
  test('serial exact, then prefix, then substring; case-insensitive', async () => {
    const r = await find('ab1234');
    const g = group(r, 'device')!;
    expect(g.label).toBe('Devices');
    expect(g.hits.map((h) => h.title)).toEqual(['AB1234', 'AB12345', 'XAB1234']);
    expect(g.hits.map((h) => h.matched)).toEqual(['serial', 'serial', 'serial']);
    const scores = g.hits.map((h) => h.score);
    const [exact, prefix, sub] = [at(scores, 0), at(scores, 1), at(scores, 2)];
    expect(exact).toBeGreaterThan(prefix);
    expect(prefix).toBeGreaterThan(sub);
    expect(exact).toBeGreaterThanOrEqual(3);
    expect(prefix).toBeGreaterThanOrEqual(2);
    expect(prefix).toBeLessThan(3);
    expect(sub).toBeLessThan(2);
    // hit shape: href to the client route; subtitle type · customer · IMEI
    expect(g.hits[0]).toEqual({
      id: ids.dExact,
      kind: 'device',
      title: 'AB1234',
      subtitle: 'SG620 · Acme Security Ltd · 359000000000001',
      href: `/asset-management/${ids.dExact}`,
      score: exact,
      matched: 'serial',
    });
  });

  test('serial prefix fills the page from the index (1-2 character queries too)', async () => {
    const r = await find('SG620-00010', { limit: 50 });
    // same tier, same length: the most recently added first
    expect(titles(r, 'device')).toEqual(Array.from({ length: 10 }, (_, i) => `SG620-00010${9 - i}`));
    const short = await find('sg', { scope: 'devices' });
    expect(titles(short, 'device')).toHaveLength(8);
    expect(titles(short, 'device').every((s) => s.startsWith('SG'))).toBe(true);
    const one = await find('x', { scope: 'devices' });
    expect(titles(one, 'device')).toEqual(['XAB1234']);
  });

  test('serial substring (trigram) finds the middle of a serial', async () => {
    const r = await find('g620-00029', { scope: 'devices', limit: 50 });
    expect(titles(r, 'device').sort()).toEqual(Array.from({ length: 10 }, (_, i) => `SG620-00029${i}`));
    expect(group(r, 'device')!.hits.every((h) => h.score < 2)).toBe(true);
  });

  test('IMEI exact and fragment', async () => {
    let r = await find('351234567890123');
    expect(group(r, 'device')!.hits[0]).toMatchObject({ id: ids.dPhone, matched: 'imei' });
    expect(first(group(r, 'device')!.hits).score).toBeGreaterThanOrEqual(3);
    r = await find('4567890', { scope: 'devices' });
    expect(group(r, 'device')!.hits.map((h) => [h.id, h.matched])).toContainEqual([ids.dPhone, 'imei']);
  });

  test('phone ignores spaces and +44 / 0 prefixes', async () => {
    for (const q of ['07700900123', '+447700900123', '+44 7700 900123', '0044 7700 900 123', '447700900123']) {
      const r = await find(q, { scope: 'devices' });
      const hit = group(r, 'device')?.hits[0];
      expect(hit, q).toMatchObject({ id: ids.dPhone, matched: 'phone' });
      expect(hit!.score, q).toBeGreaterThanOrEqual(3);
    }
    const prefix = await find('07700 900', { scope: 'devices' });
    expect(group(prefix, 'device')!.hits[0]).toMatchObject({ id: ids.dPhone, matched: 'phone' });
    expect(first(group(prefix, 'device')!.hits).score).toBeLessThan(3);
    const sub = await find('900123', { scope: 'devices' });
    expect(group(sub, 'device')!.hits.map((h) => h.id)).toContain(ids.dPhone);
  });
});

describe('customers, persons, alarm reports', () => {
  test('customer by name and by reference', async () => {
    let r = await find('acme sec');
    expect(group(r, 'customer')!.hits[0]).toEqual({
      id: ids.acme,
      kind: 'customer',
      title: 'Acme Security Ltd',
      subtitle: '700123 · Gold · Active',
      href: `/customers/${ids.acme}/account`,
      score: first(group(r, 'customer')!.hits).score,
      matched: 'name',
    });
    r = await find('700123');
    expect(group(r, 'customer')!.hits[0]).toMatchObject({ id: ids.acme, matched: 'reference' });
    r = await find('security', { scope: 'customers' });
    expect(titles(r, 'customer')).toEqual(['Acme Security Ltd']);
  });

  test('person by name and by e-mail', async () => {
    let r = await find('mira okafor');
    expect(group(r, 'person')!.hits[0]).toEqual({
      id: ids.pMira,
      kind: 'person',
      title: 'Mira Okafor',
      subtitle: 'm.okafor@example.test',
      href: `/persons/edit/${ids.pMira}`,
      score: first(group(r, 'person')!.hits).score,
      matched: 'name',
    });
    r = await find('okafor');
    expect(group(r, 'person')!.hits[0]).toMatchObject({ id: ids.pMira, matched: 'name' });
    r = await find('M.OKAFOR@');
    expect(group(r, 'person')!.hits[0]).toMatchObject({ id: ids.pMira, matched: 'email' });
    r = await find('kafor@exam');
    expect(group(r, 'person')!.hits.map((h) => h.id)).toEqual([ids.pMira]);
  });

  test('alarm report by alarm id, person and account; newest first', async () => {
    let r = await find('9100002');
    const a = group(r, 'alarmReport')!;
    expect(a.label).toBe('Alarm reports');
    // titled by person, alarm type and closed date (UK time), never by an id alone
    expect(a.hits[0]).toMatchObject({
      id: ids.aZetaNew,
      kind: 'alarmReport',
      title: 'Zeta Jones · SOS Button · 30 May 25 01:00:00',
      subtitle: 'Alarm 9100002 · Zetaworks Care',
      href: '/alarm-reports/9100002',
      matched: 'alarmId',
    });
    r = await find('zeta jones', { scope: 'alarmReports' });
    expect(group(r, 'alarmReport')!.hits.map((h) => [h.id, h.matched])).toEqual([
      [ids.aZetaNew, 'person'],
      [ids.aZetaOld, 'person'],
    ]);
    r = await find('zetaworks', { scope: 'alarmReports' });
    expect(group(r, 'alarmReport')!.hits.map((h) => [h.id, h.matched])).toEqual([
      [ids.aZetaNew, 'account'],
      [ids.aZetaOld, 'account'],
    ]);
    r = await find('works care', { scope: 'alarmReports' });
    expect(group(r, 'alarmReport')!.hits.map((h) => h.id)).toEqual([ids.aZetaNew, ids.aZetaOld]);
  });

  test('alarm report titles: person · alarm type · the alarm date format (22 Nov 26 21:47:05) in UK time (GMT and BST)', async () => {
    const winter = randomUUID();
    const summer = randomUUID();
    await t.db
      .insertInto('alarmReports')
      .values([
        {
          ...alarmRow({ id: winter, alarmId: '9200001', personFullName: 'Quinn Harlow', customerAccountFullName: 'Harlow Logistics', closedDaysAgo: 0 }),
          alarmType: 2,
          alarmClosed: '2026-01-12T14:05:00.000Z',
        },
        {
          ...alarmRow({ id: summer, alarmId: '9200002', personFullName: 'Quinn Harlow', customerAccountFullName: 'Harlow Logistics', closedDaysAgo: 0 }),
          alarmType: 3,
          alarmClosed: '2026-03-31T23:30:00.000Z',
        },
      ])
      .execute();
    try {
      const hits = group(await find('quinn harlow', { scope: 'alarmReports' }), 'alarmReport')!.hits;
      expect(hits.map((h) => [h.id, h.title, h.subtitle])).toEqual([
        [summer, 'Quinn Harlow · Missed Check-in · 01 Apr 26 00:30:00', 'Alarm 9200002 · Harlow Logistics'],
        [winter, 'Quinn Harlow · Fall Detected · 12 Jan 26 14:05:00', 'Alarm 9200001 · Harlow Logistics'],
      ]);
      for (const h of hits) expect(h.title).not.toMatch(/[0-9a-f]{8}-[0-9a-f]{4}-/);
    } finally {
      await t.db.deleteFrom('alarmReports').where('id', 'in', [winter, summer]).execute();
    }
  });

  test('groups are ordered by their best hit; empty groups are omitted', async () => {
    const r = await find('zeta');
    // prefix 'Zeta' of 'Zeta Jones' (person, name) > … ; every kind has a hit
    expect(r.query).toBe('zeta');
    expect(r.groups.map((g) => g.kind).sort()).toEqual(['alarmReport', 'customer', 'device', 'person']);
    const best = r.groups.map((g) => first(g.hits).score);
    expect([...best].sort((x, y) => y - x)).toEqual(best);
    const only = await find('okafor');
    expect(only.groups.map((g) => g.kind)).toEqual(['person']);
  });
});

describe('parameters and permissions', () => {
  test('scope narrows to one kind', async () => {
    for (const [scope, kind] of [
      ['devices', 'device'],
      ['customers', 'customer'],
      ['persons', 'person'],
      ['alarmReports', 'alarmReport'],
    ]) {
      const r = await find('zeta', { scope });
      expect(r.groups.map((g) => g.kind)).toEqual([kind]);
    }
  });

  test('limit caps hits per group (default 8)', async () => {
    expect(titles(await find('sg620'), 'device')).toHaveLength(8);
    expect(titles(await find('sg620', { limit: 3 }), 'device')).toHaveLength(3);
    expect(titles(await find('sg620', { limit: 50 }), 'device')).toHaveLength(50);
  });

  test('empty or blank q gives no groups', async () => {
    expect(await find('')).toEqual({ query: '', groups: [] });
    expect(await find('   ')).toEqual({ query: '', groups: [] });
    const res = await t.request('/api/search', { token: admin });
    expect(await res.json()).toEqual({ query: '', groups: [] });
    expect((await find('qqqqqq')).groups).toEqual([]);
  });

  test('bad input is a 400 with Content.Message', async () => {
    const cases: [string, string][] = [
      ['q=a&limit=0', SEARCH_MESSAGES.limit],
      ['q=a&limit=51', SEARCH_MESSAGES.limit],
      ['q=a&limit=two', SEARCH_MESSAGES.limit],
      ['q=a&scope=bogus', SEARCH_MESSAGES.scope],
      [`q=${'x'.repeat(101)}`, SEARCH_MESSAGES.queryTooLong],
    ];
    for (const [qs, msg] of cases) {
      const res = await t.request(`/api/search?${qs}`, { token: admin });
      expect(res.status, qs).toBe(400);
      expect(((await res.json()) as { Content: { Message: string } }).Content.Message, qs).toBe(msg);
    }
    // 100 characters (after trimming) is fine
    const ok = await t.request(`/api/search?q=${encodeURIComponent(`  ${'x'.repeat(100)}  `)}`, { token: admin });
    expect(ok.status).toBe(200);
  });

  test('quotes, wildcards and FTS syntax in q are plain text', async () => {
    for (const q of [
      '"',
      'a"b',
      '""""',
      '*',
      'ab*',
      '(x)',
      'NEAR(a b)',
      'zeta OR',
      '^ab',
      '-ab',
      '%',
      '_',
      '\\',
      "o'brien",
      'a:b',
      '{serial}: x',
      'ü€😀',
      '\u{10ffff}',
    ]) {
      const r = await find(q);
      expect(r.query, q).toBe(q);
    }
    // LIKE wildcards are not wildcards: '%' matches nothing here, '_' matches no device
    expect((await find('%')).groups).toEqual([]);
    expect(group(await find('ab_234'), 'device')).toBeUndefined();
    // the FTS5 column-filter syntax is searched literally
    expect((await find('serial : ab1234')).groups).toEqual([]);
  });

  test('signed-out is 401', async () => {
    expect((await t.request('/api/search?q=zeta')).status).toBe(401);
  });

  test('results are filtered to what the caller may list', async () => {
    const arc = await find('zeta', { token: controller });
    expect(arc.groups.map((g) => g.kind)).toEqual(['alarmReport']);
    expect((await find('ab1234', { token: controller })).groups).toEqual([]);
    expect((await find('zeta', { token: controller, scope: 'devices' })).groups).toEqual([]);
    const ro = await find('zeta', { token: readonly });
    expect(ro.groups.map((g) => g.kind).sort()).toEqual(['alarmReport', 'customer', 'device', 'person']);
    // no list permission at all: empty groups, not 403
    expect(await find('zeta', { token: portal })).toEqual({ query: 'zeta', groups: [] });
  });
});

describe('index sync', () => {
  test('updates and deletes are reflected', async () => {
    const id = randomUUID();
    await t.db
      .insertInto('devices')
      .values(deviceRow({ id, serialNumber: 'QWERTY-1', imei: '861111111111111', phoneNumber: '07123 456789' }))
      .execute();
    expect(group(await find('werty-'), 'device')!.hits.map((h) => h.id)).toEqual([id]);

    await t.db.updateTable('devices').set({ serialNumber: 'ASDFGH-2', phoneNumber: '+44 7999 111222' }).where('id', '=', id).execute();
    expect(group(await find('werty'), 'device')).toBeUndefined();
    expect(group(await find('sdfgh-'), 'device')!.hits.map((h) => h.id)).toEqual([id]);
    expect(group(await find('07999111222'), 'device')!.hits[0]).toMatchObject({ id, matched: 'phone' });
    expect(group(await find('07123456789'), 'device')).toBeUndefined();
    // an update of an unrelated column keeps the entry
    await t.db.updateTable('devices').set({ status: 3 }).where('id', '=', id).execute();
    expect(group(await find('sdfgh-'), 'device')!.hits.map((h) => h.id)).toEqual([id]);

    await t.db.deleteFrom('devices').where('id', '=', id).execute();
    expect(group(await find('sdfgh-'), 'device')).toBeUndefined();

    await t.db.updateTable('persons').set({ lastName: 'Lindqvist' }).where('id', '=', ids.pMira).execute();
    // the name no longer matches; the e-mail still does
    expect(group(await find('okafor'), 'person')!.hits).toMatchObject([{ id: ids.pMira, title: 'Mira Lindqvist', matched: 'email' }]);
    expect(group(await find('indqvis'), 'person')!.hits.map((h) => h.title)).toEqual(['Mira Lindqvist']);

    await t.db.updateTable('customers').set({ name: 'Acme Protection Ltd' }).where('id', '=', ids.acme).execute();
    expect(titles(await find('protection'), 'customer')).toEqual(['Acme Protection Ltd']);
    expect(titles(await find('acme sec'), 'customer')).toEqual([]);

    await t.db.updateTable('alarmReports').set({ personFullName: 'Zara Jones' }).where('id', '=', ids.aZetaOld).execute();
    expect(group(await find('zeta jones', { scope: 'alarmReports' }), 'alarmReport')!.hits.map((h) => h.id)).toEqual([ids.aZetaNew]);
    await t.db.deleteFrom('alarmReports').where('id', '=', ids.aZetaNew).execute();
    expect(group(await find('9100002'), 'alarmReport')).toBeUndefined();
  });

  test('upserts are reflected', async () => {
    const row = deviceRow({ serialNumber: 'UPSERT-1' });
    await t.db.insertInto('devices').values(row).execute();
    await t.db
      .insertInto('devices')
      .values({ ...row, serialNumber: 'UPSERT-2' })
      .onConflict((oc) => oc.column('id').doUpdateSet({ serialNumber: 'UPSERT-2' }))
      .execute();
    expect(titles(await find('upsert-'), 'device')).toEqual(['UPSERT-2']);
    await t.db.deleteFrom('devices').where('id', '=', row.id).execute();
  });

  test('optimize and rebuild keep the index complete', async () => {
    await optimizeSearchIndex(t.db);
    expect(titles(await find('ab1234'), 'device')).toEqual(['AB1234', 'AB12345', 'XAB1234']);
    await rebuildSearchIndex(t.db);
    expect(titles(await find('ab1234'), 'device')).toEqual(['AB1234', 'AB12345', 'XAB1234']);
    expect(group(await find('900123'), 'device')!.hits.map((h) => h.id)).toContain(ids.dPhone);
  });

  test('rows that exist before the migration are indexed by it', async () => {
    const tdb = await createTestDb();
    try {
      // migration 029's indexes and 040's triggers use search_phone_key, which 002's down drops
      await m040.down!(tdb.db);
      await m029.down!(tdb.db);
      await m002.down!(tdb.db);
      await tdb.db
        .insertInto('customers')
        .values(customerRow({ name: 'Preexisting Widgets', portalId: '424242' }))
        .execute();
      await tdb.db
        .insertInto('devices')
        .values(deviceRow({ serialNumber: 'OLDROW-99', phoneNumber: '07555 123456' }))
        .execute();
      await m002.up(tdb.db);
      const perms = ['AdminPanel.Device.ListView', 'AdminPanel.Customer.ListView'];
      const r1 = await search(tdb.db, { q: 'drow-9', scope: 'all', limit: 8 }, perms);
      expect(r1.groups.map((g) => g.hits.map((h) => h.title))).toEqual([['OLDROW-99']]);
      const r2 = await search(tdb.db, { q: '555 1234', scope: 'all', limit: 8 }, perms);
      expect(first(r2.groups).hits[0]).toMatchObject({ title: 'OLDROW-99', matched: 'phone' });
      const r3 = await search(tdb.db, { q: 'widgets', scope: 'all', limit: 8 }, perms);
      expect(first(r3.groups).hits[0]).toMatchObject({ title: 'Preexisting Widgets', matched: 'name' });
    } finally {
      await tdb.close();
    }
  });
});

describe('keys', () => {
  test('phone key: JS and the database agree', async () => {
    const samples = [
      '+44 7700 900123',
      '07700 900123',
      '447700900123',
      '0044 7700 900123',
      '+44 (0)7700 900123',
      '7700900123',
      '+1 (555) 010-9999',
      '001 555 0109999',
      '0',
      '44',
      '+44',
      '',
      '020 7946 0958',
      '441234',
      ' +44 20 7946 0958',
      '12.34/56-78',
    ];
    for (const s of samples) {
      const db =
        t.dialect === 'pg'
          ? first((await sql<{ k: string | null }>`select search_phone_key(${s}) as k`.execute(t.db)).rows).k
          : first((await sql.raw<{ k: string | null }>(`select ${sqlitePhoneKey(`'${s.replace(/'/g, "''")}'`)} as k`).execute(t.db)).rows).k;
      expect(db, JSON.stringify(s)).toBe(phoneKey(s));
    }
    expect(phoneKey('+44 7700 900123')).toBe('7700900123');
    expect(phoneKey('0044 7700 900123')).toBe('7700900123');
    expect(phoneKey('+44 (0)7700 900123')).toBe('7700900123');
    expect(queryPhoneKey('SG620')).toBeNull();
    expect(queryPhoneKey('+44 77')).toBe('77');
    expect(prefixEnd('abc')).toBe('abd');
    expect(prefixEnd('a\u{10ffff}')).toBe('b');
  });
});

describe.runIf(process.env.TEST_DB !== 'pg')('SQLite query plans', () => {
  test('every statement the search runs uses an index (no table scan), FTS for substrings', async () => {
    const raw = new SQLite(':memory:');
    const seen: CompiledQuery[] = [];
    const db = new Kysely<Database>({
      dialect: new SqliteDialect({ database: raw }),
      log: (e) => {
        if (e.level === 'query') seen.push(e.query);
      },
    }) as DB;
    await migrateToLatest(db);
    await insertFixtures(db);
    seen.length = 0;
    const all = ['AdminPanel.Device.ListView', 'AdminPanel.Customer.ListView', 'AdminPanel.Person.ListView', 'AdminPanel.AlarmReport.ListView'];
    for (const q of ['s', 'ab', 'zeta', 'SG620-00', 'g620-00029', '0-00029', '07700 900', '4567890', 'okafor@', 'qqqqqq'])
      await search(db, { q, scope: 'all', limit: 8 }, all);
    expect(seen.length).toBeGreaterThan(30);
    let fts = 0;
    for (const q of seen) {
      const plan = raw.prepare(`explain query plan ${q.sql}`).all(...(q.parameters as unknown[])) as { detail: string }[];
      const text = plan.map((p) => p.detail).join(' | ');
      // "SCAN x VIRTUAL TABLE" is the FTS5 index; a plain "SCAN <table>" would be a full scan.
      expect(text, q.sql).not.toMatch(/SCAN (devices|customers|persons|alarmReports)(?! VIRTUAL)\b(?!_fts)/);
      expect(text, q.sql).not.toMatch(/USE TEMP B-TREE FOR ORDER BY/);
      if (/VIRTUAL TABLE/.test(text)) fts++;
    }
    expect(fts).toBeGreaterThan(0);
    await db.destroy();
  });
});
