// The demo data generator, on SQLite and (TEST_DB=pg) PostgreSQL at scale 0.01: determinism,
// sizes, referential integrity, the demo sign-ins and the shape of every generated value.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { isValidPhoneNumber } from 'libphonenumber-js';
import { createTestDb, type TestDb } from '../helpers/db.js';
import { PROVIDER_TENANT } from '../helpers/auth.js';
import { seedDemoData, hasData, BASE_COUNTS, CALL_BUTTON_TYPES, type DemoCounts } from '../../src/server/seed/demo.js';
import { DEMO_ACCOUNTS } from '../../src/server/seed/accounts.js';
import { PROVIDER_TENANT_ID } from '../../src/server/seed/ids.js';
import { JOURNAL_KINDS, CALL_LINES } from '../../src/server/seed/alarms.js';
import { luhnValid } from '../../src/server/seed/gen.js';
import { verifyPassword } from '../../src/server/auth/password.js';
import { ROLE_IDS, roleNameById, ROLE_LABELS } from '../../src/shared/permissions.js';
import {
  ALARM_TYPES,
  ASSET_STATUSES,
  DEVICE_TYPES,
  SIM_TYPES,
  TIER_TYPES,
  CUSTOMER_STATUSES,
  VERIFICATION_CATEGORIES,
  VERIFICATION_TYPES,
  categoryType,
  isValidId,
} from '../../src/shared/codes.js';
import type { DB } from '../../src/server/db/index.js';
import { usageReport } from '../../src/server/modules/fleet/usage-report.js';
import { ALL_TENANTS } from '../../src/server/auth/tenant-scope.js';
import { londonMonthOf } from '../../src/shared/management-report.js';

const NOW = new Date('2025-03-14T09:30:00.000Z');
const PASSWORD = 'Seed-Test-Passw0rd!';
const SCALE = 0.01;
const UUID4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
const POSTCODE = /^[A-Z]{1,2}\d{1,2} \d[ABD-HJLNP-UW-Z]{2}$/;

const dbs: TestDb[] = [];
let a: DB; // seed 7
let b: DB; // seed 7 again
let c: DB; // seed 8
let countsA: DemoCounts;
const logs: Record<string, unknown>[] = [];

async function fresh(seed: number, scale = SCALE) {
  const t = await createTestDb();
  dbs.push(t);
  const r = await seedDemoData(t.db, { seed, scale, password: PASSWORD, log: (e) => void logs.push(e), now: NOW });
  return { db: t.db, ...r };
}

beforeAll(async () => {
  const ra = await fresh(7);
  a = ra.db;
  countsA = ra.counts;
  b = (await fresh(7)).db;
  c = (await fresh(8)).db;
}, 240_000);

afterAll(async () => {
  for (const t of dbs) await t.close();
});

const all = <T>(db: DB, q: string) =>
  db
    .selectFrom(q as any)
    .selectAll()
    .execute() as Promise<T[]>;
const sortBy = <T>(rows: T[], key: (r: T) => string) => rows.sort((x, y) => (key(x) < key(y) ? -1 : key(x) > key(y) ? 1 : 0));
const json = (s: string) => JSON.parse(s);

/** Collects failed checks, so loops over thousands of rows assert once (and fast) with a readable list. */
function checks() {
  const bad: string[] = [];
  return {
    bad,
    ok(cond: unknown, what: () => string) {
      if (!cond && bad.length < 25) bad.push(what());
    },
  };
}

describe('determinism', () => {
  const tables = [
    ['persons', (r: any) => r.id],
    ['personRoles', (r: any) => r.personId + r.roleId],
    ['customers', (r: any) => r.id],
    ['deviceSubscriptions', (r: any) => r.customerId + r.deviceType],
    ['appSubscriptions', (r: any) => r.customerId + r.appSubscriptionType],
    ['devices', (r: any) => r.id],
    ['deviceConfigurations', (r: any) => r.deviceId],
    ['deviceMessages', (r: any) => r.id],
    ['desiredConfigurations', (r: any) => r.id],
    ['alarmReports', (r: any) => r.id],
    ['alarmCalls', (r: any) => r.id],
    ['alarmMemos', (r: any) => r.id],
    ['activityJournal', (r: any) => r.id],
    ['alarmNotes', (r: any) => r.id],
    ['refreshTokens', (r: any) => r.id],
    ['outbox', (r: any) => String(r.id).padStart(9, '0')],
    ['auditLog', (r: any) => String(r.id).padStart(9, '0')],
    ['crmAccounts', (r: any) => r.id],
  ] as const;

  test.each(tables.map(([t, k]) => [t, k] as const))('same seed and now → identical %s rows, ids included', async (table, key) => {
    const ra = sortBy(await all<any>(a, table), key);
    const rb = sortBy(await all<any>(b, table), key);
    expect(ra.length).toBeGreaterThan(0);
    // password hashes are salted: equal only in which rows have one
    const strip = (rows: any[]) => rows.map((r) => ('passwordHash' in r ? { ...r, passwordHash: r.passwordHash ? 'hash' : null } : r));
    expect(strip(rb)).toEqual(strip(ra));
  });

  test('a different seed gives different ids, names and serials', async () => {
    const ids = async (db: DB) => new Set((await db.selectFrom('customers').select('id').execute()).map((r) => r.id));
    const ia = await ids(a);
    const ic = await ids(c);
    expect([...ia].filter((id) => ic.has(id))).toEqual([]);
    const names = async (db: DB) => (await db.selectFrom('persons').select(['email']).orderBy('email').execute()).map((r) => r.email);
    expect(await names(c)).not.toEqual(await names(a));
    const serials = async (db: DB) => (await db.selectFrom('devices').select('serialNumber').orderBy('serialNumber').execute()).map((r) => r.serialNumber);
    expect(await serials(c)).not.toEqual(await serials(a));
  });

  test('the demo accounts keep their e-mails whatever the seed', async () => {
    for (const db of [a, c]) {
      const emails = (await db.selectFrom('persons').select('email').where('email', 'like', '%@demo.test').execute()).map((r) => r.email).sort();
      expect(emails).toEqual(DEMO_ACCOUNTS.map((x) => x.email).sort());
    }
  });
});

