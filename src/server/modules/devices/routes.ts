// Device stock endpoints (spec document 2 §7 "Stock service"): the asset list, lookups by id,
// serial, ids and serials, the general-details update, the three bulk changes and the CSV
// import. Shapes and error answers are described in src/shared/schemas/devices.ts (the contract).
// Exports (list-with-filters, list-by-ids as .xlsx) are jobs of the export pool (src/server/exports).
import { deps, ApiError, badRequest, conflict, found, type Api, type AuthUser, type Ctx } from '../../http/api.js';
import { tx, type DB } from '../../db/index.js';
import { normalisePhone, phoneError } from '../../../shared/phone.js';
import { tenantScope } from '../../auth/tenant-scope.js';
import { audit, auditMany } from '../../platform/util.js';
import { CODE, MSG } from '../../../shared/messages.js';
import { P } from '../../../shared/permissions.js';
import { isValidId, normaliseId } from '../../../shared/codes.js';
import type { DeviceTable } from '../../db/schema.js';
import { EXPORT_LABEL } from '../../../shared/export-format.js';
import { exportResponse, importJob } from '../../exports/routes.js';
import { ImportCancelled, type ExportPool, type ImportJobHandle } from '../../exports/pool.js';
import { deviceIdentitiesChanged } from './identity-changes.js';
import { readCsvUpload } from '../../lib/csv-upload.js';
import type { Hub } from '../../realtime/hub.js';
import { scopedReader } from '../../realtime/records.js';
import {
  changeDeviceTypeBody,
  changeOrderNumberManyBody,
  changeStatusManyBody,
  deviceByIdQuery,
  deviceBySerialQuery,
  deviceGeneralDetailsBody,
  deviceIdsBody,
  deviceListBody,
  deviceSerialsBody,
  DEVICE_CODE,
  DEVICE_TEXT,
  SIM_EXEMPT_TYPES,
  TEXT_MAX,
  isOrderNumberEligible,
  type BulkChangeResponse,
  type DeviceDto,
  type DeviceList,
  type DeviceMany,
  type ImportResponse,
} from '../../../shared/schemas/devices.js';
import {
  changeDeviceType,
  changeOrderNumberMany,
  changeStatusMany,
  findDeviceById,
  findDeviceBySerial,
  findDeviceRow,
  listDevices,
  listDevicesByIds,
  listDevicesBySerialsJson,
  updateGeneralDetails,
  type BulkChanged,
  type NewDevice,
} from './repo.js';

const SAMPLE_ID = '00000000-0000-4000-8000-000000000000';
const deviceNotFound = () => new ApiError(404, MSG.deviceUnknown, CODE.deviceNotFound);

function pathId(c: Ctx) {
  const raw = c.req.param('deviceId') ?? '';
  if (!isValidId(raw)) throw badRequest(DEVICE_TEXT.invalidId);
  return normaliseId(raw);
}

/**
 * A bulk change: one transaction, all listed devices or none. Each device gets its own audit
 * entry with its values before and after (its History panel shows the change), written in the
 * same transaction a chunk of devices per insert.
 */
async function bulkChange(c: Ctx, hub: Hub, user: AuthUser, action: string, change: (trx: DB, now: Date) => Promise<BulkChanged>) {
  const { db, config } = deps(c);
  const now = config.now();
  const { out, ids } = await tx(db, async (trx) => {
    const { history, ...r } = await change(trx, now);
    await auditMany(
      trx,
      { actorId: user.id, action, entity: 'device', at: now },
      history.map((h) => ({ entityId: h.id, details: { before: h.before, after: h.after } })),
    );
    return { out: r, ids: history.map((h) => h.id) };
  });
  await hub.recordsChanged(
    user,
    ids.map((id) => ({ kind: 'device' as const, id, what: 'change' as const })),
    now,
  );
  return c.json(out satisfies BulkChangeResponse);
}

/** Who may follow a device live (its tab open): the get-by-id read's permission and scoped look-up. */
export const deviceReader = scopedReader(P.DeviceView, findDeviceById);

