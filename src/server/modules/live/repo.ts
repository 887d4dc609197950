// Reads and writes of the live side (spec document 2 §7 "Device configuration requests" and
// "Devices data service"): a device's current configuration, the current-configuration and
// last-message lists of the bulk tabs (the selected devices, at most LIVE_MAX_DEVICES: filtered,
// sorted and paged in memory after one indexed read), firmware versions, the message stream
// (keyset pages, newest first), one detailed message, and the desired-configuration queue. The
// reads take the caller's TenantScope (tenant-scope.ts): a scoped caller reads the devices of their
// own customer only; another customer's device answers as unknown.
import { sql, type DB } from '../../db/index.js';
import type { SelectQueryBuilder } from 'kysely';
import type { Database, DeviceConfigurationTable, DeviceTable } from '../../db/schema.js';
import { newId } from '../../platform/util.js';
import { byCustomer, byDevice, type TenantScope } from '../../auth/tenant-scope.js';
import { devicesBySerials } from '../devices/repo.js';
import { devicesByIdentity, isConnectedNow, messageDto, storedChange } from './ingest.js';
import { DEVICE_TYPES, lookupName } from '../../../shared/codes.js';
import {
  CALL_BUTTON,
  callButtonName,
  deviceIdentityOf,
  type ConfigurationChange,
  type ConfigurationChangeBody,
  type ConfigurationListBody,
  type ConfigurationRow,
  type DesiredConfigurationDto,
  type DesiredKind,
  type DetailedMessageDto,
  type DeviceConfigurationDto,
  type LastMessageDto,
  type LastMessagesBody,
  type MessageStream,
} from '../../../shared/schemas/live.js';

const IN_CHUNK = 500;
function chunks<T>(a: readonly T[], n = IN_CHUNK): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < a.length; i += n) out.push(a.slice(i, i + n));
  return out;
}
const typeName = (t: number) => lookupName(DEVICE_TYPES, t);
const callType = (v: number | null) => (v == null ? null : { Value: v, Name: callButtonName(v) ?? String(v) });

// ---------------------------------------------------------------- device configuration

/** A device with its configuration, left-joined: the configuration's columns are null when it has none. */
type ConfigJoin = Pick<DeviceTable, 'id' | 'serialNumber' | 'imei' | 'type'> & {
  devFirmware: string | null;
  cfgDeviceId: string | null;
} & { [K in keyof Omit<DeviceConfigurationTable, 'deviceId' | 'isConnected' | 'etag'>]: DeviceConfigurationTable[K] | null };

function configQuery(db: DB) {
  return db
    .selectFrom('devices as d')
    .leftJoin('deviceConfigurations as c', 'c.deviceId', 'd.id')
    .select([
      'd.id',
      'd.serialNumber',
      'd.imei',
      'd.type',
      'd.firmwareVersion as devFirmware',
      'c.deviceId as cfgDeviceId',
      'c.lastUpdated',
      'c.isTracking',
      'c.trackingSeconds',
      'c.isFallDetection',
      'c.fallDetectionSettings',
      'c.firmwareVersion',
      'c.sosButton',
      'c.call1Type',
      'c.call1Number',
      'c.call2Type',
      'c.call2Number',
      'c.primaryEndPoint',
      'c.secondaryEndPoint',
      'c.smsBackup',
    ]);
}

type Pending = { configuration: number; refreshConfiguration: string | null; refreshFirmware: string | null };

async function pendingOf(db: DB, deviceIds: string[]): Promise<Map<string, Pending>> {
  const out = new Map<string, Pending>();
  for (const part of chunks(deviceIds)) {
    const rows = await db
      .selectFrom('desiredConfigurations')
      .select(['deviceId', 'kind', 'requestedAt'])
      .where('deviceId', 'in', part)
      .where('appliedAt', 'is', null)
      .execute();
    for (const r of rows) {
      let p = out.get(r.deviceId);
      if (!p) out.set(r.deviceId, (p = { configuration: 0, refreshConfiguration: null, refreshFirmware: null }));
      if (r.kind === 'refresh-configuration')
        p.refreshConfiguration = !p.refreshConfiguration || r.requestedAt < p.refreshConfiguration ? r.requestedAt : p.refreshConfiguration;
      else if (r.kind === 'refresh-firmware') p.refreshFirmware = !p.refreshFirmware || r.requestedAt < p.refreshFirmware ? r.requestedAt : p.refreshFirmware;
      else p.configuration++;
    }
  }
  return out;
}

