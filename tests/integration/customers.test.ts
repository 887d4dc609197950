// Customer endpoints (spec document 2 §7) on SQLite and, with TEST_DB=pg, PostgreSQL: list
// filters, sorting, paging and counts; one customer (bad and unknown ids); duplicates; create and
// update validation (portal reference rules by migrated state, status for CRM-linked accounts,
// phone '+'), etag conflicts; subscriptions with their three etags and the below-allocation check;
// settings rules (super admin only, feature flags, auto-generate forced off); administrators
// (list order, add with roles and set-password mail); permission refusals; the xlsx export.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { randomUUID } from 'node:crypto';
import { SignJWT } from 'jose';
import { readXlsx } from '../helpers/xlsx.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { tokenFor, PROVIDER_TENANT } from '../helpers/auth.js';
import { deviceRow, errorOf, insertCustomer, ok } from '../helpers/customers.js';
import { first, only } from '../helpers/lists.js';
import { CODE, MSG } from '../../src/shared/messages.js';
import { P, ROLE_IDS } from '../../src/shared/permissions.js';
import { TOKEN_AUDIENCE, TOKEN_ISSUER } from '../../src/server/auth/tokens.js';
import {
  CUSTOMER_CODE,
  CUSTOMER_TEXT,
  type CustomerAdminList,
  type CustomerCreated,
  type CustomerDetails,
  type CustomerDuplicates,
  type CustomerList,
  type CustomerSettings,
  type CustomerSubscriptions,
} from '../../src/shared/schemas/customers.js';
import type { CustomerTable } from '../../src/server/db/schema.js';

let t: TestApp;
let admin: string;
let readOnly: string;
let controller: string;
/** A caller allowed to manage customers who is not a super admin (no such role ships yet; the rule must hold anyway). */
let manager: string;
const NOW = Date.parse('2026-11-22T12:00:00.000Z');

let gold: CustomerTable; // migrated 900, Gold, Active
let internal: CustomerTable; // internal: no tier, no status, not migrated
let silver: CustomerTable; // Silver, Onboarding, not migrated, CRM-linked

beforeAll(async () => {
  t = await createTestApp({ now: () => new Date(NOW) });
  admin = await tokenFor(t.config, ['SuperAdminRole']);
  readOnly = await tokenFor(t.config, ['SuperAdminReadonlyRole']);
  controller = await tokenFor(t.config, ['ArcControllerRole']);
  const now = Math.floor(NOW / 1000);
  manager = await new SignJWT({
    tenantId: PROVIDER_TENANT,
    email: 'manager@test.test',
    permissions: [P.HasAccess, P.CustomerListView, P.CustomerView, P.CustomerManage],
    role: [],
    epoch: 0,
  })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(randomUUID())
    .setIssuedAt(now)
    .setExpirationTime(now + 900)
    .setIssuer(TOKEN_ISSUER)
    .setAudience(TOKEN_AUDIENCE)
    .sign(t.config.jwtSecret);
  gold = await insertCustomer(t.db, {
    name: 'Harbour Logistics',
    portalId: '900',
    isMigratedAccount: 1,
    tier: 3,
    status: 1,
    salesforceUrn: 'URN0000001',
    salesforceId: '0014J000001AAA',
    isSalesforceAccount: 1,
    countryId: 'country-gb',
    city: 'Leeds',
  });
  await insertCustomer(t.db, { name: 'acme Water', portalId: '10000', isMigratedAccount: 1, tier: 1, status: 3, salesforceUrn: 'URN0000002' });
  internal = await insertCustomer(t.db, { name: 'Internal Test Account' });
  silver = await insertCustomer(t.db, { name: 'Zenith Care', tier: 2, status: 2, salesforceUrn: 'URN0000003', isSalesforceAccount: 1 });
});
afterAll(async () => {
  await t?.close();
});

const req = (path: string, init: Parameters<TestApp['request']>[1] = {}) => t.request(path, { token: admin, ...init });
const list = async (json: Record<string, unknown>, token = admin) =>
  ok<CustomerList>(await t.request('/api/v1/customer/get-list', { method: 'POST', token, json }));
const names = (l: CustomerList) => l.customers.map((c) => c.name);
const stored = (id: string) => t.db.selectFrom('customers').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

