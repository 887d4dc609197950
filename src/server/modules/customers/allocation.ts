// Allocating devices to a customer (spec §4 "Allocation rows", §5 "Allocation", §7 allocate-many
// and import devices-to-allocate). allocate-many is all or nothing in one transaction: the
// customer row and the devices are locked (FOR UPDATE on PostgreSQL, in id order; SQLite serialises
// writers), every device is checked (exists, etag and type as the page saw them, allocatable) and
// the per-type quota (purchased minus allocated) is checked unless forced; only then are all of
// them written.
import { ApiError, type Ctx } from '../../http/api.js';
import type { ExportPool, ImportJobHandle } from '../../exports/pool.js';
import { isPostgres, type DB } from '../../db/index.js';
import { newEtag } from '../../platform/util.js';
import { readCsvUpload } from '../../lib/csv-upload.js';
import { CODE } from '../../../shared/messages.js';
import { DEVICE_TYPES, lookupName } from '../../../shared/codes.js';
import { DEVICE_CODE, DEVICE_TEXT, STATUS } from '../../../shared/schemas/devices.js';
import { CUSTOMER_CODE, CUSTOMER_TEXT, type AllocateManyBody } from '../../../shared/schemas/customers.js';
import { ALLOCATABLE_STATUSES, type BulkChanged } from '../devices/repo.js';
import { allocatedByType, purchasedByType } from './repo.js';

const CHUNK = 5000;
function chunks<T>(a: readonly T[], n = CHUNK): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < a.length; i += n) out.push(a.slice(i, i + n));
  return out;
}

export const isAllocatable = (d: { status: number; customerId: string | null }) => d.customerId == null && ALLOCATABLE_STATUSES.includes(d.status);

/** allocate-many inside a transaction; throws (nothing written) or returns the new etags and each device's History entry. */
export async function allocateMany(trx: DB, body: AllocateManyBody, now: Date): Promise<BulkChanged> {
  const pg = isPostgres(trx);
  const ids = [...new Set(body.devices.map((d) => d.id))].sort();
  const rows = new Map<string, { id: string; etag: string; status: number; type: number; customerId: string | null; orderNumber: string | null }>();
  for (const part of chunks(ids)) {
    let q = trx.selectFrom('devices').select(['id', 'etag', 'status', 'type', 'customerId', 'orderNumber']).where('id', 'in', part).orderBy('id');
    if (pg) q = q.forUpdate();
    for (const r of await q.execute()) rows.set(r.id, r);
  }
  const stale: Record<string, string> = {};
  for (const ref of body.devices) {
    const row = rows.get(ref.id);
    if (!row) stale[ref.id] = DEVICE_TEXT.missing;
    else if (row.etag !== ref.etag || (ref.typeValue != null && ref.typeValue !== row.type)) stale[ref.id] = DEVICE_TEXT.stale;
  }
  const ns = Object.keys(stale).length;
  if (ns) throw new ApiError(409, DEVICE_TEXT.staleMany(ns), CODE.conflict, stale);
  const refused: Record<string, string> = {};
  for (const r of rows.values()) if (!isAllocatable(r)) refused[r.id] = CUSTOMER_TEXT.notAllocatable;
  const nr = Object.keys(refused).length;
  if (nr) throw new ApiError(422, CUSTOMER_TEXT.notAllocatableMany(nr), DEVICE_CODE.notEligible, refused);

  if (body.force === false) {
    const [held, bought] = await Promise.all([allocatedByType(trx, body.customerId), purchasedByType(trx, body.customerId)]);
    const asked = new Map<number, number>();
    for (const r of rows.values()) asked.set(r.type, (asked.get(r.type) ?? 0) + 1);
    const over: Record<string, string> = {};
    const names: string[] = [];
    for (const [type, n] of [...asked].sort((a, b) => a[0] - b[0])) {
      const left = (bought.get(type) ?? 0) - (held.get(type)?.allocated ?? 0);
      if (n > left) {
        const name = lookupName(DEVICE_TYPES, type);
        over[String(type)] = CUSTOMER_TEXT.quotaExceeded(name, left, n);
        names.push(name);
      }
    }
    if (names.length) throw new ApiError(422, CUSTOMER_TEXT.quotaExceededMany(names.join(', ')), CUSTOMER_CODE.allocationExceeds, over);
  }

  const etag = newEtag();
  const at = now.toISOString();
  const values = {
    status: STATUS.Allocated,
    customerId: body.customerId,
    etag,
    lastUpdated: at,
    ...(body.orderNumber ? { orderNumber: body.orderNumber } : {}),
  };
  for (const part of chunks(ids)) {
    const r = await trx.updateTable('devices').set(values).where('id', 'in', part).executeTakeFirst();
    if (Number(r.numUpdatedRows) !== part.length) throw new ApiError(409, DEVICE_TEXT.staleMany(part.length), CODE.conflict);
  }
  const history = ids.map((id) => {
    const r = rows.get(id)!;
    const before: Record<string, unknown> = { status: r.status, customerId: r.customerId };
    const after: Record<string, unknown> = { status: values.status, customerId: values.customerId };
    if (body.orderNumber) [before.orderNumber, after.orderNumber] = [r.orderNumber, body.orderNumber];
    return { id, before, after };
  });
  return { updated: ids.length, devices: ids.map((id) => ({ id, etag })), history };
}

// ---------------------------------------------------------------- import devices to allocate

const importError = (message: string) => new ApiError(400, message, DEVICE_CODE.importInvalid);

/**
 * Reads the multipart field File: a CSV (spec §5 generic CSV rules, lib/csv-upload.ts) with a
 * SerialNumber column (case-insensitive, spaces ignored); cells split on comma or semicolon; rows
 * with an empty serial skipped. Returns the distinct serials (case-insensitive) in file order,
 * parsed on a pool worker (modules/customers/import-csv.ts).
 */
export async function readSerialsFile(c: Ctx, exports: ExportPool, job?: ImportJobHandle): Promise<string[]> {
  const parsed = await exports.parseImport({ kind: 'serials', bytes: await readCsvUpload(c) }, job);
  if (!parsed.ok) throw importError(parsed.message);
  return parsed.rows;
}