/** GET get-configuration / get-configuration-by-id: undefined for an unknown device (or one outside the scope). */
export async function deviceConfiguration(
  db: DB,
  scope: TenantScope,
  by: { id: string } | { serial: string },
  nowMs: number,
): Promise<DeviceConfigurationDto | undefined> {
  let id: string | undefined;
  if ('id' in by) id = by.id;
  else id = (await devicesBySerials(db, scope, [by.serial])).values().next().value?.id;
  if (!id) return undefined;
  const r = (await byCustomer(configQuery(db), scope, 'd.customerId').where('d.id', '=', id).executeTakeFirst()) as ConfigJoin | undefined;
  if (!r) return undefined;
  const last = await db.selectFrom('deviceLastMessages').select(['date', 'isConnected', 'receivedAt']).where('deviceId', '=', id).executeTakeFirst();
  const pending = (await pendingOf(db, [id])).get(id);
  const connected = isConnectedNow(last, nowMs);
  return {
    Id: r.id,
    Serial: r.serialNumber,
    DeviceIdentity: deviceIdentityOf({ imei: r.imei, serialNumber: r.serialNumber }),
    DeviceType: { Id: r.type, Name: typeName(r.type) },
    IsConnected: { Value: connected, Name: connected ? 'Connected' : 'Not connected' },
    LastUpdated: r.lastUpdated ?? null,
    IsTracking: r.isTracking === 1,
    TrackingSeconds: r.trackingSeconds ?? null,
    IsFallDetection: r.isFallDetection === 1,
    FallDetectionSettings: r.fallDetectionSettings ?? null,
    FirmwareVersion: r.firmwareVersion ?? r.devFirmware,
    SosButton: r.sosButton === 1,
    Call1Type: callType(r.call1Type),
    Call1Number: r.call1Number ?? null,
    Call2Type: callType(r.call2Type),
    Call2Number: r.call2Number ?? null,
    PrimaryEndPoint: r.primaryEndPoint ?? null,
    SecondaryEndPoint: r.secondaryEndPoint ?? null,
    SmsBackup: r.smsBackup === 1,
    LastMessageDate: last?.date ?? null,
    RefreshRequestedAt: pending?.refreshConfiguration ?? null,
    FirmwareRequestedAt: pending?.refreshFirmware ?? null,
    PendingChanges: pending?.configuration ?? 0,
  };
}

/** The rows of the selected serials within the scope (unknown serials left out), in no particular order. */
async function configurationRows(db: DB, scope: TenantScope, serials: string[]): Promise<ConfigurationRow[]> {
  const devs = await devicesBySerials(db, scope, serials);
  return configurationRowsByIds(db, [...new Set([...devs.values()].map((d) => d.id))]);
}

/** The rows of the given devices (distinct ids), in no particular order. */
async function configurationRowsByIds(db: DB, ids: string[]): Promise<ConfigurationRow[]> {
  const out: ConfigurationRow[] = [];
  const pending = await pendingOf(db, ids);
  for (const part of chunks(ids)) {
    for (const r of (await configQuery(db).where('d.id', 'in', part).execute()) as ConfigJoin[]) {
      const known = !!r.cfgDeviceId && !!r.lastUpdated;
      out.push({
        Id: r.id,
        Serial: r.serialNumber,
        DeviceIdentity: deviceIdentityOf({ imei: r.imei, serialNumber: r.serialNumber }),
        Type: { Value: r.type, Name: typeName(r.type) },
        LastUpdated: known ? r.lastUpdated : null,
        IsTracking: known ? r.isTracking === 1 : null,
        TrackingSeconds: known ? (r.trackingSeconds ?? null) : null,
        IsFallDetection: known ? r.isFallDetection === 1 : null,
        FallDetectionSettings: known ? (r.fallDetectionSettings ?? null) : null,
        FirmwareVersion: (known ? r.firmwareVersion : null) ?? r.devFirmware,
        Call1Type: known ? callType(r.call1Type) : null,
        Call2Type: known ? callType(r.call2Type) : null,
        PendingChanges: pending.get(r.id)?.configuration ?? 0,
      });
    }
  }
  return out;
}

