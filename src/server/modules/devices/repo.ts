// Database functions of the device stock (spec document 2 §3, §4, §5, §7): the filtered asset
// list with its two counts, lookups by id and by serial, the general-details update and the bulk
// changes. Each takes the database (or a transaction) first; routes.ts only does HTTP.
//
// Bulk changes lock the listed rows (SELECT ... FOR UPDATE on PostgreSQL; SQLite serialises
// writers), check every device (exists, etag, eligibility) and either change all of them in the
// same transaction or throw before anything is written.
//
// Every read takes the caller's TenantScope (tenant-scope.ts): a scoped caller sees only the
// devices of their customer, in lists, counts, exports and lookups (another customer's device
// answers as unknown).
import { sql, isPostgres, type DB } from '../../db/index.js';
import type { CompiledQuery, RawBuilder } from 'kysely';
import { DEVICE_COLUMNS, type DeviceColumn, type DeviceTable } from '../../db/schema.js';
import { newEtag, newId, likeEscape } from '../../platform/util.js';
import { ftsPhrase, queryPhoneKey } from '../../lib/search-keys.js';
import { ApiError } from '../../http/api.js';
import { ALL_TENANTS, byCustomer, type TenantScope } from '../../auth/tenant-scope.js';
import { CODE } from '../../../shared/messages.js';
import { ASSET_STATUSES, DEVICE_TYPES, SIM_TYPES, type Lookup } from '../../../shared/codes.js';
import { nameRankSql, nullsLastSql } from './order.js';
import { edgeOf, keyColumns, keysetPage, keyValues, nearerEnd, orderByKeys, sortsMatches, type SortKey } from '../../lib/keyset.js';
import { withIndexedBy } from '../../db/indexed-by.js';
import {
  DEVICE_CODE,
  DEVICE_TEXT,
  STATUS,
  isInCustomerAccount,
  isOrderNumberEligible,
  isTypeChangeEligible,
  placeholderDevice,
  type DeviceDto,
  type DeviceList,
  type DeviceListBody,
  type DeviceOrderBy,
  type BulkChangeResponse,
} from '../../../shared/schemas/devices.js';
import { categoryDevices, fleetHealthWhere } from '../fleet/conditions.js';

type Row = DeviceTable & { customerName: string | null; customerTenantId: string | null };

/** Statuses a device can be allocated from (the spec leaves the set out; ours: New, Reserved, Returned). */
export const ALLOCATABLE_STATUSES: readonly number[] = [STATUS.New, STATUS.Reserved, STATUS.Returned];

/** Chunk size for `in (...)` lists (SQLite's default limit of bound parameters is 32766; PostgreSQL's 65535). */
const CHUNK = 5000;
function chunks<T>(a: readonly T[], n = CHUNK): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < a.length; i += n) out.push(a.slice(i, i + n));
  return out;
}

/** Code → name of a code table ('Unknown' for a code not in it, as lookupName). */
const namesOf = (list: readonly Lookup[]) => new Map(list.map((l) => [l.Value, l.Name]));
const TYPE_NAMES = namesOf(DEVICE_TYPES);
const STATUS_NAMES = namesOf(ASSET_STATUSES);
const SIM_TYPE_NAMES = namesOf(SIM_TYPES);
const lookup = (names: ReadonlyMap<number, string>, value: number) => ({ value, name: names.get(value) ?? 'Unknown' });

/** What toDto reads of a row. */
type DtoRow = Pick<Row, (typeof DTO_COLUMNS)[number] | 'customerName' | 'customerTenantId'>;

export function toDto(r: DtoRow): DeviceDto {
  return {
    id: r.id,
    etag: r.etag,
    serialNumber: r.serialNumber,
    imei: r.imei,
    imsi: r.imsi,
    type: lookup(TYPE_NAMES, r.type),
    phoneNumber: r.phoneNumber,
    simPhoneNumber: r.simPhoneNumber,
    simSerial: r.simSerial,
    simTypeId: r.simTypeId,
    simType: r.simTypeId == null ? null : lookup(SIM_TYPE_NAMES, r.simTypeId),
    simStatus: r.simStatus == null ? null : { name: r.simStatus },
    supplier: r.supplier,
    status: lookup(STATUS_NAMES, r.status),
    customerAccountId: r.customerId,
    customerAccountTenantId: r.customerTenantId,
    customer: r.customerName,
    customerName: r.customerName,
    orderNumber: r.orderNumber,
    isUserAssigned: r.isUserAssigned === 1,
    firmwareVersion: r.firmwareVersion,
    lastConfigurationDate: r.lastConfigurationDate,
    dateReceived: r.dateReceived,
    lastUpdated: r.lastUpdated,
    addedToSystem: r.addedToSystem,
    isAllocatable: r.customerId == null && ALLOCATABLE_STATUSES.includes(r.status),
  };
}

/** The columns toDto reads: the device's but the assigned person (customerName and customerTenantId come from its customer). */
const DTO_COLUMNS = DEVICE_COLUMNS.filter((c): c is Exclude<DeviceColumn, 'assignedPersonId'> => c !== 'assignedPersonId');

/**
 * Many devices with their customer, each row read as one JSON object (json_object on SQLite,
 * json_build_object on PostgreSQL) of the columns toDto reads. better-sqlite3 hands over each
 * column of each row with a call of its own: for 5,000 devices that took ~135 ms CPU of the
 * 1,000,000-device benchmark, against ~80 ms for one JSON text per row parsed by V8.
 */
async function manyRows(db: DB, scope: TenantScope, where: (q: ReturnType<typeof joined>) => ReturnType<typeof joined>): Promise<DtoRow[]> {
  const rows = await where(byCustomer(joined(db), scope, 'd.customerId'))
    .select(dtoJson(db).as('r'))
    .execute();
  return rows.map(({ r }) => fromJson(r));
}

/** A device row with its customer's name and tenant, as one JSON object of the columns toDto reads. */
function dtoJson(db: DB) {
  const fields = [
    ...DTO_COLUMNS.map((c) => [c, sql.ref(`d.${c}`)] as const),
    ['customerName', sql.ref('c.name')] as const,
    ['customerTenantId', sql.ref('c.tenantId')] as const,
  ].flatMap(([name, ref]) => [sql.lit(name), ref]);
  return sql<unknown>`${sql.raw(isPostgres(db) ? 'json_build_object' : 'json_object')}(${sql.join(fields)})`;
}
/** SQLite hands the object over as text, PostgreSQL already parsed. */
const fromJson = (r: unknown) => (typeof r === 'string' ? JSON.parse(r) : r) as DtoRow;

const joined = (db: DB) => db.selectFrom('devices as d').leftJoin('customers as c', 'c.id', 'd.customerId');

