// Database functions of the customers module (spec document 2 §3, §4, §5, §7). Each takes the
// database (or a transaction) first, so other modules (persons: customer administrators; devices:
// allocation) share them instead of writing their own queries; routes.ts only does HTTP. The
// reads take the caller's TenantScope (tenant-scope.ts): a scoped caller sees their own customer
// only, and another customer asked for by id answers as not found.
import { fence, sql, isPostgres, type DB } from '../../db/index.js';
import type { Kysely, RawBuilder } from 'kysely';
import { edgeOf, keyColumns, keysetPage, keyValues, nearerEnd, orderByKeys, sortsMatches, type SortKey } from '../../lib/keyset.js';
import { withIndexedBy } from '../../db/indexed-by.js';
import type { CustomerTable } from '../../db/schema.js';
import { bool, int, likeEscape, newEtag, newId } from '../../platform/util.js';
import { cpLength, ftsPhrase } from '../../lib/search-keys.js';
import { byTenant, type TenantScope } from '../../auth/tenant-scope.js';
import { CUSTOMER_STATUSES, DEVICE_TYPES, TIER_TYPES, lookupName } from '../../../shared/codes.js';
import { ROLE_IDS } from '../../../shared/permissions.js';
import { normalisePhone, normalisePostCode } from '../../../shared/phone.js';
import {
  APP_SUBSCRIPTION_TYPES,
  type CustomerAdminList,
  type CustomerAdminListQuery,
  type CustomerDetails,
  type CustomerDto,
  type CustomerDuplicates,
  type CustomerList,
  type CustomerListBody,
  type CustomerListItem,
  type CustomerOrderBy,
  type CustomerPayload,
  type CustomerSettings,
  type CustomerSettingsFlags,
  type CustomerSubscriptions,
} from '../../../shared/schemas/customers.js';

export type CustomerRow = CustomerTable;

/** One customer row within the scope, or undefined. On PostgreSQL inside a transaction `lock` takes the row lock (FOR UPDATE). */
export async function findCustomerRow(db: DB, scope: TenantScope, id: string, lock = false): Promise<CustomerRow | undefined> {
  let q = byTenant(db.selectFrom('customers').selectAll().where('id', '=', id), scope, 'customers.tenantId');
  if (lock && isPostgres(db)) q = q.forUpdate();
  return q.executeTakeFirst();
}

const camelLookup = (list: typeof TIER_TYPES, value: number | null) => (value == null ? null : { value, name: lookupName(list, value) });
const pascalLookup = (list: typeof TIER_TYPES, value: number | null) => (value == null ? null : { Value: value, Name: lookupName(list, value) });

type ListRow = Pick<CustomerRow, 'id' | 'tenantId' | 'portalId' | 'name' | 'tier' | 'status' | 'isMigratedAccount'>;
export function toListItem(r: ListRow): CustomerListItem {
  return {
    id: r.id,
    tenantId: r.tenantId,
    reference: r.portalId,
    name: r.name,
    tier: camelLookup(TIER_TYPES, r.tier),
    status: camelLookup(CUSTOMER_STATUSES, r.status),
    migrated: r.isMigratedAccount === 1,
  };
}
export const toCustomerDto = (r: ListRow & { etag: string }): CustomerDto => ({ ...toListItem(r), etag: r.etag });

// ---------------------------------------------------------------- list

const LIST_COLS = ['id', 'tenantId', 'portalId', 'name', 'tier', 'status', 'isMigratedAccount'] as const;

/**
 * How many customers the tier, status and migrated filters select, from the counts kept by
 * migration 038's triggers (customerCounts: a missing tier or status is 0, the codes start at 1):
 * a sum over at most 50 rows. Without filters: every customer (generalTotalCount).
 */
async function keptCustomerCount(db: DB, f: Pick<CustomerListBody, 'tierIds' | 'statusIds' | 'migratedOnly'>): Promise<number> {
  let q = db.selectFrom('customerCounts').select(sql<number | string>`coalesce(sum(n), 0)`.as('n'));
  if (f.tierIds.length) q = q.where('tier', 'in', f.tierIds);
  if (f.statusIds.length) q = q.where('status', 'in', f.statusIds);
  if (f.migratedOnly) q = q.where('isMigratedAccount', '=', 1);
  return Number((await q.executeTakeFirstOrThrow()).n);
}

