// Live devices routes (spec document 2 §7 "Device configuration requests", "Devices data
// service", the negotiate call; our ingestion endpoint for gateways). Shapes and rules:
// src/shared/schemas/live.ts. Every change that a watching screen must see is published on the hub.
import { createHash, timingSafeEqual } from 'node:crypto';
import { ApiError, badRequest, deps, errorBody, notFound, readJson, type Api, type Ctx, type Deps } from '../../http/api.js';
import { createLimiter, memoryStore, redisStore, type Limiter } from '../../auth/rate-limit.js';
import type { Hub } from '../../realtime/hub.js';
import { tenantScope } from '../../auth/tenant-scope.js';
import { audit, auditMany } from '../../platform/util.js';
import { tx } from '../../db/index.js';
import type { ExportPool } from '../../exports/pool.js';
import { csvExportResponse } from '../../exports/routes.js';
import { devicesBySerials } from '../devices/repo.js';
import { ingestMessages } from './ingest.js';
import {
  configurationBefore,
  configurationList,
  decodeToken,
  desiredList,
  detailedMessage,
  deviceConfiguration,
  firmwareVersions,
  lastMessages,
  messageStream,
  normaliseChange,
  queueDesired,
} from './repo.js';
import { P } from '../../../shared/permissions.js';
import { CODE, MSG } from '../../../shared/messages.js';
import type { MessageResponse } from '../../../shared/schemas/common.js';
import {
  CALL_BUTTON_TYPES,
  GATEWAY_KEY_HEADER,
  HUB_PATH,
  INGEST_MAX_BATCH,
  LIVE_CODE,
  LIVE_TEXT,
  configurationByIdQuery,
  configurationBySerialQuery,
  configurationChangeBody,
  configurationListBody,
  deviceIdentityOf,
  desiredConfigurationQuery,
  detailedMessageQuery,
  firmwareVersionsBody,
  isConfigurableType,
  lastMessagesBody,
  messageStreamQuery,
  negotiateQuery,
  refreshRequestBody,
  subscribeBody,
  type ConfigurationChangeResponse,
  type ConfigurationList,
  type ConfigurationTypes,
  type DesiredConfigurationList,
  type DetailedMessageDto,
  type DeviceConfigurationDto,
  type FirmwareVersions,
  type IngestResponse,
  type LastMessages,
  type MessageStream,
  type NegotiateResponse,
  type SubscribeResponse,
  hubPayload,
} from '../../../shared/schemas/live.js';
import { scopeIdentities } from '../../realtime/scope.js';
import { ingestBatchesRefused, ingestMessages as ingestCounter } from '../../platform/metrics.js';

const deviceNotFound = () => new ApiError(404, MSG.deviceUnknown, CODE.deviceNotFound);
const SAMPLE_ID = '00000000-0000-4000-8000-000000000000';
const SAMPLE_IDENTITY = '359000000000000';

const digest = (s: string) => createHash('sha256').update(s).digest();
/** The X-Gateway-Key's rate-limit key (a digest prefix: the key itself is never stored) if it is one of the configured keys (constant-time per key), else undefined. */
function gatewayOf(keys: readonly string[], given: string | undefined): string | undefined {
  if (!given || !keys.length) return undefined;
  const g = digest(given);
  let ok = false;
  for (const k of keys) ok = timingSafeEqual(digest(k), g) || ok;
  return ok ? g.toString('base64url').slice(0, 16) : undefined;
}

const GATEWAY_WINDOW_MS = 10_000;
/** Batches per gateway key per 10 s (config.gatewayBatchesPer10s): in Redis when configured, so every node counts together. */
export function createIngestLimiter(d: Deps): Limiter {
  const store = d.redis ? redisStore(d.redis, { log: d.log }) : memoryStore({ maxKeys: 1000 });
  return createLimiter({ name: 'ingest:gateway', limit: d.config.gatewayBatchesPer10s ?? 1000, windowMs: GATEWAY_WINDOW_MS, now: () => d.config.now(), store });
}

/** Per-message results for /metrics: accepted, duplicates, and rejections by their code. */
function countIngested(r: IngestResponse) {
  if (r.Accepted) ingestCounter.inc({ result: 'accepted', reason: '' }, r.Accepted);
  if (r.Duplicates) ingestCounter.inc({ result: 'duplicate', reason: '' }, r.Duplicates);
  for (const x of r.Results) if (x.Code !== LIVE_CODE.duplicate) ingestCounter.inc({ result: 'rejected', reason: x.Code });
}