describe('customer list', () => {
  test('defaults: page 1 sorted by Reference (numerically, missing last), both counts', async () => {
    const l = await list({});
    expect(names(l)).toEqual(['Harbour Logistics', 'acme Water', 'Internal Test Account', 'Zenith Care']);
    expect(l.totalCount).toBe(4);
    expect(l.generalTotalCount).toBe(4);
    expect(first(l.customers)).toEqual({
      id: gold.id,
      tenantId: gold.tenantId,
      reference: '900',
      name: 'Harbour Logistics',
      tier: { value: 3, name: 'Gold' },
      status: { value: 1, name: 'Active' },
      migrated: true,
    });
    expect(l.customers.find((c) => c.id === internal.id)).toMatchObject({ reference: null, tier: null, status: null, migrated: false });
    // Missing references stay last; ties break on the name in the same direction.
    expect(names(await list({ desc: true }))).toEqual(['acme Water', 'Harbour Logistics', 'Zenith Care', 'Internal Test Account']);
  });

  test('filters: search by name or reference, tiers, statuses, migrated only; totalCount follows', async () => {
    expect(names(await list({ searchValue: 'ACME' }))).toEqual(['acme Water']);
    expect(names(await list({ searchValue: '100' }))).toEqual(['acme Water']);
    const tiers = await list({ tierIds: [2, 3] });
    expect(names(tiers)).toEqual(['Harbour Logistics', 'Zenith Care']);
    expect(tiers).toMatchObject({ totalCount: 2, generalTotalCount: 4 });
    expect(names(await list({ statusIds: [3] }))).toEqual(['acme Water']);
    expect(names(await list({ migratedOnly: true, orderBy: 'Name' }))).toEqual(['Harbour Logistics', 'acme Water']);
    expect((await list({ searchValue: '100%' })).customers).toEqual([]); // wildcards match themselves
  });

  test('sorting by Name, Tier, Status and Migrated (missing tier/status last in both directions), paging', async () => {
    expect(names(await list({ orderBy: 'Name' }))).toEqual(['Harbour Logistics', 'Internal Test Account', 'Zenith Care', 'acme Water']);
    expect(names(await list({ orderBy: 'Tier' }))).toEqual(['acme Water', 'Zenith Care', 'Harbour Logistics', 'Internal Test Account']);
    expect(names(await list({ orderBy: 'Tier', desc: true }))).toEqual(['Harbour Logistics', 'Zenith Care', 'acme Water', 'Internal Test Account']);
    expect(names(await list({ orderBy: 'Status' }))).toEqual(['Harbour Logistics', 'Zenith Care', 'acme Water', 'Internal Test Account']);
    expect(names(await list({ orderBy: 'Migrated', desc: true }))).toEqual(['acme Water', 'Harbour Logistics', 'Zenith Care', 'Internal Test Account']);
    const p2 = await list({ orderBy: 'Name', page: 2, pageSize: 10 });
    expect(p2.customers).toEqual([]);
    expect(p2.totalCount).toBe(4);
    // A filtered page past the end still counts the matches.
    expect(await list({ tierIds: [2, 3], page: 2 })).toMatchObject({ customers: [], totalCount: 2, generalTotalCount: 4 });
    expect(await list({ tierIds: [2, 3], pageSize: 25 })).toMatchObject({ totalCount: 2 });
  });

  test('bad filters are 400 with the field named', async () => {
    for (const [json, field] of [
      [{ pageSize: 7 }, 'pageSize'],
      [{ orderBy: 'Colour' }, 'orderBy'],
      [{ tierIds: [9] }, 'tierIds.0'],
    ] as const) {
      const res = await req('/api/v1/customer/get-list', { method: 'POST', json });
      expect(res.status).toBe(400);
      expect(Object.keys((await errorOf(res)).Errors ?? {})).toContain(field);
    }
  });
});

describe('one customer', () => {
  test('get-by-id and get-details; bad id 400, unknown id 404 with the spec message', async () => {
    expect(await ok(await req(`/api/v1/customer/get-by-id?id={${gold.id.toUpperCase()}}`))).toMatchObject({ id: gold.id, etag: gold.etag, name: gold.name });
    const d = await ok<CustomerDetails>(await req(`/ps-admin/customers/get-details?CustomerId=${gold.id}`));
    expect(d).toMatchObject({
      Id: gold.id,
      TenantId: gold.tenantId,
      Name: 'Harbour Logistics',
      Etag: gold.etag,
      PortalId: '900',
      Tier: { Value: 3, Name: 'Gold' },
      Status: { Value: 1, Name: 'Active' },
      IsMigratedAccount: true,
      SalesforceUrn: 'URN0000001',
      IsSalesforceAccount: true,
      Address: { City: 'Leeds', Country: 'United Kingdom', CountryId: 'country-gb' },
    });
    const bad = await req('/ps-admin/customers/get-details?CustomerId=nope');
    expect(bad.status).toBe(400);
    expect((await errorOf(bad)).Message).toBe(CUSTOMER_TEXT.invalidId);
    const missing = await req(`/ps-admin/customers/get-details?CustomerId=${randomUUID()}`);
    expect(missing.status).toBe(404);
    expect(await errorOf(missing)).toMatchObject({ Message: MSG.badUrl, Code: CUSTOMER_CODE.notFound });
  });

  test('filters-all and the lookups', async () => {
    const f = await ok<{ Tiers: unknown[]; Statuses: unknown[] }>(await req('/ps-admin/customers/filters-all'));
    expect(f.Tiers).toContainEqual({ Value: 3, Name: 'Gold' });
    expect(f.Statuses).toContainEqual({ Value: 1, Name: 'Active' });
  });
});

