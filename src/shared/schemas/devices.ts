// Device stock endpoints (spec document 2, §3 "Device", §4, §5, §7 "Stock service", §8): THE
// CONTRACT between the stock server (src/server/modules/devices) and the asset list, device
// details and bulk update pages. Input schemas validate on the server (and may be reused by the
// forms); answer schemas are strict, so the contract test fails when either side drifts.
//
// Answer shapes the client must know:
// - a device is `DeviceDto` (camelCase, spec §3). An unknown serial in get-list-by-serials comes
//   back as a placeholder: `id` 'not-found:{serial}', `etag` 'not-found', status and type
//   { value: 0, name: 'Unknown' }, every other field null/false (`isPlaceholder(d)`).
// - bulk changes (change-status-many, change-order-number-many, change-device-type) are all or
//   nothing. Success: `bulkChangeResponseSchema` { updated, devices: [{ id, etag }] } (the new
//   etags). Failure: the usual error body { Content: { Message, Code, Errors } } where Errors maps
//   each failing device — its id (or, for change-device-type, its serial) — to what is wrong
//   with it, and nothing was changed:
//     409 Code 'etag_conflict'            stale etag or unknown id (DEVICE_TEXT.stale / .missing)
//     404 Code 'stock_device_not_found'   change-device-type: unknown serial(s)
//     422 Code 'device_not_eligible'      a §5 eligibility rule refuses the device
// - get-by-serial / get-by-id of an unknown device: 404 Code 'stock_device_not_found' with the
//   spec's message "Couldn't get any info about this device.".
// - import: `importResponseSchema` { idList, created, alreadyPresent }: ids of every device named
//   in the file in file order (new ones created, known serials left as they are), `created` of
//   them new, `alreadyPresent` the serials that existed (their file values were not applied).
import * as v from 'valibot';
import { MSG } from '../messages.js';
import { ASSET_STATUSES, DEVICE_CAPABILITIES, DEVICE_TYPES, CAPABILITY, LAST_CONFIG_FILTERS, SIM_TYPES } from '../codes.js';
import { edgeEntries, guid, inputJson, noNul, pagingBody } from './common.js';
import { FLEET_CATEGORIES } from './fleet.js';

// ---------------------------------------------------------------- constants and messages

export const SEARCH_MIN = 5;
export const SERIAL_MAX = 64;
export const TEXT_MAX = 100;
export const ORDER_NUMBER_MAX = 64;
export const ETAG_MAX = 200;
/** Most ids or serials one request takes (the bulk list holds at least 5,000). */
export const MAX_BULK = 10_000;
/** Import: largest CSV file (bytes) and most data rows. */
export const IMPORT_MAX_BYTES = 5 * 1024 * 1024;
export const IMPORT_MAX_ROWS = 20_000;
/** The column a device import file must have (matched case-insensitively, spaces ignored); optional ones follow. */
export const IMPORT_SERIAL_COLUMN = 'SerialNumber';
export const IMPORT_TYPE_COLUMN = 'Type';
export const IMPORT_OPTIONAL_COLUMNS = ['IMEI', 'IMSI', 'SimSerial', 'PhoneNumber', 'Supplier', 'OrderNumber'] as const;
/** What each import column holds (the import dialog's explanation and its template file). */
export const IMPORT_COLUMN_HELP: Record<(typeof IMPORT_OPTIONAL_COLUMNS)[number] | 'SerialNumber' | 'Type', string> = {
  SerialNumber: 'The device serial number (required; rows without one are skipped).',
  Type: 'The device type: its code (620) or name (SG620) (required).',
  IMEI: 'Optional.',
  IMSI: 'Optional.',
  SimSerial: 'The SIM serial number (optional).',
  PhoneNumber: 'The SIM phone number (optional): international (+44 7700 900123) or UK national (07700 900123).',
  Supplier: 'Optional.',
  OrderNumber: 'Optional.',
};
/** A template import file: the header and one example row. */
export const IMPORT_TEMPLATE_CSV = `${[IMPORT_SERIAL_COLUMN, IMPORT_TYPE_COLUMN, ...IMPORT_OPTIONAL_COLUMNS].join(',')}\r\nSG6200001234,620,356938035643809,234150999999999,8944100000000000001,07700900123,Acme Devices,PO-1001\r\n`;
export const IMPORT_TEMPLATE_NAME = 'device-import-template.csv';

