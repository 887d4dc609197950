// Device message ingestion (POST /api/v1/device-messages/ingest): a gateway's batch, each entry
// stored or refused on its own. One transaction per batch, batched writes:
//   1. validate every entry (ingestMessageSchema; properties.Configuration and
//      AppliedConfigurationIds as documented there) — a bad entry is a 400 result, the rest go on;
//   2. resolve identities to devices (IMEI, else serial; cached for 30 s) — unknown: 404 result;
//      a deviceType other than the device's, or a date more than INGEST_MAX_FUTURE_SECONDS ahead
//      of the server's clock (it would stay the device's last message): 422 result;
//   3. INSERT the messages ... ON CONFLICT (id) DO NOTHING RETURNING id — a message id stored
//      before is a duplicate (idempotent: the same message twice is stored once);
//   4. per device: the latest message and connection state (deviceLastMessages, upsert), the
//      configuration it reports (deviceConfigurations, devices.lastConfigurationDate /
//      firmwareVersion), queued requests it applied (desiredConfigurations.appliedAt);
//   5. the commands the gateway must hand to the devices: queued configuration changes for a
//      device that sent 'Power on', refresh requests for any device that spoke (sentAt is set);
//   6. the stored messages added to each device's daily usage (daily-usage.ts), and the newest
//      firmware of a device type raised when a device reports a newer one.
// The hub events (MessageStream, DeviceMonitoring, DeviceConnected, DeviceConfigurationUpdated)
// are returned for the caller to publish after the commit.
import * as v from 'valibot';
import { CompiledQuery } from 'kysely';
import { isPostgres, tx, type DB } from '../../db/index.js';
import type { DeviceLastMessageTable, DeviceMessageTable } from '../../db/schema.js';
import { badTextKind, TEXT_MESSAGES } from '../../http/api.js';
import { newEtag, setBounded } from '../../platform/util.js';
import type { HubEvent } from '../../realtime/hub.js';
import { deviceIdentitiesChanged, deviceIdentityEpoch } from '../devices/identity-changes.js';
import { addDailyUsage, noteFirmware, usageRows } from './daily-usage.js';
import { newestFirmware } from '../../../shared/firmware.js';
import { CODE } from '../../../shared/messages.js';
import { DEVICE_TYPES, lookupName } from '../../../shared/codes.js';
import {
  CONNECTED_WINDOW_SECONDS,
  DEVICE_MESSAGE,
  INGEST_MAX_FUTURE_SECONDS,
  LIVE_CODE,
  LIVE_TEXT,
  configurationChangeSchema,
  ingestMessageSchema,
  reportedConfigurationSchema,
  type ConfigurationChange,
  type DesiredKind,
  type DeviceCommand,
  type DeviceMessageDto,
  type IngestMessage,
  type IngestResponse,
  type LastMessageDto,
  type ReportedConfiguration,
  hubPayload,
} from '../../../shared/schemas/live.js';

export type IngestDevice = { id: string; serialNumber: string; type: number; imei: string | null; firmwareVersion: string | null };
type Entry = { index: number; m: IngestMessage; config?: ReportedConfiguration; applied: string[]; firmware?: string; dev?: IngestDevice };
type Result = IngestResponse['Results'][number];

const INSERT_CHUNK = 400;
const IN_CHUNK = 500;
const CACHE_MS = 30_000;
const CACHE_MAX = 200_000;

function chunks<T>(a: readonly T[], n: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < a.length; i += n) out.push(a.slice(i, i + n));
  return out;
}

const typeName = (t: number) => lookupName(DEVICE_TYPES, t);

// ---------------------------------------------------------------- devices by identity (cached)

const caches = new WeakMap<DB, { epoch: number; devices: Map<string, { dev: IngestDevice; until: number }> }>();
// The cache's epoch is devices/identity-changes.ts's counter, bumped when a device's type or
// identity changes (after the change's commit). Caches of an older epoch are dropped, and a look-up
// that ran across a bump keeps nothing: a write runs in a transaction, another object than the
// database ingestion reads through, so a key would not find it.

/** Forgets cached devices (tests; the devices module bumps the epoch itself). */
export const forgetIngestDevices = deviceIdentitiesChanged;