export function liveRoutes(api: Api, hub: Hub, ingestLimiter: Limiter, exports: ExportPool) {
  // ---------------------------------------------------------------- ingestion (gateways)

  // public: gateways are not users. The X-Gateway-Key (403 without a valid one) and the gateway's
  // rate limit (429) are checked from the headers, before any byte of the (up to 20 MB) body is read.
  const sample = { json: [], headers: { [GATEWAY_KEY_HEADER]: 'test-gateway-key' } };
  const gate = async (c: Ctx) => {
    const gateway = gatewayOf(deps(c).config.gatewayKeys, c.req.header(GATEWAY_KEY_HEADER));
    if (!gateway) {
      ingestBatchesRefused.inc({ reason: 'gateway_key' });
      throw new ApiError(403, LIVE_TEXT.gatewayKey, LIVE_CODE.gatewayKey);
    }
    const r = await ingestLimiter.take(gateway);
    if (!r.ok) ingestBatchesRefused.inc({ reason: 'rate_limited' });
    if (!r.ok) return c.json(errorBody(LIVE_TEXT.tooManyBatches, CODE.rateLimited), 429, { 'Retry-After': String(r.retryAfterSeconds) });
    return undefined;
  };
  api.post('/api/v1/device-messages/ingest', { access: 'public', bodyLimit: 'upload', sample, gate }, async (c) => {
    const { db, config } = deps(c);
    const refuse = (reason: string, e: ApiError) => {
      ingestBatchesRefused.inc({ reason });
      return e;
    };
    let raw: unknown;
    try {
      raw = await readJson(c);
    } catch (e) {
      if (e instanceof ApiError) throw refuse('invalid_json', e);
      throw e;
    }
    if (!Array.isArray(raw)) throw refuse('not_array', badRequest(LIVE_TEXT.notArray));
    if (raw.length > INGEST_MAX_BATCH) throw refuse('too_large', new ApiError(413, LIVE_TEXT.batchTooLarge, CODE.tooLarge));
    if (!raw.length) throw refuse('empty', badRequest(LIVE_TEXT.emptyBatch));
    const { response, events } = await ingestMessages(db, raw, config.now());
    countIngested(response);
    await hub.publish(events);
    if (!response.Accepted && !response.Duplicates) {
      ingestBatchesRefused.inc({ reason: 'none_stored' });
      const errors = Object.fromEntries(response.Results.slice(0, 1000).map((r) => [String(r.Index), r.Message]));
      throw new ApiError(400, LIVE_TEXT.noneStored, CODE.validation, errors, { ...response });
    }
    return c.json(response satisfies IngestResponse, response.Rejected ? 207 : 200);
  });

  // ---------------------------------------------------------------- hub

  api.post('/api/admin/negotiate', { access: 'signed-in', query: negotiateQuery, sample: { query: {} } }, async (c, { query, user }) => {
    if (query.userid && query.userid.toLowerCase() !== user.id.toLowerCase()) throw badRequest(LIVE_TEXT.userMismatch);
    return c.json((await hub.negotiateFor(c, user)) satisfies NegotiateResponse);
  });

  api.post(
    '/devices/subscribe-for-monitoring',
    {
      access: P.DeviceListView,
      bodyLimit: 'upload',
      json: subscribeBody,
      sample: { json: { connectionId: 'sample-connection', deviceIdentities: [SAMPLE_IDENTITY] } },
    },
    async (c, { body, user }) => {
      const r = await scopeIdentities(deps(c).db, user, body.deviceIdentities);
      if (!(await hub.subscribeConnection(body.connectionId, user.id, r.Subscribed)))
        throw new ApiError(404, LIVE_TEXT.unknownConnection, LIVE_CODE.unknownConnection);
      return c.json(r satisfies SubscribeResponse);
    },
  );

  // ---------------------------------------------------------------- devices data service

  api.get(
    '/devices/get-message-stream',
    { access: P.DeviceView, query: messageStreamQuery, sample: { query: { deviceIdentity: SAMPLE_IDENTITY } } },
    async (c, { query, user }) => {
      let after: [string, string] | undefined;
      if (query.continuationToken) {
        after = decodeToken(query.continuationToken);
        if (!after) throw badRequest(LIVE_TEXT.badContinuationToken, CODE.validation, { continuationToken: LIVE_TEXT.badContinuationToken });
      }
      return c.json((await messageStream(deps(c).db, tenantScope(user), query.deviceIdentity, after, query.pageSize)) satisfies MessageStream);
    },
  );

  api.get(
    '/devices/get-detailed-message',
    {
      access: P.DeviceView,
      query: detailedMessageQuery,
      sample: { query: { identity: SAMPLE_IDENTITY, messageReceived: '2026-01-01T00:00:00.000Z', deviceType: '640' } },
    },
    async (c, { query, user }) => {
      const m = await detailedMessage(deps(c).db, tenantScope(user), query.identity, query.messageReceived, query.messageId);
      if (!m) throw notFound(LIVE_TEXT.messageNotFound);
      return c.json(m satisfies DetailedMessageDto);
    },
  );

  api.post(
    '/devices/get-last-messages',
    { access: P.DeviceListView, bodyLimit: 'upload', json: lastMessagesBody, sample: { json: { deviceIdentities: [SAMPLE_IDENTITY] } } },
    async (c, { body, user }) => {
      const { db, config } = deps(c);
      return c.json((await lastMessages(db, tenantScope(user), body, config.now().getTime())) satisfies LastMessages);
    },
  );

  // The bulk tabs' CSVs: jobs of the export pool, read a page at a time and sent as written.
  api.post(
    '/devices/download-last-messages-csv',
    { access: P.DeviceListView, bodyLimit: 'upload', json: lastMessagesBody, sample: { json: { deviceIdentities: [SAMPLE_IDENTITY] } } },
    (c, { body, user }) => {
      const { config } = deps(c);
      const job = { kind: 'lastMessagesCsv', filter: body, now: config.now().toISOString(), pageSize: config.exports?.csvPage } as const;
      return csvExportResponse(c, exports, user, job, 'TestingConfiguration', MSG.deviceExportFailed);
    },
  );

  // ---------------------------------------------------------------- configuration (query service)

  api.get('/ps-admin/devices/get-configuration-types', { access: P.DeviceListView }, (c) =>
    c.json({
      EnumValues: [...CALL_BUTTON_TYPES].sort((a, b) => Number(b.IsPreferred) - Number(a.IsPreferred)).map((t) => ({ ...t })),
    } satisfies ConfigurationTypes),
  );

  api.post(
    '/ps-admin/devices/get-configurations',
    { access: P.DeviceListView, bodyLimit: 'upload', json: configurationListBody, sample: { json: { serialNumbers: ['SAMPLE-SERIAL'] } } },
    async (c, { body, user }) => c.json((await configurationList(deps(c).db, tenantScope(user), body)) satisfies ConfigurationList),
  );

  api.post(
    '/ps-admin/devices/download-configurations-csv',
    { access: P.DeviceListView, bodyLimit: 'upload', json: configurationListBody, sample: { json: { serialNumbers: ['SAMPLE-SERIAL'] } } },
    (c, { body, user }) => {
      const job = { kind: 'configurationsCsv', filter: body, pageSize: deps(c).config.exports?.csvPage } as const;
      return csvExportResponse(c, exports, user, job, 'CurrentConfiguration', MSG.deviceExportFailed);
    },
  );

  api.post(
    '/ps-admin/devices/get-firmware-versions',
    { access: P.DeviceListView, bodyLimit: 'upload', json: firmwareVersionsBody, sample: { json: { serials: ['SAMPLE-SERIAL'] } } },
    async (c, { body, user }) => c.json((await firmwareVersions(deps(c).db, tenantScope(user), body.serials)) satisfies FirmwareVersions),
  );

  api.get(
    '/ps-admin/devices/get-configuration',
    { access: P.DeviceView, query: configurationBySerialQuery, sample: { query: { Serial: 'SAMPLE-SERIAL' } } },
    async (c, { query, user }) => {
      const { db, config } = deps(c);
      const r = await deviceConfiguration(db, tenantScope(user), { serial: query.Serial }, config.now().getTime());
      if (!r) throw deviceNotFound();
      return c.json(r satisfies DeviceConfigurationDto);
    },
  );

  api.get(
    '/ps-admin/devices/get-configuration-by-id',
    { access: P.DeviceView, query: configurationByIdQuery, sample: { query: { Id: SAMPLE_ID } } },
    async (c, { query, user }) => {
      const { db, config } = deps(c);
      const r = await deviceConfiguration(db, tenantScope(user), { id: query.Id.toLowerCase() }, config.now().getTime());
      if (!r) throw deviceNotFound();
      return c.json(r satisfies DeviceConfigurationDto);
    },
  );

  // ---------------------------------------------------------------- configuration requests and changes

  const refresh =
    (kind: 'refresh-configuration' | 'refresh-firmware', message: string) =>
    async (c: Ctx, input: { body: { serial: string }; user: { id: string; tenantId: string } }) => {
      const { db, config } = deps(c);
      const dev = (await devicesBySerials(db, tenantScope(input.user), [input.body.serial])).values().next().value;
      if (!dev) throw deviceNotFound();
      const at = config.now();
      await tx(db, async (trx) => {
        await queueDesired(trx, [dev.id], kind, null, input.user.id, at.toISOString());
        await audit(trx, {
          actorId: input.user.id,
          action: `device.${kind}`,
          entity: 'device',
          entityId: dev.id,
          at,
          details: { serialNumber: dev.serialNumber },
        });
      });
      const identity = deviceIdentityOf(dev);
      await hub.publish([
        {
          event: 'DeviceConfigurationUpdated',
          identity,
          payload: hubPayload.DeviceConfigurationUpdated({
            Id: dev.id,
            DeviceIdentity: identity,
            SerialNumber: dev.serialNumber,
            LastUpdated: dev.lastConfigurationDate,
          }),
        },
      ]);
      return c.json({ Content: { Message: message } } satisfies MessageResponse);
    };
  api.put(
    '/device-configuration',
    { access: P.DeviceManage, json: refreshRequestBody, sample: { json: { serial: 'SAMPLE-SERIAL' } } },
    refresh('refresh-configuration', MSG.configUpdateRequested),
  );
  api.put(
    '/device-configuration/firmware',
    { access: P.DeviceManage, json: refreshRequestBody, sample: { json: { serial: 'SAMPLE-SERIAL' } } },
    refresh('refresh-firmware', MSG.firmwareUpdateRequested),
  );

  api.put(
    '/api/v1/device/desired-configuration',
    {
      access: P.DeviceManage,
      bodyLimit: 'upload',
      json: configurationChangeBody,
      sample: { json: { serials: ['SAMPLE-SERIAL'], isTrackingEnabled: true, trackingIntervalMinutes: 15 } },
    },
    async (c, { body, user }) => {
      const { db, config } = deps(c);
      const found = await devicesBySerials(db, tenantScope(user), body.serials);
      const missing = body.serials.filter((s) => !found.has(s.trim().toLowerCase()));
      if (missing.length)
        throw new ApiError(
          404,
          `${missing.length} serial number(s) were not found; nothing was queued.`,
          CODE.deviceNotFound,
          Object.fromEntries(missing.slice(0, 1000).map((s) => [s, 'Not found'])),
        );
      const devs = [...new Map([...found.values()].map((d) => [d.id, d])).values()];
      const types = new Set(devs.map((d) => d.type.value));
      if (types.size > 1) throw new ApiError(422, MSG.oneDeviceType, LIVE_CODE.notConfigurable);
      if (!devs.every((d) => isConfigurableType(d.type.value))) throw new ApiError(422, MSG.typeNotConfigurable(MSG.productName), LIVE_CODE.notConfigurable);
      if (body.isManDownEnabled != null && new Set(devs.map((d) => d.firmwareVersion ?? '')).size > 1)
        throw new ApiError(422, LIVE_TEXT.sameFirmware, LIVE_CODE.notConfigurable, { isManDownEnabled: LIVE_TEXT.sameFirmware });
      const change = normaliseChange(body);
      const at = config.now();
      const ids = devs.map((d) => d.id);
      // Each device's History: the configuration it had (as last reported) and the one requested.
      const queued = await tx(db, async (trx) => {
        const before = await configurationBefore(trx, ids, change);
        const n = await queueDesired(trx, ids, 'configuration', change, user.id, at.toISOString());
        await auditMany(
          trx,
          { actorId: user.id, action: 'device.desired-configuration', entity: 'device', at },
          ids.map((id) => ({ entityId: id, details: { before: before.get(id) ?? {}, after: change } })),
        );
        return n;
      });
      await hub.publish(
        devs.map((d) => {
          const identity = deviceIdentityOf(d);
          return {
            event: 'DeviceConfigurationUpdated' as const,
            identity,
            payload: hubPayload.DeviceConfigurationUpdated({
              Id: d.id,
              DeviceIdentity: identity,
              SerialNumber: d.serialNumber,
              LastUpdated: d.lastConfigurationDate,
            }),
          };
        }),
      );
      return c.json({ Content: { Message: MSG.configQueued }, Queued: queued } satisfies ConfigurationChangeResponse);
    },
  );

  api.get(
    '/api/v1/device/desired-configuration',
    { access: P.DeviceListView, query: desiredConfigurationQuery, sample: { query: { serial: 'SAMPLE-SERIAL' } } },
    async (c, { query, user }) => {
      const { db } = deps(c);
      const scope = tenantScope(user);
      const dev = (await devicesBySerials(db, scope, [query.serial])).values().next().value;
      if (!dev) throw deviceNotFound();
      return c.json({ Items: await desiredList(db, scope, dev.id) } satisfies DesiredConfigurationList);
    },
  );

  // The SignalR client's own negotiate ({Url}/negotiate): transport set-up, authenticated by the hub token, not part of the API contract.
  api.app.post(`${HUB_PATH}/negotiate`, (c) => hub.signalrNegotiate(c));
}