export const STATUS = {
  New: 1,
  Reserved: 2,
  Allocated: 3,
  AwaitingReturn_Replacement: 4,
  Returned: 5,
  Replacement: 6,
  QuarantineDamaged: 7,
  QuarantineEOL: 8,
  AwaitingReturn_Cancelled: 10,
  NonReturnedDevice_FaultyReplacement: 11,
  NonReturnedDevice_Cancelled: 12,
} as const;
/** Spec §4/§5: "Allocated or awaiting return" — the device is in a customer account. */
export const IN_CUSTOMER_ACCOUNT_STATUSES: readonly number[] = [STATUS.Allocated, STATUS.AwaitingReturn_Replacement, STATUS.AwaitingReturn_Cancelled];
export const isInCustomerAccount = (status: number) => IN_CUSTOMER_ACCOUNT_STATUSES.includes(status);
/** Spec §5 bulk order number: only devices Allocated or awaiting return are eligible. */
export const isOrderNumberEligible = isInCustomerAccount;
/** Spec §4 change type: blocked for devices in a customer account. */
export const isTypeChangeEligible = (status: number) => !isInCustomerAccount(status);
/** Spec §4: Allocated is not a target of the bulk status change. */
export const STATUS_TARGETS = ASSET_STATUSES.filter((s) => s.Value !== STATUS.Allocated).map((s) => s.Value);
/**
 * Device types whose SIM type, SIM serial and phone number are optional (spec §5 leaves the list
 * out; ours: the types without the SimStatus capability — smartphones, badges, satellite units).
 */
export const SIM_EXEMPT_TYPES: readonly number[] = DEVICE_TYPES.map((t) => t.Value).filter((t) => !((DEVICE_CAPABILITIES[t] ?? 0) & CAPABILITY.SimStatus));

export const NOT_FOUND_ETAG = 'not-found';
export const UNKNOWN = 'Unknown';

/** Server-side messages the spec does not quote. */
export const DEVICE_TEXT = {
  searchTooShort: `Search needs at least ${SEARCH_MIN} characters.`,
  badBody: 'The request body must be a JSON object.',
  invalidId: 'The id is not valid.',
  serialRequired: MSG.serialRequired,
  serialTooLong: `A serial number can be at most ${SERIAL_MAX} characters long.`,
  tooMany: `At most ${MAX_BULK} devices can be sent at once.`,
  noDevices: MSG.selectOneDevice,
  etagRequired: 'The device version (etag) is missing. Reload the device and try again.',
  unknownType: 'Unknown device type.',
  unknownStatus: 'Unknown status.',
  allocatedNotTarget: 'Allocated can not be chosen as a status here; devices are allocated from a customer account.',
  unknownSimType: 'Unknown SIM type.',
  supplierRequired: MSG.pleaseEnter('supplier'),
  simTypeRequired: MSG.pleaseSelectOne('SIM type'),
  simSerialRequired: MSG.pleaseEnter('SIM serial number'),
  phoneRequired: MSG.pleaseEnter('phone number'),
  tooLong: `Text can be at most ${TEXT_MAX} characters long.`,
  orderNumberRequired: MSG.pleaseEnter('order number'),
  orderNumberTooLong: `An order number can be at most ${ORDER_NUMBER_MAX} characters long.`,
  orderNumberNotEditable: 'The order number can only be changed for devices that are allocated or awaiting return.',
  stale: 'This device was changed by someone else since it was loaded. Reload it and try again.',
  missing: 'This device does not exist (any more).',
  notEligibleOrderNumber: 'Not eligible: the order number can only be changed for devices that are allocated or awaiting return.',
  notEligibleType: 'Not eligible: the device is in a customer account (allocated or awaiting return).',
  staleMany: (n: number) => `${n} device(s) changed or disappeared since they were loaded; nothing was changed. Reload them and try again.`,
  notEligibleMany: (n: number) => `${n} device(s) are not eligible for this change; nothing was changed.`,
  unknownSerials: (n: number) => `${n} serial number(s) were not found; nothing was changed.`,
  fileRequired: 'Choose a CSV file to import (form field File).',
  fileTooLarge: `The file is too large: at most ${IMPORT_MAX_BYTES / 1024 / 1024} MB.`,
  tooManyRows: `The file has too many rows: at most ${IMPORT_MAX_ROWS}.`,
  importRow: (row: number, what: string) => `Row ${row}: ${what}`,
  importNoRows: 'The file has no device rows.',
  phoneInvalid: 'PhoneNumber is not a valid phone number (for example +44 7700 900123 or 07700 900123).',
  importRace: 'Some of these devices were added by someone else at the same moment; nothing was imported. Import the file again.',
} as const;