const cmp = (a: unknown, b: unknown) => {
  // missing values last, whatever the direction (as the asset list)
  if (a == null && b == null) return 0;
  if (a == null) return 1;
  if (b == null) return -1;
  return typeof a === 'number' && typeof b === 'number' ? a - b : String(a).localeCompare(String(b), 'en-GB', { numeric: true });
};
function sortRows<T>(rows: T[], key: (r: T) => unknown, tie: (r: T) => string, desc: boolean) {
  const dir = desc ? -1 : 1;
  return rows.sort((a, b) => {
    const ka = key(a);
    const kb = key(b);
    if (ka == null || kb == null) {
      const c = cmp(ka, kb);
      if (c) return c;
    } else {
      const c = cmp(ka, kb) * dir;
      if (c) return c;
    }
    return cmp(tie(a), tie(b)) * dir;
  });
}

/** The current-configuration list's filters (the list and its CSV). */
function configurationFilter(f: ConfigurationListBody): (r: ConfigurationRow) => boolean {
  const q = f.identifier.toLowerCase();
  return (r) =>
    (!f.deviceTypeIds.length || f.deviceTypeIds.includes(r.Type.Value)) &&
    (!f.call1TypeIds.length || (r.Call1Type ? f.call1TypeIds.includes(r.Call1Type.Value) : false)) &&
    (!f.call2TypeIds.length || (r.Call2Type ? f.call2TypeIds.includes(r.Call2Type.Value) : false)) &&
    (f.fallDetection == null || (r.IsFallDetection ?? false) === f.fallDetection) &&
    (f.tracking == null || (r.IsTracking ?? false) === f.tracking) &&
    (!q || r.Serial.toLowerCase().includes(q) || r.DeviceIdentity.toLowerCase().includes(q));
}
/** The current-configuration list's sort keys (ties by serial). */
const CONFIGURATION_KEY: Record<ConfigurationListBody['orderBy'], (r: ConfigurationRow) => unknown> = {
  Serial: (r) => r.Serial,
  Type: (r) => r.Type.Name,
  Tracking: (r) => (r.IsTracking == null ? null : r.IsTracking ? (r.TrackingSeconds ?? 0) : -1),
  FallDetection: (r) => (r.IsFallDetection == null ? null : r.IsFallDetection ? 1 : 0),
  Call1Type: (r) => r.Call1Type?.Name,
  Call2Type: (r) => r.Call2Type?.Name,
  LastUpdated: (r) => r.LastUpdated,
};

/** POST get-configurations (paged, or all with `paged` false). */
export async function configurationList(
  db: DB,
  scope: TenantScope,
  f: ConfigurationListBody,
  paged = true,
): Promise<{ Items: ConfigurationRow[]; TotalCount: number }> {
  let rows = (await configurationRows(db, scope, f.serialNumbers)).filter(configurationFilter(f));
  sortRows(rows, CONFIGURATION_KEY[f.orderBy], (r) => r.Serial, f.desc);
  const total = rows.length;
  if (paged) rows = rows.slice((f.page - 1) * f.pageSize, f.page * f.pageSize);
  return { Items: rows, TotalCount: total };
}

/** A row's place in a list's order: what the list sorts by, its tie-break, and the key that reads it again. */
type OrderKey = { at: string; key: unknown; tie: string };
/** The kept rows' ids sorted as the list sorts (by key, then the serial). */
function orderedIds(order: OrderKey[], desc: boolean): string[] {
  sortRows(
    order,
    (o) => o.key,
    (o) => o.tie,
    desc,
  );
  return order.map((o) => o.at);
}

/**
 * The CSV of the current-configuration list, first pass: the selection is read `size` serials at a
 * time and filtered; of each kept row only its device id and sort keys are kept, then sorted as the
 * list sorts. The device ids in the file's order (configurationPage reads their rows).
 */
export async function configurationOrder(db: DB, scope: TenantScope, f: ConfigurationListBody, size: number): Promise<string[]> {
  const keep = configurationFilter(f);
  const key = CONFIGURATION_KEY[f.orderBy];
  const seen = new Set<string>();
  const order: OrderKey[] = [];
  for (const part of chunks(f.serialNumbers, size))
    for (const r of await configurationRows(db, scope, part)) {
      if (seen.has(r.Id) || !keep(r)) continue;
      seen.add(r.Id);
      order.push({ at: r.Id, key: key(r), tie: r.Serial });
    }
  return orderedIds(order, f.desc);
}