function base(db: DB, scope: TenantScope) {
  const q = db
    .selectFrom('devices as d')
    .leftJoin('customers as c', 'c.id', 'd.customerId')
    .selectAll('d')
    .select(['c.name as customerName', 'c.tenantId as customerTenantId']);
  return byCustomer(q, scope, 'd.customerId');
}

const SORT: Record<DeviceOrderBy, string> = {
  SerialNumber: 'd.serialNumber',
  Type: 'd.type',
  Imei: 'd.imei',
  SimSerial: 'd.simSerial',
  PhoneNumber: 'd.phoneNumber',
  OrderNumber: 'd.orderNumber',
  LastConfig: 'd.lastConfigurationDate',
  Status: 'd.status',
  Assigned: 'd.isUserAssigned',
  Customer: 'd.customerSortName',
  AddedToSystem: 'd.addedToSystem',
};
const NULLABLE_SORT = new Set<DeviceOrderBy>(['Imei', 'SimSerial', 'PhoneNumber', 'OrderNumber', 'LastConfig', 'Customer']);
/** Sorts by a coded column order by the name shown (shared/name-order.ts), through migration 014's indexes. */
const NAME_SORT: Partial<Record<DeviceOrderBy, 'type' | 'status'>> = { Type: 'type', Status: 'status' };

/**
 * The list's order as keys (lib/keyset.ts): missing values last in both directions, Type and
 * Status by the name shown, ties on the serial number in the sort's direction. A Type or Status
 * sort filtered to one type or status (or Assigned to one value) orders by the serial number alone.
 */
function deviceSortKeys(f: Pick<DeviceListBody, 'orderBy' | 'desc' | 'deviceTypeIds' | 'statusIds' | 'assigned'>): SortKey[] {
  const col = SORT[f.orderBy];
  const nameSort = NAME_SORT[f.orderBy];
  const constantSort =
    (nameSort === 'type' && f.deviceTypeIds.length === 1) ||
    (nameSort === 'status' && f.statusIds.length === 1) ||
    (f.orderBy === 'Assigned' && f.assigned !== null);
  const keys: SortKey[] = [];
  if (!constantSort) {
    if (NULLABLE_SORT.has(f.orderBy)) keys.push({ expr: nullsLastSql(col.slice(2), 'd'), desc: false, alone: true });
    keys.push({ expr: nameSort ? nameRankSql(nameSort, 'd') : sql.ref(col), desc: f.desc });
  }
  if (f.orderBy !== 'SerialNumber') keys.push({ expr: sql`d."serialNumber"`, desc: f.desc });
  return keys;
}

/** The sort key of the device `id` (Next / Previous), if the caller may see it. */
async function edgeKeys(db: DB, scope: TenantScope, id: string, keys: readonly SortKey[]): Promise<unknown[] | undefined> {
  const r = await byCustomer(db.selectFrom('devices as d'), scope, 'd.customerId').where('d.id', '=', id).select(keyColumns(keys)).executeTakeFirst();
  return r && keyValues(r as Record<string, unknown>, keys);
}

const DAY = 24 * 3600 * 1000;

/**
 * Filter values are validated integers, sent as literals: with a bound `type in (?)` SQLite's
 * planner cannot weigh the type, status and filter indexes by their statistics, and walked the
 * status index (500,000 Allocated devices) for a combined filter; with literals it picks the
 * narrow index.
 */
const literal = (x: number) => sql.lit(Math.trunc(x));
function oneOf<QB extends { where: (...a: any[]) => QB }>(q: QB, col: string, values: readonly number[]): QB {
  return values.length === 1 ? q.where(col, '=', literal(values[0]!)) : q.where(col, 'in', values.map(literal));
}

/** The lower edge of a last-config band (1/2/3: within 24 hours / 7 days / 30 days; 4: longer ago than 30 days). */
const bandSince = (lastConfig: number, now: Date) => new Date(now.getTime() - (lastConfig === 1 ? 1 : lastConfig === 2 ? 7 : 30) * DAY).toISOString();

/**
 * The exact count of devices matching type, status and assigned filters, `configured` (1: has a
 * last configuration date, 0: never configured) if given, from the counts kept by migration 014's
 * triggers: a sum over at most a few hundred rows instead of reading up to every device.
 */
function maintainedCount(db: DB, f: Pick<DeviceListBody, 'deviceTypeIds' | 'statusIds' | 'assigned'>, configured?: 0 | 1) {
  let q = db.selectFrom('deviceCounts').select(sql<number | string>`coalesce(sum(n), 0)`.as('n'));
  if (f.deviceTypeIds.length) q = oneOf(q, 'type', f.deviceTypeIds);
  if (f.statusIds.length) q = oneOf(q, 'status', f.statusIds);
  if (f.assigned !== null) q = q.where('isUserAssigned', '=', literal(f.assigned ? 1 : 0));
  if (configured !== undefined) q = q.where('configured', '=', literal(configured));
  return q;
}

/** Every device (generalTotalCount), exact, from the kept counts. */
export async function countAllDevices(db: DB): Promise<number> {
  const r = await db
    .selectFrom('deviceCounts')
    .select(sql<number | string>`coalesce(sum(n), 0)`.as('n'))
    .executeTakeFirstOrThrow();
  return Number(r.n);
}

/** The devices within the scope (one customer's when customerId is given), counted from their rows. */
async function countDevicesOf(db: DB, scope: TenantScope, customerId?: string): Promise<number> {
  let q = byCustomer(db.selectFrom('devices'), scope, 'devices.customerId');
  if (customerId !== undefined) q = q.where('customerId', '=', customerId);
  const r = await q.select((eb) => eb.fn.countAll<number | string>().as('n')).executeTakeFirstOrThrow();
  return Number(r.n);
}

/**
 * The asset list (POST api/v1/device/get-list). searchValue matches part of the serial number,
 * IMEI or phone number (case-insensitive); orderNumber matches exactly (case-insensitive);
 * lastConfig: 1/2/3 configured within 24 hours / 7 days / 30 days, 4 longer ago, 5 never.
 * Sorting puts missing values last in both directions; Type and Status sort by the name shown;
 * ties break on the serial number (same direction).
 *
 * Counts (docs/device-lists.md): without search, order number or customer, totalCount comes from
 * the kept counts (deviceCounts) — for the 24 hours / 7 days / 30 days bands from an index range
 * of the recently configured devices, for "longer ago" as configured minus the 30-day band in one
 * statement. Pages: the page's serial numbers from an index that covers filter and sort, then
 * their rows.
 */