export function deviceRoutes(api: Api, exports: ExportPool, hub: Hub) {
  api.post(
    '/api/v1/device/get-list',
    {
      access: P.DeviceListView,
      json: deviceListBody,
      sample: {
        json: {
          page: 1,
          pageSize: 10,
          searchValue: 'SAMPLE',
          deviceTypeIds: [620],
          statusIds: [1],
          orderNumber: 'PO-1',
          assigned: false,
          lastConfig: 0,
          orderBy: 'SerialNumber',
          desc: false,
        },
      },
    },
    async (c, { body, user }) => {
      const { db, config } = deps(c);
      return c.json((await listDevices(db, tenantScope(user), body, config.now())) satisfies DeviceList);
    },
  );

  api.get(
    '/api/v1/device/get-by-serial',
    {
      access: P.DeviceListView,
      query: deviceBySerialQuery,
      sample: { query: { serial: 'SAMPLE-SERIAL' } },
    },
    async (c, { query, user }) => {
      return c.json(found(await findDeviceBySerial(deps(c).db, tenantScope(user), query.serial), deviceNotFound) satisfies DeviceDto);
    },
  );

  api.get(
    '/api/v1/device/get-by-id',
    {
      access: P.DeviceView,
      query: deviceByIdQuery,
      sample: { query: { id: SAMPLE_ID } },
    },
    async (c, { query, user }) => {
      return c.json(found(await findDeviceById(deps(c).db, tenantScope(user), query.id), deviceNotFound) satisfies DeviceDto);
    },
  );

  // Lists of ids or serials can hold thousands of entries (the bulk list holds at least 5,000),
  // more than the 'small' body class: these take the 'upload' class, capped by MAX_BULK entries.
  api.post(
    '/api/v1/device/get-list-by-ids',
    {
      access: P.DeviceListView,
      bodyLimit: 'upload',
      json: deviceIdsBody,
      sample: { json: { ids: [SAMPLE_ID] } },
    },
    async (c, { body, user }) => c.json({ devices: await listDevicesByIds(deps(c).db, tenantScope(user), body.ids) } satisfies DeviceMany),
  );

  api.post(
    '/api/v1/device/get-list-by-serials',
    {
      access: P.DeviceListView,
      bodyLimit: 'upload',
      json: deviceSerialsBody,
      sample: { json: { serials: ['SAMPLE-SERIAL'] } },
    },
    // the answer's text is built from each device's JSON as the database writes it (DeviceMany's shape)
    async (c, { body, user }) =>
      c.body(await listDevicesBySerialsJson(deps(c).db, tenantScope(user), body.serials), 200, { 'content-type': 'application/json' }),
  );

  api.put(
    '/api/v1/device/:deviceId/general-details',
    {
      access: P.DeviceManage,
      json: deviceGeneralDetailsBody,
      sample: { json: { etag: '"sample"', generalDetails: { supplier: 'Sample supplier' } } },
    },
    async (c, { body, user }) => {
      const { db, config } = deps(c);
      const id = pathId(c);
      const now = config.now();
      const g = body.generalDetails;
      await tx(db, async (trx) => {
        const row = await findDeviceRow(trx, tenantScope(user), id);
        if (!row) throw deviceNotFound();
        if (row.etag !== body.etag) throw conflict();
        const next: Partial<DeviceTable> = {};
        if (g.supplier !== undefined) next.supplier = g.supplier?.trim() || null;
        if (g.imsi !== undefined) next.imsi = g.imsi || null;
        let phoneProblem: string | undefined;
        if (g.phoneNumber !== undefined) {
          // A SIM's number is read as the import reads it: in the provider's country (GB).
          phoneProblem = phoneError(g.phoneNumber);
          next.phoneNumber = normalisePhone(g.phoneNumber);
        }
        if (g.simSerial !== undefined) next.simSerial = g.simSerial || null;
        if (g.simTypeId !== undefined) next.simTypeId = g.simTypeId;
        if (g.orderNumber !== undefined && (g.orderNumber || null) !== row.orderNumber) {
          if (!isOrderNumberEligible(row.status))
            throw badRequest(DEVICE_TEXT.orderNumberNotEditable, CODE.validation, { 'generalDetails.orderNumber': DEVICE_TEXT.orderNumberNotEditable });
          next.orderNumber = g.orderNumber || null;
        }
        const merged = { ...row, ...next };
        const errors: Record<string, string> = {};
        if (phoneProblem) errors['generalDetails.phoneNumber'] = phoneProblem;
        if (!merged.supplier) errors['generalDetails.supplier'] = DEVICE_TEXT.supplierRequired;
        else if (merged.supplier.length > TEXT_MAX) errors['generalDetails.supplier'] = DEVICE_TEXT.tooLong;
        if (!SIM_EXEMPT_TYPES.includes(row.type)) {
          if (merged.simTypeId == null) errors['generalDetails.simTypeId'] = DEVICE_TEXT.simTypeRequired;
          if (!merged.simSerial) errors['generalDetails.simSerial'] = DEVICE_TEXT.simSerialRequired;
          if (!merged.phoneNumber && !phoneProblem) errors['generalDetails.phoneNumber'] = DEVICE_TEXT.phoneRequired;
        }
        const first = Object.values(errors)[0];
        if (first) throw badRequest(first, CODE.validation, errors);
        const newEtag = await updateGeneralDetails(trx, id, body.etag, { ...next, lastUpdated: now.toISOString() });
        if (!newEtag) throw conflict();
        const before = Object.fromEntries(Object.keys(next).map((k) => [k, row[k as keyof DeviceTable]]));
        await audit(trx, { actorId: user.id, action: 'device.update', entity: 'device', entityId: id, at: now, details: { before, after: next } });
      });
      await hub.recordsChanged(user, [{ kind: 'device', id, what: 'change' }], now);
      return c.json(found(await findDeviceById(db, tenantScope(user), id), deviceNotFound) satisfies DeviceDto);
    },
  );

  api.put(
    '/api/v1/device/change-status-many',
    {
      access: P.DeviceManage,
      bodyLimit: 'upload',
      json: changeStatusManyBody,
      sample: { json: { status: 5, devices: [{ id: SAMPLE_ID, etag: '"sample"' }] } },
    },
    (c, { body, user }) => bulkChange(c, hub, user, 'device.change-status', (trx, now) => changeStatusMany(trx, body.devices, body.status, now)),
  );

  api.put(
    '/api/v1/device/change-order-number-many',
    {
      access: P.DeviceManage,
      bodyLimit: 'upload',
      json: changeOrderNumberManyBody,
      sample: { json: { orderNumber: 'PO-1', devices: [{ id: SAMPLE_ID, etag: '"sample"' }] } },
    },
    (c, { body, user }) =>
      bulkChange(c, hub, user, 'device.change-order-number', (trx, now) => changeOrderNumberMany(trx, body.devices, body.orderNumber, now)),
  );

  api.put(
    '/api/v1/device/change-device-type',
    {
      access: P.DeviceManage,
      bodyLimit: 'upload',
      json: changeDeviceTypeBody,
      sample: { json: { serials: ['SAMPLE-SERIAL'], newDeviceType: 620 } },
    },
    async (c, { body, user }) => {
      const res = await bulkChange(c, hub, user, 'device.change-type', (trx, now) => changeDeviceType(trx, body.serials, body.newDeviceType, now));
      deviceIdentitiesChanged(); // after the commit: the next message of these devices is checked against their new type
      return res;
    },
  );

  // Exports (spec §7: blob answers; §9: xlsx named by a label and a timestamp): jobs of the export
  // pool, streamed as they are written (src/server/exports).
  api.post(
    '/api/v1/device/export/list-with-filters',
    { access: P.DeviceExport, json: deviceListBody, sample: { json: { page: 1, pageSize: 10 } } },
    (c, { body, user }) =>
      exportResponse(
        c,
        exports,
        user,
        { kind: 'devices', filter: body, now: deps(c).config.now().toISOString() },
        EXPORT_LABEL.devices,
        MSG.deviceExportFailed,
      ),
  );

  api.post(
    '/api/v1/device/export/list-by-ids',
    { access: P.DeviceExport, bodyLimit: 'upload', json: deviceIdsBody, sample: { json: { ids: [SAMPLE_ID] } } },
    (c, { body, user }) => exportResponse(c, exports, user, { kind: 'deviceIds', ids: body.ids }, EXPORT_LABEL.devices, MSG.deviceExportFailed),
  );

  api.post(
    '/api/v1/import/devices',
    {
      access: P.DeviceManage,
      bodyLimit: 'upload',
      sample: { form: { File: 'SerialNumber,Type\nSAMPLE-SERIAL,620\n' } },
    },
    // A job of the export pool (progress, cancel, one per user): parsed on an import thread, then
    // written on an import thread's own connection, a step at a time in one transaction that a
    // cancel rolls back; the request loop's connection stays free meanwhile.
    async (c, { user }) =>
      importJob(c, exports, user, async (job) => {
        const list = await readImportFile(c, exports, job);
        job.counted(list.length);
        const r = await exports.writeImport({ kind: 'devices', rows: list, now: deps(c).config.now().toISOString(), actorId: user.id }, job);
        if (!r.ok && r.reason === 'cancelled') throw new ImportCancelled();
        // Another import created one of these serials at the same moment: nothing of this one was written.
        if (!r.ok) throw new ApiError(409, DEVICE_TEXT.importRace, CODE.conflict);
        return c.json({ idList: r.idList, created: r.created, alreadyPresent: r.alreadyPresent } satisfies ImportResponse);
      }),
  );
}

// ---------------------------------------------------------------- import file

const importError = (message: string, errors?: Record<string, string>) => badRequest(message, DEVICE_CODE.importInvalid, errors);

/**
 * Reads the multipart field File and applies the spec's CSV rules (§5): a CSV type, a header
 * naming the columns (case-insensitive), comma or semicolon cells, rows with an empty serial
 * skipped, 'Failed to parse CSV file.' when it cannot be read (including text that is not UTF-8).
 */
async function readImportFile(c: Ctx, exports: ExportPool, job: ImportJobHandle): Promise<NewDevice[]> {
  const parsed = await exports.parseImport({ kind: 'devices', bytes: await readCsvUpload(c) }, job);
  if (!parsed.ok) throw importError(parsed.message, parsed.errors);
  return parsed.rows;
}
