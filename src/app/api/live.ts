// Live devices, spec document 2 §7 "Device configuration requests" and "Devices data service":
// queryOptions factories (one per GET-ish endpoint, keys ['live', kind, params]), mutations, CSV
// downloads, and the hub client — one @microsoft/signalr connection per tab, shared by every
// screen that watches devices (useDeviceLive). The contract (shapes, rules) is
// src/shared/schemas/live.ts.
//
// Hub client behaviour:
//   - connects on the first subscriber: POST /api/admin/negotiate?userid= → { Url, AccessToken },
//     then the official client opens the WebSocket at once (skipNegotiation: the hub's own
//     negotiate request is left out; JSON hub protocol);
//   - joins the subscribed device identities (hub method joinGroup) and re-sends them every
//     10 minutes (spec §4, LIVE_SUBSCRIPTION_REFRESH_MS);
//   - when the connection drops (server restart, token expiry, network) it negotiates again with
//     backoff (1 s, 2 s, 5 s, 10 s, then every 30 s), joins again and invalidates every ['live']
//     query so what was missed meanwhile is fetched; subscribers' onReconnected runs too;
//   - status 'failed' while a connect attempt has failed (show MSG.liveConnectionFailed);
//   - stops a few seconds after the last subscriber leaves, and at once on logout;
//   - a provider setting changed (SettingsChanged, sent to every connection): the features, the
//     global settings and the Provider Settings area are refetched at once (also after a
//     reconnect, as an announcement may have been missed). The signed-in shell keeps a subscriber
//     (useSettingsLive), so every signed-in tab holds the connection, from shortly after the
//     start-up (once the first page's data has arrived and the browser is idle, at most 2 s).
//   - records open in tabs (watchRecord, used by useRecordLive in ./record-live.ts): the hub method
//     openRecord when the first watcher of a record comes (again after every reconnect), closeRecord
//     when the last leaves; RecordChanged and RecordPresence go to that record's watchers. Each open
//     record keeps the hub's last `At` (the open's answer, or its newest RecordChanged): a reconnect
//     opens it with that time, and a change by someone else committed while the connection was
//     down comes back as `Changed` and reaches the watchers as a RecordChanged (the same bar).
import { infiniteQueryOptions, queryOptions } from '@tanstack/react-query';
import { HttpTransportType, HubConnectionBuilder, HubConnectionState, LogLevel, type HubConnection } from '@microsoft/signalr';
import { useEffect, useRef, useSyncExternalStore } from 'react';
import { http } from './http';
import { queryClient } from './query-client';
import { appStore } from '../state/store';
import { onLogout, userIdAtom } from '../state/session';
import {
  HUB_EVENTS,
  HUB_METHODS,
  LIVE_SUBSCRIPTION_REFRESH_MS,
  type ConfigurationChangeInput,
  type ConfigurationChangeResponse,
  type ConfigurationList,
  type ConfigurationListFilter,
  type ConfigurationTypes,
  type DesiredConfigurationList,
  type DetailedMessageDto,
  type DeviceConfigurationDto,
  type FirmwareVersions,
  type HubEventName,
  type HubEventPayloads,
  type LastMessages,
  type LastMessagesFilter,
  type MessageStream,
  type NegotiateResponse,
  type SubscribeResponse,
} from '../../shared/schemas/live';
import type { MessageResponse } from '../../shared/schemas/common';
import { SETTINGS_CHANGED_EVENT } from '../../shared/schemas/admin';
import { FLEET_HEALTH_CHANGED_EVENT } from '../../shared/schemas/fleet';
import { fleetKeys } from './fleet';
import { referenceKeys } from './reference';
import { adminKeys } from './admin';
import { listQuery, lookupQuery } from './queries';
import { isValidId, normaliseId } from '../../shared/codes';
import {
  RECORD_CHANGED_EVENT,
  RECORD_METHODS,
  RECORD_PRESENCE_EVENT,
  type OpenRecordResult,
  type RecordChangedEvent,
  type RecordKind,
  type RecordPresenceEvent,
} from '../../shared/schemas/record-live';