/** The rows of a page of configurationOrder's ids, in that order. */
export async function configurationPage(db: DB, ids: string[]): Promise<ConfigurationRow[]> {
  const byId = new Map((await configurationRowsByIds(db, ids)).map((r) => [r.Id, r]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}

/** POST get-firmware-versions: known devices in the order asked. */
export async function firmwareVersions(db: DB, scope: TenantScope, serials: string[]) {
  const devs = await devicesBySerials(db, scope, serials);
  const ids = [...new Set([...devs.values()].map((d) => d.id))];
  const cfg = new Map<string, string | null>();
  for (const part of chunks(ids))
    for (const r of await db.selectFrom('deviceConfigurations').select(['deviceId', 'firmwareVersion']).where('deviceId', 'in', part).execute())
      cfg.set(r.deviceId, r.firmwareVersion);
  const seen = new Set<string>();
  const Items = [];
  for (const s of serials) {
    const d = devs.get(s.trim().toLowerCase());
    if (!d || seen.has(d.id)) continue;
    seen.add(d.id);
    Items.push({ Serial: d.serialNumber, Type: { Value: d.type.value, Name: d.type.name }, FirmwareVersion: d.firmwareVersion ?? cfg.get(d.id) ?? null });
  }
  return { Items };
}

// ---------------------------------------------------------------- messages

const STREAM_COLS = ['id', 'deviceIdentity', 'serial', 'deviceType', 'date', 'message', 'signal', 'battery', 'receivedAt', 'location'] as const;

export const encodeToken = (date: string, id: string) => Buffer.from(JSON.stringify([date, id])).toString('base64url');
export function decodeToken(token: string): [string, string] | undefined {
  try {
    const x = JSON.parse(Buffer.from(token, 'base64url').toString('utf8')) as unknown;
    if (Array.isArray(x) && x.length === 2 && typeof x[0] === 'string' && typeof x[1] === 'string' && x[0].length <= 40 && x[1].length <= 100)
      return [x[0], x[1]];
  } catch {
    /* below */
  }
  return undefined;
}

/**
 * The devices whose messages can carry `identity`: the device with that IMEI, and the device with
 * that serial number (its messages before it had an IMEI). A message history is read through the
 * device index (deviceId, date); there is no index by identity (decision "A device's messages are read through
 * the device index only", docs/decisions/live-and-hub.md).
 */
async function devicesOfIdentity(db: DB, identity: string): Promise<string[]> {
  const rows = await db
    .selectFrom('devices')
    .select('id')
    .where((eb) => eb.or([eb('imei', '=', identity), eb('serialNumber', '=', identity)]))
    .execute();
  return rows.map((r) => r.id);
}

/** Messages of `identity` among those of the devices `ids` (one device: the index's own order, no sort). */
function ofIdentity<O>(q: SelectQueryBuilder<Database, 'deviceMessages', O>, ids: string[], identity: string) {
  return (ids.length === 1 ? q.where('deviceMessages.deviceId', '=', ids[0]!) : q.where('deviceMessages.deviceId', 'in', ids)).where(
    'deviceMessages.deviceIdentity',
    '=',
    identity,
  );
}

/** GET get-message-stream: newest first; ContinuationToken names the last row of the page when older ones exist. */
export async function messageStream(
  db: DB,
  scope: TenantScope,
  identity: string,
  after: [string, string] | undefined,
  pageSize: number,
): Promise<MessageStream> {
  const ids = await devicesOfIdentity(db, identity);
  if (!ids.length) return { Items: [], ContinuationToken: null };
  let q = byDevice(ofIdentity(db.selectFrom('deviceMessages').select(STREAM_COLS), ids, identity), scope, 'deviceMessages.deviceId');
  if (after) {
    const [d, id] = after;
    // `date <= d` first: the index's range starts at the page's edge instead of the newest message
    q = q.where('date', '<=', d).where((eb) => eb.or([eb('date', '<', d), eb.and([eb('date', '=', d), eb('id', '<', id)])]));
  }
  const rows = await q
    .orderBy('date', 'desc')
    .orderBy('id', 'desc')
    .limit(pageSize + 1)
    .execute();
  const page = rows.slice(0, pageSize);
  const last = page[page.length - 1];
  return { Items: page.map(messageDto), ContinuationToken: rows.length > pageSize && last ? encodeToken(last.date, last.id) : null };
}

/** GET get-detailed-message. */
export async function detailedMessage(db: DB, scope: TenantScope, identity: string, date: string, messageId: string): Promise<DetailedMessageDto | undefined> {
  const ids = await devicesOfIdentity(db, identity);
  if (!ids.length) return undefined;
  let q = byDevice(ofIdentity(db.selectFrom('deviceMessages'), ids, identity), scope, 'deviceMessages.deviceId')
    .select([...STREAM_COLS, 'properties', 'rawMessage'])
    .where('date', '=', date);
  if (messageId) q = q.where('id', '=', messageId);
  const r = await q.orderBy('id').executeTakeFirst();
  if (!r) return undefined;
  return { ...messageDto(r), MessageProperties: r.properties || '{}', RawMessage: r.rawMessage };
}

/** The last-message rows of distinct identities in the order given, each device once (those in `done` skipped, the rest added). */
async function lastMessageRows(db: DB, scope: TenantScope, identities: string[], nowMs: number, done: Set<string>): Promise<LastMessageDto[]> {
  const devs = await devicesByIdentity(db, identities, nowMs);
  if (!scope.all) {
    const mine = new Set<string>();
    for (const part of chunks([...new Set([...devs.values()].map((d) => d.id))]))
      for (const r of await byCustomer(db.selectFrom('devices').select('devices.id').where('devices.id', 'in', part), scope, 'devices.customerId').execute())
        mine.add(r.id);
    for (const [identity, d] of devs) if (!mine.has(d.id)) devs.delete(identity);
  }
  const ids = [...new Set([...devs.values()].map((d) => d.id))];
  const last = new Map<
    string,
    { messageId: string; date: string; message: string; battery: number | null; signal: number | null; isConnected: number; receivedAt: string }
  >();
  for (const part of chunks(ids))
    for (const r of await db
      .selectFrom('deviceLastMessages')
      .select(['deviceId', 'messageId', 'date', 'message', 'battery', 'signal', 'isConnected', 'receivedAt'])
      .where('deviceId', 'in', part)
      .execute())
      last.set(r.deviceId, r);
  const rows: LastMessageDto[] = [];
  for (const identity of identities) {
    const d = devs.get(identity);
    if (!d || done.has(d.id)) continue;
    done.add(d.id);
    const l = last.get(d.id);
    rows.push({
      DeviceId: d.id,
      SerialNumber: d.serialNumber,
      DeviceType: { Id: d.type, Name: typeName(d.type) },
      Date: l?.date ?? null,
      Message: l?.message ?? null,
      Battery: l?.battery ?? null,
      Signal: l?.signal ?? null,
      IsConnected: isConnectedNow(l, nowMs),
      IsEmpty: !l,
      DeviceIdentity: identity,
      MessageId: l?.messageId ?? null,
      PartitionKey: identity,
    });
  }
  return rows;
}

/** The last-messages list's filters (the list and its CSV). */
function lastMessageFilter(f: LastMessagesBody): (r: LastMessageDto) => boolean {
  const q = f.searchValue.toLowerCase();
  return (r) =>
    (!f.deviceTypeIds.length || f.deviceTypeIds.includes(r.DeviceType.Id)) &&
    (f.connected == null || r.IsConnected === f.connected) &&
    (!f.withNoMessagesOnly || r.IsEmpty) &&
    (!q || r.SerialNumber.toLowerCase().includes(q) || r.DeviceIdentity.toLowerCase().includes(q) || (r.Message ?? '').toLowerCase().includes(q));
}
/** The last-messages list's sort keys (ties by serial). */
const LAST_MESSAGE_KEY: Record<LastMessagesBody['orderBy'], (r: LastMessageDto) => unknown> = {
  SerialNumber: (r) => r.SerialNumber,
  DeviceType: (r) => r.DeviceType.Name,
  Date: (r) => r.Date,
  Message: (r) => r.Message,
  Battery: (r) => r.Battery,
  Signal: (r) => r.Signal,
  IsConnected: (r) => (r.IsConnected ? 1 : 0),
};

/** POST get-last-messages (paged, or all with `paged` false). */
export async function lastMessages(
  db: DB,
  scope: TenantScope,
  f: LastMessagesBody,
  nowMs: number,
  paged = true,
): Promise<{ Items: LastMessageDto[]; TotalCount: number }> {
  let rows = (await lastMessageRows(db, scope, [...new Set(f.deviceIdentities)], nowMs, new Set())).filter(lastMessageFilter(f));
  sortRows(rows, LAST_MESSAGE_KEY[f.orderBy], (r) => r.SerialNumber, f.desc);
  const total = rows.length;
  if (paged) rows = rows.slice((f.page - 1) * f.pageSize, f.page * f.pageSize);
  return { Items: rows, TotalCount: total };
}

/**
 * The CSV of the last-messages list, first pass: the selection is read `size` identities at a time
 * and filtered; of each kept row only its identity and sort keys are kept, then sorted as the list
 * sorts. The identities in the file's order (lastMessagePage reads their rows).
 */
export async function lastMessageOrder(db: DB, scope: TenantScope, f: LastMessagesBody, nowMs: number, size: number): Promise<string[]> {
  const keep = lastMessageFilter(f);
  const key = LAST_MESSAGE_KEY[f.orderBy];
  const done = new Set<string>();
  const order: OrderKey[] = [];
  for (const part of chunks([...new Set(f.deviceIdentities)], size))
    for (const r of await lastMessageRows(db, scope, part, nowMs, done)) if (keep(r)) order.push({ at: r.DeviceIdentity, key: key(r), tie: r.SerialNumber });
  return orderedIds(order, f.desc);
}

/** The rows of a page of lastMessageOrder's identities, in that order. */
export async function lastMessagePage(db: DB, scope: TenantScope, identities: string[], nowMs: number): Promise<LastMessageDto[]> {
  return lastMessageRows(db, scope, identities, nowMs, new Set());
}

// ---------------------------------------------------------------- desired configuration

/** The ticked groups of a change, as stored and handed to the devices. */
export function normaliseChange(b: ConfigurationChangeBody): ConfigurationChange {
  const out: ConfigurationChange = {};
  if (b.isTrackingEnabled != null) {
    out.isTrackingEnabled = b.isTrackingEnabled;
    out.trackingIntervalMinutes = b.isTrackingEnabled ? (b.trackingIntervalMinutes ?? 0) : 0;
  }
  if (b.isManDownEnabled != null) {
    out.isManDownEnabled = b.isManDownEnabled;
    if (b.isManDownEnabled) {
      out.manDownSensitivity = b.manDownSensitivity ?? 0;
      out.manDownUpTime = b.manDownUpTime ?? 0;
      out.manDownNonMovementDuration = b.manDownNonMovementDuration ?? 0;
    }
  }
  if (b.call1Button != null) {
    out.call1Button = b.call1Button;
    out.custom1Number = b.call1Button === CALL_BUTTON.Custom ? { phoneNumber: b.custom1Number?.phoneNumber ?? '' } : null;
  }
  if (b.call2Button != null) {
    out.call2Button = b.call2Button;
    out.custom2Number = b.call2Button === CALL_BUTTON.Custom ? { phoneNumber: b.custom2Number?.phoneNumber ?? '' } : null;
  }
  if (b.rawCommands?.length) out.rawCommands = b.rawCommands.map((c) => ({ rawCommand: c.rawCommand, communicationProtocol: c.communicationProtocol }));
  return out;
}

/**
 * Each device's current configuration in the terms of a configuration change, for the groups the
 * change touches (tracking, man down, call buttons): the 'before' of its History entry. Null
 * values where the device has reported no configuration.
 */
export async function configurationBefore(db: DB, deviceIds: string[], change: ConfigurationChange): Promise<Map<string, Record<string, unknown>>> {
  const cfg = new Map<
    string,
    {
      isTracking: number;
      trackingSeconds: number | null;
      isFallDetection: number;
      fallDetectionSettings: string | null;
      call1Type: number | null;
      call1Number: string | null;
      call2Type: number | null;
      call2Number: string | null;
    }
  >();
  for (const part of chunks(deviceIds))
    for (const r of await db
      .selectFrom('deviceConfigurations')
      .select(['deviceId', 'isTracking', 'trackingSeconds', 'isFallDetection', 'fallDetectionSettings', 'call1Type', 'call1Number', 'call2Type', 'call2Number'])
      .where('deviceId', 'in', part)
      .execute())
      cfg.set(r.deviceId, r);
  const out = new Map<string, Record<string, unknown>>();
  for (const id of deviceIds) {
    const c = cfg.get(id);
    const b: Record<string, unknown> = {};
    if (change.isTrackingEnabled != null) {
      b.isTrackingEnabled = c ? c.isTracking === 1 : null;
      b.trackingIntervalMinutes = c?.trackingSeconds != null ? c.trackingSeconds / 60 : null;
    }
    if (change.isManDownEnabled != null) {
      b.isManDownEnabled = c ? c.isFallDetection === 1 : null;
      b.manDownSettings = c?.fallDetectionSettings ?? null;
    }
    if (change.call1Button != null) [b.call1Button, b.custom1Number] = [c?.call1Type ?? null, c?.call1Number ? { phoneNumber: c.call1Number } : null];
    if (change.call2Button != null) [b.call2Button, b.custom2Number] = [c?.call2Type ?? null, c?.call2Number ? { phoneNumber: c.call2Number } : null];
    out.set(id, b);
  }
  return out;
}

/** Queues one request per device; a refresh already waiting for the device is not queued twice. Returns the ids. */
export async function queueDesired(
  db: DB,
  deviceIds: string[],
  kind: DesiredKind,
  change: ConfigurationChange | null,
  requestedBy: string | null,
  at: string,
): Promise<number> {
  let skip = new Set<string>();
  if (kind !== 'configuration') {
    skip = new Set(
      (
        await db
          .selectFrom('desiredConfigurations')
          .select('deviceId')
          .where('deviceId', 'in', deviceIds)
          .where('kind', '=', kind)
          .where('appliedAt', 'is', null)
          .execute()
      ).map((r) => r.deviceId),
    );
  }
  const rows = deviceIds
    .filter((id) => !skip.has(id))
    .map((deviceId) => ({ id: newId(), deviceId, kind, payload: JSON.stringify(change ?? {}), requestedBy, requestedAt: at }));
  for (const part of chunks(rows, 400)) await db.insertInto('desiredConfigurations').values(part).execute();
  return deviceIds.length;
}

/** GET desired-configuration?serial=: newest first, the last 50 (none for a device outside the scope). */
export async function desiredList(db: DB, scope: TenantScope, deviceId: string): Promise<DesiredConfigurationDto[]> {
  const rows = await byDevice(db.selectFrom('desiredConfigurations'), scope, 'desiredConfigurations.deviceId')
    .select(['id', 'kind', 'payload', 'requestedAt', 'requestedBy', 'sentAt', 'appliedAt'])
    .where('deviceId', '=', deviceId)
    .orderBy('requestedAt', 'desc')
    .orderBy('id', 'desc')
    .limit(50)
    .execute();
  return rows.map((r) => {
    const kind = (['configuration', 'refresh-configuration', 'refresh-firmware'].includes(r.kind) ? r.kind : 'configuration') as DesiredKind;
    return {
      Id: r.id,
      Kind: kind,
      Configuration: kind === 'configuration' ? storedChange(r.payload) : null,
      RequestedAt: r.requestedAt,
      RequestedBy: r.requestedBy,
      SentAt: r.sentAt,
      AppliedAt: r.appliedAt,
    };
  });
}

/**
 * Demo data comes with message history but no last-message rows: fills them once (when the table
 * is empty) from the latest message of each device, as not connected (history is old).
 */
export async function backfillLastMessages(db: DB) {
  if (await db.selectFrom('deviceLastMessages').select('deviceId').limit(1).executeTakeFirst()) return 0;
  const r = await sql`
    insert into "deviceLastMessages" ("deviceId", "deviceIdentity", "messageId", "date", "message", "battery", "signal", "isConnected", "receivedAt")
    select m."deviceId", m."deviceIdentity", m."id", m."date", m."message", m."battery", m."signal", 0, m."date"
    from "deviceMessages" m
    where m."id" = (select m2."id" from "deviceMessages" m2 where m2."deviceId" = m."deviceId" order by m2."date" desc, m2."id" desc limit 1)
    on conflict do nothing`.execute(db);
  return Number(r.numAffectedRows ?? 0);
}