/** Devices by identity: IMEI first, else the serial number of a device without IMEI. Unknown identities are left out (and not cached). */
export async function devicesByIdentity(db: DB, identities: readonly string[], nowMs = Date.now()): Promise<Map<string, IngestDevice>> {
  const epoch = deviceIdentityEpoch();
  let kept = caches.get(db);
  if (kept?.epoch !== epoch) caches.set(db, (kept = { epoch, devices: new Map() }));
  const cache = kept.devices;
  const out = new Map<string, IngestDevice>();
  const missing: string[] = [];
  for (const id of identities) {
    const hit = cache.get(id);
    if (hit && hit.until > nowMs) out.set(id, hit.dev);
    else missing.push(id);
  }
  const cols = ['id', 'serialNumber', 'type', 'imei', 'firmwareVersion'] as const;
  for (const part of chunks(missing, IN_CHUNK)) {
    const rows = await db.selectFrom('devices').select(cols).where('imei', 'in', part).execute();
    for (const r of rows) if (r.imei) out.set(r.imei, r);
    const rest = part.filter((p) => !out.has(p));
    if (rest.length) {
      const bySerial = await db.selectFrom('devices').select(cols).where('serialNumber', 'in', rest).execute();
      for (const r of bySerial) if (!r.imei) out.set(r.serialNumber, r);
    }
  }
  if (epoch !== deviceIdentityEpoch()) return out; // a device changed while this read: keep nothing of it
  if (cache.size > CACHE_MAX) cache.clear();
  for (const id of missing) {
    const dev = out.get(id);
    if (dev) cache.set(id, { dev, until: nowMs + CACHE_MS });
  }
  return out;
}

// ---------------------------------------------------------------- the batch's bulk statements

// The batch's multi-row statements are written as SQL text here, not through the query builder:
// the builder makes a node per value and compiles a new text every batch (~5 µs a message), and a
// new text of 25 KB is hashed and compared again when the connection looks up its prepared
// statement. One text per dialect and row count, made once: both dialects read the same SQL
// (ON CONFLICT … DO NOTHING / DO UPDATE … WHERE, RETURNING), placeholders `?` or `$n`.
const MESSAGE_COLUMNS = [
  'id',
  'deviceId',
  'deviceIdentity',
  'serial',
  'deviceType',
  'date',
  'message',
  'signal',
  'battery',
  'properties',
  'rawMessage',
  'receivedAt',
  'location',
] as const satisfies readonly (keyof DeviceMessageTable)[];
const LAST_COLUMNS = [
  'deviceId',
  'deviceIdentity',
  'messageId',
  'date',
  'message',
  'battery',
  'signal',
  'isConnected',
  'receivedAt',
] as const satisfies readonly (keyof DeviceLastMessageTable)[];

/** Texts kept (batches of a few sizes hit; any other size makes its text again). */
const TEXTS = 64;
const texts = new Map<string, string>();
function textOf(key: string, make: () => string): string {
  return texts.get(key) ?? setBounded(texts, key, make(), TEXTS);
}
const quoted = (cols: readonly string[]) => cols.map((c) => `"${c}"`).join(', ');
function placeholders(pg: boolean, rows: number, cols: number): string {
  const out: string[] = [];
  let n = 0;
  for (let r = 0; r < rows; r++) {
    const row: string[] = [];
    for (let c = 0; c < cols; c++) row.push(pg ? `$${++n}` : '?');
    out.push(`(${row.join(', ')})`);
  }
  return out.join(', ');
}

/** INSERT the messages; a message id stored before is left as it is. Returns the ids stored now. */
function insertMessagesQuery(pg: boolean, params: unknown[], rows: number): CompiledQuery<{ id: string }> {
  const text = textOf(`messages:${pg}:${rows}`, () => {
    return `insert into "deviceMessages" (${quoted(MESSAGE_COLUMNS)}) values ${placeholders(pg, rows, MESSAGE_COLUMNS.length)} on conflict ("id") do nothing returning "id"`;
  });
  return CompiledQuery.raw(text, params) as CompiledQuery<{ id: string }>;
}