export type {
  ConfigurationChangeInput,
  ConfigurationList,
  ConfigurationListFilter,
  ConfigurationTypes,
  DesiredConfigurationList,
  DetailedMessageDto,
  DeviceConfigurationDto,
  FirmwareVersions,
  HubEventPayloads,
  LastMessages,
  LastMessagesFilter,
  MessageStream,
};

export type DetailedMessageParams = { identity: string; messageReceived: string; deviceType?: number | string; messageId?: string };

export const liveKeys = {
  all: ['live'] as const,
  configurationTypes: () => ['live', 'configuration-types'] as const,
  configuration: (serial: string) => ['live', 'configuration', serial] as const,
  configurationById: (id: string) => ['live', 'configuration-by-id', id] as const,
  configurations: (filter: ConfigurationListFilter) => ['live', 'configurations', filter] as const,
  firmwareVersions: (serials: readonly string[]) => ['live', 'firmware-versions', serials] as const,
  desired: (serial: string) => ['live', 'desired-configuration', serial] as const,
  messageStream: (identity: string) => ['live', 'message-stream', identity] as const,
  detailedMessage: (p: DetailedMessageParams) => ['live', 'detailed-message', p] as const,
  lastMessages: (filter: LastMessagesFilter) => ['live', 'last-messages', filter] as const,
};

// ---------------------------------------------------------------- queries

/** GET ps-admin/devices/get-configuration-types — call button options, preferred first (never refetched on focus). */
export const configurationTypesQuery = () => lookupQuery<ConfigurationTypes>(liveKeys.configurationTypes(), '/ps-admin/devices/get-configuration-types');

/** A device's current configuration, looked up by `query` (none while its value is empty); its errors show on the page. */
const configurationQuery = (queryKey: readonly unknown[], path: string, query: Record<string, string>) =>
  queryOptions({
    queryKey,
    queryFn: ({ signal }) => http<DeviceConfigurationDto>(path, { signal, query }),
    enabled: Object.values(query).every((v) => !!v),
    meta: { silent: true },
  });

/** GET ps-admin/devices/get-configuration?Serial= — LastUpdated null: 'Configuration not known'. */
export const deviceConfigurationQuery = (serial: string) =>
  configurationQuery(liveKeys.configuration(serial), '/ps-admin/devices/get-configuration', { Serial: serial });

/** GET ps-admin/devices/get-configuration-by-id?Id= (the device id). */
export const deviceConfigurationByIdQuery = (id: string) =>
  configurationQuery(liveKeys.configurationById(id), '/ps-admin/devices/get-configuration-by-id', { Id: id });

/** POST ps-admin/devices/get-configurations — the Current Configuration tab. */
export const configurationListQuery = (filter: ConfigurationListFilter) =>
  listQuery(liveKeys.configurations(filter), (signal) =>
    http<ConfigurationList>('/ps-admin/devices/get-configurations', { method: 'POST', body: filter, signal }),
  );

/** POST ps-admin/devices/get-firmware-versions { serials } — Change Configuration: fall detection needs one version. */
export const firmwareVersionsQuery = (serials: readonly string[]) =>
  queryOptions({
    queryKey: liveKeys.firmwareVersions(serials),
    queryFn: ({ signal }) => http<FirmwareVersions>('/ps-admin/devices/get-firmware-versions', { method: 'POST', body: { serials }, signal }),
    enabled: serials.length > 0,
  });

/** GET /api/v1/device/desired-configuration?serial= — the device's queued (and recently applied) changes. */
export const desiredConfigurationQuery = (serial: string) =>
  queryOptions({
    queryKey: liveKeys.desired(serial),
    queryFn: ({ signal }) => http<DesiredConfigurationList>('/api/v1/device/desired-configuration', { signal, query: { serial } }),
    enabled: !!serial,
  });