export async function listDevices(db: DB, scope: TenantScope, f: DeviceListBody, now: Date, customerId?: string): Promise<DeviceList> {
  // The filters read devices only; the customer join is added for the page's rows (the name
  // shown), not for the count: joined, counting 100,000 devices of a type read every one of their
  // rows. The Customer sort orders by the devices' own copy of the name (customerSortName, kept by
  // migration 020's triggers), which its indexes hand out in order.
  const beforeBand = filteredBeforeBand(db, scope, f, customerId);
  const q = withFleetHealth(withBand(beforeBand, f, now), isPostgres(db), f, now);
  const keys = deviceSortKeys(f);
  // The page's serial numbers first (from the indexes alone where they cover filter and sort), then
  // their rows: sorting 120,000 whole rows (two statuses, sorted by serial) to keep 10 took
  // seconds at 1,000,000 devices; sorting their serial numbers takes milliseconds.
  // `|| ''` keeps the serial order but matches no index: PostgreSQL then sorts the matches.
  const bySerialText: SortKey[] = [{ expr: sql`d."serialNumber" || ''`, desc: f.desc }];
  // The filters of the list itself, Fleet Health's category aside.
  const listFiltered = !!f.searchValue || !!f.deviceTypeIds.length || !!f.statusIds.length || !!f.orderNumber || f.assigned !== null || !!f.lastConfig;
  const unfiltered = !listFiltered && !f.fleetHealth;
  // The kept counts are of every tenant: a scoped caller's counts are counted from their rows.
  const fromCounts = !f.searchValue && !f.orderNumber && customerId === undefined && scope.all && !f.fleetHealth;
  const countRows = (qb: typeof q) => qb.select((eb) => eb.fn.countAll<number | string>().as('n'));
  // A Fleet Health drill-down with no other filter, over every tenant: the category's devices are
  // counted from the fleet state alone (the same statement as the Fleet Health count), without
  // looking each of them up in devices.
  const fleetOnly = !!f.fleetHealth && !listFiltered && customerId === undefined && scope.all;
  // A search with no other filter, over every tenant: counted from the search keys alone. SQLite:
  // the matches devices_fts finds (~8 ms CPU for 100,000 of 1,000,000 devices) without looking
  // each up in devices (~120 ms). Exact: the list's search is that same MATCH over the same table,
  // and devices_fts holds one row per device under the device's rowid (migration 002's triggers on
  // insert, delete and update of the three keys; every device write goes through them), so each
  // match is one device within the selection. PostgreSQL: the same LIKEs over deviceSearchKeys
  // (migration 040: one row per device under its id, the three keys as the search computes them,
  // kept by statement triggers, filled in serial order), whose trigram candidates are rechecked on
  // its narrow pages ('T400-': 1,301 pages, ~21 ms) instead of the devices' (43,307 pages, or a
  // parallel pass over a whole index, ~300 ms). A text with a run of four or more of one character
  // keeps the devices' count, which reads the runs indexes (migration 029).
  const searchOnly =
    !!f.searchValue &&
    !f.deviceTypeIds.length &&
    !f.statusIds.length &&
    !f.orderNumber &&
    f.assigned === null &&
    !f.lastConfig &&
    !f.fleetHealth &&
    customerId === undefined &&
    scope.all;
  const ftsOnly = searchOnly && !isPostgres(db);
  const keysOnly = searchOnly && isPostgres(db) && !longRuns(f.searchValue!.toLowerCase()).length && !longRuns(queryPhoneKey(f.searchValue!) ?? '').length;
  // Its page in serial order, from the fleet state alone too: the category's index hands out the
  // devices with their serial numbers (migration 037), none looked up in devices to be sorted.
  const fleetSerials =
    fleetOnly && f.orderBy === 'SerialNumber'
      ? db.selectFrom(sql<{ serialNumber: string }>`(${categoryDevices(isPostgres(db), f.fleetHealth!, now)})`.as('d'))
      : undefined;
  type At = { where?: RawBuilder<boolean>; reversed?: boolean; offset: number; limit: number; order?: readonly SortKey[] };
  const pageOf = (sortMatches: boolean, at: At, base = q) => {
    // at.order: a Next / Previous part's keys (those it holds equal left out, lib/keyset.ts)
    const order = sortMatches ? bySerialText : (at.order ?? keys);
    let inner = orderByKeys(
      fleetSerials ? fleetSerials.select(sql<string>`d."serialNumber"`.as('serialNumber')) : base.select('d.serialNumber'),
      order,
      at.reversed,
    );
    if (at.where) inner = inner.where(at.where);
    const serials = inner.limit(at.limit).offset(at.offset);
    return orderByKeys(
      db
        .selectFrom('devices as d')
        .leftJoin('customers as c', 'c.id', 'd.customerId')
        .selectAll('d')
        .select(['c.name as customerName', 'c.tenantId as customerTenantId'])
        .where('d.serialNumber', 'in', serials),
      keys,
      at.reversed,
    );
  };
  let filteredCount: Promise<number> | undefined;
  // The first and last serial numbers of the matches (keysOnly), read with their count.
  let serialBounds: Promise<{ lo: string | null; hi: string | null }> | undefined;
  // SQLite: the serial numbers the matches are, when they are one range of devices_serial_uq.
  let matchedRange: Promise<SerialRange | null> | undefined;
  if (ftsOnly) {
    const got = ftsCountAndRange(db, f.searchValue!);
    filteredCount = got.then((r) => r.n);
    matchedRange = got.then((r) => r.range);
  } else if (keysOnly) {
    const got = sql<{ n: number | string; lo: string | null; hi: string | null }>`select count(*) as n, min(k."serialNumber") as lo, max(k."serialNumber") as hi
      from "deviceSearchKeys" k where ${deviceKeysMatch(f.searchValue!)}`
      .execute(db)
      .then((r) => r.rows[0]!);
    filteredCount = got.then((r) => Number(r.n));
    serialBounds = got;
  } else if (!unfiltered) {
    let counted;
    if (fleetOnly)
      counted = db.selectNoFrom(sql<number | string>`(select count(*) from (${categoryDevices(isPostgres(db), f.fleetHealth!, now)}) "fleet")`.as('n'));
    else if (!fromCounts || (f.lastConfig >= 1 && f.lastConfig <= 3)) counted = countRows(q);
    else if (f.lastConfig === 4)
      // configured, less those configured within 30 days: one statement, so one snapshot
      counted = db.selectNoFrom(
        sql<number | string>`(${maintainedCount(db, f, 1)}) - (${countRows(beforeBand.where('d.lastConfigurationDate', '>=', bandSince(3, now)))})`.as('n'),
      );
    else counted = maintainedCount(db, f, f.lastConfig === 5 ? 0 : undefined);
    filteredCount = counted.executeTakeFirstOrThrow().then((r) => Number(r.n));
  }
  const allCount = customerId !== undefined || !scope.all ? countDevicesOf(db, scope, customerId) : countAllDevices(db);
  const neverConfiguredIndex = scope.all ? neverConfiguredIndexOf(db, f, customerId) : undefined;
  // A search in serial order: PostgreSQL's planner walks the serial index testing each device
  // until the page is full, which for a search with few matches passes much of the table (page 1
  // of '0000000' tested 17,529 of 100,000 devices for 10 of its 47 matches). SQLite's looks each
  // match up and sorts them all, which for a search most devices match costs ~120 ms CPU at
  // 100,000 matches ('T400-'); walking the serial index (devices_serial_uq holds serial and
  // rowid) testing each rowid against the set of matches (built once from devices_fts, ~8 ms)
  // passes index entries only (~50 ns each; the whole index ~50 ms). The count comes first; when
  // the walk would pass more devices than match — (rows skipped + page size) × devices / matches
  // against the matches, the rule of the alarm list — the matches are sorted, else the index is
  // walked (SQLite: named by INDEXED BY, for a search with no other filter whose count is cheap).
  const searchWalk = !!f.searchValue && f.orderBy === 'SerialNumber' && !!filteredCount && (isPostgres(db) || ftsOnly);
  const walkIndex = searchWalk && !isPostgres(db) ? 'devices_serial_uq' : undefined;
  /** The rows of pageOf in the order read (last first when reversed). */
  const read = async (sortMatches: boolean, at: Parameters<typeof pageOf>[1]): Promise<Row[]> => {
    if (at.limit <= 0) return [];
    // The walk of a search counted from deviceSearchKeys starts at its first match (its last,
    // reversed) and stops after its last: every match lies between the two (the same table, the same
    // LIKEs), so the walk no longer passes the devices before and after the matches ('T400-', one
    // block of 100,000 in the serial order: page 1 passed the 100,000 devices before it, ~42 ms, the
    // last page the 800,000 after it, ~330 ms).
    const bounds = serialBounds && f.orderBy === 'SerialNumber' && !sortMatches ? await serialBounds : undefined;
    if (bounds && bounds.lo !== null && bounds.hi !== null) {
      const within = sql<boolean>`d."serialNumber" between ${bounds.lo} and ${bounds.hi}`;
      at = { ...at, where: at.where ? sql<boolean>`(${at.where}) and ${within}` : within };
    }
    // matches that are one serial range: that range of devices (sortMatches is then false)
    const range = matchedRange && (await matchedRange);
    const page = pageOf(
      sortMatches,
      at,
      range ? db.selectFrom('devices as d').where('d.serialNumber', '>=', range.lo).where('d.serialNumber', '<=', range.hi) : q,
    );
    const index = neverConfiguredIndex ?? (sortMatches ? undefined : walkIndex);
    return index ? withIndex(db, page.compile(), index) : ((await page.execute()) as Row[]);
  };
  const sortMatches = async (upTo: number) => {
    if (!searchWalk || (matchedRange && (await matchedRange))) return false;
    const [n, total] = await Promise.all([filteredCount!, allCount]);
    return sortsMatches(upTo, total, n);
  };
  const total = filteredCount ?? allCount;
  const pageRows = (async (): Promise<Row[]> => {
    const edge = edgeOf(f);
    const values = edge && (await edgeKeys(db, scope, edge.id, keys));
    if (edge && values) {
      // Next / Previous: the rows after (before) the edge row's sort key, from the index range.
      const viaSort = await sortMatches(f.pageSize);
      const rows = await keysetPage(keys, values, edge.backwards, f.pageSize, (where, reversed, limit, order) =>
        read(viaSort, { where, reversed, offset: 0, limit, order }),
      );
      // fewer rows before the edge than a page: the first page
      if (!edge.backwards || rows.length === f.pageSize) return rows;
    }
    if (f.page === 1 || (edge?.backwards && values)) return read(await sortMatches(f.pageSize), { offset: 0, limit: f.pageSize });
    // A jump to page N: the count first, then from the nearer end of the selection.
    const at = nearerEnd(f.page, f.pageSize, await total);
    const rows = await read(await sortMatches(at.offset + at.limit), at);
    return at.reversed ? rows.reverse() : rows;
  })();
  const [rows, filtered, all] = await Promise.all([pageRows, filteredCount, allCount]);
  return { devices: rows.map(toDto), totalCount: filtered ?? all, generalTotalCount: all };
}