/** Error codes of the stock endpoints (Content.Code), next to CODE.conflict / CODE.deviceNotFound. */
export const DEVICE_CODE = {
  notEligible: 'device_not_eligible',
  importInvalid: 'import_file_invalid',
} as const;

// ---------------------------------------------------------------- building blocks

const devTypeValues = DEVICE_TYPES.map((t) => t.Value);
const statusValues = ASSET_STATUSES.map((s) => s.Value);
const simTypeValues = SIM_TYPES.map((s) => s.Value);
const lastConfigValues = LAST_CONFIG_FILTERS.map((s) => s.Value);

const deviceTypeValue = v.picklist(devTypeValues, DEVICE_TEXT.unknownType);
const statusValue = v.picklist(statusValues, DEVICE_TEXT.unknownStatus);

const serial = v.pipe(
  v.string(DEVICE_TEXT.serialRequired),
  v.trim(),
  v.nonEmpty(DEVICE_TEXT.serialRequired),
  v.maxLength(SERIAL_MAX, DEVICE_TEXT.serialTooLong),
  v.check(noNul, DEVICE_TEXT.serialRequired),
);
const etag = v.pipe(v.string(DEVICE_TEXT.etagRequired), v.trim(), v.nonEmpty(DEVICE_TEXT.etagRequired), v.maxLength(ETAG_MAX, DEVICE_TEXT.etagRequired));
const idList = v.pipe(v.array(guid(DEVICE_TEXT.invalidId), DEVICE_TEXT.noDevices), v.maxLength(MAX_BULK, DEVICE_TEXT.tooMany));
const deviceRefs = v.pipe(
  v.array(v.object({ id: guid(DEVICE_TEXT.invalidId), etag }), DEVICE_TEXT.noDevices),
  v.minLength(1, DEVICE_TEXT.noDevices),
  v.maxLength(MAX_BULK, DEVICE_TEXT.tooMany),
);
const orderNumber = v.pipe(
  v.string(DEVICE_TEXT.orderNumberRequired),
  v.trim(),
  v.nonEmpty(DEVICE_TEXT.orderNumberRequired),
  v.maxLength(ORDER_NUMBER_MAX, DEVICE_TEXT.orderNumberTooLong),
  v.check(noNul, DEVICE_TEXT.orderNumberRequired),
);

// ---------------------------------------------------------------- device answer

export const lookupDtoSchema = v.strictObject({ value: v.number(), name: v.string() });