/**
 * GET /devices/get-message-stream?deviceIdentity=&continuationToken= — pages newest first; the
 * next page param is the answer's ContinuationToken ('Load more' at LOAD_MORE_MIN+ messages with a token).
 */
export const messageStreamQuery = (deviceIdentity: string) =>
  infiniteQueryOptions({
    queryKey: liveKeys.messageStream(deviceIdentity),
    queryFn: ({ signal, pageParam }) =>
      http<MessageStream>('/devices/get-message-stream', {
        signal,
        query: { deviceIdentity, ...(pageParam ? { continuationToken: pageParam } : {}) },
      }),
    initialPageParam: '' as string,
    getNextPageParam: (last) => last.ContinuationToken ?? undefined,
    enabled: !!deviceIdentity,
    meta: { silent: true },
  });

/** GET /devices/get-detailed-message — MessageProperties is a JSON string (parse it; show scalars, '-' for empty). */
export const detailedMessageQuery = (p: DetailedMessageParams) =>
  queryOptions({
    queryKey: liveKeys.detailedMessage(p),
    queryFn: ({ signal }) =>
      http<DetailedMessageDto>('/devices/get-detailed-message', {
        signal,
        query: {
          identity: p.identity,
          messageReceived: p.messageReceived,
          ...(p.deviceType !== undefined ? { deviceType: String(p.deviceType) } : {}),
          ...(p.messageId ? { messageId: p.messageId } : {}),
        },
      }),
    staleTime: Infinity,
  });

/** POST /devices/get-last-messages — the Device Testing tab. */
export const lastMessagesQuery = (filter: LastMessagesFilter) =>
  listQuery(liveKeys.lastMessages(filter), (signal) => http<LastMessages>('/devices/get-last-messages', { method: 'POST', body: filter, signal }));

// ---------------------------------------------------------------- mutations and downloads

/** PUT device-configuration { serial } → 'Configuration update requested.' (the configuration then shows 'Pending'). */
export const requestConfigurationRefresh = (serial: string) => http<MessageResponse>('/device-configuration', { method: 'PUT', body: { serial } });

/** PUT device-configuration/firmware { serial } → 'Firmware update requested.' */
export const requestFirmwareRefresh = (serial: string) => http<MessageResponse>('/device-configuration/firmware', { method: 'PUT', body: { serial } });

/** PUT /api/v1/device/desired-configuration → 'Configuration change(s) queued and will be sent when the device(s) are turned on.' */
export const queueConfigurationChange = (payload: ConfigurationChangeInput) =>
  http<ConfigurationChangeResponse>('/api/v1/device/desired-configuration', { method: 'PUT', body: payload });

/** POST ps-admin/devices/download-configurations-csv → CSV blob (save as CurrentConfiguration_<date>.csv). */
export const downloadConfigurationsCsv = (filter: Omit<ConfigurationListFilter, 'page' | 'pageSize'>, signal?: AbortSignal) =>
  http<Blob>('/ps-admin/devices/download-configurations-csv', { method: 'POST', body: filter, responseType: 'blob', signal });

/** POST devices/download-last-messages-csv → CSV blob (save as TestingConfiguration_<date>.csv). */
export const downloadLastMessagesCsv = (filter: Omit<LastMessagesFilter, 'page' | 'pageSize'>, signal?: AbortSignal) =>
  http<Blob>('/devices/download-last-messages-csv', { method: 'POST', body: filter, responseType: 'blob', signal });

/** POST /api/admin/negotiate?userid= → { Url, AccessToken } for the hub. */
export const negotiate = (userId: string) => http<NegotiateResponse>('/api/admin/negotiate', { method: 'POST', query: { userid: userId } });