/**
 * "Never configured" in serial or Status order on SQLite: the planner prefers a skip-scan of the
 * Last Config sort index (its statistics count a missing date as rare) and sorts 120,000 serials
 * (~55 ms CPU at 1,000,000 devices; in Status order about a second, each row read for its status)
 * over the partial index that hands out the page in order (0.2 ms): devices_never_configured_idx
 * for the serial number, devices_never_configured_status_idx (migration 034) for the Status. The
 * page's inner query names that index (INDEXED BY). Any other filter leaves the choice to the planner.
 */
const NEVER_CONFIGURED_INDEXES: Partial<Record<DeviceListBody['orderBy'], string>> = {
  SerialNumber: 'devices_never_configured_idx',
  Status: 'devices_never_configured_status_idx',
};
const neverConfiguredIndexOf = (db: DB, f: DeviceListBody, customerId?: string) =>
  !isPostgres(db) && f.lastConfig === 5 && !f.searchValue && !f.deviceTypeIds.length && !f.statusIds.length && !f.orderNumber && customerId === undefined
    ? NEVER_CONFIGURED_INDEXES[f.orderBy]
    : undefined;
/** The page with its inner query (the page's serial numbers) reading devices by `index` (INDEXED BY). */
const withIndex = (db: DB, page: CompiledQuery, index: string): Promise<Row[]> => withIndexedBy<Row>(db, page, 'from "devices" as "d"', index, 'last');

type DeviceFilterBody = Omit<DeviceListBody, 'page' | 'pageSize' | 'orderBy' | 'desc'>;

/**
 * The runs of four or more of one character in a search text, as migration 029's search_runs
 * names them ('c:L'): a value containing the text holds each of them.
 */
function longRuns(text: string): string[] {
  const chars = Array.from(text);
  const out: string[] = [];
  for (let i = 0; i < chars.length;) {
    let j = i;
    while (j + 1 < chars.length && chars[j + 1] === chars[i]) j++;
    if (j - i + 1 >= 4) out.push(`${chars[i]}:${j - i + 1}`);
    i = j + 1;
  }
  return out;
}

/**
 * The PostgreSQL search of the device list over deviceSearchKeys `k` (migration 040): the LIKEs
 * filteredBeforeBand tests, over the keys as it computes them.
 */
function deviceKeysMatch(searchValue: string): RawBuilder<boolean> {
  const like = `%${likeEscape(searchValue.toLowerCase())}%`;
  const phone = queryPhoneKey(searchValue);
  const serialOrImei = sql<boolean>`k.serial like ${like} escape '\\' or k.imei like ${like} escape '\\'`;
  return phone !== null && phone.length >= 3 ? sql<boolean>`${serialOrImei} or k.phone like ${`%${phone}%`}` : serialOrImei;
}