/** Upsert each device's latest message, unless the stored one is newer. */
function upsertLastQuery(pg: boolean, params: unknown[], rows: number): CompiledQuery {
  const text = textOf(`last:${pg}:${rows}`, () => {
    const set = LAST_COLUMNS.filter((c) => c !== 'deviceId')
      .map((c) => `"${c}" = excluded."${c}"`)
      .join(', ');
    return `insert into "deviceLastMessages" (${quoted(LAST_COLUMNS)}) values ${placeholders(pg, rows, LAST_COLUMNS.length)} on conflict ("deviceId") do update set ${set} where "deviceLastMessages"."date" <= excluded."date"`;
  });
  return CompiledQuery.raw(text, params);
}

/** The stored latest message of each device (ids: at most IN_CHUNK). */
function lastOfQuery(pg: boolean, ids: string[]): CompiledQuery<{ deviceId: string; date: string; isConnected: number; receivedAt: string }> {
  const text = textOf(`prev:${pg}:${ids.length}`, () => {
    const marks = ids.map((_, i) => (pg ? `$${i + 1}` : '?')).join(', ');
    return `select "deviceId", "date", "isConnected", "receivedAt" from "deviceLastMessages" where "deviceId" in (${marks})`;
  });
  return CompiledQuery.raw(text, ids) as CompiledQuery<{ deviceId: string; date: string; isConnected: number; receivedAt: string }>;
}

// ---------------------------------------------------------------- DTOs

/** A stored message as the DTOs read it (the columns a message list selects). */
export type MessageRow = Pick<DeviceMessageTable, 'id' | 'deviceIdentity' | 'serial' | 'deviceType' | 'date' | 'message' | 'signal' | 'battery'> & {
  receivedAt: string | null;
  location: string | null;
};

export function messageDto(r: MessageRow): DeviceMessageDto {
  let loc: DeviceMessageDto['Location'] = null;
  if (r.location) {
    try {
      const l = JSON.parse(r.location) as { latitude: number; longitude: number; accuracy?: number | null };
      loc = { Latitude: l.latitude, Longitude: l.longitude, Accuracy: l.accuracy ?? null };
    } catch {
      loc = null;
    }
  }
  return {
    MessageId: r.id,
    Message: r.message,
    Date: r.date,
    Signal: r.signal,
    Battery: r.battery,
    Time: r.receivedAt ?? r.date,
    DeviceType: { Id: r.deviceType, Name: typeName(r.deviceType) },
    Serial: r.serial,
    DeviceIdentity: r.deviceIdentity,
    PartitionKey: r.deviceIdentity,
    Location: loc,
  };
}

/** Connected: the last message was not 'Power off' and arrived within CONNECTED_WINDOW_SECONDS. */
export const isConnectedNow = (last: { isConnected: number; receivedAt: string } | null | undefined, nowMs: number) =>
  !!last && last.isConnected === 1 && nowMs - Date.parse(last.receivedAt) <= CONNECTED_WINDOW_SECONDS * 1000;

// ---------------------------------------------------------------- validation

function badTextIn(value: unknown, depth = 0): string | undefined {
  if (typeof value === 'string') {
    const k = badTextKind(value);
    return k && TEXT_MESSAGES[k];
  }
  if (depth > 10 || value === null || typeof value !== 'object') return undefined;
  if (Array.isArray(value)) {
    for (const x of value as unknown[]) {
      const bad = badTextIn(x, depth + 1);
      if (bad) return bad;
    }
    return undefined;
  }
  // without Object.entries' pair arrays: this runs on every field of every ingested message
  for (const k in value) {
    if (!Object.hasOwn(value, k)) continue;
    const bad = badTextIn(k, depth + 1) ?? badTextIn((value as Record<string, unknown>)[k], depth + 1);
    if (bad) return bad;
  }
  return undefined;
}