/** POST /devices/subscribe-for-monitoring — the hub client uses joinGroup instead; this is the spec's HTTP form. */
export const subscribeForMonitoring = (connectionId: string, deviceIdentities: readonly string[]) =>
  http<SubscribeResponse>('/devices/subscribe-for-monitoring', { method: 'POST', body: { connectionId, deviceIdentities } });

// ---------------------------------------------------------------- hub client

export type LiveStatus = 'idle' | 'connecting' | 'connected' | 'reconnecting' | 'failed';
export type LiveHandlers = { [K in HubEventName]?: (payload: HubEventPayloads[K]) => void } & {
  /** After a reconnect (the ['live'] queries are invalidated already): refetch anything else that may have been missed. */
  onReconnected?: () => void;
  /** The hub refused some of the watched identities (unknown, another tenant's) or the join failed: show 'Failed to subscribe device to live updates.' */
  onSubscribeFailed?: (identities: string[]) => void;
};
type Subscriber = { identities: ReadonlySet<string>; handlers: LiveHandlers };
export type RecordHandlers = {
  /** someone changed the record or added a note (the tab leaves out its own user's) */
  onChanged?: (e: RecordChangedEvent) => void;
  /** the display names of the others who have it open */
  onPresence?: (names: string[]) => void;
};
type RecordWatcher = { key: string; handlers: RecordHandlers };
const recordKeyOf = (kind: RecordKind, id: string) => `${kind}:${isValidId(id) ? normaliseId(id) : String(id).toLowerCase()}`;
const recordPartsOf = (key: string) => {
  const i = key.indexOf(':');
  return [key.slice(0, i), key.slice(i + 1)] as const;
};

const BACKOFF_MS = [1_000, 2_000, 5_000, 10_000, 30_000];
const IDLE_STOP_MS = 5_000;

/** A provider setting changed (announced by any node): refetch what every screen reads of them. */
function refetchSettings() {
  void queryClient.invalidateQueries({ queryKey: referenceKeys.features() });
  void queryClient.invalidateQueries({ queryKey: referenceKeys.globalSettings() });
  void queryClient.invalidateQueries({ queryKey: adminKeys.settings() });
}

/** Fleet Health's counts changed (a device crossed a threshold): refetch them where the page is open. */
function refetchFleetHealth() {
  void queryClient.invalidateQueries({ queryKey: fleetKeys.health() });
}

/** Identity of an event's device (every payload names it). */
const identityOf = (payload: unknown) => (payload as { DeviceIdentity?: unknown } | null)?.DeviceIdentity;

class LiveHub {
  private conn: HubConnection | null = null;
  private status: LiveStatus = 'idle';
  private readonly subs = new Set<Subscriber>();
  private readonly counts = new Map<string, number>();
  private readonly recordWatchers = new Set<RecordWatcher>();
  private readonly recordCounts = new Map<string, number>();
  /** per open record, the hub's time up to which its watchers know every change (sent again on a reconnect) */
  private readonly recordSince = new Map<string, string>();
  private readonly statusListeners = new Set<() => void>();
  private attempt = 0;
  private everConnected = false;
  private generation = 0;
  private retryTimer: ReturnType<typeof setTimeout> | undefined;
  private stopTimer: ReturnType<typeof setTimeout> | undefined;
  private refreshTimer: ReturnType<typeof setInterval> | undefined;

  constructor() {
    onLogout(() => this.stop(true));
  }

  readonly getStatus = () => this.status;
  readonly onStatus = (fn: () => void) => {
    this.statusListeners.add(fn);
    return () => void this.statusListeners.delete(fn);
  };
  /** The client's connection id, or null: null with skipNegotiation (the hub method joinGroup needs none). */
  connectionId = () => this.conn?.connectionId ?? null;

  private setStatus(s: LiveStatus) {
    if (s === this.status) return;
    this.status = s;
    for (const fn of [...this.statusListeners]) fn();
  }