type SerialRange = { lo: string; hi: string };
/** Above every character: `text + PAST_TEXT` sorts after every string that starts with text and goes on with a character below it. */
const PAST_TEXT = '\u{10FFFF}';

/**
 * The count of a SQLite search with no other filter, over every tenant, from devices_fts alone;
 * with it, when the matches are one range of serial numbers, that range. A serial number's first
 * characters, typed or scanned ('T400-'), are the usual search: every serial number that starts
 * with the text (as typed, or in capitals) holds it, so the trigram MATCH finds each of them; when
 * as many devices match as devices_serial_uq holds serial numbers in that range, the matches are
 * exactly that range, and the list's pages read it from the index alone: no set of matches built
 * from devices_fts (~20 ms for 100,000), no walk past the devices before the first match or after
 * the last (the last page of 'T400-' passed the 800,000 after it). Counting a range passes at most
 * as many index entries as the search matched. One statement, so one snapshot.
 */
async function ftsCountAndRange(db: DB, searchValue: string): Promise<{ n: number; range: SerialRange | null }> {
  const starts = [...new Set([searchValue, searchValue.toUpperCase()])];
  const inRange = (x: string) => sql`"serialNumber" >= ${x} and "serialNumber" < ${x + PAST_TEXT}`;
  const r = await sql<
    Record<string, number | string | null>
  >`select (select count(*) from devices_fts where devices_fts match ${deviceFtsMatch(searchValue)}) as n, ${sql.join(
    starts.map(
      (x, i) =>
        sql`(select count(*) from "devices" indexed by devices_serial_uq where ${inRange(x)}) as ${sql.ref(`p${i}`)},
        (select min("serialNumber") from "devices" where ${inRange(x)}) as ${sql.ref(`lo${i}`)},
        (select max("serialNumber") from "devices" where ${inRange(x)}) as ${sql.ref(`hi${i}`)}`,
    ),
  )}`.execute(db);
  const row = r.rows[0]!;
  const n = Number(row.n);
  const i = starts.findIndex((_, i) => n > 0 && Number(row[`p${i}`]) === n);
  return { n, range: i < 0 ? null : { lo: String(row[`lo${i}`]), hi: String(row[`hi${i}`]) } };
}

/**
 * The SQLite search of the device list as an FTS5 query of devices_fts: the serial or IMEI contains
 * the text, or the phone search key contains the text's phone key (when it is one, of three digits
 * or more). The trigram tokenizer makes each phrase a case-insensitive substring match; a phrase
 * under three characters matches nothing.
 */
function deviceFtsMatch(searchValue: string): string {
  const phone = queryPhoneKey(searchValue);
  let match = `{serial imei} : ${ftsPhrase(searchValue)}`;
  if (phone !== null && phone.length >= 3) match += ` OR phone : ${ftsPhrase(phone)}`;
  return match;
}

/** The devices the list's filters select apart from the Last Config band (one customer's when customerId is given), within the scope. */
function filteredBeforeBand(db: DB, scope: TenantScope, f: DeviceFilterBody, customerId?: string) {
  const pg = isPostgres(db);
  let q = byCustomer(db.selectFrom('devices as d'), scope, 'd.customerId');
  // One customer's devices (customers: get-device-list/{customerId}); generalTotalCount is then theirs.
  if (customerId !== undefined) q = q.where('d.customerId', '=', customerId);
  if (f.searchValue) {
    // Substring of the serial or IMEI (case-insensitive), or of the phone number's search key
    // (digits without international or trunk prefix, as the palette search: '07712 345678' finds
    // +447712345678). PostgreSQL: LIKE over the pg_trgm-indexed expressions; SQLite: the trigram
    // FTS table devices_fts, which holds the same three keys (a LIKE scan there takes seconds at
    // 1,000,000 devices).
    const phone = queryPhoneKey(f.searchValue);
    const usePhone = phone !== null && phone.length >= 3;
    if (pg) {
      const term = f.searchValue.toLowerCase();
      const like = `%${likeEscape(term)}%`;
      // A run of four or more of one character also reads the runs index (migration 029): its
      // trigrams alone hold too little ('0000000' has one, '000', in ~2% of the keys).
      const contains = (key: RawBuilder<unknown>, pattern: RawBuilder<unknown> | string, text: string) => {
        const runs = longRuns(text);
        const likeIt = sql<boolean>`${key} like ${pattern}`;
        return runs.length ? sql<boolean>`(${likeIt} and search_runs(${key}) @> ${runs}::text[])` : likeIt;
      };
      q = q.where((eb) =>
        eb.or([
          contains(sql`lower(d."serialNumber")`, sql`${like} escape '\\'`, term),
          contains(sql`lower(d."imei")`, sql`${like} escape '\\'`, term),
          ...(usePhone ? [contains(sql`search_phone_key(d."phoneNumber")`, `%${phone}%`, phone)] : []),
        ]),
      );
    } else {
      q = q.where(sql<boolean>`d.rowid in (select rowid from devices_fts where devices_fts match ${deviceFtsMatch(f.searchValue)})`);
    }
  }
  if (f.deviceTypeIds.length) q = oneOf(q, 'd.type', f.deviceTypeIds);
  if (f.statusIds.length) q = oneOf(q, 'd.status', f.statusIds);
  if (f.orderNumber) q = q.where(sql`lower(d."orderNumber")`, '=', f.orderNumber.toLowerCase());
  if (f.assigned !== null) q = q.where('d.isUserAssigned', '=', literal(f.assigned ? 1 : 0));
  return q;
}

/** The Last Config band of the list's filters on top of the others. */
function withBand(q: ReturnType<typeof filteredBeforeBand>, f: DeviceFilterBody, now: Date) {
  let out = q;
  if (f.lastConfig) {
    if (f.lastConfig <= 3) out = out.where('d.lastConfigurationDate', '>=', bandSince(f.lastConfig, now));
    else if (f.lastConfig === 4) out = out.where('d.lastConfigurationDate', '<', bandSince(4, now));
    else if (f.lastConfig === 5) out = out.where('d.lastConfigurationDate', 'is', null);
  }
  return out;
}

/** The devices the list's filters select (one customer's when customerId is given), without columns or order. */
export function filteredDevices(db: DB, scope: TenantScope, f: DeviceFilterBody, now: Date, customerId?: string) {
  return withFleetHealth(withBand(filteredBeforeBand(db, scope, f, customerId), f, now), isPostgres(db), f, now);
}

/** The fleet health filter (modules/fleet/conditions.ts): the devices a Fleet Health count counted. */
function withFleetHealth(q: ReturnType<typeof filteredBeforeBand>, pg: boolean, f: DeviceFilterBody, now: Date) {
  return f.fleetHealth ? q.where(fleetHealthWhere(pg, f.fleetHealth, now)) : q;
}