function validate(raw: unknown, index: number): { entry?: Entry; error?: Result } {
  const mid =
    raw && typeof raw === 'object' && typeof (raw as { messageId?: unknown }).messageId === 'string' ? (raw as { messageId: string }).messageId : null;
  const refuse = (message: string): { error: Result } => ({
    error: { Index: index, MessageId: mid, Status: 400, Code: CODE.validation, Message: message },
  });
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return refuse('Each entry must be a JSON object.');
  const bad = badTextIn(raw);
  if (bad) return refuse(bad);
  const r = v.safeParse(ingestMessageSchema, raw);
  if (!r.success) {
    const issue = r.issues[0];
    const path = issue?.path?.map((p) => String(p.key)).join('.');
    return refuse(path ? `${path}: ${issue?.message}` : (issue?.message ?? 'Invalid message.'));
  }
  const m = r.output;
  const props = m.properties as Record<string, unknown>;
  let config: ReportedConfiguration | undefined;
  if (props.Configuration !== undefined && props.Configuration !== null) {
    const c = v.safeParse(reportedConfigurationSchema, props.Configuration);
    if (!c.success) {
      const issue = c.issues[0];
      return refuse(`properties.Configuration.${issue?.path?.map((p) => String(p.key)).join('.') ?? ''}: ${issue?.message}`);
    }
    config = c.output;
  }
  let applied: string[] = [];
  if (props.AppliedConfigurationIds !== undefined) {
    const a = props.AppliedConfigurationIds;
    if (!Array.isArray(a) || a.length > 100 || !a.every((x) => typeof x === 'string' && x.length <= 100))
      return refuse('properties.AppliedConfigurationIds must be a list of up to 100 command ids.');
    applied = a as string[];
  }
  const fw = props.FirmwareVersion;
  const firmware = typeof fw === 'string' && fw.trim() && fw.length <= 64 ? fw.trim() : (config?.FirmwareVersion ?? undefined);
  return { entry: { index, m, config, applied, firmware: firmware ?? undefined } };
}

// ---------------------------------------------------------------- ingestion

export type IngestOutcome = { response: IngestResponse; events: HubEvent[] };