  /** Watches the identities; returns the unsubscribe function. */
  subscribe(identities: readonly string[], handlers: LiveHandlers): () => void {
    const sub: Subscriber = { identities: new Set(identities.filter(Boolean)), handlers };
    this.subs.add(sub);
    const added: string[] = [];
    for (const id of sub.identities) {
      const n = this.counts.get(id) ?? 0;
      this.counts.set(id, n + 1);
      if (n === 0) added.push(id);
    }
    clearTimeout(this.stopTimer);
    if (this.conn?.state === HubConnectionState.Connected) void this.join(added);
    else if (this.status === 'idle') void this.connect();
    return () => {
      if (!this.subs.delete(sub)) return;
      const removed: string[] = [];
      for (const id of sub.identities) {
        const n = (this.counts.get(id) ?? 1) - 1;
        if (n <= 0) {
          this.counts.delete(id);
          removed.push(id);
        } else this.counts.set(id, n);
      }
      if (removed.length && this.conn?.state === HubConnectionState.Connected) this.conn.invoke(HUB_METHODS.leaveGroup, removed).catch(() => {});
      if (!this.subs.size) this.stopTimer = setTimeout(() => this.stop(), IDLE_STOP_MS);
    };
  }

  /** Follows a record open in a tab (see RecordHandlers); returns the function that stops it. Holds the connection meanwhile. */
  watchRecord(kind: RecordKind, id: string, handlers: RecordHandlers): () => void {
    const w: RecordWatcher = { key: recordKeyOf(kind, id), handlers };
    this.recordWatchers.add(w);
    const n = this.recordCounts.get(w.key) ?? 0;
    this.recordCounts.set(w.key, n + 1);
    const release = this.subscribe([], {});
    if (n === 0 && this.conn?.state === HubConnectionState.Connected) void this.openRecords([w.key]);
    return () => {
      if (!this.recordWatchers.delete(w)) return;
      const left = (this.recordCounts.get(w.key) ?? 1) - 1;
      if (left <= 0) {
        this.recordCounts.delete(w.key);
        this.recordSince.delete(w.key);
        if (this.conn?.state === HubConnectionState.Connected) this.conn.invoke(RECORD_METHODS.close, ...recordPartsOf(w.key)).catch(() => {});
      } else this.recordCounts.set(w.key, left);
      release();
    };
  }

  private async openRecords(keys: readonly string[]) {
    const c = this.conn;
    if (!c) return;
    await Promise.all(
      keys.map(async (key) => {
        const since = this.recordSince.get(key);
        const args = since ? [...recordPartsOf(key), since] : recordPartsOf(key);
        const r = await c.invoke<OpenRecordResult | null>(RECORD_METHODS.open, ...args).catch(() => null);
        if (!r?.Open) return;
        if (r.At && this.recordCounts.has(key)) this.noteSince(key, r.At);
        this.dispatchPresence(key, r.Present);
        const [Kind, Id] = recordPartsOf(key);
        if (r.Changed) this.dispatchRecord({ Kind: Kind as RecordKind, Id, What: 'change', ...r.Changed, Note: null });
      }),
    );
  }

  private dispatchPresence(key: string, names: string[]) {
    for (const w of [...this.recordWatchers]) if (w.key === key) w.handlers.onPresence?.(names);
  }

  private noteSince(key: string, at: string) {
    const known = this.recordSince.get(key);
    if (!known || known < at) this.recordSince.set(key, at);
  }

  private dispatchRecord(e: RecordChangedEvent) {
    const key = recordKeyOf(e.Kind, e.Id);
    if (this.recordCounts.has(key)) this.noteSince(key, e.At);
    for (const w of [...this.recordWatchers]) {
      if (w.key !== key) continue;
      try {
        w.handlers.onChanged?.(e);
      } catch (err) {
        console.error(err);
      }
    }
  }