describe('duplicates', () => {
  test('by name (case-insensitive), portal reference and CRM URN, saying which matched', async () => {
    const d = await ok<CustomerDuplicates>(
      await req('/ps-admin/customers/get-duplicates?Name=%20harbour%20logistics%20&PortalReferenceNumber=10000&SalesforceUrn=urn0000003'),
    );
    expect(d.Duplicates.map((x) => [x.Name, x.MatchedOn])).toEqual([
      ['Harbour Logistics', ['Name']],
      ['Zenith Care', ['SalesforceUrn']],
      ['acme Water', ['PortalReferenceNumber']],
    ]);
    expect((await ok<CustomerDuplicates>(await req('/ps-admin/customers/get-duplicates?Name=Nobody'))).Duplicates).toEqual([]);
    expect((await ok<CustomerDuplicates>(await req('/ps-admin/customers/get-duplicates'))).Duplicates).toEqual([]);
  });
});

describe('create and update', () => {
  const linked = {
    name: 'Northern Rail Services',
    isMigratedAccount: true,
    portalReferenceNumber: '4242',
    phoneNumber: '44 113 496 0000',
    customerStatus: 1,
    customerSuccessTier: 2,
    salesforceId: '0014J000009XYZ',
    salesforceUrn: 'URN0009999',
    ownerFullName: 'Alex Owner',
    customerSuccessManagerFullName: 'Sam Success',
    addressDto: { addressLine1: '1 Station Road', city: 'York', postCode: 'YO1 1AA', countryId: 'country-gb' },
  };

  test('validation messages of spec §5', async () => {
    const cases: [Record<string, unknown>, string, string][] = [
      [{ ...linked, name: '  ' }, 'name', CUSTOMER_TEXT.nameRequired],
      [{ ...linked, isMigratedAccount: undefined }, 'isMigratedAccount', CUSTOMER_TEXT.migratedRequired],
      [{ ...linked, portalReferenceNumber: '12a' }, 'portalReferenceNumber', MSG.portalRefNumber],
      [{ ...linked, portalReferenceNumber: null }, 'portalReferenceNumber', CUSTOMER_TEXT.portalReferenceRequired],
      [{ ...linked, customerStatus: null }, 'customerStatus', CUSTOMER_TEXT.statusRequired],
      [{ ...linked, addressDto: { countryId: 'country-xx' } }, 'addressDto.countryId', CUSTOMER_TEXT.unknownCountry],
      [{ ...linked, administrator: { firstName: 'A', lastName: 'B', emailAddress: 'not-an-email' } }, 'administrator.emailAddress', MSG.enterValidEmail],
      [{ ...linked, phoneNumber: '0770' }, 'phoneNumber', MSG.validPhoneExample('07400 123456')],
      [{ ...linked, phoneNumber: '+07700900123' }, 'phoneNumber', MSG.validPhoneExample('07400 123456')],
      [{ ...linked, addressDto: { ...linked.addressDto, postCode: 'ZZ99 9ZZZZ' } }, 'addressDto.postCode', 'Please enter a valid post code, example: SW1A 1AA'],
    ];
    for (const [json, field, message] of cases) {
      const res = await req('/api/v1/customer/create', { method: 'POST', json });
      expect(res.status, field).toBe(400);
      const e = await errorOf(res);
      expect(e.Errors?.[field], field).toBe(message);
    }
    expect((await list({ searchValue: 'Northern' })).customers).toEqual([]);
  });

  test('create stores the account (phone gets its +, CRM fields) and answers 201 { Id, Etag, TenantId }', async () => {
    const before = await list({});
    const created = await ok<CustomerCreated>(await req('/api/v1/customer/create', { method: 'POST', json: linked }), 201);
    // the list counts the new account at once, though its total was read a moment before
    expect(await list({})).toMatchObject({ totalCount: before.totalCount + 1, generalTotalCount: before.generalTotalCount + 1 });
    const row = await stored(created.Id);
    expect(row).toMatchObject({
      tenantId: created.TenantId,
      etag: created.Etag,
      name: 'Northern Rail Services',
      portalId: '4242',
      phoneNumber: '+441134960000',
      status: 1,
      tier: 2,
      isMigratedAccount: 1,
      isSalesforceAccount: 1,
      salesforceUrn: 'URN0009999',
      accountManagerFullName: 'Alex Owner',
      customerSuccessManagerFullName: 'Sam Success',
      addressLine1: '1 Station Road',
      countryId: 'country-gb',
    });
    const audit = await t.db.selectFrom('auditLog').selectAll().where('entityId', '=', created.Id).execute();
    expect(audit.map((a) => a.action)).toEqual(['customer.create']);
  });

  test('a national phone number is stored as the international number, never +0…; a post code in its format', async () => {
    for (const [typed, storedAs] of [
      ['07700 900123', '+447700900123'],
      ['447700900123', '+447700900123'],
      ['+44 7700 900123', '+447700900123'],
    ] as const) {
      const created = await ok<CustomerCreated>(
        await req('/api/v1/customer/create', {
          method: 'POST',
          json: { name: `Phone ${typed}`, isMigratedAccount: false, phoneNumber: typed, addressDto: { postCode: 'sw1a1aa' } },
        }),
        201,
      );
      expect(await stored(created.Id)).toMatchObject({ phoneNumber: storedAs, postCode: 'SW1A 1AA' });
    }
  });

  test('an internal account keeps no URN, managers, tier or status, and no portal reference unless migrated', async () => {
    const created = await ok<CustomerCreated>(
      await req('/api/v1/customer/create', {
        method: 'POST',
        json: { name: 'QA Internal', isMigratedAccount: false, portalReferenceNumber: '77', customerStatus: 1, customerSuccessTier: 4, ownerFullName: 'X' },
      }),
      201,
    );
    expect(await stored(created.Id)).toMatchObject({ portalId: null, status: null, tier: null, accountManagerFullName: null, isSalesforceAccount: 0 });
  });

  test('create with the first administrator: person in the new tenant with admin + portal roles and a set-password e-mail', async () => {
    const created = await ok<CustomerCreated>(
      await req('/api/v1/customer/create', {
        method: 'POST',
        json: { name: 'Admin Co', isMigratedAccount: false, administrator: { firstName: 'Ada', lastName: 'Admin', emailAddress: 'Ada@AdminCo.test' } },
      }),
      201,
    );
    const person = await t.db.selectFrom('persons').selectAll().where('email', '=', 'ada@adminco.test').executeTakeFirstOrThrow();
    expect(person.tenantId).toBe(created.TenantId);
    const roles = await t.db.selectFrom('personRoles').select('roleId').where('personId', '=', person.id).execute();
    expect(roles.map((r) => r.roleId).sort()).toEqual([ROLE_IDS.AdminRole, ROLE_IDS.PortalUserRole].sort());
    const mail = only(await t.db.selectFrom('outbox').selectAll().where('recipient', '=', 'ada@adminco.test').execute());
    expect(mail.subject).toBe('Set your password');
    expect(mail.body).toContain('Admin Co');
    expect(mail.heldTenantId).toBeNull();
    // The same e-mail again: 409, and no second customer.
    const again = await req('/api/v1/customer/create', {
      method: 'POST',
      json: { name: 'Admin Co 2', isMigratedAccount: false, administrator: { firstName: 'A', lastName: 'B', emailAddress: 'ada@adminco.test' } },
    });
    expect(again.status).toBe(409);
    expect((await errorOf(again)).Code).toBe(CODE.duplicateEmail);
    expect((await list({ searchValue: 'Admin Co 2' })).customers).toEqual([]);
  });

  test('update: stale etag 409 and nothing written; portal reference rules by the stored migrated state', async () => {
    const url = (id: string) => `/api/v1/customer/update?customerId=${id}`;
    const base = { name: 'Zenith Care Ltd', isMigratedAccount: false, customerStatus: 2, salesforceUrn: 'URN0000003', customerSuccessTier: 2 };
    const stale = await req(url(silver.id), { method: 'PUT', json: { customerAccount: base, etag: '"old"' } });
    expect(stale.status).toBe(409);
    expect(await errorOf(stale)).toMatchObject({ Code: CODE.conflict, Message: MSG.staleEtag });
    expect((await stored(silver.id)).name).toBe('Zenith Care');
    // Not migrated yet → becoming migrated needs the reference.
    const noRef = await req(url(silver.id), { method: 'PUT', json: { customerAccount: { ...base, isMigratedAccount: true }, etag: silver.etag } });
    expect(noRef.status).toBe(400);
    expect((await errorOf(noRef)).Errors?.['customerAccount.portalReferenceNumber']).toBe(CUSTOMER_TEXT.portalReferenceRequired);
    const done = await ok<{ Etag: string }>(await req(url(silver.id), { method: 'PUT', json: { customerAccount: base, etag: silver.etag } }));
    expect(await stored(silver.id)).toMatchObject({ name: 'Zenith Care Ltd', etag: done.Etag });
    // Already migrated: the stored reference stays when left out.
    const g = await ok<{ Etag: string }>(
      await req(url(gold.id), {
        method: 'PUT',
        json: {
          customerAccount: { name: 'Harbour Logistics', isMigratedAccount: true, customerStatus: 1, salesforceUrn: 'URN0000001', customerSuccessTier: 3 },
          etag: gold.etag,
        },
      }),
    );
    expect(await stored(gold.id)).toMatchObject({ portalId: '900', etag: g.Etag });
    gold = await stored(gold.id);
    silver = await stored(silver.id);
  });
});