type DeviceFilter = Parameters<typeof filteredDevices>[2];

/** How many devices the filters select: the export's total. */
export async function countFilteredDevices(db: DB, scope: TenantScope, f: DeviceFilter, now: Date, customerId?: string): Promise<number> {
  const r = await filteredDevices(db, scope, f, now, customerId)
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(r.n);
}

/**
 * One keyset page of an export: the filtered devices after `afterSerial` in serial-number order
 * (serial numbers are unique), with their customer. Never OFFSET: each page starts from the index.
 */
export async function deviceExportPage(
  db: DB,
  scope: TenantScope,
  f: DeviceFilter,
  now: Date,
  customerId: string | undefined,
  afterSerial: string | null,
  limit: number,
) {
  // Rows as one JSON object each (see manyRows): an export reads every row of the selection.
  let q = filteredDevices(db, scope, f, now, customerId).leftJoin('customers as c', 'c.id', 'd.customerId').select(dtoJson(db).as('r'));
  if (afterSerial !== null) q = q.where('d.serialNumber', '>', afterSerial);
  const rows = await q.orderBy('d.serialNumber').limit(limit).execute();
  return rows.map(({ r }) => toDto(fromJson(r)));
}

export async function findDeviceById(db: DB, scope: TenantScope, id: string): Promise<DeviceDto | undefined> {
  const r = (await base(db, scope).where('d.id', '=', id).executeTakeFirst()) as Row | undefined;
  return r && toDto(r);
}

/** A serial matches case-insensitively (scanners and people type either case). */
const serialKey = (s: string) => s.trim().toLowerCase();
/**
 * The chunk's serial keys as one parameter (a JSON array on SQLite, a text[] on PostgreSQL), looked
 * up through the lower(serialNumber) index: one statement of the same text for every chunk
 * instead of 5,000 bound parameters to bind and plan. On PostgreSQL the array goes through
 * `array(select unnest(…))`, which the planner does not look into: with the array itself it
 * estimated each of 5,000 values against its statistics (6–20 ms of planning) and then preferred
 * reading every device (a parallel sequential scan, ~250 ms at 200,000 devices under load) to the
 * index; now it plans in under 1 ms and reads the index (a bitmap scan of the 5,000 keys; decision "5,000
 * serials are looked up without planning each one", docs/decisions/devices-and-stock.md).
 */
function serialIn(db: DB, keys: string[]) {
  return isPostgres(db)
    ? sql<boolean>`lower(d."serialNumber") collate "C" = any(array(select unnest(${keys}::text[])))`
    : sql<boolean>`lower(d."serialNumber") in (select value from json_each(${JSON.stringify(keys)}))`;
}

/** Devices by serial (case-insensitive), keyed by lower-case serial. */
export async function devicesBySerials(db: DB, scope: TenantScope, serials: string[]): Promise<Map<string, DeviceDto>> {
  const keys = [...new Set(serials.map(serialKey))];
  const out = new Map<string, DeviceDto>();
  for (const part of chunks(keys)) for (const r of await manyRows(db, scope, (q) => q.where(serialIn(db, part)))) out.set(serialKey(r.serialNumber), toDto(r));
  return out;
}

export async function findDeviceBySerial(db: DB, scope: TenantScope, serial: string): Promise<DeviceDto | undefined> {
  return (await devicesBySerials(db, scope, [serial])).get(serialKey(serial));
}

/** get-list-by-ids: the known devices in the order asked, each once. */
export async function listDevicesByIds(db: DB, scope: TenantScope, ids: string[]): Promise<DeviceDto[]> {
  const unique = [...new Set(ids)];
  const byId = new Map<string, DeviceDto>();
  for (const part of chunks(unique)) for (const r of await manyRows(db, scope, (q) => q.where('d.id', 'in', part))) byId.set(r.id, toDto(r));
  return unique.flatMap((id) => byId.get(id) ?? []);
}

/** One row per distinct serial in the order asked, from `found` by serial key; a placeholder (spec §3) for an unknown one. */
function inAskedOrder<T>(serials: string[], found: ReadonlyMap<string, T>, placeholder: (serial: string) => T): T[] {
  const seen = new Set<string>();
  const out: T[] = [];
  for (const s of serials) {
    const k = serialKey(s);
    if (seen.has(k)) continue;
    seen.add(k);
    out.push(found.get(k) ?? placeholder(s.trim()));
  }
  return out;
}

/** get-list-by-serials: one row per distinct serial in the order asked; a placeholder (spec §3) for an unknown one. */
export async function listDevicesBySerials(db: DB, scope: TenantScope, serials: string[]): Promise<DeviceDto[]> {
  return inAskedOrder(serials, await devicesBySerials(db, scope, serials), placeholderDevice);
}

/** A code's name as SQL: `case` over the code table ('Unknown' for a code not in it, as lookup). */
const nameSql = (ref: RawBuilder<unknown>, names: ReadonlyMap<number, string>) =>
  sql`case ${ref} ${sql.join(
    [...names].map(([value, name]) => sql`when ${sql.lit(value)} then ${sql.lit(name)}`),
    sql` `,
  )} else 'Unknown' end`;

/**
 * toDto in SQL: each row's DeviceDto as JSON text built by the database, with toDto's keys in its
 * order (tests/integration/devices.test.ts compares the two for every device). get-list-by-serials
 * answers thousands of devices at once; parsing each row's object, building its DTO and
 * serializing the answer again was more than half of its CPU.
 */