/** A device as every stock endpoint answers it (spec §3 "Device (asset)"). Dates are ISO strings. */
export const deviceSchema = v.strictObject({
  id: v.string(),
  etag: v.string(),
  serialNumber: v.string(),
  imei: v.nullable(v.string()),
  imsi: v.nullable(v.string()),
  type: lookupDtoSchema,
  phoneNumber: v.nullable(v.string()),
  simPhoneNumber: v.nullable(v.string()),
  simSerial: v.nullable(v.string()),
  simTypeId: v.nullable(v.number()),
  simType: v.nullable(lookupDtoSchema),
  simStatus: v.nullable(v.strictObject({ name: v.string() })),
  supplier: v.nullable(v.string()),
  status: lookupDtoSchema,
  customerAccountId: v.nullable(v.string()),
  customerAccountTenantId: v.nullable(v.string()),
  /** Spec §3 names both: the customer the device is allocated to, by name (the same as customerName). */
  customer: v.nullable(v.string()),
  customerName: v.nullable(v.string()),
  orderNumber: v.nullable(v.string()),
  isUserAssigned: v.boolean(),
  firmwareVersion: v.nullable(v.string()),
  lastConfigurationDate: v.nullable(v.string()),
  dateReceived: v.nullable(v.string()),
  lastUpdated: v.nullable(v.string()),
  addedToSystem: v.nullable(v.string()),
  isAllocatable: v.boolean(),
});
export type DeviceDto = v.InferOutput<typeof deviceSchema>;
export const isPlaceholder = (d: Pick<DeviceDto, 'etag'>) => d.etag === NOT_FOUND_ETAG;

/** Spec §3: a not-found serial's placeholder row. */
export function placeholderDevice(serialNumber: string): DeviceDto {
  return {
    id: `not-found:${serialNumber}`,
    etag: NOT_FOUND_ETAG,
    serialNumber,
    imei: null,
    imsi: null,
    type: { value: 0, name: UNKNOWN },
    phoneNumber: null,
    simPhoneNumber: null,
    simSerial: null,
    simTypeId: null,
    simType: null,
    simStatus: null,
    supplier: null,
    status: { value: 0, name: UNKNOWN },
    customerAccountId: null,
    customerAccountTenantId: null,
    customer: null,
    customerName: null,
    orderNumber: null,
    isUserAssigned: false,
    firmwareVersion: null,
    lastConfigurationDate: null,
    dateReceived: null,
    lastUpdated: null,
    addedToSystem: null,
    isAllocatable: false,
  };
}

// ---------------------------------------------------------------- get-list

export const DEVICE_ORDER_BY = [
  'SerialNumber',
  'Type',
  'Imei',
  'SimSerial',
  'PhoneNumber',
  'OrderNumber',
  'LastConfig',
  'Status',
  'Assigned',
  'Customer',
  'AddedToSystem',
] as const;
export type DeviceOrderBy = (typeof DEVICE_ORDER_BY)[number];
const orderByMessage = `orderBy must be one of ${DEVICE_ORDER_BY.join(', ')}.`;

/**
 * POST api/v1/device/get-list — the asset list's filter body. Everything is optional:
 * { page = 1, pageSize = 10 (10/25/50/100), searchValue (serial, IMEI or phone; '' or at least 5
 * characters), deviceTypeIds [], statusIds [], orderNumber (exact, case-insensitive), assigned
 * (true/false/null = All), lastConfig (LAST_CONFIG_FILTERS value, 0 = All), orderBy =
 * 'SerialNumber', desc = false, after / before (Next / Previous: edgeEntries) }.
 */