describe('concurrency', () => {
  test('20 concurrent updates with one etag: one 200, 19 × 409, the winner stored whole', async () => {
    const c = await insertCustomer(t.db, { name: 'Race Co' });
    const results = await Promise.all(
      Array.from({ length: 20 }, async (_, i) => {
        const res = await req(`/api/v1/customer/update?customerId=${c.id}`, {
          method: 'PUT',
          json: { customerAccount: { name: `Race Co ${i}`, isMigratedAccount: true, portalReferenceNumber: String(7000 + i) }, etag: c.etag },
        });
        return { i, status: res.status };
      }),
    );
    const winners = results.filter((r) => r.status === 200);
    expect(winners).toHaveLength(1);
    expect(results.filter((r) => r.status === 409)).toHaveLength(19);
    const w = winners[0]!.i;
    expect(await stored(c.id)).toMatchObject({ name: `Race Co ${w}`, portalId: String(7000 + w) });
  });
});

describe('subscriptions', () => {
  let cust: CustomerTable;
  beforeAll(async () => {
    cust = await insertCustomer(t.db, { name: 'Subs Ltd', salesforceUrn: 'URN-SUBS', status: 1 });
    await t.db.insertInto('deviceSubscriptions').values({ customerId: cust.id, deviceType: 620, purchased: 5 }).execute();
    await t.db.insertInto('appSubscriptions').values({ customerId: cust.id, appSubscriptionType: 1, purchased: 10 }).execute();
    await t.db
      .insertInto('devices')
      .values([
        deviceRow({ serialNumber: 'SUB-1', type: 620, status: 3, customerId: cust.id, isUserAssigned: 1 }),
        deviceRow({ serialNumber: 'SUB-2', type: 620, status: 3, customerId: cust.id }),
        deviceRow({ serialNumber: 'SUB-3', type: 750, status: 3, customerId: cust.id }),
      ])
      .execute();
  });
  const get = async () => ok<CustomerSubscriptions>(await req(`/ps-admin/customers/get-subscriptions?CustomerId=${cust.id}`));
  const put = (json: Record<string, unknown>, token = admin) =>
    t.request(`/api/v1/customer/subscriptions/update?customerId=${cust.id}`, { method: 'PUT', token, json });
  const features = {
    isWelfareCheckEnabled: true,
    isFallDetectionEnabled: false,
    isTravelSafeEnabled: false,
    isTrackingEnabled: true,
    isSureCamEnabled: false,
    trackingInterval: 10,
    isSosDisabled: true,
  };

  test('get: every device type with purchased, allocated, assigned; app subscriptions with Left', async () => {
    const s = await get();
    expect(s.DeviceSubscriptions.Subscriptions.find((r) => r.Type.Value === 620)).toEqual({
      Type: { Value: 620, Name: 'SG620' },
      Purchased: 5,
      Allocated: 2,
      Assigned: 1,
    });
    expect(s.DeviceSubscriptions.Subscriptions.find((r) => r.Type.Value === 750)).toMatchObject({ Purchased: 0, Allocated: 1 });
    expect(s.DeviceSubscriptions.Subscriptions).toHaveLength(20);
    expect(first(s.AppSubscriptions.Subscriptions)).toEqual({ Type: { Value: 1, Name: 'Pro' }, Purchased: 10, Assigned: 0, Left: 10 });
    expect(s).toMatchObject({ CustomerId: cust.id, CustomerEtag: cust.etag, CustomerTenantId: cust.tenantId });
  });

  test('each section needs its current etag: stale ones are named, nothing is written', async () => {
    const s = await get();
    const res = await put({
      deviceSubscriptions: { subscriptions: [{ deviceType: 620, purchased: 9 }] },
      deviceSubscriptionsEtag: '"stale"',
      appSubscriptions: { appFeatures: features, subscriptions: [{ appSubscriptionType: 1, purchased: 11 }] },
      appSubscriptionsEtag: s.AppSubscriptions.Etag,
      customerEtag: '"stale-too"',
    });
    expect(res.status).toBe(409);
    const e = await errorOf(res);
    expect(e.Code).toBe(CODE.conflict);
    expect(Object.keys(e.Errors ?? {}).sort()).toEqual(['customerEtag', 'deviceSubscriptionsEtag']);
    expect(await get()).toEqual(s);
    const noEtag = await put({
      additionalServices: {
        nationalResponse: true,
        globalResponse: false,
        eurowatch: false,
        translationServices: false,
        checkInTimers: false,
        teamBroadcast: false,
      },
    });
    expect(noEtag.status).toBe(400);
    expect((await errorOf(noEtag)).Errors?.customerEtag).toBe(CUSTOMER_TEXT.etagRequired);
  });

  test('validation: purchased numbers and the tracking interval', async () => {
    const s = await get();
    const neg = await put({
      deviceSubscriptions: { subscriptions: [{ deviceType: 620, purchased: -1 }] },
      deviceSubscriptionsEtag: s.DeviceSubscriptions.Etag,
    });
    expect(neg.status).toBe(400);
    expect((await errorOf(neg)).Message).toBe(MSG.subscriptionNumbers);
    const frac = await put({
      deviceSubscriptions: { subscriptions: [{ deviceType: 620, purchased: 2.5 }] },
      deviceSubscriptionsEtag: s.DeviceSubscriptions.Etag,
    });
    expect((await errorOf(frac)).Message).toBe(MSG.subscriptionNumbers);
    const interval = await put({
      appSubscriptions: { appFeatures: { ...features, trackingInterval: 4 }, subscriptions: [] },
      appSubscriptionsEtag: s.AppSubscriptions.Etag,
    });
    expect(interval.status).toBe(400);
    expect((await errorOf(interval)).Errors?.['appSubscriptions.appFeatures.trackingInterval']).toBe(MSG.atLeast5);
  });

  test('below what is allocated with the check asked for (force: false): 422; saving changes only the etags of the sections sent', async () => {
    const s = await get();
    const body = {
      deviceSubscriptions: { subscriptions: [{ deviceType: 620, purchased: 1 }] },
      deviceSubscriptionsEtag: s.DeviceSubscriptions.Etag,
      force: false,
    };
    const refused = await put(body);
    expect(refused.status).toBe(422);
    const e = await errorOf(refused);
    expect(e).toMatchObject({ Code: CUSTOMER_CODE.allocationExceeds, Message: CUSTOMER_TEXT.belowAllocationMany('SG620') });
    expect(Object.keys(e.Errors ?? {})).toEqual(['620']);
    const saved = await ok<CustomerSubscriptions>(await put({ ...body, force: true }));
    expect(saved.DeviceSubscriptions.Subscriptions.find((r) => r.Type.Value === 620)?.Purchased).toBe(1);
    expect(saved.DeviceSubscriptions.Etag).not.toBe(s.DeviceSubscriptions.Etag);
    expect(saved.AppSubscriptions.Etag).toBe(s.AppSubscriptions.Etag);
    expect(saved.CustomerEtag).toBe(s.CustomerEtag);

    const all = await ok<CustomerSubscriptions>(
      await put({
        appSubscriptions: { appFeatures: features, subscriptions: [{ appSubscriptionType: 2, purchased: 3 }] },
        appSubscriptionsEtag: saved.AppSubscriptions.Etag,
        additionalServices: {
          nationalResponse: true,
          globalResponse: false,
          eurowatch: true,
          translationServices: false,
          checkInTimers: true,
          teamBroadcast: false,
        },
        customerEtag: saved.CustomerEtag,
        deviceSubscriptionsEtag: null,
      }),
    );
    expect(all.AppSubscriptions.AppFeatures).toEqual({
      IsWelfareCheckEnabled: true,
      IsFallDetectionEnabled: false,
      IsTravelSafeEnabled: false,
      IsTrackingEnabled: true,
      IsSureCamEnabled: false,
      TrackingInterval: 10,
      IsSosDisabled: true,
    });
    expect(all.AdditionalServices).toMatchObject({ NationalResponse: true, Eurowatch: true, CheckInTimers: true });
    expect(all.AppSubscriptions.Subscriptions.find((r) => r.Type.Value === 2)?.Purchased).toBe(3);
    expect(all.DeviceSubscriptions.Etag).toBe(saved.DeviceSubscriptions.Etag);
    expect(all.CustomerEtag).not.toBe(saved.CustomerEtag);
    expect(await stored(cust.id)).toMatchObject({ isSosDisabled: 1, trackingInterval: 10, nationalResponse: 1, checkInTimers: 1 });
  });

  test('Check In Timers needs the CustomCheckInTime feature', async () => {
    await t.db.updateTable('features').set({ isEnabled: 0 }).where('name', '=', 'CustomCheckInTime').execute();
    try {
      const other = await insertCustomer(t.db, { name: 'Timers Ltd' });
      const res = await t.request(`/api/v1/customer/subscriptions/update?customerId=${other.id}`, {
        method: 'PUT',
        token: admin,
        json: {
          additionalServices: {
            nationalResponse: false,
            globalResponse: false,
            eurowatch: false,
            translationServices: false,
            checkInTimers: true,
            teamBroadcast: false,
          },
          customerEtag: other.etag,
        },
      });
      expect(res.status).toBe(422);
      expect((await errorOf(res)).Code).toBe(CUSTOMER_CODE.featureDisabled);
      expect((await stored(other.id)).checkInTimers).toBe(0);
    } finally {
      await t.db.updateTable('features').set({ isEnabled: 1 }).where('name', '=', 'CustomCheckInTime').execute();
    }
  });
});

