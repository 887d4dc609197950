// The customer and person lists' kept counts on SQLite (PostgreSQL with TEST_DB=pg): the customer
// list's totalCount for tier, status and migrated filters and its generalTotalCount, and the person
// list's TotalCount of the whole directory, come from counts kept by triggers. After any mix of
// inserts, bulk and single updates and deletes made straight in the database (as imports and the
// seed do), they must equal a count of the rows, for random filters.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { randomUUID } from 'node:crypto';
import { createTestDb, type TestDb } from '../helpers/db.js';
import { customerRow } from '../helpers/customer-rows.js';
import { insertPerson } from '../helpers/auth.js';
import { sql } from '../../src/server/db/index.js';
import { ALL_TENANTS } from '../../src/server/auth/tenant-scope.js';
import { listCustomers } from '../../src/server/modules/customers/repo.js';
import { listPersons } from '../../src/server/modules/persons/repo.js';
import { customerListBody } from '../../src/shared/schemas/customers.js';
import { personListQuery } from '../../src/shared/schemas/persons.js';
import * as v from 'valibot';

let t: TestDb;
beforeAll(async () => {
  t = await createTestDb();
});
afterAll(async () => t?.close());

function rng(seed: number) {
  let x = seed;
  return () => (x = (x * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
}
const pick = <T>(r: () => number, xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!;
const CODES = [null, 1, 2, 3, 4];
const some = (r: () => number) => [1, 2, 3, 4].filter(() => r() < 0.4);

async function addCustomers(n: number, r: () => number) {
  for (let i = 0; i < n; i++)
    await t.db
      .insertInto('customers')
      .values(customerRow({ name: `Count ${randomUUID().slice(0, 8)}`, tier: pick(r, CODES), status: pick(r, CODES), isMigratedAccount: r() < 0.4 ? 1 : 0 }))
      .execute();
}

type Filter = { tierIds: number[]; statusIds: number[]; migratedOnly: boolean };
async function rawCustomers(f: Filter): Promise<number> {
  let q = t.db.selectFrom('customers').select((eb) => eb.fn.countAll<number | string>().as('n'));
  if (f.tierIds.length) q = q.where('tier', 'in', f.tierIds);
  if (f.statusIds.length) q = q.where('status', 'in', f.statusIds);
  if (f.migratedOnly) q = q.where('isMigratedAccount', '=', 1);
  return Number((await q.executeTakeFirstOrThrow()).n);
}

async function expectCustomerCountsExact(r: () => number, rounds: number) {
  const all = await rawCustomers({ tierIds: [], statusIds: [], migratedOnly: false });
  for (let i = 0; i < rounds; i++) {
    const f: Filter = { tierIds: some(r), statusIds: some(r), migratedOnly: r() < 0.5 };
    for (const page of [1, 3]) {
      const got = await listCustomers(t.db, ALL_TENANTS, v.parse(customerListBody, { ...f, page, pageSize: 10 }));
      expect({ f, page, total: got.totalCount, all: got.generalTotalCount }).toEqual({ f, page, total: await rawCustomers(f), all });
    }
  }
  const negative = await t.db.selectFrom('customerCounts').selectAll().where('n', '<', 0).execute();
  expect(negative).toEqual([]);
}

const personTotal = async () => (await listPersons(t.db, ALL_TENANTS, v.parse(personListQuery, { page: '1', pageSize: '10' }), 'directory')).TotalCount;
const rawPersons = async () =>
  Number(
    (
      await t.db
        .selectFrom('persons')
        .select((eb) => eb.fn.countAll<number | string>().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

async function addPersons(n: number) {
  const now = new Date().toISOString();
  const rows = Array.from({ length: n }, () => {
    const id = randomUUID();
    return {
      id,
      tenantId: randomUUID(),
      firstName: 'Kept',
      lastName: id.slice(0, 6),
      email: `${id}@count.test`,
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
      searchText: `kept ${id.slice(0, 6)} ${id}@count.test`,
      etag: `"${id}"`,
      createdAt: now,
      updatedAt: now,
    };
  });
  await t.db.insertInto('persons').values(rows).execute();
  return rows.map((p) => p.id);
}

describe('kept counts', () => {
  test('customer counts equal counts of the rows after random inserts, updates and deletes', async () => {
    const r = rng(38);
    await addCustomers(120, r);
    await expectCustomerCountsExact(r, 20);
    const ids = (await t.db.selectFrom('customers').select('id').orderBy('id').execute()).map((c) => c.id);
    // one statement changing many rows' groups, some to no tier or status
    await t.db
      .updateTable('customers')
      .set({
        tier: sql<number | null>`case when tier is null then 2 when tier = 2 then null else tier end`,
        isMigratedAccount: sql<number>`1 - "isMigratedAccount"`,
      })
      .where('id', 'in', ids.slice(0, 50))
      .execute();
    // a change outside the counted columns
    await t.db.updateTable('customers').set({ city: 'Leeds' }).where('id', 'in', ids.slice(0, 80)).execute();
    for (const id of ids.slice(50, 70))
      await t.db
        .updateTable('customers')
        .set({ tier: pick(r, CODES), status: pick(r, CODES) })
        .where('id', '=', id)
        .execute();
    await t.db.deleteFrom('customers').where('id', 'in', ids.slice(70, 95)).execute();
    await addCustomers(15, r);
    await expectCustomerCountsExact(r, 30);
  });

  test('the person total equals a count of the rows after inserts and deletes, one by one and in bulk', async () => {
    expect(await personTotal()).toBe(await rawPersons());
    const ids = await addPersons(40);
    expect(await personTotal()).toBe(await rawPersons());
    await t.db.deleteFrom('persons').where('id', 'in', ids.slice(0, 15)).execute();
    await t.db.deleteFrom('persons').where('id', '=', ids[20]!).execute();
    await t.db.updateTable('persons').set({ lastName: 'Renamed' }).where('id', 'in', ids.slice(15, 30)).execute();
    await addPersons(3);
    expect(await personTotal()).toBe(await rawPersons());
    const total = await t.db.selectFrom('personTotals').selectAll().execute();
    expect(total.map((x) => [Number(x.key), Number(x.n)])).toEqual([[1, await rawPersons()]]);
  });
});

describe('searches through the trigram indexes find what a LIKE over every row finds', () => {
  const like = (term: string) => `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  const sorted = (xs: string[]) => [...xs].sort();

  test('persons: across the last name and the e-mail, quotes, non-ASCII letters, short terms', async () => {
    const people: [string, string, string][] = [
      ['Zoë', "O'Brien", 'zoe.ob@care.test'],
      ['İlker', 'Straße', 'ilker@care.test'],
      ['Ann', 'Lee "Jr"', 'ann.lee@care.test'],
      ['Annabel', 'Leeds', 'a.leeds@care.test'],
    ];
    for (const [firstName, lastName, email] of people) await insertPerson(t.db, { firstName, lastName, email, roles: [], tenantId: randomUUID() });
    for (const q of ['brien zoe.o', "ZOË O'B", 'straße', 'İlker', '"jr" ann', 'lee', 'an', 'ee', 'care.test', '%', 'e_l', 'no such person']) {
      const term = q.replace(/\s+/g, ' ').toLowerCase();
      const want = await t.db
        .selectFrom('persons')
        .select('id')
        .where(sql<boolean>`"searchText" like ${like(term)} escape '\\'`)
        .execute();
      const got = await listPersons(t.db, ALL_TENANTS, v.parse(personListQuery, { page: '1', pageSize: '100', searchValue: q }), 'directory');
      expect({ q, ids: sorted(got.Items.map((p) => p.Id)), total: got.TotalCount }).toEqual({ q, ids: sorted(want.map((p) => p.id)), total: want.length });
    }
  });

  test('customers: name or portal reference, quotes, mixed case, short terms', async () => {
    for (const [name, portalId] of [
      ['Riverside Care "Homes"', '10234'],
      ['riverSIDE CARE', null],
      ['Ünïcode Carers', '99887'],
    ] as const)
      await t.db
        .insertInto('customers')
        .values(customerRow({ name, portalId, isMigratedAccount: portalId ? 1 : 0 }))
        .execute();
    const pg = t.dialect === 'pg';
    for (const q of ['riverside care', 'CARE "ho', 'Ünï', 'ünï', '0234', '98', 'ca', '%', 'no such customer']) {
      const pattern = like(q.toLowerCase());
      const col = (c: 'name' | 'portalId') => (pg ? sql`lower(${sql.ref(c)})` : sql.ref(c));
      const want = await t.db
        .selectFrom('customers')
        .select('id')
        .where(sql<boolean>`(${col('name')} like ${pattern} escape '\\' or ${col('portalId')} like ${pattern} escape '\\')`)
        .execute();
      const got = await listCustomers(t.db, ALL_TENANTS, v.parse(customerListBody, { page: 1, pageSize: 100, searchValue: q }));
      expect({ q, ids: sorted(got.customers.map((c) => c.id)), total: got.totalCount }).toEqual({ q, ids: sorted(want.map((c) => c.id)), total: want.length });
    }
  });
});

test('the role sort answers the order of its keys (holders first, then by name), every page, both directions', async () => {
  const ids = (await t.db.selectFrom('persons').select('id').orderBy('id').limit(60).execute()).map((p) => p.id);
  const role = (await t.db.selectFrom('roles').select('id').orderBy('id').executeTakeFirstOrThrow()).id;
  await t.db.deleteFrom('personRoles').where('roleId', '=', role).execute();
  await t.db
    .insertInto('personRoles')
    .values(ids.filter((_, i) => i % 7 === 3).map((personId) => ({ personId, roleId: role })))
    .execute();
  for (const desc of [false, true]) {
    const dir = desc ? 'desc' : 'asc';
    const want = (
      await t.db
        .selectFrom('persons')
        .select('id')
        .orderBy(
          sql`case when exists (select 1 from "personRoles" r where r."personId" = "persons"."id" and r."roleId" = ${role}) then 0 else 1 end ${sql.raw(dir)}`,
        )
        .orderBy(sql`lower("firstName") ${sql.raw(dir)}`)
        .orderBy(sql`lower("lastName") ${sql.raw(dir)}`)
        .orderBy(sql`"id" ${sql.raw(dir)}`)
        .execute()
    ).map((p) => p.id);
    const got: string[] = [];
    for (let page = 1; (page - 1) * 10 < want.length; page++) {
      const q = { page: String(page), pageSize: '10', orderBy: 'UserName', sortRoleId: role, desc: String(desc) };
      got.push(...(await listPersons(t.db, ALL_TENANTS, v.parse(personListQuery, q), 'directory')).Items.map((p) => p.Id));
    }
    expect(got).toEqual(want);
  }
});