export const deviceListBody = v.object(
  {
    ...pagingBody,
    searchValue: v.optional(
      v.pipe(
        v.nullable(v.string(DEVICE_TEXT.searchTooShort)),
        inputJson<string | null>({ anyOf: [{ type: 'string', pattern: `^\\s*(|\\S[\\s\\S]{${SEARCH_MIN - 2},}\\S)\\s*$`, maxLength: 255 }, { type: 'null' }] }),
        v.transform((s) => (s ?? '').trim()),
        v.check((s) => s === '' || s.length >= SEARCH_MIN, DEVICE_TEXT.searchTooShort),
        v.maxLength(255, 'Search text can be at most 255 characters long.'),
      ),
      '',
    ),
    deviceTypeIds: v.optional(
      v.pipe(
        v.nullable(v.array(deviceTypeValue, DEVICE_TEXT.unknownType)),
        v.transform((a) => a ?? []),
      ),
      [],
    ),
    statusIds: v.optional(
      v.pipe(
        v.nullable(v.array(statusValue, DEVICE_TEXT.unknownStatus)),
        v.transform((a) => a ?? []),
      ),
      [],
    ),
    orderNumber: v.optional(
      v.pipe(
        v.nullable(v.string(DEVICE_TEXT.orderNumberTooLong)),
        v.transform((s) => (s ?? '').trim()),
        v.maxLength(ORDER_NUMBER_MAX, DEVICE_TEXT.orderNumberTooLong),
      ),
      '',
    ),
    assigned: v.optional(v.nullable(v.boolean('assigned must be true, false or null.')), null),
    lastConfig: v.optional(v.pipe(v.picklist(lastConfigValues, 'Unknown last config filter.')), 0),
    /** Fleet health (schemas/fleet.ts): allocated devices in the category; null = All. */
    fleetHealth: v.optional(v.nullable(v.picklist(FLEET_CATEGORIES, 'Unknown fleet health category.')), null),
    orderBy: v.optional(v.picklist(DEVICE_ORDER_BY, orderByMessage), 'SerialNumber'),
    desc: v.optional(v.boolean('desc must be true or false.'), false),
    ...edgeEntries,
  },
  DEVICE_TEXT.badBody,
);
export type DeviceListBody = v.InferOutput<typeof deviceListBody>;
export type DeviceListFilter = v.InferInput<typeof deviceListBody>;

/** totalCount: devices matching the filters; generalTotalCount: all devices (the 'All Assets' card's Total). */
export const deviceListSchema = v.strictObject({ devices: v.array(deviceSchema), totalCount: v.number(), generalTotalCount: v.number() });
export type DeviceList = v.InferOutput<typeof deviceListSchema>;

// ---------------------------------------------------------------- single and many lookups

/** GET /api/v1/device/get-by-serial?serial= */
export const deviceBySerialQuery = v.object({ serial });
/** GET /api/v1/device/get-by-id?id= */
export const deviceByIdQuery = v.object({ id: guid(DEVICE_TEXT.invalidId) });

/** POST api/v1/device/get-list-by-ids { ids }: the known ones, in the order asked, each once. */
export const deviceIdsBody = v.object({ ids: idList }, DEVICE_TEXT.badBody);
/** POST /api/v1/device/get-list-by-serials { serials }: one row per distinct serial (case-insensitive), in the order asked, placeholders for unknown ones. */
export const deviceSerialsBody = v.object(
  { serials: v.pipe(v.array(serial, DEVICE_TEXT.serialRequired), v.maxLength(MAX_BULK, DEVICE_TEXT.tooMany)) },
  DEVICE_TEXT.badBody,
);
export const deviceManySchema = v.strictObject({ devices: v.array(deviceSchema) });
export type DeviceMany = v.InferOutput<typeof deviceManySchema>;

// ---------------------------------------------------------------- general-details update

/** Left out: keep the stored value; null or '' (after trimming): clear it. */
const optText = v.optional(
  v.nullable(v.pipe(v.string(DEVICE_TEXT.tooLong), v.trim(), v.maxLength(TEXT_MAX, DEVICE_TEXT.tooLong), v.check(noNul, DEVICE_TEXT.tooLong))),
);
/**
 * PUT api/v1/device/{deviceId}/general-details { etag, generalDetails { supplier, imsi,
 * phoneNumber, simSerial, simTypeId, orderNumber } }. Optional fields are sent only when set; a
 * field left out keeps its stored value, null clears it. Supplier is required; SIM type, SIM
 * serial and phone number are required unless the device's type is in SIM_EXEMPT_TYPES (checked
 * on the server against the stored type). A leading + is added to the phone number. The order
 * number can only change for devices in a customer account. Answer: the updated device.
 */