export async function ingestMessages(db: DB, raw: readonly unknown[], now: Date): Promise<IngestOutcome> {
  const nowIso = now.toISOString();
  const nowMs = now.getTime();
  const results: Result[] = [];
  let duplicates = 0;
  const seen = new Set<string>();
  const entries: Entry[] = [];
  raw.forEach((x, i) => {
    const { entry, error } = validate(x, i);
    if (error) return void results.push(error);
    if (!entry) return;
    if (Date.parse(entry.m.date) > nowMs + INGEST_MAX_FUTURE_SECONDS * 1000) {
      results.push({ Index: i, MessageId: entry.m.messageId, Status: 422, Code: LIVE_CODE.futureDate, Message: LIVE_TEXT.futureDate });
      return;
    }
    if (seen.has(entry.m.messageId)) {
      duplicates++;
      results.push({ Index: i, MessageId: entry.m.messageId, Status: 200, Code: LIVE_CODE.duplicate, Message: LIVE_TEXT.duplicate });
      return;
    }
    seen.add(entry.m.messageId);
    entries.push(entry);
  });

  const devices = await devicesByIdentity(db, [...new Set(entries.map((e) => e.m.deviceIdentity))], nowMs);
  const known: Entry[] = [];
  for (const e of entries) {
    e.dev = devices.get(e.m.deviceIdentity);
    if (!e.dev) results.push({ Index: e.index, MessageId: e.m.messageId, Status: 404, Code: CODE.deviceNotFound, Message: LIVE_TEXT.unknownDevice });
    else if (e.dev.type !== e.m.deviceType)
      results.push({ Index: e.index, MessageId: e.m.messageId, Status: 422, Code: LIVE_CODE.typeMismatch, Message: LIVE_TEXT.typeMismatch });
    else known.push(e);
  }

  const events: HubEvent[] = [];
  const streamEvents: HubEvent[] = [];
  const commands: DeviceCommand[] = [];
  let accepted = 0;
  if (known.length) {
    await tx(db, async (trx) => {
      // 3. the messages, once each
      const fresh = new Set<string>();
      const pg = isPostgres(trx);
      for (const part of chunks(known, INSERT_CHUNK)) {
        const params: unknown[] = [];
        for (const e of part)
          params.push(
            e.m.messageId,
            e.dev!.id,
            e.m.deviceIdentity,
            e.dev!.serialNumber,
            e.m.deviceType,
            e.m.date,
            e.m.message,
            e.m.signal,
            e.m.battery,
            JSON.stringify(e.m.properties),
            e.m.rawMessage,
            nowIso,
            e.m.location ? JSON.stringify(e.m.location) : null,
          );
        const inserted = await trx.executeQuery(insertMessagesQuery(pg, params, part.length));
        for (const r of inserted.rows) fresh.add(r.id);
      }
      const stored: Entry[] = [];
      for (const e of known) {
        if (fresh.has(e.m.messageId)) stored.push(e);
        else {
          duplicates++;
          results.push({ Index: e.index, MessageId: e.m.messageId, Status: 200, Code: LIVE_CODE.duplicate, Message: LIVE_TEXT.duplicate });
        }
      }
      accepted = stored.length;
      if (!stored.length) return;

      // 4a. per device, in date order
      const grouped = new Map<string, Entry[]>();
      for (const e of stored) {
        const list = grouped.get(e.dev!.id);
        if (list) list.push(e);
        else grouped.set(e.dev!.id, [e]);
      }
      // Every per-device write below goes in device id order: two batches touching the same
      // devices (two gateways, two nodes) then lock their rows in one order and never deadlock.
      const byDevice = new Map([...grouped].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
      for (const list of byDevice.values()) list.sort((a, b) => (a.m.date < b.m.date ? -1 : a.m.date > b.m.date ? 1 : a.index - b.index));
      const deviceIds = [...byDevice.keys()];

      const prev = new Map<string, { date: string; isConnected: number; receivedAt: string }>();
      for (const part of chunks(deviceIds, IN_CHUNK)) for (const r of (await trx.executeQuery(lastOfQuery(pg, part))).rows) prev.set(r.deviceId, r);

      const lastRows: DeviceLastMessageTable[] = [];
      for (const [deviceId, list] of byDevice) {
        const latest = list[list.length - 1]!;
        const p = prev.get(deviceId);
        if (p && p.date > latest.m.date) continue; // an older message arrived late: the last one stays
        const connected = latest.m.message !== DEVICE_MESSAGE.powerOff;
        lastRows.push({
          deviceId,
          deviceIdentity: latest.m.deviceIdentity,
          messageId: latest.m.messageId,
          date: latest.m.date,
          message: latest.m.message,
          battery: latest.m.battery,
          signal: latest.m.signal,
          isConnected: connected ? 1 : 0,
          receivedAt: nowIso,
        });
        const dev = latest.dev!;
        const monitoring: LastMessageDto = {
          DeviceId: deviceId,
          SerialNumber: dev.serialNumber,
          DeviceType: { Id: latest.m.deviceType, Name: typeName(latest.m.deviceType) },
          Date: latest.m.date,
          Message: latest.m.message,
          Battery: latest.m.battery,
          Signal: latest.m.signal,
          IsConnected: connected,
          IsEmpty: false,
          DeviceIdentity: latest.m.deviceIdentity,
          MessageId: latest.m.messageId,
          PartitionKey: latest.m.deviceIdentity,
        };
        events.push({ event: 'DeviceMonitoring', identity: latest.m.deviceIdentity, payload: hubPayload.DeviceMonitoring(monitoring) });
        if (isConnectedNow(p, nowMs) !== connected)
          events.push({
            event: 'DeviceConnected',
            identity: latest.m.deviceIdentity,
            payload: hubPayload.DeviceConnected({
              DeviceId: deviceId,
              DeviceIdentity: latest.m.deviceIdentity,
              SerialNumber: dev.serialNumber,
              IsConnected: connected,
              Date: latest.m.date,
            }),
          });
      }
      for (const part of chunks(lastRows, INSERT_CHUNK)) {
        const params: unknown[] = [];
        for (const r of part) for (const c of LAST_COLUMNS) params.push(r[c]);
        await trx.executeQuery(upsertLastQuery(pg, params, part.length));
      }

      // 4b. reported configuration and firmware
      const configUpdated = new Map<string, { identity: string; serial: string; lastUpdated: string | null }>();
      const firmwareSeen = new Map<number, string>();
      const reported = [...byDevice].filter(([, list]) =>
        list.some((e) => e.config || e.applied.length || (e.firmware && e.firmware !== e.dev!.firmwareVersion)),
      );
      if (reported.length) {
        const existing = new Map<string, Record<string, unknown>>();
        for (const part of chunks(
          reported.map(([id]) => id),
          IN_CHUNK,
        ))
          for (const r of await trx.selectFrom('deviceConfigurations').selectAll().where('deviceId', 'in', part).execute()) existing.set(r.deviceId, r);
        for (const [deviceId, list] of reported) {
          const dev = list[0]!.dev!;
          const withConfig = list.filter((e) => e.config);
          const firmware = [...list].reverse().find((e) => e.firmware)?.firmware;
          const firmwareChanged = firmware !== undefined && firmware !== dev.firmwareVersion;
          if (!withConfig.length && !firmwareChanged) continue;
          const lastUpdated = withConfig.length ? withConfig[withConfig.length - 1]!.m.date : null;
          const base = existing.get(deviceId);
          const merged = {
            deviceId,
            isConnected: (base?.isConnected as number | undefined) ?? 0,
            lastUpdated: lastUpdated ?? (base?.lastUpdated as string | null | undefined) ?? null,
            isTracking: (base?.isTracking as number | undefined) ?? 0,
            trackingSeconds: (base?.trackingSeconds as number | null | undefined) ?? null,
            isFallDetection: (base?.isFallDetection as number | undefined) ?? 0,
            fallDetectionSettings: (base?.fallDetectionSettings as string | null | undefined) ?? null,
            firmwareVersion: (base?.firmwareVersion as string | null | undefined) ?? dev.firmwareVersion ?? null,
            sosButton: (base?.sosButton as number | undefined) ?? 0,
            call1Type: (base?.call1Type as number | null | undefined) ?? null,
            call1Number: (base?.call1Number as string | null | undefined) ?? null,
            call2Type: (base?.call2Type as number | null | undefined) ?? null,
            call2Number: (base?.call2Number as string | null | undefined) ?? null,
            primaryEndPoint: (base?.primaryEndPoint as string | null | undefined) ?? null,
            secondaryEndPoint: (base?.secondaryEndPoint as string | null | undefined) ?? null,
            smsBackup: (base?.smsBackup as number | undefined) ?? 0,
            etag: newEtag(),
          };
          const b = (x: boolean | undefined, cur: number) => (x === undefined ? cur : x ? 1 : 0);
          for (const e of withConfig) {
            const c = e.config!;
            merged.isTracking = b(c.IsTracking, merged.isTracking);
            if (c.TrackingSeconds !== undefined) merged.trackingSeconds = c.TrackingSeconds;
            merged.isFallDetection = b(c.IsFallDetection, merged.isFallDetection);
            if (c.FallDetectionSettings !== undefined) merged.fallDetectionSettings = c.FallDetectionSettings;
            if (c.FirmwareVersion !== undefined) merged.firmwareVersion = c.FirmwareVersion;
            merged.sosButton = b(c.SosButton, merged.sosButton);
            if (c.Call1Type !== undefined) merged.call1Type = c.Call1Type;
            if (c.Call1Number !== undefined) merged.call1Number = c.Call1Number;
            if (c.Call2Type !== undefined) merged.call2Type = c.Call2Type;
            if (c.Call2Number !== undefined) merged.call2Number = c.Call2Number;
            if (c.PrimaryEndPoint !== undefined) merged.primaryEndPoint = c.PrimaryEndPoint;
            if (c.SecondaryEndPoint !== undefined) merged.secondaryEndPoint = c.SecondaryEndPoint;
            merged.smsBackup = b(c.SmsBackup, merged.smsBackup);
          }
          if (firmware !== undefined) merged.firmwareVersion = firmware;
          await trx
            .insertInto('deviceConfigurations')
            .values(merged)
            .onConflict((oc) => {
              const { deviceId: _id, ...set } = merged;
              return oc.column('deviceId').doUpdateSet(set);
            })
            .execute();
          // Server-kept fields of the device record: no etag change (a configuration report must not make the stock form's save conflict).
          await trx
            .updateTable('devices')
            .set({ ...(lastUpdated ? { lastConfigurationDate: lastUpdated } : {}), firmwareVersion: merged.firmwareVersion })
            .where('id', '=', deviceId)
            .execute();
          dev.firmwareVersion = merged.firmwareVersion;
          if (firmwareChanged) firmwareSeen.set(dev.type, newestFirmware(firmwareSeen.get(dev.type) ?? null, firmware));
          configUpdated.set(deviceId, { identity: list[0]!.m.deviceIdentity, serial: dev.serialNumber, lastUpdated: merged.lastUpdated });
        }
      }

      // 4c / 5. queued requests: applied ones, and the commands to hand out
      const pending: { id: string; deviceId: string; kind: string; payload: string; requestedAt: string; sentAt: string | null }[] = [];
      for (const part of chunks(deviceIds, IN_CHUNK))
        pending.push(
          ...(await trx
            .selectFrom('desiredConfigurations')
            .select(['id', 'deviceId', 'kind', 'payload', 'requestedAt', 'sentAt'])
            .where('deviceId', 'in', part)
            .where('appliedAt', 'is', null)
            .orderBy('requestedAt')
            .execute()),
        );
      const appliedIds: string[] = [];
      const sentIds: string[] = [];
      const waiting = new Set<string>(); // devices with a configuration change still to apply
      for (const p of pending) {
        const list = byDevice.get(p.deviceId)!;
        const kind = p.kind as DesiredKind;
        const done =
          list.some((e) => e.applied.includes(p.id)) ||
          (kind === 'refresh-configuration' && list.some((e) => e.config)) ||
          (kind === 'refresh-firmware' && list.some((e) => e.firmware));
        if (done) {
          appliedIds.push(p.id);
          const dev = list[0]!.dev!;
          if (!configUpdated.has(p.deviceId))
            configUpdated.set(p.deviceId, { identity: list[0]!.m.deviceIdentity, serial: dev.serialNumber, lastUpdated: null });
          continue;
        }
        if (kind === 'configuration') waiting.add(p.deviceId);
        const poweredOn = list.some((e) => e.m.message === DEVICE_MESSAGE.powerOn);
        if (kind === 'configuration' && !poweredOn) continue;
        commands.push({
          Id: p.id,
          DeviceIdentity: list[list.length - 1]!.m.deviceIdentity,
          Kind: kind,
          Configuration: kind === 'configuration' ? storedChange(p.payload) : null,
          RequestedAt: p.requestedAt,
        });
        if (!p.sentAt) sentIds.push(p.id);
      }
      for (const part of chunks(appliedIds, IN_CHUNK))
        await trx.updateTable('desiredConfigurations').set({ appliedAt: nowIso }).where('id', 'in', part).execute();
      for (const part of chunks(sentIds, IN_CHUNK)) await trx.updateTable('desiredConfigurations').set({ sentAt: nowIso }).where('id', 'in', part).execute();

      // 6. daily usage and the newest firmware of each type
      await addDailyUsage(
        trx,
        pg,
        usageRows(
          stored.map((e) => ({ deviceId: e.dev!.id, date: e.m.date, message: e.m.message, battery: e.m.battery })),
          waiting,
        ),
      );
      await noteFirmware(trx, firmwareSeen);

      for (const [deviceId, u] of configUpdated)
        events.push({
          event: 'DeviceConfigurationUpdated',
          identity: u.identity,
          payload: hubPayload.DeviceConfigurationUpdated({ Id: deviceId, DeviceIdentity: u.identity, SerialNumber: u.serial, LastUpdated: u.lastUpdated }),
        });
      for (const e of stored)
        streamEvents.push({
          event: 'MessageStream',
          identity: e.m.deviceIdentity,
          payload: hubPayload.MessageStream(
            messageDto({
              id: e.m.messageId,
              deviceIdentity: e.m.deviceIdentity,
              serial: e.dev!.serialNumber,
              deviceType: e.m.deviceType,
              date: e.m.date,
              message: e.m.message,
              signal: e.m.signal,
              battery: e.m.battery,
              receivedAt: nowIso,
              location: e.m.location ? JSON.stringify(e.m.location) : null,
            }),
          ),
        });
    });
  }

  results.sort((a, b) => a.Index - b.Index);
  const rejected = results.filter((r) => r.Status >= 400).length;
  return {
    response: { Accepted: accepted, Duplicates: duplicates, Rejected: rejected, Results: results, Commands: commands },
    events: [...streamEvents, ...events],
  };
}

/** A stored change payload as handed to a device: the ticked groups only (demo rows also carry serials, dropped here). */
export function storedChange(payload: string): ConfigurationChange | null {
  try {
    const { serials: _serials, ...rest } = JSON.parse(payload) as Record<string, unknown>;
    const r = v.safeParse(configurationChangeSchema, rest);
    return r.success ? r.output : null;
  } catch {
    return null;
  }
}