describe('settings', () => {
  const flags = {
    IsAutomaticEmailsPaused: false,
    AllowDeviceSubscriptionChanges: false,
    EnableDiscreetAlarmApp: false,
    EnableFallDetectionApp: false,
    EnableSmsActivityConfirmation: false,
    EnableAlarmReportIntelligence: false,
    AutoGenerateAlarmIntelligence: false,
  };
  let cust: CustomerTable;
  beforeAll(async () => {
    cust = await insertCustomer(t.db, { name: 'Settings Ltd' });
  });
  const get = async () => ok<CustomerSettings>(await req(`/ps-admin/customers/get-settings?CustomerId=${cust.id}`));
  const put = (customerEtag: string, settings: typeof flags, token = admin) =>
    t.request(`/api/v1/customer/settings/update?customerId=${cust.id}`, { method: 'PUT', token, json: { customerEtag, settings } });

  test('super-admin-only toggles: refused for others, who may still change the rest', async () => {
    const s = await get();
    expect(s).toEqual({ CustomerEtag: cust.etag, TenantId: cust.tenantId, Settings: flags });
    const refused = await put(s.CustomerEtag, { ...flags, EnableDiscreetAlarmApp: true }, manager);
    expect(refused.status).toBe(403);
    const e = await errorOf(refused);
    expect(e.Message).toBe(MSG.forbidden);
    expect(e.Errors).toEqual({ 'settings.EnableDiscreetAlarmApp': CUSTOMER_TEXT.superAdminOnly });
    const fine = await ok<CustomerSettings>(await put(s.CustomerEtag, { ...flags, AllowDeviceSubscriptionChanges: true }, manager));
    expect(fine.Settings.AllowDeviceSubscriptionChanges).toBe(true);
    expect(fine.CustomerEtag).not.toBe(s.CustomerEtag);
    const stale = await put(s.CustomerEtag, flags);
    expect(stale.status).toBe(409);
    expect((await errorOf(stale)).Code).toBe(CODE.conflict);
    expect((await put(fine.CustomerEtag, flags, readOnly)).status).toBe(403);
  });

  test('Alarm Report Intelligence: feature flags, and auto-generate forced off with it', async () => {
    let s = await get();
    await t.db.updateTable('features').set({ isEnabled: 0 }).where('name', '=', 'EnableAlarmReportIntelligence').execute();
    const off = await put(s.CustomerEtag, { ...s.Settings, EnableAlarmReportIntelligence: true });
    expect(off.status).toBe(422);
    expect((await errorOf(off)).Errors).toEqual({ 'settings.EnableAlarmReportIntelligence': CUSTOMER_TEXT.featureDisabled('EnableAlarmReportIntelligence') });
    await t.db.updateTable('features').set({ isEnabled: 1 }).where('name', '=', 'EnableAlarmReportIntelligence').execute();
    s = await ok<CustomerSettings>(await put(s.CustomerEtag, { ...s.Settings, EnableAlarmReportIntelligence: true, AutoGenerateAlarmIntelligence: true }));
    expect(s.Settings).toMatchObject({ EnableAlarmReportIntelligence: true, AutoGenerateAlarmIntelligence: true });
    s = await ok<CustomerSettings>(await put(s.CustomerEtag, { ...s.Settings, EnableAlarmReportIntelligence: false }));
    expect(s.Settings).toMatchObject({ EnableAlarmReportIntelligence: false, AutoGenerateAlarmIntelligence: false });
    expect(await stored(cust.id)).toMatchObject({ enableAlarmReportIntelligence: 0, autoGenerateAlarmIntelligence: 0 });
  });
});