function dtoJsonText(db: DB) {
  const pg = isPostgres(db);
  // A nested object is marked (`nested`). PostgreSQL: the object's text concatenated from each
  // value's to_json (json_build_object took ~1.5× the time for 5,000 devices); SQLite: json_object.
  const nested = (x: RawBuilder<unknown>) => Object.assign(x, { nested: true as const });
  const obj = (fields: [string, RawBuilder<unknown> & { nested?: true }][]) => {
    if (!pg) return nested(sql`json_object(${sql.join(fields.flatMap(([k, v]) => [sql.lit(k), v]))})`);
    const parts = fields.map(
      ([k, v], i) => sql`${sql.lit(`${i ? ',' : '{'}${JSON.stringify(k)}:`)} || coalesce(${v.nested ? v : sql`to_json(${v})::text`}, 'null')`,
    );
    return nested(sql`(${sql.join(parts, sql` || `)} || '}')`);
  };
  const d = (c: string) => sql.ref(`d.${c}`);
  const bool = (cond: RawBuilder<unknown>) => (pg ? sql`(${cond})` : sql`json(case when ${cond} then 'true' else 'false' end)`);
  const coded = (c: string, names: ReadonlyMap<number, string>) =>
    obj([
      ['value', d(c)],
      ['name', nameSql(d(c), names)],
    ]);
  const dto = obj([
    ['id', d('id')],
    ['etag', d('etag')],
    ['serialNumber', d('serialNumber')],
    ['imei', d('imei')],
    ['imsi', d('imsi')],
    ['type', coded('type', TYPE_NAMES)],
    ['phoneNumber', d('phoneNumber')],
    ['simPhoneNumber', d('simPhoneNumber')],
    ['simSerial', d('simSerial')],
    ['simTypeId', d('simTypeId')],
    ['simType', nested(sql`case when ${d('simTypeId')} is null then null else ${coded('simTypeId', SIM_TYPE_NAMES)} end`)],
    ['simStatus', nested(sql`case when ${d('simStatus')} is null then null else ${obj([['name', d('simStatus')]])} end`)],
    ['supplier', d('supplier')],
    ['status', coded('status', STATUS_NAMES)],
    ['customerAccountId', d('customerId')],
    ['customerAccountTenantId', sql.ref('c.tenantId')],
    ['customer', sql.ref('c.name')],
    ['customerName', sql.ref('c.name')],
    ['orderNumber', d('orderNumber')],
    ['isUserAssigned', bool(sql`${d('isUserAssigned')} = 1`)],
    ['firmwareVersion', d('firmwareVersion')],
    ['lastConfigurationDate', d('lastConfigurationDate')],
    ['dateReceived', d('dateReceived')],
    ['lastUpdated', d('lastUpdated')],
    ['addedToSystem', d('addedToSystem')],
    ['isAllocatable', bool(sql`${d('customerId')} is null and ${d('status')} in (${sql.join(ALLOCATABLE_STATUSES.map((x) => sql.lit(x)))})`)],
  ]);
  return sql<string>`${dto}`;
}

/**
 * get-list-by-serials' answer as JSON text (`{"devices":[…]}`): listDevicesBySerials' rows, each
 * DTO built as text by the database (dtoJsonText) and joined, the placeholders serialized here.
 */
export async function listDevicesBySerialsJson(db: DB, scope: TenantScope, serials: string[]): Promise<string> {
  const keys = [...new Set(serials.map(serialKey))];
  const found = new Map<string, string>();
  for (const part of chunks(keys)) {
    const rows = await byCustomer(joined(db), scope, 'd.customerId')
      .where(serialIn(db, part))
      .select(['d.serialNumber', dtoJsonText(db).as('j')])
      .execute();
    for (const r of rows) found.set(serialKey(r.serialNumber), r.j);
  }
  return `{"devices":[${inAskedOrder(serials, found, (s) => JSON.stringify(placeholderDevice(s))).join(',')}]}`;
}

// ---------------------------------------------------------------- writes

type Locked = Pick<DeviceTable, 'id' | 'serialNumber' | 'etag' | 'status' | 'type' | 'customerId' | 'orderNumber'>;

/** A device's changed values before and after a bulk change: its own History entry. */
export type DeviceHistory = { id: string; before: Record<string, unknown>; after: Record<string, unknown> };
/** A bulk change's answer and each device's History entry (the route writes those and answers the rest). */
export type BulkChanged = BulkChangeResponse & { history: DeviceHistory[] };

/**
 * Reads (and on PostgreSQL locks) the listed devices inside a transaction. Rows are locked in id
 * order, so two bulk changes over overlapping devices wait for each other instead of deadlocking.
 */
async function lockDevices(trx: DB, where: { ids?: string[]; serialKeys?: string[] }): Promise<Locked[]> {
  let ids = where.ids;
  if (!ids) {
    ids = [];
    for (const part of chunks(where.serialKeys ?? []))
      ids.push(...(await trx.selectFrom('devices as d').select('d.id').where(serialIn(trx, part)).execute()).map((r) => r.id));
  }
  const out: Locked[] = [];
  for (const part of chunks([...new Set(ids)].sort())) {
    let q = trx
      .selectFrom('devices as d')
      .select(['d.id', 'd.serialNumber', 'd.etag', 'd.status', 'd.type', 'd.customerId', 'd.orderNumber'])
      .where('d.id', 'in', part)
      .orderBy('d.id');
    if (isPostgres(trx)) q = q.forUpdate();
    out.push(...(await q.execute()));
  }
  return out;
}

function refuse(status: 404 | 409 | 422, message: string, code: string, errors: Record<string, string>): never {
  throw new ApiError(status, message, code, errors);
}

/** Checks id + etag of every listed device: 409 naming each stale or unknown one. Returns the rows by id. */
async function lockAndCheck(trx: DB, refs: { id: string; etag: string }[]): Promise<Map<string, Locked>> {
  const rows = new Map((await lockDevices(trx, { ids: [...new Set(refs.map((r) => r.id))] })).map((r) => [r.id, r]));
  const errors: Record<string, string> = {};
  for (const ref of refs) {
    const row = rows.get(ref.id);
    if (!row) errors[ref.id] = DEVICE_TEXT.missing;
    else if (row.etag !== ref.etag) errors[ref.id] = DEVICE_TEXT.stale;
  }
  const n = Object.keys(errors).length;
  if (n) refuse(409, DEVICE_TEXT.staleMany(n), CODE.conflict, errors);
  return rows;
}

async function updateMany(trx: DB, ids: string[], values: Partial<DeviceTable>): Promise<void> {
  for (const part of chunks(ids)) {
    const r = await trx.updateTable('devices').set(values).where('id', 'in', part).executeTakeFirst();
    if (Number(r.numUpdatedRows) !== part.length) throw new ApiError(409, DEVICE_TEXT.staleMany(part.length), CODE.conflict);
  }
}

/**
 * Bulk status change. Devices leaving a customer account (Allocated or awaiting return → any
 * other status) are unassigned from their user and removed from the customer (spec §5).
 */
export async function changeStatusMany(trx: DB, refs: { id: string; etag: string }[], status: number, now: Date): Promise<BulkChanged> {
  const rows = await lockAndCheck(trx, refs);
  const etag = newEtag();
  const at = now.toISOString();
  const ids = [...rows.keys()];
  const leaving = isInCustomerAccount(status) ? [] : ids.filter((id) => isInCustomerAccount(rows.get(id)!.status) || rows.get(id)!.customerId != null);
  const leavingSet = new Set(leaving);
  const staying = ids.filter((id) => !leavingSet.has(id));
  await updateMany(trx, leaving, { status, customerId: null, isUserAssigned: 0, assignedPersonId: null, etag, lastUpdated: at });
  await updateMany(trx, staying, { status, etag, lastUpdated: at });
  const history = ids.map((id): DeviceHistory => {
    const r = rows.get(id)!;
    return leavingSet.has(id)
      ? { id, before: { status: r.status, customerId: r.customerId }, after: { status, customerId: null } }
      : { id, before: { status: r.status }, after: { status } };
  });
  return { updated: ids.length, devices: ids.map((id) => ({ id, etag })), history };
}