export const deviceGeneralDetailsBody = v.object(
  {
    etag,
    generalDetails: v.object(
      {
        supplier: v.optional(v.nullable(v.string(DEVICE_TEXT.supplierRequired))),
        imsi: optText,
        phoneNumber: optText,
        simSerial: optText,
        simTypeId: v.optional(v.nullable(v.pipe(v.picklist(simTypeValues, DEVICE_TEXT.unknownSimType)))),
        orderNumber: v.optional(
          v.nullable(v.pipe(v.string(DEVICE_TEXT.orderNumberTooLong), v.trim(), v.maxLength(ORDER_NUMBER_MAX, DEVICE_TEXT.orderNumberTooLong))),
        ),
      },
      MSG.updatePayloadMissing,
    ),
  },
  MSG.updatePayloadMissing,
);
export type DeviceGeneralDetailsBody = v.InferOutput<typeof deviceGeneralDetailsBody>;

// ---------------------------------------------------------------- bulk changes

/** PUT /api/v1/device/change-status-many { status, devices [{ id, etag }] } — status is not Allocated. */
export const changeStatusManyBody = v.object(
  {
    status: v.pipe(
      statusValue,
      inputJson<number>({ enum: statusValues.filter((s) => s !== STATUS.Allocated) }),
      v.check((s) => s !== STATUS.Allocated, DEVICE_TEXT.allocatedNotTarget),
    ),
    devices: deviceRefs,
  },
  DEVICE_TEXT.badBody,
);
/** PUT /api/v1/device/change-order-number-many { orderNumber, devices [{ id, etag }] } — every device Allocated or awaiting return. */
export const changeOrderNumberManyBody = v.object({ orderNumber, devices: deviceRefs }, DEVICE_TEXT.badBody);
/** PUT /api/v1/device/change-device-type { serials, newDeviceType } — no device may be in a customer account. */
export const changeDeviceTypeBody = v.object(
  {
    serials: v.pipe(v.array(serial, DEVICE_TEXT.noDevices), v.minLength(1, DEVICE_TEXT.noDevices), v.maxLength(MAX_BULK, DEVICE_TEXT.tooMany)),
    newDeviceType: deviceTypeValue,
  },
  DEVICE_TEXT.badBody,
);
/** Success of every bulk change: how many devices changed and their new etags. */
export const bulkChangeResponseSchema = v.strictObject({ updated: v.number(), devices: v.array(v.strictObject({ id: v.string(), etag: v.string() })) });
export type BulkChangeResponse = v.InferOutput<typeof bulkChangeResponseSchema>;

// ---------------------------------------------------------------- import

/**
 * POST api/v1/import/devices — multipart form, field File: a CSV (UTF-8, comma or semicolon
 * separated) with a header row naming at least SerialNumber and Type (case-insensitive, spaces
 * ignored; Type is a device type code or name) and optionally IMEI, IMSI, SimSerial, PhoneNumber,
 * Supplier, OrderNumber. Rows with an empty serial are skipped. Errors: 400 with the spec's
 * messages (MSG.notCsv, MSG.csvMissingColumn(column), MSG.csvParseFailed) and Code
 * 'import_file_invalid' (Errors maps 'row N' to what is wrong for bad rows), 413 over IMPORT_MAX_BYTES.
 */
export const importResponseSchema = v.strictObject({ idList: v.array(v.string()), created: v.number(), alreadyPresent: v.array(v.string()) });
export type ImportResponse = v.InferOutput<typeof importResponseSchema>;