describe('administrators', () => {
  test('add through POST /api/v1/person with tenant-id: stored with both roles, set-password mail; list pages by 10, UserName descending', async () => {
    const cust = await insertCustomer(t.db, { name: 'Admins Ltd' });
    const roleIds = [ROLE_IDS.AdminRole, ROLE_IDS.PortalUserRole];
    for (let i = 0; i < 11; i++) {
      const res = await req('/api/v1/person', {
        method: 'POST',
        headers: { 'tenant-id': cust.tenantId },
        json: { person: { firstName: `Admin${i}`, lastName: 'Person', emailAddress: `admin${String(i).padStart(2, '0')}@admins.test`, roleIds } },
      });
      await ok(res, 201);
    }
    // A lone worker of the tenant (portal user only) is not an administrator.
    await ok(
      await req('/api/v1/person', {
        method: 'POST',
        headers: { 'tenant-id': cust.tenantId },
        json: { person: { firstName: 'W', lastName: 'Orker', emailAddress: 'worker@admins.test', roleIds: [ROLE_IDS.PortalUserRole] } },
      }),
      201,
    );
    const p = await t.db.selectFrom('persons').selectAll().where('email', '=', 'admin00@admins.test').executeTakeFirstOrThrow();
    expect(p.tenantId).toBe(cust.tenantId);
    const roles = await t.db.selectFrom('personRoles').select('roleId').where('personId', '=', p.id).execute();
    expect(roles.map((r) => r.roleId).sort()).toEqual([...roleIds].sort());
    const mail = only(await t.db.selectFrom('outbox').selectAll().where('recipient', '=', 'admin00@admins.test').execute());
    expect(mail.subject).toBe('Set your password');
    expect(mail.body).toContain('Admins Ltd');

    const page1 = await ok<CustomerAdminList>(await req(`/ps-admin/persons/get-customer-admin-list?TenantId=${cust.tenantId}`));
    expect(page1.TotalCount).toBe(11);
    expect(page1.Items).toHaveLength(10);
    expect(first(page1.Items)).toEqual({ Id: expect.any(String), FirstName: 'Admin10', LastName: 'Person', Email: 'admin10@admins.test' });
    const page2 = await ok<CustomerAdminList>(
      await req(`/ps-admin/persons/get-customer-admin-list?TenantId=${cust.tenantId}&Page=2&PageSize=10&Desc=true&OrderBy=UserName`),
    );
    expect(page2.Items.map((a) => a.Email)).toEqual(['admin00@admins.test']);
    const asc = await ok<CustomerAdminList>(await req(`/ps-admin/persons/get-customer-admin-list?TenantId=${cust.tenantId}&Desc=false`));
    expect(first(asc.Items).Email).toBe('admin00@admins.test');
    // Only customer tenants: never the provider's staff.
    expect((await req(`/ps-admin/persons/get-customer-admin-list?TenantId=${PROVIDER_TENANT}`)).status).toBe(404);
    expect((await req(`/ps-admin/persons/get-customer-admin-list?TenantId=${randomUUID()}`)).status).toBe(404);
    // Invalid e-mail: the spec's message.
    const bad = await req('/api/v1/person', {
      method: 'POST',
      headers: { 'tenant-id': cust.tenantId },
      json: { person: { firstName: 'A', lastName: 'B', emailAddress: 'nope', roleIds } },
    });
    expect(bad.status).toBe(400);
    expect((await errorOf(bad)).Message).toBe(MSG.enterValidEmail);
  });
});

