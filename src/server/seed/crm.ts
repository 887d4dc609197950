// The embedded CRM directory of the demo (table crmAccounts): one CRM account per
// CRM-linked customer (same id, URN, name, address, phone, managers and tier, as the CRM would
// hold them) plus prospects that are not customers yet, so a new customer can be opened from a
// CRM account without creating a duplicate. Drawn from its own rng stream ('crm-directory'), after
// the customers are written: the rest of the demo data does not shift.
import type { DB } from '../db/index.js';
import { Rng } from './rng.js';
import { ACCOUNT_MANAGERS, COMPANY_PREFIXES, COMPANY_SUFFIXES, SUCCESS_MANAGERS, TOWNS } from './data.js';
import { businessAddress, e164, pickTown, ukLandline } from './gen.js';
import { BatchInserter } from './insert.js';

/** Prospects per customer (CRM accounts that are not customers yet). */
const PROSPECT_SHARE = 0.25;

export async function seedCrmDirectory(db: DB, seed: number): Promise<number> {
  const r = new Rng(seed, 'crm-directory');
  const ins = new BatchInserter(db, 'crmAccounts', [
    'id',
    'name',
    'urn',
    'streetLine1',
    'streetLine2',
    'county',
    'city',
    'postalCode',
    'country',
    'phone',
    'accountManagerFullName',
    'customerSuccessManagerFullName',
    'customerSuccessTier',
    'searchName',
  ]);
  const customers = await db
    .selectFrom('customers')
    .select([
      'name',
      'salesforceId',
      'salesforceUrn',
      'addressLine1',
      'addressLine2',
      'county',
      'city',
      'postCode',
      'phoneNumber',
      'accountManagerFullName',
      'customerSuccessManagerFullName',
      'tier',
    ])
    .where('isSalesforceAccount', '=', 1)
    .where('salesforceId', 'is not', null)
    .orderBy('createdAt')
    .orderBy('id')
    .execute();
  const names = new Set<string>();
  const ids = new Set<string>();
  for (const c of customers) {
    names.add(c.name.toLowerCase());
    if (ids.has(c.salesforceId!)) continue;
    ids.add(c.salesforceId!);
    await ins.add({
      id: c.salesforceId!,
      name: c.name,
      urn: c.salesforceUrn,
      streetLine1: c.addressLine1,
      streetLine2: c.addressLine2,
      county: c.county,
      city: c.city,
      postalCode: c.postCode,
      country: 'United Kingdom',
      phone: c.phoneNumber,
      accountManagerFullName: c.accountManagerFullName,
      customerSuccessManagerFullName: c.customerSuccessManagerFullName,
      customerSuccessTier: c.tier,
      searchName: c.name.toLowerCase(),
    });
  }
  const prospects = Math.max(3, Math.round(customers.length * PROSPECT_SHARE));
  for (let k = 0; k < prospects; k++) {
    let name = `${r.chance(0.6) ? r.pick(COMPANY_PREFIXES) : r.pick(TOWNS)[0]} ${r.pick(COMPANY_SUFFIXES)}`;
    for (let n = 2; names.has(name.toLowerCase()); n++) name = `${name.replace(/ \d+$/, '')} ${n}`;
    names.add(name.toLowerCase());
    let id = `0014J0000P${r.hex(3).toUpperCase()}`;
    while (ids.has(id)) id = `0014J0000P${r.hex(3).toUpperCase()}`;
    ids.add(id);
    const town = pickTown(r);
    const a = businessAddress(r, town);
    await ins.add({
      id,
      name,
      urn: `URN9${String(k + 1).padStart(6, '0')}`,
      streetLine1: a.line1,
      streetLine2: a.line2,
      county: a.county,
      city: a.city,
      postalCode: a.postCode,
      country: 'United Kingdom',
      phone: e164(ukLandline(r, town)),
      accountManagerFullName: r.pick(ACCOUNT_MANAGERS),
      customerSuccessManagerFullName: r.chance(0.8) ? r.pick(SUCCESS_MANAGERS) : null,
      customerSuccessTier: r.weighted([
        [1, 40],
        [2, 30],
        [3, 20],
        [4, 10],
      ] as const),
      searchName: name.toLowerCase(),
    });
  }
  await ins.flush();
  return ins.total;
}