  private async join(identities: readonly string[]) {
    const c = this.conn;
    if (!c || !identities.length) return;
    let refused: string[];
    try {
      const r = await c.invoke<SubscribeResponse | null>(HUB_METHODS.joinGroup, identities);
      refused = r?.Refused ?? [];
    } catch {
      // The connection dropped: the reconnect joins everything again. Still connected: the hub refused the call.
      if (c.state !== HubConnectionState.Connected) return;
      refused = [...identities];
    }
    if (!refused.length) return;
    const ids = new Set(refused);
    for (const s of [...this.subs]) {
      const mine = [...s.identities].filter((id) => ids.has(id));
      if (mine.length) s.handlers.onSubscribeFailed?.(mine);
    }
  }

  private dispatch(event: HubEventName, payload: unknown) {
    const id = identityOf(payload);
    for (const s of [...this.subs]) {
      if (typeof id === 'string' && !s.identities.has(id)) continue;
      try {
        (s.handlers[event] as ((p: unknown) => void) | undefined)?.(payload);
      } catch (err) {
        console.error(err);
      }
    }
  }

  private async connect() {
    const gen = ++this.generation;
    clearTimeout(this.retryTimer);
    this.setStatus(this.everConnected ? 'reconnecting' : 'connecting');
    const userId = appStore.get(userIdAtom);
    try {
      if (!userId) throw new Error('signed out');
      const { Url, AccessToken } = await negotiate(userId);
      if (gen !== this.generation) return;
      const c = new HubConnectionBuilder()
        // straight to the WebSocket: the hub gives the connection its id, one HTTP request fewer a (re)connect
        .withUrl(Url, { accessTokenFactory: () => AccessToken, transport: HttpTransportType.WebSockets, skipNegotiation: true })
        .configureLogging(LogLevel.None)
        .build();
      for (const e of HUB_EVENTS) c.on(e, (payload: unknown) => this.dispatch(e, payload));
      c.on(SETTINGS_CHANGED_EVENT, refetchSettings);
      c.on(FLEET_HEALTH_CHANGED_EVENT, refetchFleetHealth);
      c.on(RECORD_CHANGED_EVENT, (e: RecordChangedEvent) => this.dispatchRecord(e));
      c.on(RECORD_PRESENCE_EVENT, (e: RecordPresenceEvent) => this.dispatchPresence(recordKeyOf(e.Kind, e.Id), e.Present));
      c.onclose(() => {
        if (this.conn !== c) return;
        this.conn = null;
        clearInterval(this.refreshTimer);
        if (this.subs.size) this.retry();
        else this.setStatus('idle');
      });
      await c.start();
      if (gen !== this.generation) {
        void c.stop();
        return;
      }
      this.conn = c;
      await Promise.all([this.join([...this.counts.keys()]), this.openRecords([...this.recordCounts.keys()])]);
      const wasReconnect = this.everConnected;
      this.everConnected = true;
      this.attempt = 0;
      this.setStatus('connected');
      clearInterval(this.refreshTimer);
      this.refreshTimer = setInterval(() => void this.join([...this.counts.keys()]), LIVE_SUBSCRIPTION_REFRESH_MS);
      if (wasReconnect) {
        void queryClient.invalidateQueries({ queryKey: liveKeys.all });
        refetchSettings();
        for (const s of [...this.subs]) s.handlers.onReconnected?.();
      }
    } catch {
      if (gen !== this.generation) return;
      this.setStatus('failed');
      this.retry();
    }
  }

  private retry() {
    if (!this.subs.size) return this.setStatus('idle');
    if (this.status !== 'failed') this.setStatus('reconnecting');
    const delay = BACKOFF_MS[Math.min(this.attempt++, BACKOFF_MS.length - 1)] ?? 30_000;
    clearTimeout(this.retryTimer);
    this.retryTimer = setTimeout(() => void this.connect(), delay);
  }