/** Bulk order number: every device must be Allocated or awaiting return (422 naming the others). */
export async function changeOrderNumberMany(trx: DB, refs: { id: string; etag: string }[], orderNumber: string, now: Date): Promise<BulkChanged> {
  const rows = await lockAndCheck(trx, refs);
  const errors: Record<string, string> = {};
  for (const r of rows.values()) if (!isOrderNumberEligible(r.status)) errors[r.id] = DEVICE_TEXT.notEligibleOrderNumber;
  const n = Object.keys(errors).length;
  if (n) refuse(422, DEVICE_TEXT.notEligibleMany(n), DEVICE_CODE.notEligible, errors);
  const etag = newEtag();
  const ids = [...rows.keys()];
  await updateMany(trx, ids, { orderNumber, etag, lastUpdated: now.toISOString() });
  const history = ids.map((id): DeviceHistory => ({ id, before: { orderNumber: rows.get(id)!.orderNumber }, after: { orderNumber } }));
  return { updated: ids.length, devices: ids.map((id) => ({ id, etag })), history };
}

/** Bulk device type by serials: 404 naming unknown serials, 422 naming devices in a customer account. */
export async function changeDeviceType(trx: DB, serials: string[], type: number, now: Date): Promise<BulkChanged> {
  const keys = [...new Set(serials.map(serialKey))];
  const rows = await lockDevices(trx, { serialKeys: keys });
  const bySerial = new Map(rows.map((r) => [serialKey(r.serialNumber), r]));
  const unknown: Record<string, string> = {};
  for (const s of serials) if (!bySerial.has(serialKey(s))) unknown[s.trim()] = DEVICE_TEXT.missing;
  const nu = Object.keys(unknown).length;
  if (nu) refuse(404, DEVICE_TEXT.unknownSerials(nu), CODE.deviceNotFound, unknown);
  const errors: Record<string, string> = {};
  for (const r of rows) if (!isTypeChangeEligible(r.status) || r.customerId != null) errors[r.serialNumber] = DEVICE_TEXT.notEligibleType;
  const n = Object.keys(errors).length;
  if (n) refuse(422, DEVICE_TEXT.notEligibleMany(n), DEVICE_CODE.notEligible, errors);
  const etag = newEtag();
  const ids = rows.map((r) => r.id);
  await updateMany(trx, ids, { type, etag, lastUpdated: now.toISOString() });
  const history = rows.map((r): DeviceHistory => ({ id: r.id, before: { type: r.type }, after: { type } }));
  return { updated: ids.length, devices: ids.map((id) => ({ id, etag })), history };
}

/** The general-details update: only where the etag still matches; returns false when it did not. */
export async function updateGeneralDetails(trx: DB, id: string, oldEtag: string, values: Partial<DeviceTable>): Promise<string | undefined> {
  const etag = newEtag();
  const r = await trx
    .updateTable('devices')
    .set({ ...values, etag })
    .where('id', '=', id)
    .where('etag', '=', oldEtag)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1 ? etag : undefined;
}

/** Raw row for updates (stored type, status, order number). */
export const findDeviceRow = (db: DB, scope: TenantScope, id: string) =>
  byCustomer(db.selectFrom('devices').selectAll().where('id', '=', id), scope, 'devices.customerId').executeTakeFirst();

export type NewDevice = {
  serialNumber: string;
  type: number;
  imei?: string;
  imsi?: string;
  simSerial?: string;
  phoneNumber?: string;
  supplier?: string;
  orderNumber?: string;
};

/**
 * What an import will do: the ids of all its devices in the order given (new ids for the new
 * serials), the serials that already exist (left as they are), and the new devices' rows in
 * steps of `size` rows of the file (`done`: rows of the file handled once the step is written).
 */
export type DeviceImportPlan = { idList: string[]; alreadyPresent: string[]; steps: { done: number; rows: DeviceTable[] }[] };

/**
 * Import, first part (reads only, outside the write transaction): looks the serials up a step at
 * a time and builds the new devices' rows. `check` runs after each step (a cancelled import
 * stops there). A serial another import creates after this look-up fails the write with the
 * unique index (the import's race answer), so nothing of the import is written.
 */
export async function planDeviceImport(
  db: DB,
  list: NewDevice[],
  now: Date,
  o: { size?: number; check?: () => Promise<void> } = {},
): Promise<DeviceImportPlan> {
  const at = now.toISOString();
  const ids: string[] = [];
  const alreadyPresent: string[] = [];
  const steps: DeviceImportPlan['steps'] = [];
  for (const part of chunks(list, o.size ?? CHUNK)) {
    // Serial numbers are unique across tenants: an import checks them all.
    const existing = await devicesBySerials(
      db,
      ALL_TENANTS,
      part.map((d) => d.serialNumber),
    );
    const fresh: DeviceTable[] = [];
    for (const d of part) {
      const known = existing.get(serialKey(d.serialNumber));
      if (known) {
        ids.push(known.id);
        alreadyPresent.push(known.serialNumber);
        continue;
      }
      const id = newId();
      ids.push(id);
      fresh.push({
        id,
        serialNumber: d.serialNumber,
        type: d.type,
        status: STATUS.New,
        customerId: null,
        imei: d.imei ?? null,
        imsi: d.imsi ?? null,
        phoneNumber: d.phoneNumber ?? null,
        simPhoneNumber: null,
        simSerial: d.simSerial ?? null,
        simTypeId: null,
        simStatus: null,
        supplier: d.supplier ?? null,
        orderNumber: d.orderNumber ?? null,
        isUserAssigned: 0,
        assignedPersonId: null,
        firmwareVersion: null,
        lastConfigurationDate: null,
        dateReceived: at,
        lastUpdated: at,
        addedToSystem: at,
        etag: newEtag(),
      });
    }
    steps.push({ done: ids.length, rows: fresh });
    await o.check?.();
  }
  return { idList: ids, alreadyPresent, steps };
}

/**
 * Import, second part (in the caller's write transaction): inserts the planned rows a step at a
 * time, reporting the rows of the file handled after each step (`step` throws to stop: the
 * transaction rolls back). Returns how many devices were created.
 */
export async function writeDeviceImport(trx: DB, plan: DeviceImportPlan, progress?: { step: (done: number) => Promise<void> }): Promise<number> {
  let created = 0;
  for (const { done, rows: fresh } of plan.steps) {
    for (const rows of chunks(fresh, 500)) await trx.insertInto('devices').values(rows).execute();
    created += fresh.length;
    await progress?.step(done);
  }
  return created;
}