describe('exports and permissions', () => {
  test('customer export: an .xlsx of the filtered list; none matching is 400', async () => {
    const res = await req('/api/v1/customer/export/list-with-filters', { method: 'POST', json: { migratedOnly: true, tierIds: [1, 2, 3], orderBy: 'Name' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    expect(res.headers.get('content-disposition')).toMatch(/Customers_20261122_120000\.xlsx/);
    const [sheet] = await readXlsx(Buffer.from(await res.arrayBuffer()));
    expect(sheet?.data).toEqual([
      ['Reference', 'Name', 'Tier', 'Migrated', 'Status'],
      ['900', 'Harbour Logistics', 'Gold', 'Yes', 'Active'],
      ['4242', 'Northern Rail Services', 'Silver', 'Yes', 'Active'],
      ['10000', 'acme Water', 'Bronze', 'Yes', 'Suspended'],
    ]);
    const none = await req('/api/v1/customer/export/list-with-filters', { method: 'POST', json: { searchValue: 'no such customer' } });
    expect(none.status).toBe(400);
    expect((await errorOf(none)).Message).toBe(MSG.exportPayloadEmpty);
  });

  test('refusals: 401 without a token, 403 with the spec message for roles without the permission', async () => {
    expect((await t.request('/api/v1/customer/get-list', { method: 'POST', json: {} })).status).toBe(401);
    const r = await t.request('/api/v1/customer/get-list', { method: 'POST', token: controller, json: {} });
    expect(r.status).toBe(403);
    expect((await errorOf(r)).Message).toBe(MSG.forbidden);
    for (const [path, method] of [
      ['/api/v1/customer/create', 'POST'],
      [`/api/v1/customer/update?customerId=${gold.id}`, 'PUT'],
      [`/api/v1/customer/subscriptions/update?customerId=${gold.id}`, 'PUT'],
      ['/api/v1/device/allocate-many', 'POST'],
    ] as const)
      expect((await t.request(path, { method, token: readOnly, json: {} })).status, path).toBe(403);
    expect((await t.request(`/ps-admin/customers/get-details?CustomerId=${gold.id}`, { token: readOnly })).status).toBe(200);
  });
});