describe('sizes', () => {
  test('scale 0.01 gives 1% of the base counts', async () => {
    expect(countsA.customers).toBe(Math.round(BASE_COUNTS.customers * SCALE));
    expect(countsA.devices).toBe(Math.round(BASE_COUNTS.devices * SCALE));
    expect(countsA.alarmReports).toBe(Math.round(BASE_COUNTS.alarmReports * SCALE));
    expect(Math.abs(countsA.persons - BASE_COUNTS.persons * SCALE)).toBeLessThanOrEqual(BASE_COUNTS.persons * SCALE * 0.1);
    const n = async (t: string) =>
      Number(
        (
          await a
            .selectFrom(t as any)
            .select((e) => e.fn.countAll().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    for (const [t, count] of Object.entries(countsA)) expect([t, await n(t)]).toEqual([t, count]);
    for (const t of [
      'deviceConfigurations',
      'deviceMessages',
      'alarmCalls',
      'activityJournal',
      'alarmNotes',
      'alarmMemos',
      'desiredConfigurations',
      'outbox',
      'auditLog',
      'refreshTokens',
    ] as const)
      expect([t, countsA[t] > 0]).toEqual([t, true]);
  });

  test('scale multiplies the counts (0.03 → three times 0.01)', async () => {
    const r = await fresh(7, 0.03);
    expect(r.counts.customers).toBe(60);
    expect(r.counts.devices).toBe(3000);
    expect(r.counts.alarmReports).toBe(1500);
    expect(Math.abs(r.counts.persons - 600)).toBeLessThanOrEqual(60);
    expect(r.counts.activityJournal).toBeGreaterThan(countsA.activityJournal * 2);
  }, 120_000);

  test('refuses a scale that is not a positive number, and hasData turns true only after seeding', async () => {
    const t = await createTestDb();
    dbs.push(t);
    expect(await hasData(t.db)).toBe(false);
    await expect(seedDemoData(t.db, { seed: 1, scale: 0, password: PASSWORD, log: () => {}, now: NOW })).rejects.toThrow(/scale/);
    await expect(seedDemoData(t.db, { seed: 1, scale: Number.NaN, password: PASSWORD, log: () => {}, now: NOW })).rejects.toThrow(/scale/);
    expect(await hasData(t.db)).toBe(false);
    expect(await hasData(a)).toBe(true);
  });

  test('progress is logged per phase', () => {
    const phases = logs.filter((l) => l.msg === 'demo data').map((l) => l.phase);
    for (const p of ['staff', 'customers', 'persons', 'devices', 'alarm reports']) expect(phases).toContain(p);
  });
});

describe('referential integrity', () => {
  const orphans = async (child: string, col: string, parent: string, pcol = 'id') => {
    const rows = await a
      .selectFrom(`${child} as c` as any)
      .leftJoin(`${parent} as p` as any, `p.${pcol}` as any, `c.${col}` as any)
      .select([`c.${col} as v` as any])
      .where(`c.${col}` as any, 'is not', null)
      .where(`p.${pcol}` as any, 'is', null)
      .execute();
    return rows.length;
  };

  test('every reference points at an existing row', async () => {
    const checks: [string, string, string, string?][] = [
      ['personRoles', 'personId', 'persons'],
      ['personRoles', 'roleId', 'roles'],
      ['deviceSubscriptions', 'customerId', 'customers'],
      ['appSubscriptions', 'customerId', 'customers'],
      ['devices', 'customerId', 'customers'],
      ['devices', 'assignedPersonId', 'persons'],
      ['deviceConfigurations', 'deviceId', 'devices'],
      ['desiredConfigurations', 'deviceId', 'devices'],
      ['desiredConfigurations', 'requestedBy', 'persons'],
      ['deviceMessages', 'deviceId', 'devices'],
      ['alarmReports', 'customerId', 'customers'],
      ['alarmReports', 'personId', 'persons'],
      ['alarmReports', 'arcControllerId', 'persons'],
      ['alarmReports', 'deviceSerial', 'devices', 'serialNumber'],
      ['alarmCalls', 'alarmReportId', 'alarmReports'],
      ['alarmMemos', 'alarmReportId', 'alarmReports'],
      ['activityJournal', 'alarmReportId', 'alarmReports'],
      ['alarmNotes', 'alarmReportId', 'alarmReports'],
      ['alarmNotes', 'personId', 'persons'],
      ['refreshTokens', 'personId', 'persons'],
      ['verificationCodes', 'personId', 'persons'],
      ['auditLog', 'actorId', 'persons'],
      ['auditLog', 'entityId', 'customers'],
      ['customers', 'countryId', 'countries'],
    ];
    for (const [child, col, parent, pcol] of checks) expect([child, col, await orphans(child, col, parent, pcol)]).toEqual([child, col, 0]);
  });

  test('tenants: staff in the provider tenant, customer persons in their customer tenant; assigned devices and alarms stay inside one customer', async () => {
    expect(PROVIDER_TENANT_ID).toBe(PROVIDER_TENANT);
    const customers = await a.selectFrom('customers').select(['id', 'tenantId', 'name', 'tier']).execute();
    const byId = new Map(customers.map((x) => [x.id, x]));
    const tenants = new Set(customers.map((x) => x.tenantId));
    expect(tenants.size).toBe(customers.length);
    expect(tenants.has(PROVIDER_TENANT_ID)).toBe(false);
    const persons = await a.selectFrom('persons').select(['id', 'tenantId']).execute();
    const tenantOf = new Map(persons.map((p) => [p.id, p.tenantId]));
    for (const p of persons) expect(p.tenantId === PROVIDER_TENANT_ID || tenants.has(p.tenantId)).toBe(true);
    const roles = await a.selectFrom('personRoles').select(['personId', 'roleId']).execute();
    for (const r of roles) {
      // Customer administrators hold the customer admin role in their own tenant; every other role is staff's.
      const staffRole = r.roleId !== ROLE_IDS.PortalUserRole && r.roleId !== ROLE_IDS.AdminRole;
      if (staffRole) expect(tenantOf.get(r.personId)).toBe(PROVIDER_TENANT_ID);
    }
    // every customer tenant has at least one person (its administrator)
    const withPersons = new Set(persons.map((p) => p.tenantId));
    for (const t of tenants) expect(withPersons.has(t)).toBe(true);

    const assigned = await a
      .selectFrom('devices')
      .select(['customerId', 'assignedPersonId', 'isUserAssigned', 'status'])
      .where('isUserAssigned', '=', 1)
      .execute();
    expect(assigned.length).toBeGreaterThan(10);
    for (const d of assigned) {
      expect(d.assignedPersonId).not.toBeNull();
      expect(tenantOf.get(d.assignedPersonId!)).toBe(byId.get(d.customerId!)!.tenantId);
    }
    const unassigned = await a
      .selectFrom('devices')
      .select('assignedPersonId')
      .where('isUserAssigned', '=', 0)
      .where('assignedPersonId', 'is not', null)
      .execute();
    expect(unassigned).toEqual([]);

    const reports = await a
      .selectFrom('alarmReports')
      .select(['customerId', 'customerAccountFullName', 'tier', 'personId', 'arcControllerId', 'deviceSerial'])
      .execute();
    const controllers = new Set(roles.filter((r) => r.roleId === ROLE_IDS.ArcControllerRole).map((r) => r.personId));
    const deviceOwner = new Map((await a.selectFrom('devices').select(['serialNumber', 'customerId']).execute()).map((d) => [d.serialNumber, d.customerId]));
    for (const r of reports) {
      const cu = byId.get(r.customerId!)!;
      expect(r.customerAccountFullName).toBe(cu.name);
      expect(r.tier).toBe(cu.tier);
      expect(tenantOf.get(r.personId!)).toBe(cu.tenantId);
      expect(controllers.has(r.arcControllerId!)).toBe(true);
      if (r.deviceSerial) expect(deviceOwner.get(r.deviceSerial)).toBe(r.customerId);
    }
  });
});

describe('demo sign-ins', () => {
  test('every DEMO_ACCOUNTS e-mail exists in the provider tenant with exactly its roles, names and a verifiable password', async () => {
    for (const acc of DEMO_ACCOUNTS) {
      const p = await a.selectFrom('persons').selectAll().where('email', '=', acc.email).executeTakeFirstOrThrow();
      expect(p.tenantId).toBe(PROVIDER_TENANT_ID);
      expect([p.firstName, p.lastName]).toEqual([acc.firstName, acc.lastName]);
      expect(p.isLocked).toBe(0);
      expect(p.personStatus).toBe(1);
      expect(p.loginMethod).toBe(1);
      expect(p.twoFactorType).toBe(acc.twoFactor ?? null);
      const roles = (await a.selectFrom('personRoles').select('roleId').where('personId', '=', p.id).execute()).map((r) => roleNameById(r.roleId));
      expect(roles.sort()).toEqual([...acc.roles].sort());
      expect(await verifyPassword(p.passwordHash, PASSWORD)).toBe(true);
      expect(await verifyPassword(p.passwordHash, 'wrong-password')).toBe(false);
    }
  });

  test('admin-2fa has e-mail second factor; nobody else has a password', async () => {
    const p = await a.selectFrom('persons').select(['twoFactorType']).where('email', '=', 'admin-2fa@demo.test').executeTakeFirstOrThrow();
    expect(p.twoFactorType).toBe(1);
    const withPassword = await a.selectFrom('persons').select('email').where('passwordHash', 'is not', null).execute();
    expect(withPassword.map((r) => r.email).sort()).toEqual(DEMO_ACCOUNTS.map((x) => x.email).sort());
  });

  test('the demo sign-ins have no session history', async () => {
    const ids = (await a.selectFrom('persons').select('id').where('email', 'like', '%@demo.test').execute()).map((r) => r.id);
    expect(await a.selectFrom('refreshTokens').select('id').where('personId', 'in', ids).execute()).toEqual([]);
    expect(await a.selectFrom('verificationCodes').select('id').where('personId', 'in', ids).execute()).toEqual([]);
    const boxed = await a.selectFrom('outbox').select('recipient').where('recipient', 'like', '%@demo.test').execute();
    expect(boxed).toEqual([]);
  });
});

describe('persons', () => {
  test('unique lower-case e-mails, searchText, phones valid for libphonenumber, some locked, staff roles mix', async () => {
    const persons = await all<any>(a, 'persons');
    expect(new Set(persons.map((p) => p.email)).size).toBe(persons.length);
    const k = checks();
    for (const p of persons) {
      const who = () => `${p.email}`;
      k.ok(UUID4.test(p.id), () => `${who()}: id ${p.id}`);
      k.ok(p.email === p.email.toLowerCase() && /^[a-z0-9.'-]+@[a-z0-9.-]+\.[a-z]+$/.test(p.email), () => `email ${p.email}`);
      k.ok(p.searchText === `${p.firstName} ${p.lastName} ${p.email}`.toLowerCase(), () => `${who()}: searchText ${p.searchText}`);
      k.ok(/^"[0-9a-f-]{36}"$/.test(p.etag), () => `${who()}: etag ${p.etag}`);
      k.ok(ISO.test(p.createdAt) && p.createdAt <= p.updatedAt && p.updatedAt <= NOW.toISOString(), () => `${who()}: dates ${p.createdAt} ${p.updatedAt}`);
      k.ok(!p.lastLoginDate || p.lastLoginDate <= NOW.toISOString(), () => `${who()}: lastLoginDate ${p.lastLoginDate}`);
      const phones = json(p.phoneNumbers) as { CountryCode: string; Number: string; IsPrimary: boolean; Type: number }[];
      k.ok(phones.length > 0 && phones.filter((x) => x.IsPrimary).length === 1, () => `${who()}: phones ${p.phoneNumbers}`);
      for (const ph of phones)
        k.ok(ph.CountryCode === '44' && [1, 2, 3, 4].includes(ph.Type) && isValidPhoneNumber(`+44${ph.Number}`), () => `${who()}: phone ${JSON.stringify(ph)}`);
    }
    expect(k.bad).toEqual([]);
    const staffRoles = await a
      .selectFrom('personRoles')
      .innerJoin('persons', 'persons.id', 'personRoles.personId')
      .select(['roleId'])
      .where('persons.tenantId', '=', PROVIDER_TENANT_ID)
      .execute();
    const tally = (id: string) => staffRoles.filter((r) => r.roleId === id).length;
    expect(tally(ROLE_IDS.ArcControllerRole)).toBeGreaterThan(tally(ROLE_IDS.ArcSupervisorRole));
    expect(tally(ROLE_IDS.ArcSupervisorRole)).toBeGreaterThanOrEqual(1);
    expect(tally(ROLE_IDS.ArcManagerRole)).toBeGreaterThanOrEqual(1);
    expect(tally(ROLE_IDS.SuperAdminRole)).toBeGreaterThanOrEqual(2);
    // customer-side persons carry PortalUserRole; their administrators also the admin role (customers)
    const custRoles = await a
      .selectFrom('personRoles')
      .innerJoin('persons', 'persons.id', 'personRoles.personId')
      .select(['roleId', 'personId'])
      .where('persons.tenantId', '!=', PROVIDER_TENANT_ID)
      .execute();
    expect(new Set(custRoles.map((r) => r.roleId))).toEqual(new Set([ROLE_IDS.PortalUserRole, ROLE_IDS.AdminRole]));
    const portal = new Set(custRoles.filter((r) => r.roleId === ROLE_IDS.PortalUserRole).map((r) => r.personId));
    expect(custRoles.filter((r) => r.roleId === ROLE_IDS.AdminRole && !portal.has(r.personId))).toEqual([]);
    // every person has at least one role
    const withRole = new Set((await a.selectFrom('personRoles').select('personId').execute()).map((r) => r.personId));
    expect(persons.filter((p) => !withRole.has(p.id))).toEqual([]);
  });

  test('profile JSON carries the full person read view, PascalCase', async () => {
    const persons = await a.selectFrom('persons').select(['profile']).limit(80).execute();
    const k = checks();
    for (const { profile } of persons) {
      const p = json(profile);
      const has = (o: object, keys: string[]) => keys.every((x) => x in o);
      k.ok(
        has(p, [
          'Title',
          'JobSector',
          'JobRole',
          'JobTitle',
          'RiskProfiles',
          'VehicleInformation',
          'PersonalDetails',
          'MedicalInformation',
          'Ethnicity',
          'PhysicalInformation',
        ]),
        () => `keys ${Object.keys(p)}`,
      );
      k.ok(/^(Mr|Mrs|Miss|Ms|Dr|Mx)$/.test(p.Title.Name), () => `title ${p.Title.Name}`);
      k.ok(
        typeof p.JobSector.Name === 'string' && typeof p.JobRole.Name === 'string' && typeof p.JobTitle === 'string',
        () => `job ${JSON.stringify([p.JobSector, p.JobRole, p.JobTitle])}`,
      );
      k.ok(/^\d{4}-\d\d-\d\d$/.test(p.PersonalDetails.DateOfBirth), () => `dob ${p.PersonalDetails.DateOfBirth}`);
      k.ok(['Male', 'Female'].includes(p.PersonalDetails.Gender.Name), () => `gender ${p.PersonalDetails.Gender.Name}`);
      for (const addr of [p.PersonalDetails.HomeAddress, p.PersonalDetails.WorkAddress])
        k.ok(
          has(addr, ['AddressLine1', 'AddressLine2', 'PostCode', 'Country']) && POSTCODE.test(addr.PostCode) && addr.Country.Name === 'United Kingdom',
          () => `address ${JSON.stringify(addr)}`,
        );
      const med = p.MedicalInformation;
      k.ok(
        has(med, ['HearingImpairment', 'HearingImpairmentLevel', 'BloodType', 'MedicalConditions']) &&
          med.HearingImpairment === (med.HearingImpairmentLevel !== null),
        () => `medical ${JSON.stringify(med)}`,
      );
      const h = p.PhysicalInformation.Height;
      k.ok(
        ['centimeters', 'feet'].includes(h.Unit) && Math.abs(h.CentimeterValue - (h.FeetValue * 12 + h.InchValue) * 2.54) < 2.6,
        () => `height ${JSON.stringify(h)}`,
      );
      k.ok(has(p.PhysicalInformation, ['HairColor', 'EyeColor', 'DistinguishingFeatures']), () => `physical ${JSON.stringify(p.PhysicalInformation)}`);
      const v = p.VehicleInformation;
      k.ok(
        !v.VehicleOwnedOrUsed || (/^[A-Z]{2}\d\d [A-Z]{3}$/.test(v.VehicleRegistration) && typeof v.Make.Name === 'string'),
        () => `vehicle ${JSON.stringify(v)}`,
      );
    }
    expect(k.bad).toEqual([]);
  });
});

describe('customers', () => {
  test('tiers, statuses, migrated accounts with numeric portal ids, CRM ids, UK addresses and phones, subscriptions', async () => {
    const customers = await all<any>(a, 'customers');
    expect(new Set(customers.map((x) => x.name)).size).toBe(customers.length);
    const tiers = TIER_TYPES.map((x) => x.Value);
    const statuses = CUSTOMER_STATUSES.map((x) => x.Value);
    const k = checks();
    for (const cu of customers) {
      const who = () => cu.name;
      k.ok(UUID4.test(cu.id) && UUID4.test(cu.tenantId), () => `${who()}: ids`);
      k.ok(cu.tier === null || tiers.includes(cu.tier), () => `${who()}: tier ${cu.tier}`);
      k.ok(cu.status === null || statuses.includes(cu.status), () => `${who()}: status ${cu.status}`);
      k.ok(cu.isMigratedAccount ? /^\d+$/.test(cu.portalId) : cu.portalId === null, () => `${who()}: portalId ${cu.portalId}`);
      k.ok(
        !cu.isSalesforceAccount || (/^001[0-9A-Za-z]{15}$/.test(cu.salesforceId) && /^URN\d{7}$/.test(cu.salesforceUrn)),
        () => `${who()}: CRM ${cu.salesforceId} ${cu.salesforceUrn}`,
      );
      k.ok(POSTCODE.test(cu.postCode) && cu.countryId === 'country-gb', () => `${who()}: address ${cu.postCode}`);
      k.ok(isValidPhoneNumber(cu.phoneNumber), () => `${who()}: phone ${cu.phoneNumber}`);
      for (const e of [cu.etag, cu.deviceSubscriptionsEtag, cu.appSubscriptionsEtag]) k.ok(/^"[0-9a-f-]{36}"$/.test(e), () => `${who()}: etag ${e}`);
      k.ok(cu.enableAlarmReportIntelligence || !cu.autoGenerateAlarmIntelligence, () => `${who()}: auto-generate without intelligence`);
    }
    expect(k.bad).toEqual([]);
    expect(customers.some((x) => x.isMigratedAccount === 1)).toBe(true);
    expect(customers.some((x) => x.isMigratedAccount === 0)).toBe(true);
    const app = await all<any>(a, 'appSubscriptions');
    expect(new Set(app.map((x) => x.appSubscriptionType))).toEqual(new Set([1, 2, 3]));
    expect(app.length).toBe(customers.length * 3);
    const subs = await all<any>(a, 'deviceSubscriptions');
    const typeValues = new Set(DEVICE_TYPES.map((x) => x.Value));
    for (const s of subs) {
      expect(typeValues.has(s.deviceType)).toBe(true);
      expect(s.purchased).toBeGreaterThanOrEqual(0);
    }
    // customers with devices in their account have a subscription row for each of those device types
    const held = await a.selectFrom('devices').select(['customerId', 'type']).where('customerId', 'is not', null).execute();
    const subKeys = new Set(subs.map((s) => `${s.customerId}:${s.deviceType}`));
    for (const d of held) expect(subKeys.has(`${d.customerId}:${d.type}`)).toBe(true);
  });
});

describe('devices', () => {
  test('unique serials with per-type prefixes, Luhn-valid IMEIs, ICCIDs and IMSIs, UK mobile numbers', async () => {
    const devices = await all<any>(a, 'devices');
    expect(new Set(devices.map((d) => d.serialNumber)).size).toBe(devices.length);
    const imeis = devices.filter((d) => d.imei).map((d) => d.imei);
    expect(imeis.length).toBeGreaterThan(devices.length * 0.8);
    expect(new Set(imeis).size).toBe(imeis.length);
    const k = checks();
    for (const imei of imeis) k.ok(/^\d{15}$/.test(imei) && luhnValid(imei), () => `imei ${imei}`);
    const typeValues = new Set(DEVICE_TYPES.map((x) => x.Value));
    const statusValues = new Set(ASSET_STATUSES.map((x) => x.Value));
    const simTypes = new Set(SIM_TYPES.map((x) => x.Value));
    const prefixOf: Record<number, RegExp> = { 640: /^SG640\d{7}$/, 750: /^SG750\d{7}$/, 10: /^ID\d{8}$/, 803: /^SPT3\d{7}$/, 810: /^SPTX\d{7}$/ };
    const now = NOW.toISOString();
    for (const d of devices) {
      const who = () => d.serialNumber;
      k.ok(UUID4.test(d.id) && typeValues.has(d.type) && statusValues.has(d.status), () => `${who()}: id/type/status`);
      const prefix = prefixOf[d.type];
      k.ok(!prefix || prefix.test(d.serialNumber), () => `${who()}: serial format for type ${d.type}`);
      k.ok(!d.simSerial || (/^8944\d{15,16}$/.test(d.simSerial) && luhnValid(d.simSerial)), () => `${who()}: ICCID ${d.simSerial}`);
      k.ok(!d.imsi || /^234\d{12}$/.test(d.imsi), () => `${who()}: IMSI ${d.imsi}`);
      k.ok(d.simTypeId === null || simTypes.has(d.simTypeId), () => `${who()}: sim type ${d.simTypeId}`);
      k.ok(!d.phoneNumber || isValidPhoneNumber(d.phoneNumber), () => `${who()}: phone ${d.phoneNumber}`);
      k.ok(d.addedToSystem <= now && d.dateReceived <= d.addedToSystem && d.lastUpdated >= d.addedToSystem, () => `${who()}: dates`);
      k.ok(!d.lastConfigurationDate || d.lastConfigurationDate <= now, () => `${who()}: lastConfigurationDate ${d.lastConfigurationDate}`);
      k.ok([3, 4, 10, 11, 12].includes(d.status) === (d.customerId !== null), () => `${who()}: status ${d.status} with customer ${d.customerId}`);
    }
    expect(k.bad).toEqual([]);
    const phones = devices.filter((d) => d.phoneNumber).map((d) => d.phoneNumber);
    expect(new Set(phones).size).toBe(phones.length);
    // a sensible status mix: mostly allocated, plenty in stock
    const share = (s: number) => devices.filter((d) => d.status === s).length / devices.length;
    expect(share(3)).toBeGreaterThan(0.5);
    expect(share(1)).toBeGreaterThan(0.15);
    expect(share(2)).toBeGreaterThan(0.03);
    expect(devices.filter((d) => d.status === 3 && d.orderNumber).length).toBeGreaterThan(devices.filter((d) => d.status === 3).length * 0.9);
    expect(devices.filter((d) => d.isUserAssigned).length).toBeGreaterThan(devices.filter((d) => d.status === 3).length * 0.3);
    expect(devices.filter((d) => d.lastConfigurationDate).length).toBeGreaterThan(devices.length * 0.5);
  });

  test('configurations: tracking in whole minutes, fall-detection settings as sss-uuu-nnn, call buttons', async () => {
    const configs = await all<any>(a, 'deviceConfigurations');
    expect(configs.length).toBeGreaterThan(0);
    const callTypes = new Set<number>(CALL_BUTTON_TYPES.map((x) => x.Value));
    const k = checks();
    for (const cfg of configs) {
      const who = () => cfg.deviceId;
      k.ok(cfg.trackingSeconds % 60 === 0 && cfg.trackingSeconds >= 300, () => `${who()}: trackingSeconds ${cfg.trackingSeconds}`);
      k.ok(!cfg.fallDetectionSettings || /^\d{3}-\d{3}-\d{3}$/.test(cfg.fallDetectionSettings), () => `${who()}: fall ${cfg.fallDetectionSettings}`);
      k.ok(!cfg.isFallDetection || cfg.fallDetectionSettings !== null, () => `${who()}: fall detection on without settings`);
      k.ok(callTypes.has(cfg.call1Type) && callTypes.has(cfg.call2Type), () => `${who()}: call types ${cfg.call1Type} ${cfg.call2Type}`);
      k.ok(cfg.call2Type !== 2 || isValidPhoneNumber(cfg.call2Number), () => `${who()}: call2 number ${cfg.call2Number}`);
      k.ok(ISO.test(cfg.lastUpdated), () => `${who()}: lastUpdated ${cfg.lastUpdated}`);
    }
    expect(k.bad).toEqual([]);
    expect(configs.some((x) => x.fallDetectionSettings === '030-150-200')).toBe(true);
  });

  test('messages: recent, with properties JSON and a raw message naming the device', async () => {
    const msgs = await a
      .selectFrom('deviceMessages')
      .innerJoin('devices', 'devices.id', 'deviceMessages.deviceId')
      .select([
        'deviceMessages.deviceIdentity',
        'deviceMessages.serial',
        'deviceMessages.deviceType',
        'deviceMessages.date',
        'deviceMessages.properties',
        'deviceMessages.rawMessage',
        'deviceMessages.battery',
        'deviceMessages.signal',
        'devices.imei',
        'devices.serialNumber',
        'devices.type',
      ])
      .execute();
    expect(msgs.length).toBeGreaterThan(countsA.devices * 0.2);
    const k = checks();
    for (const m of msgs) {
      const who = () => `${m.serialNumber} ${m.date}`;
      k.ok(m.deviceIdentity === (m.imei ?? m.serialNumber) && m.serial === m.serialNumber && m.deviceType === m.type, () => `${who()}: identity`);
      k.ok(m.date <= NOW.toISOString(), () => `${who()}: date in the future`);
      k.ok(typeof json(m.properties) === 'object' && m.rawMessage.includes(m.deviceIdentity), () => `${who()}: properties/raw`);
      k.ok(m.battery === null || (m.battery >= 0 && m.battery <= 100), () => `${who()}: battery ${m.battery}`);
    }
    expect(k.bad).toEqual([]);
  });

  test('usage history: every customer with an allocated device has a usage report with used days this month and the month before', async () => {
    const customers = await a
      .selectFrom('devices')
      .select('customerId')
      .distinct()
      .where('status', '=', 3)
      .where('type', '!=', 70)
      .where('customerId', 'is not', null)
      .execute();
    expect(customers.length).toBeGreaterThan(0);
    const month = londonMonthOf(NOW);
    const k = checks();
    for (const { customerId } of customers) {
      const r = await usageReport(a, ALL_TENANTS, { customerId: customerId!, month, now: NOW });
      k.ok(
        !!r && r.Rows.length > 0 && r.UsedDeviceDays > 0 && r.PreviousUsedDeviceDays > 0,
        () => `${customerId}: ${JSON.stringify(r && { ...r, Rows: r.Rows.length })}`,
      );
    }
    expect(k.bad).toEqual([]);
  });
});

describe('alarm reports', () => {
  test('unique alarm ids, valid codes, categories that match their verification type, dates within 13 months', async () => {
    const reports = await all<any>(a, 'alarmReports');
    expect(new Set(reports.map((r) => r.alarmId)).size).toBe(reports.length);
    const cats = new Set(VERIFICATION_CATEGORIES.map((x) => x.Value));
    const vtypes = new Set(VERIFICATION_TYPES.map((x) => x.Value));
    const atypes = new Set(ALARM_TYPES.map((x) => x.Value));
    const earliest = new Date(NOW.getTime() - 400 * 86_400_000).toISOString();
    const k = checks();
    for (const r of reports) {
      const who = () => r.alarmId;
      k.ok(isValidId(r.alarmId) && UUID4.test(r.id), () => `${who()}: ids`);
      k.ok(vtypes.has(r.verificationType) && cats.has(r.verificationCategory) && atypes.has(r.alarmType), () => `${who()}: codes`);
      k.ok(categoryType(r.verificationCategory) === r.verificationType, () => `${who()}: category ${r.verificationCategory} for type ${r.verificationType}`);
      k.ok(
        r.alarmStarted < r.alarmClosed && r.alarmClosed <= NOW.toISOString() && r.alarmStarted >= earliest,
        () => `${who()}: dates ${r.alarmStarted} ${r.alarmClosed}`,
      );
      k.ok(r.verificationCompletedSeconds > r.verificationStartedSeconds, () => `${who()}: verification seconds`);
      const loc = json(r.location);
      k.ok(/^\/\/\/[a-z]+\.[a-z]+\.[a-z]+$/.test(loc.W3WAddress), () => `${who()}: w3w ${loc.W3WAddress}`);
      k.ok(
        loc.Latitude > 49.8 && loc.Latitude < 59 && loc.Longitude > -8.5 && loc.Longitude < 2,
        () => `${who()}: not in the UK ${loc.Latitude},${loc.Longitude}`,
      );
      k.ok(typeof loc.GoogleApiAddress === 'string' && typeof loc.GpsGenerated === 'boolean', () => `${who()}: location ${r.location}`);
      k.ok(isValidPhoneNumber(r.incomingCallPhoneNumber), () => `${who()}: incoming ${r.incomingCallPhoneNumber}`);
    }
    expect(k.bad).toEqual([]);
    // the mixes the list and charts need
    const frac = (f: (r: any) => boolean) => reports.filter(f).length / reports.length;
    for (const v of [1, 2, 3, 4]) expect(frac((r) => r.verificationType === v)).toBeGreaterThan(0.05);
    expect(frac((r) => r.verificationStartedSeconds < 40)).toBeGreaterThan(0.8);
    expect(frac((r) => r.verificationCompletedSeconds >= 60 && r.verificationCompletedSeconds <= 900)).toBeGreaterThan(0.7);
    expect(frac((r) => r.alarmClosed >= new Date(NOW.getTime() - 30 * 86_400_000).toISOString())).toBeGreaterThan(0.12);
    const week = reports.filter((r) => r.alarmClosed >= new Date(NOW.getTime() - 7 * 86_400_000).toISOString());
    expect(week.filter((r) => r.verificationType === 1).length).toBeGreaterThan(0);
  });

  test('profile snapshots parse as JSON with every required key, and match the person they were taken of', async () => {
    const reports = await a
      .selectFrom('alarmReports')
      .select(['personId', 'customerAccountFullName', 'profileSnapshot', 'deviceSerial', 'deviceType'])
      .execute();
    const persons = new Map((await a.selectFrom('persons').select(['id', 'firstName', 'lastName', 'email', 'profile']).execute()).map((p) => [p.id, p]));
    const k = checks();
    const keys = (o: object) => Object.keys(o).sort().join(',');
    const has = (o: object, ks: string[]) => ks.every((x) => x in o);
    for (const r of reports) {
      const s = json(r.profileSnapshot);
      const who = (what: string) => () => `${r.personId}: ${what}`;
      k.ok(
        has(s, ['Person', 'SnapshotDate', 'PrimaryTeamAlarmInstruction', 'Devices', 'TeamWithEscalationPlan', 'MemosAndActivities']),
        who(`keys ${Object.keys(s)}`),
      );
      const P = s.Person;
      k.ok(
        has(P, [
          'FirstName',
          'LastName',
          'Id',
          'Company',
          'MedicalInformation',
          'RiskProfiles',
          'EmergencyContacts',
          'Contact',
          'PersonalDetails',
          'JobSector',
          'JobRole',
          'JobTitle',
          'VehicleInformation',
          'Title',
          'Ethnicity',
          'PhysicalInformation',
        ]),
        who(`Person keys ${Object.keys(P)}`),
      );
      k.ok(
        keys(P.Company) === 'IsEurowatch,IsGlobalResponse,IsNationalResponse,IsTranslationServices,Name' && P.Company.Name === r.customerAccountFullName,
        who(`Company ${JSON.stringify(P.Company)}`),
      );
      k.ok(has(P.MedicalInformation, ['HearingImpairment', 'HearingImpairmentLevel', 'MedicalConditions']), who('MedicalInformation'));
      for (const ec of P.EmergencyContacts)
        k.ok(
          keys(ec) === 'FirstName,LastName,PhoneNumber,Relationship' && isValidPhoneNumber(`+${ec.PhoneNumber.CountryCode}${ec.PhoneNumber.Number}`),
          who(`emergency contact ${JSON.stringify(ec)}`),
        );
      k.ok(
        keys(P.Contact) === 'EmailAddress,PersonalPhoneNumber,WorkPhoneNumber' && P.Contact.WorkPhoneNumber.CountryCode === '44',
        who(`Contact ${JSON.stringify(P.Contact)}`),
      );
      k.ok('AddressLine1' in P.PersonalDetails.WorkAddress && 'AddressLine2' in P.PersonalDetails.HomeAddress, who('addresses'));
      const ins = s.PrimaryTeamAlarmInstruction;
      k.ok(
        Array.isArray(ins.SpecialInstructions) && typeof ins.DuressWordsActive === 'boolean' && keys(ins.DuressWords) === 'CallPolice,Monitor',
        who(`instruction ${JSON.stringify(ins)}`),
      );
      k.ok(
        s.Devices.length > 0 && s.Devices.every((d: any) => keys(d) === 'Id,LastKnownBattery,PhoneNumber,Serial,Type'),
        who(`Devices ${JSON.stringify(s.Devices)}`),
      );
      const dev = s.Devices.find((d: any) => d.Serial === r.deviceSerial);
      k.ok(dev && dev.Type.Value === r.deviceType && typeof dev.Type.Name === 'string', who(`alarm device ${r.deviceSerial} not in Devices`));
      const teams = s.TeamWithEscalationPlan;
      k.ok(teams.length > 0 && teams[0].Team.PrimaryGroup === true, who('primary team first'));
      for (const t of teams)
        k.ok(
          typeof t.Team.Name === 'string' &&
            typeof t.DefaultEscalationPlan === 'boolean' &&
            t.EscalationPlan.Instructions.length > 0 &&
            t.EscalationPlan.Instructions.every(
              (i: any) => typeof i.Instruction === 'string' && keys(i.Contact) === 'CountryCode,InstructionContactName,Value',
            ),
          who(`team ${JSON.stringify(t)}`),
        );
      for (const m of s.MemosAndActivities.ActivitiesWithMemos)
        k.ok(keys(m) === 'DisplayName,DurationInMinutes,Id,StartDate,TextMemo,VoiceMemoId', who(`memo ${JSON.stringify(m)}`));
      // the snapshot is of the stored person: same name, e-mail and profile
      const p = persons.get(r.personId!)!;
      k.ok(P.Id === p.id && P.FirstName === p.firstName && P.LastName === p.lastName && P.Contact.EmailAddress === p.email, who('person identity'));
      const profile = json(p.profile);
      for (const key of Object.keys(profile)) k.ok(JSON.stringify(P[key]) === JSON.stringify(profile[key]), who(`profile ${key} differs from persons.profile`));
    }
    expect(k.bad).toEqual([]);
  });

  test('memos in the table are the snapshot memos', async () => {
    const reports = await a.selectFrom('alarmReports').select(['id', 'profileSnapshot']).limit(120).execute();
    for (const r of reports) {
      const memos = await a.selectFrom('alarmMemos').selectAll().where('alarmReportId', '=', r.id).orderBy('startDate').orderBy('id').execute();
      const snap = json(r.profileSnapshot).MemosAndActivities.ActivitiesWithMemos;
      expect(memos.map((m) => [m.id, m.startDate, m.durationInMinutes, m.displayName, m.textMemo, m.voiceMemoId]).sort()).toEqual(
        snap.map((m: any) => [m.Id, m.StartDate, m.DurationInMinutes, m.DisplayName.Name, m.TextMemo, m.VoiceMemoId]).sort(),
      );
    }
  });

  test('calls: 1–4 per report, the spec lines, failed calls with zero duration, recordings some unavailable', async () => {
    const calls = await all<any>(a, 'alarmCalls');
    const per = new Map<string, number>();
    const k = checks();
    for (const c2 of calls) {
      per.set(c2.alarmReportId, (per.get(c2.alarmReportId) ?? 0) + 1);
      const who = (w: string) => () => `${c2.id}: ${w}`;
      k.ok((CALL_LINES as readonly string[]).includes(c2.line), who(`line ${c2.line}`));
      k.ok(c2.startTime <= c2.endTime, who('times'));
      const recs = json(c2.records);
      k.ok(c2.duration !== 0 || recs.length === 0, who('failed call with a recording'));
      for (const rec of recs)
        k.ok(
          Object.keys(rec).sort().join() === 'Reason,SId,Unavailable' && (!rec.Unavailable || typeof rec.Reason === 'string'),
          who(`record ${JSON.stringify(rec)}`),
        );
      k.ok('FullName' in json(c2.participants)[0], who('participants'));
      k.ok(isValidPhoneNumber(c2.number), who(`number ${c2.number}`));
    }
    expect(k.bad).toEqual([]);
    expect(per.size).toBe(countsA.alarmReports);
    expect([...per.values()].filter((n) => n < 1 || n > 4)).toEqual([]);
    for (const line of CALL_LINES) expect([line, calls.some((x) => x.line === line)]).toEqual([line, true]);
    expect(calls.some((x) => x.duration === 0)).toBe(true);
    expect(calls.some((x) => json(x.records).some((r: any) => r.Unavailable))).toBe(true);
    expect(calls.filter((x) => x.alarmCall === 1).length).toBe(countsA.alarmReports);
  });

  test('activity journal: 3–10 entries per report, every CustomProperties kind present with its spec fields', async () => {
    const rows = await all<any>(a, 'activityJournal');
    const fields: Record<string, string[]> = {
      call: ['to', 'from', 'duration', 'status'],
      email: ['to', 'subject', 'content', 'status'],
      sms: ['to', 'body', 'status'],
      location: ['googleApiAddress', 'latitude', 'longitude', 'w3WAddress', 'gridReference'],
      verification: ['type', 'category'],
      note: ['text'],
      supportIssueRaised: ['controllerName', 'issueRaisedDate'],
      alarmNotice: ['expiryDate', 'notice'],
      alarmType: ['trigger'],
    };
    expect(Object.keys(fields).sort()).toEqual([...JOURNAL_KINDS].sort());
    const seen = new Set<string>();
    const per = new Map<string, number>();
    const k = checks();
    for (const r of rows) {
      per.set(r.alarmReportId, (per.get(r.alarmReportId) ?? 0) + 1);
      const props = json(r.customProperties);
      seen.add(props.kind);
      const want = fields[props.kind];
      k.ok(want && Object.keys(props).sort().join() === ['kind', ...want].sort().join(), () => `fields ${r.customProperties}`);
      k.ok(ISO.test(r.date) && typeof r.creator === 'string' && r.details.length > 0, () => `entry ${r.id}`);
    }
    expect(k.bad).toEqual([]);
    expect([...seen].sort()).toEqual([...JOURNAL_KINDS].sort());
    expect(per.size).toBe(countsA.alarmReports);
    expect([...per.values()].filter((n) => n < 3 || n > 10)).toEqual([]);
  });

  test('notes: 0–3 per report by ARC staff, with role labels', async () => {
    const notes = await all<any>(a, 'alarmNotes');
    expect(notes.length).toBeGreaterThan(0);
    const labels = new Set(Object.values(ROLE_LABELS));
    const per = new Map<string, number>();
    for (const n of notes) {
      per.set(n.alarmReportId, (per.get(n.alarmReportId) ?? 0) + 1);
      const roles = json(n.personRoles);
      expect(roles.length).toBeGreaterThan(0);
      for (const r of roles) expect(labels.has(r)).toBe(true);
      expect(n.createdDate <= NOW.toISOString()).toBe(true);
    }
    for (const k of per.values()) expect(k).toBeLessThanOrEqual(3);
    expect(notes.some((n) => json(n.personRoles).some((r: string) => /supervisor|manager/i.test(r)))).toBe(true);
  });

  test('analyses show every state of the plan check: followed and not, agreeing with the tick and questioning it', async () => {
    const checks = (await all<any>(a, 'alarmReportAnalyses')).map((x) => json(x.analysis).PlanCheck).filter(Boolean);
    expect(checks.length).toBeGreaterThan(0);
    const followed = checks.filter((p) => p.Followed).length;
    expect(followed, 'plans followed').toBeGreaterThan(checks.length * 0.2);
    expect(followed, 'plans not followed').toBeLessThan(checks.length);
    expect(checks.some((p) => p.Verdict === 'Agrees' && p.Followed)).toBe(true);
    expect(checks.some((p) => p.Verdict === 'Questions')).toBe(true);
  });
});

describe('customers', () => {
  test('the CRM directory holds every CRM-linked customer (same id, URN, name) and prospects that are not customers; every customer has an administrator', async () => {
    const crm = await a.selectFrom('crmAccounts').selectAll().execute();
    const linked = await a.selectFrom('customers').select(['name', 'salesforceId', 'salesforceUrn']).where('isSalesforceAccount', '=', 1).execute();
    const byId = new Map(crm.map((x) => [x.id, x]));
    for (const c of linked) expect(byId.get(c.salesforceId!)).toMatchObject({ name: c.name, urn: c.salesforceUrn, searchName: c.name.toLowerCase() });
    const customerNames = new Set((await a.selectFrom('customers').select('name').execute()).map((c) => c.name.toLowerCase()));
    const prospects = crm.filter((x) => !customerNames.has(x.searchName));
    expect(prospects.length).toBeGreaterThanOrEqual(3);
    expect(new Set(crm.map((x) => x.urn)).size).toBe(crm.length);
    const tenants = await a
      .selectFrom('customers as c')
      .select('c.tenantId')
      .where((eb) =>
        eb.not(
          eb.exists(
            eb
              .selectFrom('persons as p')
              .innerJoin('personRoles as pr', 'pr.personId', 'p.id')
              .select('p.id')
              .whereRef('p.tenantId', '=', 'c.tenantId')
              .where('pr.roleId', '=', ROLE_IDS.AdminRole),
          ),
        ),
      )
      .execute();
    expect(tenants).toEqual([]);
  });

  test('held e-mails wait only for customers that pause e-mail delivery, addressed to their people', async () => {
    const held = await a
      .selectFrom('outbox as o')
      .leftJoin('customers as c', 'c.tenantId', 'o.heldTenantId')
      .leftJoin('persons as p', (j) => j.onRef('p.email', '=', 'o.recipient').onRef('p.tenantId', '=', 'o.heldTenantId'))
      .select(['o.sentAt', 'c.isAutomaticEmailsPaused', 'p.id as personId'])
      .where('o.heldTenantId', 'is not', null)
      .execute();
    for (const h of held) expect(h).toEqual({ sentAt: null, isAutomaticEmailsPaused: 1, personId: expect.any(String) });
  });
});