  /** Drops the connection (no subscribers left); `forget` drops the subscriptions too (logout: they were the signed-out user's). */
  stop(forget = false) {
    if (forget) {
      this.subs.clear();
      this.counts.clear();
      this.recordWatchers.clear();
      this.recordCounts.clear();
      this.recordSince.clear();
    }
    this.generation++;
    clearTimeout(this.retryTimer);
    clearTimeout(this.stopTimer);
    clearInterval(this.refreshTimer);
    const c = this.conn;
    this.conn = null;
    this.attempt = 0;
    this.everConnected = false;
    if (c) void c.stop();
    this.setStatus('idle');
  }
}

/** The tab's one hub client. */
export const liveHub = new LiveHub();

/**
 * Watches devices live while the component is mounted: `identities` are device identities (IMEI,
 * else serial: deviceIdentityOf), `handlers` receive the events of those devices only. Returns the
 * connection status ('failed': show 'Failed to establish connection for live updates.').
 */
export function useDeviceLive(identities: readonly string[], handlers: LiveHandlers = {}): LiveStatus {
  const ref = useRef(handlers);
  useEffect(() => {
    ref.current = handlers;
  });
  const key = [...new Set(identities.filter(Boolean))].sort().join('\n');
  useEffect(() => {
    if (!key) return;
    const proxy: LiveHandlers = {
      MessageStream: (p) => ref.current.MessageStream?.(p),
      DeviceMonitoring: (p) => ref.current.DeviceMonitoring?.(p),
      DeviceConnected: (p) => ref.current.DeviceConnected?.(p),
      DeviceConfigurationUpdated: (p) => ref.current.DeviceConfigurationUpdated?.(p),
      onReconnected: () => ref.current.onReconnected?.(),
      onSubscribeFailed: (ids) => ref.current.onSubscribeFailed?.(ids),
    };
    return liveHub.subscribe(key.split('\n'), proxy);
  }, [key]);
  return useSyncExternalStore(liveHub.onStatus, liveHub.getStatus, liveHub.getStatus);
}

/**
 * Keeps the tab's hub connection while the signed-in shell is mounted (a subscriber that watches no
 * device), so a provider setting changed elsewhere reaches this tab within moments; re-reading the
 * features on window focus stays as the fallback. It connects after the start-up (afterStartUp):
 * opening the WebSocket holds the main thread for tens of milliseconds, which the first page's
 * data should not wait behind. A screen that watches devices or records connects at once.
 */
export function useSettingsLive() {
  useEffect(() => {
    let release: (() => void) | undefined;
    const cancel = afterStartUp(() => {
      release = liveHub.subscribe([], {});
    });
    return () => {
      cancel();
      release?.();
    };
  }, []);
}

/** At the latest this long after the shell has mounted, its hub subscriber connects. */
export const SETTINGS_LIVE_LATEST_MS = 2_000;

/**
 * Runs `fn` once the requests under way have answered (the first page's data) and the browser is
 * idle, at the latest after SETTINGS_LIVE_LATEST_MS. Returns the function that cancels it.
 */
function afterStartUp(fn: () => void): () => void {
  const idle = window.requestIdleCallback ?? ((f: () => void) => window.setTimeout(f, 1));
  const cancelIdle = window.cancelIdleCallback ?? window.clearTimeout;
  let idleId: number | undefined;
  let over = false;
  const stop = () => {
    over = true;
    unsubscribe();
    clearTimeout(first);
    clearTimeout(latest);
    if (idleId !== undefined) cancelIdle(idleId);
  };
  const run = () => {
    if (over) return;
    stop();
    fn();
  };
  const check = () => {
    if (!over && idleId === undefined && queryClient.isFetching() === 0) idleId = idle(run);
  };
  const unsubscribe = queryClient.getQueryCache().subscribe(check);
  // A task later: the queries the first render starts have started by then.
  const first = window.setTimeout(check, 0);
  const latest = window.setTimeout(run, SETTINGS_LIVE_LATEST_MS);
  return stop;
}