/** Every customer within the scope (the list's generalTotalCount): the kept count, or the scoped caller's own customer counted. */
async function countAllCustomers(db: DB, scope: TenantScope): Promise<number> {
  if (scope.all) return keptCustomerCount(db, { tierIds: [], statusIds: [], migratedOnly: false });
  return Number(
    (
      await filtered(db, scope, {})
        .select((eb) => eb.fn.countAll<number | string>().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );
}

/** The PostgreSQL search of the customer list over customerSearchKeys `k` (migration 040): the LIKEs `filtered` tests, over the same lower() keys. */
function customerKeysMatch(searchValue: string) {
  const like = `%${likeEscape(searchValue.toLowerCase())}%`;
  return sql<boolean>`k.name like ${like} escape '\\' or k.reference like ${like} escape '\\'`;
}

/** The SQLite search of the customer list as an FTS5 query of customers_fts (name or portal reference contains the text). */
const customerFtsMatch = (searchValue: string) => `{name reference} : ${ftsPhrase(searchValue)}`;

/**
 * Whether customers_fts alone finds exactly the customers the search selects (SQLite). The search
 * is a LIKE (ASCII case folded) narrowed by the trigram table's MATCH, which folds case by Unicode:
 * for a text of printable ASCII the two agree, but for the two code points the MATCH folds to an
 * ASCII letter — the Kelvin sign K (U+212A) and the long s ſ (U+017F) — a name holding 'ſ' matches
 * 's' there and not in the LIKE. So: three characters or more (the trigrams), printable ASCII, no
 * k and no s. The table holds one row per customer under its rowid (migration 002's triggers).
 */
export const ftsAloneFinds = (searchValue: string) => searchValue.length >= 3 && /^[\x20-\x7e]+$/.test(searchValue) && !/[ks]/i.test(searchValue);

/**
 * The sort index a search walks (SQLite) testing each customer against the set of matches: one
 * whose order is the list's (reversed: walked backwards). Tier, Status and Migrated sorts leave
 * the plan to the planner.
 */
const WALK_INDEX: Partial<Record<CustomerOrderBy, (desc: boolean) => string>> = {
  Name: () => 'customers_name_idx',
  Reference: (desc) => (desc ? 'customers_reference_desc_idx' : 'customers_reference_asc_idx'),
};

/**
 * The customers the filters select. `candidates: false` leaves out SQLite's trigram candidates (the
 * LIKE alone still selects exactly the matches): a walk of the sort's index tests the LIKE on each
 * customer it passes instead of building the set of every match first.
 */
function filtered(db: DB, scope: TenantScope, f: Partial<Omit<CustomerListBody, 'page' | 'pageSize' | 'orderBy' | 'desc'>>, { candidates = true } = {}) {
  let q = byTenant(db.selectFrom('customers as c'), scope, 'c.tenantId');
  if (f.searchValue) {
    const like = `%${likeEscape(f.searchValue.toLowerCase())}%`;
    // SQLite's LIKE ignores ASCII case already (as its lower() does); PostgreSQL's does not.
    const pg = isPostgres(db);
    const col = (name: 'name' | 'portalId') => (pg ? sql`lower(c.${sql.ref(name)})` : sql`c.${sql.ref(name)}`);
    q = q.where((eb) => eb.or([eb(col('name'), 'like', sql`${like} escape '\\'`), eb(col('portalId'), 'like', sql`${like} escape '\\'`)]));
    // SQLite: the candidates from the trigram table customers_fts (name, portal reference; migration 002)
    // instead of a LIKE over every customer; the LIKE above keeps the match exact. PostgreSQL reads
    // its pg_trgm indexes on the same lower() expressions. Under three characters there is no trigram.
    if (!pg && candidates && cpLength(f.searchValue) >= 3)
      q = q.where(sql<boolean>`c.rowid in (select rowid from customers_fts where customers_fts match ${customerFtsMatch(f.searchValue)})`);
  }
  if (f.tierIds?.length) q = q.where('c.tier', 'in', f.tierIds);
  if (f.statusIds?.length) q = q.where('c.status', 'in', f.statusIds);
  if (f.migratedOnly) q = q.where('c.isMigratedAccount', '=', 1);
  return q;
}

/**
 * The list's order as keys (lib/keyset.ts): missing values last in both directions, ties on the
 * name, then the id. A Tier (Status) sort filtered by tier (status) has no missing values: its
 * missing-last key is left out, so the filter-then-sort index (migration 038) serves the order.
 */
function customerSortKeys(f: Pick<CustomerListBody, 'orderBy' | 'desc' | 'tierIds' | 'statusIds'>): SortKey[] {
  const desc = f.desc;
  const k = (expr: RawBuilder<unknown>, d = desc): SortKey => ({ expr, desc: d });
  const missingLast = (col: 'tier' | 'status', ids: readonly number[]) =>
    ids.length ? [] : [k(sql`case when c.${sql.ref(col)} is null then 1 else 0 end`, false)];
  const ORDER: Record<CustomerOrderBy, SortKey[]> = {
    Reference: [k(sql`case when c."portalId" is null then 1 else 0 end`, false), k(sql`length(c."portalId")`), k(sql`c."portalId"`)],
    Name: [k(sql`c."name"`)],
    Tier: [...missingLast('tier', f.tierIds), k(sql`c."tier"`)],
    Status: [...missingLast('status', f.statusIds), k(sql`c."status"`)],
    Migrated: [k(sql`c."isMigratedAccount"`)],
  };
  return [...ORDER[f.orderBy], ...(f.orderBy !== 'Name' ? [k(sql`c."name"`)] : []), k(sql`c."id"`)];
}

/** The sort key of the customer `id` (Next / Previous), if the caller may see it. */
async function customerEdgeKeys(db: DB, scope: TenantScope, id: string, keys: readonly SortKey[]): Promise<unknown[] | undefined> {
  const r = await byTenant(db.selectFrom('customers as c'), scope, 'c.tenantId').where('c.id', '=', id).select(keyColumns(keys)).executeTakeFirst();
  return r && keyValues(r as Record<string, unknown>, keys);
}

/**
 * The customer list (POST api/v1/customer/get-list). Search: part of the name or the portal
 * reference, case-insensitive. Sorting: Reference numerically (by length, then text), Name, Tier,
 * Status, Migrated; missing values last in both directions; ties break on the name, then the id.
 */
export async function listCustomers(db: DB, scope: TenantScope, f: CustomerListBody): Promise<CustomerList> {
  const unfiltered = !f.searchValue && !f.tierIds.length && !f.statusIds.length && !f.migratedOnly;
  // Tier, status and migrated filters are counted from the kept counts (provider staff; a scoped caller sees one customer).
  const kept = scope.all && !f.searchValue;
  const keys = customerSortKeys(f);
  // at.order: a Next / Previous part's keys (those it holds equal left out, lib/keyset.ts): ordered
  // by the whole list's keys, SQLite sorted the part's range (the last page's Previous over the
  // customers without a reference: 650,000 rows, 0.85 s).
  // at.sortMatches: the matches read first and sorted (a PostgreSQL search jumping far; below).
  // at.walk: the sort index walked (SQLite; below).
  type At = {
    where?: RawBuilder<boolean>;
    reversed?: boolean;
    offset: number;
    limit: number;
    order?: readonly SortKey[];
    sortMatches?: boolean;
    walk?: string;
  };
  const read = async (at: At): Promise<ListRow[]> => {
    if (at.limit <= 0) return [];
    let q = filtered(db, scope, f, { candidates: !at.walk }).select(LIST_COLS.map((c) => `c.${c}` as const));
    if (at.where) q = q.where(at.where);
    if (at.walk) {
      const compiled = orderByKeys(q, at.order ?? keys, at.reversed)
        .limit(at.limit)
        .offset(at.offset)
        .compile();
      return withIndexedBy<ListRow>(db, compiled, 'from "customers" as "c"', at.walk, 'first');
    }
    if (at.sortMatches) {
      // Fenced, PostgreSQL reads the matches from its trigram indexes, then sorts them.
      const matches = db.selectFrom(fence(db, q).as('c')).selectAll('c');
      return (await orderByKeys(matches, at.order ?? keys, at.reversed)
        .limit(at.limit)
        .offset(at.offset)
        .execute()) as ListRow[];
    }
    return (await orderByKeys(q, at.order ?? keys, at.reversed)
      .limit(at.limit)
      .offset(at.offset)
      .execute()) as ListRow[];
  };
  // A search with no other filter over every tenant (PostgreSQL): counted from customerSearchKeys
  // (migration 040: one row per customer under its id, lower(name) and lower("portalId"), kept by
  // statement triggers, filled in name order) with the list's own LIKEs, its trigram candidates
  // rechecked on the narrow table's pages ('care', 148,448 of 1,000,000 customers: 2,379 pages,
  // ~27 ms) instead of the customers' (54,000 pages, ~250–300 ms).
  const searchOnly = scope.all && !!f.searchValue && !f.tierIds.length && !f.statusIds.length && !f.migratedOnly;
  const keysCounted = searchOnly && isPostgres(db);
  const countFiltered = async () => {
    if (kept) return keptCustomerCount(db, f);
    const counted = keysCounted
      ? db.selectNoFrom(sql<number | string>`(select count(*) from "customerSearchKeys" k where ${customerKeysMatch(f.searchValue!)})`.as('n'))
      : filtered(db, scope, f).select((eb) => eb.fn.countAll<number | string>().as('n'));
    return Number((await counted.executeTakeFirstOrThrow()).n);
  };
  const allCount = countAllCustomers(db, scope);
  const edge = edgeOf(f);
  const values = edge && (await customerEdgeKeys(db, scope, edge.id, keys));
  let rows: ListRow[] = [];
  let count: number | undefined;
  // A search with no other filter over every tenant (SQLite) whose matches customers_fts alone
  // finds exactly (ftsAloneFinds): counted from the trigram table (~9 ms CPU for 148,448 of
  // 1,000,000 customers, 'care') without looking each match up (~125 ms). Its pages: when the
  // matches are many against the rows before the page — (rows skipped + page size) × customers /
  // matches at most the matches, the device list's rule — the sort's index is walked (INDEXED BY),
  // each customer tested against the set of matches (built once), instead of reading and sorting
  // every match (~130 ms); else the planner's plan (the matches read and sorted).
  const ftsCounted = searchOnly && !isPostgres(db) && ftsAloneFinds(f.searchValue!);
  const walkIndex = ftsCounted ? WALK_INDEX[f.orderBy]?.(f.desc) : undefined;
  if (ftsCounted) {
    const [n, all] = await Promise.all([
      db
        .selectNoFrom(sql<number | string>`(select count(*) from customers_fts where customers_fts match ${customerFtsMatch(f.searchValue!)})`.as('n'))
        .executeTakeFirstOrThrow()
        .then((r) => Number(r.n)),
      allCount,
    ]);
    count = n;
    const walk = (upTo: number) => (walkIndex && !sortsMatches(upTo, all, n) ? walkIndex : undefined);
    if (edge && values) {
      rows = await keysetPage(keys, values, edge.backwards, f.pageSize, (where, reversed, limit, order) =>
        read({ where, reversed, offset: 0, limit, order, walk: walk(f.pageSize) }),
      );
      if (edge.backwards && rows.length < f.pageSize) rows = await read({ offset: 0, limit: f.pageSize, walk: walk(f.pageSize) });
    } else {
      const at = nearerEnd(f.page, f.pageSize, n);
      rows = await read({ ...at, walk: walk(at.offset + at.limit) });
      if (at.reversed) rows.reverse();
    }
  } else if (edge && values) {
    // Next / Previous: the rows after (before) the edge customer's sort key.
    [rows, count] = await Promise.all([
      keysetPage(keys, values, edge.backwards, f.pageSize, (where, reversed, limit, order) => read({ where, reversed, offset: 0, limit, order })),
      unfiltered ? undefined : countFiltered(),
    ]);
    if (edge.backwards && rows.length < f.pageSize) rows = await read({ offset: 0, limit: f.pageSize });
  } else if (f.page === 1 && !unfiltered && !kept && !isPostgres(db)) {
    // A search on page 1 (SQLite): the page and the filtered count in one pass over the trigram
    // table's candidates (count(*) over ()). PostgreSQL counts the matches from its trigram indexes
    // beside the page, which a common term reads from the sort index until the page is full: the
    // window would make it read the whole sort index.
    const page = filtered(db, scope, f)
      .select(LIST_COLS.map((c) => `c.${c}` as const))
      .select(sql<number | string>`count(*) over ()`.as('total'));
    const got = (await orderByKeys(page, keys).limit(f.pageSize).execute()) as (ListRow & { total?: number | string })[];
    if (got[0]) count = Number(got[0].total);
    rows = got;
  } else if (f.page === 1) {
    [rows, count] = await Promise.all([read({ offset: 0, limit: f.pageSize }), unfiltered ? undefined : countFiltered()]);
  } else {
    // A jump to page N: the count first (kept, or the selection's), then from the nearer end of the selection.
    count = unfiltered ? await allCount : await countFiltered();
    const at = nearerEnd(f.page, f.pageSize, count);
    // A search on PostgreSQL walks the sort index testing each customer until it has passed the
    // rows skipped and the page; for a search with few matches that passes most customers ('riverside
    // care', 337 of 1,000,000: its last page 363–403 ms). When the walk would pass more customers
    // than match — (rows skipped + page size) × customers / matches against the matches, the device
    // list's rule — the matches are read and sorted instead.
    const all = await allCount;
    const sortMatches = isPostgres(db) && !!f.searchValue && sortsMatches(at.offset + at.limit, all, count);
    rows = await read({ ...at, sortMatches });
    if (at.reversed) rows.reverse();
  }
  const all = await allCount;
  if (unfiltered) count = all;
  count ??= await countFiltered();
  return { customers: rows.map(toListItem), totalCount: count, generalTotalCount: all };
}

/** How many customers the filters select: the export's total. */
export async function countFilteredCustomers(db: DB, scope: TenantScope, f: CustomerListBody): Promise<number> {
  if (scope.all && !f.searchValue) return keptCustomerCount(db, f);
  const r = await filtered(db, scope, f)
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(r.n);
}

/** One keyset page of the export: customers after `after` in name + id order. Never OFFSET. */
export async function customerExportPage(db: DB, scope: TenantScope, f: CustomerListBody, after: { name: string; id: string } | null, limit: number) {
  let q = filtered(db, scope, f).select(LIST_COLS.map((c) => `c.${c}` as const));
  if (after) q = q.where(sql<boolean>`(c."name", c."id") > (${after.name}, ${after.id})`);
  return (await q.orderBy('c.name').orderBy('c.id').limit(limit).execute()).map(toListItem);
}

// ---------------------------------------------------------------- details

export async function customerDetails(db: DB, r: CustomerRow, salesforceLink: string | null = null): Promise<CustomerDetails> {
  const country = r.countryId ? await db.selectFrom('countries').select('name').where('id', '=', r.countryId).executeTakeFirst() : undefined;
  return {
    Id: r.id,
    TenantId: r.tenantId,
    Name: r.name,
    Etag: r.etag,
    PortalId: r.portalId,
    PhoneNumber: r.phoneNumber,
    Tier: pascalLookup(TIER_TYPES, r.tier),
    Status: pascalLookup(CUSTOMER_STATUSES, r.status),
    IsMigratedAccount: bool(r.isMigratedAccount),
    SalesforceId: r.salesforceId,
    SalesforceUrn: r.salesforceUrn,
    IsSalesforceAccount: bool(r.isSalesforceAccount),
    SalesforceLink: salesforceLink,
    AccountManagerFullName: r.accountManagerFullName,
    CustomerSuccessManagerFullName: r.customerSuccessManagerFullName,
    Address: {
      AddressLine1: r.addressLine1,
      AddressLine2: r.addressLine2,
      City: r.city,
      County: r.county,
      PostCode: r.postCode,
      Country: country?.name ?? null,
      CountryId: r.countryId,
    },
  };
}

// ---------------------------------------------------------------- duplicates

/** Customers with the same name (case-insensitive), portal reference or CRM URN (case-insensitive). */
export async function findDuplicates(db: DB, p: { name: string; portalReference: string; urn: string }): Promise<CustomerDuplicates> {
  const name = p.name.trim().toLowerCase();
  const ref = p.portalReference.trim();
  const urn = p.urn.trim().toLowerCase();
  if (!name && !ref && !urn) return { Duplicates: [] };
  const C = isPostgres(db) ? sql.raw(' collate "C"') : sql.raw('');
  const rows = await db
    .selectFrom('customers as c')
    .select(['c.id', 'c.name', 'c.portalId', 'c.salesforceUrn', 'c.salesforceId'])
    .where((eb) =>
      eb.or([
        ...(name ? [eb(sql`lower(c."name")${C}`, '=', name)] : []),
        ...(ref ? [eb('c.portalId', '=', ref)] : []),
        ...(urn ? [eb(sql`lower(c."salesforceUrn")${C}`, '=', urn)] : []),
      ]),
    )
    .orderBy('c.name')
    .orderBy('c.id')
    .limit(50)
    .execute();
  return {
    Duplicates: rows.map((r) => ({
      Id: r.id,
      Name: r.name,
      PortalId: r.portalId,
      SalesforceUrn: r.salesforceUrn,
      SalesforceId: r.salesforceId,
      MatchedOn: [
        ...(name && r.name.toLowerCase() === name ? (['Name'] as const) : []),
        ...(ref && r.portalId === ref ? (['PortalReferenceNumber'] as const) : []),
        ...(urn && (r.salesforceUrn ?? '').toLowerCase() === urn ? (['SalesforceUrn'] as const) : []),
      ],
    })),
  };
}

// ---------------------------------------------------------------- create / update

/**
 * The stored columns of a validated payload (rules of customerPayload in the contract).
 * `current` is the stored row on update. Internal accounts (no CRM URN) keep no URN, managers,
 * tier or status; the portal reference is kept only for migrated accounts.
 */
export function payloadColumns(p: CustomerPayload, current?: CustomerRow) {
  const linked = !!p.salesforceUrn;
  const migrated = p.isMigratedAccount;
  const portalId = migrated ? (p.portalReferenceNumber ?? current?.portalId ?? null) : null;
  const a = p.addressDto;
  return {
    name: p.name,
    portalId,
    // checked by the routes first (phoneError): read in the account's country, stored as E.164
    phoneNumber: normalisePhone(p.phoneNumber, a?.countryId),
    tier: linked ? p.customerSuccessTier : null,
    status: linked ? p.customerStatus : null,
    isMigratedAccount: int(migrated),
    salesforceId: linked ? p.salesforceId : null,
    salesforceUrn: linked ? p.salesforceUrn : null,
    isSalesforceAccount: int(linked),
    accountManagerFullName: linked ? p.ownerFullName : null,
    customerSuccessManagerFullName: linked ? p.customerSuccessManagerFullName : null,
    addressLine1: a?.addressLine1 ?? null,
    addressLine2: a?.addressLine2 ?? null,
    city: a?.city ?? null,
    county: a?.county ?? null,
    postCode: normalisePostCode(a?.postCode, a?.countryId),
    countryId: a?.countryId ?? null,
  } satisfies Partial<CustomerRow>;
}

export const countryExists = async (db: DB, id: string) => !!(await db.selectFrom('countries').select('id').where('id', '=', id).executeTakeFirst());

/** A new customer with default settings and no subscriptions; returns its id, tenant id and etag. */
export async function insertCustomer(db: DB, cols: ReturnType<typeof payloadColumns>, tenantId: string, at: string) {
  const id = newId();
  const etag = newEtag();
  await db
    .insertInto('customers')
    .values({
      id,
      tenantId,
      ...cols,
      isAutomaticEmailsPaused: 0,
      allowDeviceSubscriptionChanges: 0,
      enableDiscreetAlarmApp: 0,
      enableFallDetectionApp: 0,
      enableSmsActivityConfirmation: 0,
      enableAlarmReportIntelligence: 0,
      autoGenerateAlarmIntelligence: 0,
      nationalResponse: 0,
      globalResponse: 0,
      eurowatch: 0,
      translationServices: 0,
      checkInTimers: 0,
      teamBroadcast: 0,
      isWelfareCheckEnabled: 0,
      isFallDetectionEnabled: 0,
      isTravelSafeEnabled: 0,
      isTrackingEnabled: 0,
      isSureCamEnabled: 0,
      trackingInterval: 15,
      isSosDisabled: 0,
      etag,
      deviceSubscriptionsEtag: newEtag(),
      appSubscriptionsEtag: newEtag(),
      createdAt: at,
      updatedAt: at,
    })
    .execute();
  return { id, tenantId, etag };
}

/** Writes `values` only where the etag still matches; returns the new customer etag, or undefined when it did not match. */
export async function updateCustomerRow(db: DB, id: string, oldEtag: string, values: Partial<CustomerRow>, at: string): Promise<string | undefined> {
  const etag = newEtag();
  const r = await db
    .updateTable('customers')
    .set({ ...values, etag, updatedAt: at })
    .where('id', '=', id)
    .where('etag', '=', oldEtag)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1 ? etag : undefined;
}

// ---------------------------------------------------------------- subscriptions

/** Devices of the customer per type: allocated (in the account) and assigned (to a user). */
export async function allocatedByType(db: DB, customerId: string): Promise<Map<number, { allocated: number; assigned: number }>> {
  const rows = await db
    .selectFrom('devices')
    .select((eb) => ['type', eb.fn.countAll<number | string>().as('n'), eb.fn.sum<number | string | null>('isUserAssigned').as('assigned')])
    .where('customerId', '=', customerId)
    .groupBy('type')
    .execute();
  return new Map(rows.map((r) => [r.type, { allocated: Number(r.n), assigned: Number(r.assigned ?? 0) }]));
}

export async function purchasedByType(db: DB, customerId: string): Promise<Map<number, number>> {
  const rows = await db.selectFrom('deviceSubscriptions').select(['deviceType', 'purchased']).where('customerId', '=', customerId).execute();
  return new Map(rows.map((r) => [r.deviceType, r.purchased]));
}

/** Persons of the tenant holding the Pro app subscription (ours: every person who is not an administrator). */
async function appAssigned(db: DB, tenantId: string): Promise<Map<number, number>> {
  const r = await db
    .selectFrom('persons as p')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('p.tenantId', '=', tenantId)
    .where((eb) =>
      eb.not(
        eb.exists(eb.selectFrom('personRoles as pr').select('pr.personId').whereRef('pr.personId', '=', 'p.id').where('pr.roleId', '=', ROLE_IDS.AdminRole)),
      ),
    )
    .executeTakeFirstOrThrow();
  return new Map([[1, Number(r.n)]]);
}

export async function customerSubscriptions(db: DB, c: CustomerRow): Promise<CustomerSubscriptions> {
  const [held, bought, appRows, assigned] = await Promise.all([
    allocatedByType(db, c.id),
    purchasedByType(db, c.id),
    db.selectFrom('appSubscriptions').select(['appSubscriptionType', 'purchased']).where('customerId', '=', c.id).execute(),
    appAssigned(db, c.tenantId),
  ]);
  const app = new Map(appRows.map((r) => [r.appSubscriptionType, r.purchased]));
  return {
    CustomerId: c.id,
    CustomerEtag: c.etag,
    CustomerTenantId: c.tenantId,
    AdditionalServices: {
      NationalResponse: bool(c.nationalResponse),
      GlobalResponse: bool(c.globalResponse),
      Eurowatch: bool(c.eurowatch),
      TranslationServices: bool(c.translationServices),
      CheckInTimers: bool(c.checkInTimers),
      TeamBroadcast: bool(c.teamBroadcast),
    },
    DeviceSubscriptions: {
      Etag: c.deviceSubscriptionsEtag,
      Subscriptions: DEVICE_TYPES.map((t) => ({
        Type: { Value: t.Value, Name: t.Name },
        Purchased: bought.get(t.Value) ?? 0,
        Allocated: held.get(t.Value)?.allocated ?? 0,
        Assigned: held.get(t.Value)?.assigned ?? 0,
      })),
    },
    AppSubscriptions: {
      Etag: c.appSubscriptionsEtag,
      AppFeatures: {
        IsWelfareCheckEnabled: bool(c.isWelfareCheckEnabled),
        IsFallDetectionEnabled: bool(c.isFallDetectionEnabled),
        IsTravelSafeEnabled: bool(c.isTravelSafeEnabled),
        IsTrackingEnabled: bool(c.isTrackingEnabled),
        IsSureCamEnabled: bool(c.isSureCamEnabled),
        TrackingInterval: c.trackingInterval,
        IsSosDisabled: bool(c.isSosDisabled),
      },
      Subscriptions: APP_SUBSCRIPTION_TYPES.map((t) => {
        const purchased = app.get(t.Value) ?? 0;
        const used = assigned.get(t.Value) ?? 0;
        return { Type: { Value: t.Value, Name: t.Name }, Purchased: purchased, Assigned: used, Left: purchased - used };
      }),
    },
  };
}

/**
 * Sets the purchased number of each listed type (upsert) in a customer's subscriptions table:
 * `table` keyed by the customer and `typeColumn`.
 */
async function writePurchased(
  db: DB,
  table: 'deviceSubscriptions' | 'appSubscriptions',
  typeColumn: 'deviceType' | 'appSubscriptionType',
  customerId: string,
  subs: { type: number; purchased: number }[],
) {
  // The two tables differ only by the type column's name, which Kysely cannot check from a variable.
  const k = db as unknown as Kysely<any>;
  for (const s of subs) {
    const r = await k.updateTable(table).set({ purchased: s.purchased }).where('customerId', '=', customerId).where(typeColumn, '=', s.type).executeTakeFirst();
    if (Number(r.numUpdatedRows) === 0)
      await k
        .insertInto(table)
        .values({ customerId, [typeColumn]: s.type, purchased: s.purchased })
        .execute();
  }
}

/** Sets the purchased number of each listed device type (upsert). */
export const writeDeviceSubscriptions = (db: DB, customerId: string, subs: { deviceType: number; purchased: number }[]) =>
  writePurchased(
    db,
    'deviceSubscriptions',
    'deviceType',
    customerId,
    subs.map((s) => ({ type: s.deviceType, purchased: s.purchased })),
  );

/** Sets the purchased number of each listed app subscription type (upsert). */
export const writeAppSubscriptions = (db: DB, customerId: string, subs: { appSubscriptionType: number; purchased: number }[]) =>
  writePurchased(
    db,
    'appSubscriptions',
    'appSubscriptionType',
    customerId,
    subs.map((s) => ({ type: s.appSubscriptionType, purchased: s.purchased })),
  );

// ---------------------------------------------------------------- settings

export function settingsOf(c: CustomerRow): CustomerSettings {
  return {
    CustomerEtag: c.etag,
    TenantId: c.tenantId,
    Settings: {
      IsAutomaticEmailsPaused: bool(c.isAutomaticEmailsPaused),
      AllowDeviceSubscriptionChanges: bool(c.allowDeviceSubscriptionChanges),
      EnableDiscreetAlarmApp: bool(c.enableDiscreetAlarmApp),
      EnableFallDetectionApp: bool(c.enableFallDetectionApp),
      EnableSmsActivityConfirmation: bool(c.enableSmsActivityConfirmation),
      EnableAlarmReportIntelligence: bool(c.enableAlarmReportIntelligence),
      AutoGenerateAlarmIntelligence: bool(c.autoGenerateAlarmIntelligence),
    },
  };
}

export function settingsColumns(s: CustomerSettingsFlags): Partial<CustomerRow> {
  return {
    isAutomaticEmailsPaused: int(s.IsAutomaticEmailsPaused),
    allowDeviceSubscriptionChanges: int(s.AllowDeviceSubscriptionChanges),
    enableDiscreetAlarmApp: int(s.EnableDiscreetAlarmApp),
    enableFallDetectionApp: int(s.EnableFallDetectionApp),
    enableSmsActivityConfirmation: int(s.EnableSmsActivityConfirmation),
    enableAlarmReportIntelligence: int(s.EnableAlarmReportIntelligence),
    autoGenerateAlarmIntelligence: int(s.EnableAlarmReportIntelligence && s.AutoGenerateAlarmIntelligence),
  };
}

// ---------------------------------------------------------------- administrators

/**
 * The customer's administrators: persons of the tenant holding the admin role (SuperAdminRole in a
 * customer tenant, see auth/tokens.ts effectiveRoles). UserName is the e-mail address (the sign-in name).
 */
export async function listCustomerAdmins(db: DB, scope: TenantScope, q: CustomerAdminListQuery): Promise<CustomerAdminList> {
  const base = byTenant(db.selectFrom('persons as p'), scope, 'p.tenantId')
    .where('p.tenantId', '=', q.TenantId)
    .where((eb) =>
      eb.exists(eb.selectFrom('personRoles as pr').select('pr.personId').whereRef('pr.personId', '=', 'p.id').where('pr.roleId', '=', ROLE_IDS.AdminRole)),
    );
  const dir = q.Desc ? 'desc' : 'asc';
  const col = q.OrderBy === 'FirstName' ? 'p.firstName' : q.OrderBy === 'LastName' ? 'p.lastName' : 'p.email';
  const [rows, count] = await Promise.all([
    base
      .select(['p.id', 'p.firstName', 'p.lastName', 'p.email'])
      .orderBy(col, dir)
      .orderBy('p.id', dir)
      .limit(q.PageSize)
      .offset((q.Page - 1) * q.PageSize)
      .execute(),
    base.select((eb) => eb.fn.countAll<number | string>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { Items: rows.map((r) => ({ Id: r.id, FirstName: r.firstName, LastName: r.lastName, Email: r.email })), TotalCount: Number(count.n) };
}

/** The roles a customer administrator gets (spec §3: the admin and portal user roles). */
export const ADMINISTRATOR_ROLE_IDS = [ROLE_IDS.AdminRole, ROLE_IDS.PortalUserRole];
