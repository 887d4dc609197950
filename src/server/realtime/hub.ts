// The device hub: the SignalR JSON hub protocol over WebSockets, served by the same process, so
// the official @microsoft/signalr client connects unchanged (ARCHITECTURE.md "Live updates").
//
//   1. POST /api/admin/negotiate?userid=   (API route, access token)  → { Url, AccessToken }
//      AccessToken is a hub token: audience 'safety-workspace-hub', the caller's id, tenant,
//      permissions and session epoch, and the caller's own expiry. It opens the hub and nothing
//      else (the API refuses its audience), so a token in a WebSocket URL cannot call the API.
//   2. POST {Url}/negotiate?negotiateVersion=1  (hub token)  → connectionId + connectionToken.
//      The token is `${connectionId}.${hmac(connectionId, user)}`: any node accepts it (no sticky
//      sessions needed behind a load balancer).
//   3. GET {Url}?id=connectionToken, WebSocket upgrade (hub token in the Authorization header, or
//      ?access_token= — accepted for upgrades only). Without `id` (the client's skipNegotiation,
//      WebSockets only: step 2 left out, as this app's client does) the hub gives the connection
//      its id itself. Then the handshake {"protocol":"json",
//      "version":1}␞ → {}␞, invocations (joinGroup / subscribe / leaveGroup answer a completion),
//      pings both ways every 15 s (a client silent for 30 s is dropped), and a Close message when
//      the hub token expires (allowReconnect: the client negotiates again) or the server stops.
//
// Groups are device identities. Events and group joins travel over the Bus (Redis pub/sub with
// REDIS_URL, else in process): every node receives every event batch and writes it to its own
// connections in that device's group, so a message ingested on node A reaches a browser on node
// B; a subscribe-for-monitoring answered by node A for a connection held by node B is applied by B.
// A broadcast (a provider setting changed) goes to every connection of every node, whatever it watches.
//
// Records (an alarm report, customer, person or device open in a tab, src/shared/schemas/record-live.ts)
// are followed apart from the device groups: openRecord checks the user may read the record by the
// REST read's rules (realtime/records.ts: the readers each module registers), RecordChanged travels on
// the bus to every node, and each node hands it to its connections that opened the record and may
// still read it (checked again per delivery). Presence (who has a record open) is kept per node in
// memory and, with Redis, in a hash per record (connection → name, with an expiry the pinger
// renews); a join or leave is announced on the bus and each node sends the record's tabs the names.
//
// A connection lives only as long as its session. A committed session change (sign-out,
// refresh-token reuse, password change or reset, role change) is announced on the bus, and every
// node closes that person's connections whose epoch is no longer current; every
// config.sessionCheckMs each node also reads the stored state of its connected persons (a lock or
// deactivation ends them too), and every join checks the session first. The Close message allows a
// reconnect: the client negotiates again with its access token, which the API refuses, so it
// either refreshes (a role change: new permissions) or shows the session-expired path.
import { createHmac, randomUUID, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, WebSocket, type RawData } from 'ws';
import type { ChainableCommander } from 'ioredis';
import { decodeJwt } from 'jose';
import { keyOf, signHs256, verifyHs256 } from '../auth/hs256.js';
import { setBounded } from '../platform/util.js';
import type { Context } from 'hono';
import { dropSessionState, loadSessionStates, onSessionChange, sessionIsCurrent } from '../auth/session-epoch.js';
import { TOKEN_ISSUER } from '../auth/tokens.js';
import { errorBody, requestToken, type AuthUser, type Deps } from '../http/api.js';
import { createMemoryBus, type Bus } from '../platform/redis.js';
import { scopeIdentities } from './scope.js';
import { changedSince, displayName, mayReadRecord, recordKey, type RecordChangeInput, type RecordReaders } from './records.js';
import {
  MAX_OPEN_RECORDS,
  RECORD_CHANGED_EVENT,
  RECORD_PRESENCE_EVENT,
  type OpenRecordResult,
  type RecordChangedEvent,
  type RecordKind,
  type RecordPresenceEvent,
} from '../../shared/schemas/record-live.js';
import { CODE, MSG } from '../../shared/messages.js';
import type { Permission } from '../../shared/permissions.js';
import { HUB_CLIENT_TIMEOUT_MS, HUB_PATH, HUB_PING_MS, type HubEventName, type HubEventPayloads } from '../../shared/schemas/live.js';
import { errorEvents, hubMessagesSent, registerHub } from '../platform/metrics.js';

export const HUB_AUDIENCE = 'safety-workspace-hub';
const SESSION_ENDED = 'Unauthorized: the session ended.';
const RS = '\u001e';
const MSG_TYPE = { Invocation: 1, StreamItem: 2, Completion: 3, StreamInvocation: 4, CancelInvocation: 5, Ping: 6, Close: 7 } as const;
const PING_FRAME = JSON.stringify({ type: MSG_TYPE.Ping }) + RS;
const HANDSHAKE_TIMEOUT_MS = 15_000;
/** A connection whose unsent data grows past this is too slow to follow: it is dropped (it reconnects and refetches). */
const MAX_BUFFERED = 4 * 1024 * 1024;
const MAX_FRAME = 1024 * 1024;
const MAX_GROUPS_PER_CONNECTION = 20_000;
/** Verified hub tokens kept per node (about 1 KB each). */
const VERIFIED_TOKENS = 20_000;

export type HubUser = AuthUser & { exp: number; epoch: number };

/** The TCP socket under a WebSocket (ws keeps it as `_socket`), to cork several frames into one write; undefined once closed. */
const socketOf = (ws: WebSocket): Duplex | undefined => (ws as unknown as { _socket?: Duplex | null })._socket ?? undefined;
type Conn = {
  id: string;
  user: HubUser;
  ws: WebSocket;
  groups: Set<string>;
  lastSeen: number;
  ready: boolean;
  buffer: string;
  expiry?: ReturnType<typeof setTimeout>;
  /** the delivery that corked this connection's socket last (deliverLocal) */
  corkedFor: number;
  /** records open in this connection's tabs (recordKey) */
  records: Set<string>;
  /** the user's display name, read when the connection first opens a record */
  name?: string;
};

/** One event for the devices of a group: the invocation frame is built once and sent to every member. */
export type HubEvent<K extends HubEventName = HubEventName> = { event: K; identity: string; payload: HubEventPayloads[K] };

type ControlMessage = { op: 'join' | 'leave'; connectionId: string; userId: string; identities: string[] };

export type HubOptions = {
  /** Bus channel prefix (tests give each run its own, so runs sharing a Redis do not hear each other). */
  channelPrefix?: string;
  pingMs?: number;
  clientTimeoutMs?: number;
  /** Who may follow which record (each module's read rule); without it every openRecord is refused. */
  records?: RecordReaders;
};

export type Hub = ReturnType<typeof createHub>;

export function createHub(deps: Deps, opts: HubOptions = {}) {
  const bus: Bus = deps.bus ?? createMemoryBus();
  const ownBus = !deps.bus;
  const prefix = opts.channelPrefix ?? deps.config.hubChannelPrefix ?? 'hub';
  const EVENTS = `${prefix}:events`;
  const CONTROL = `${prefix}:control`;
  const SESSIONS = `${prefix}:sessions`;
  const BROADCAST = `${prefix}:broadcast`;
  const RECORDS = `${prefix}:records`;
  const PRESENCE = `${prefix}:presence`;
  const readers: RecordReaders = opts.records ?? {};
  /** Who has a record open, with Redis: a hash per record, connection id → { u: user id, n: name, e: expires at (ms) }. */
  const openKey = (key: string) => `${prefix}:open:${key}`;
  // Which user holds a connection, for the other nodes (with REDIS_URL): a key per connection, set
  // when it opens, renewed by the pinger, removed when it closes, expiring if its node stops. A
  // subscribe-for-monitoring for a connection of another node is sent on only when the key names
  // the caller, so an unknown id or another user's answers 404 on every node.
  const presenceKey = (id: string) => `${prefix}:conn:${id}`;
  const presenceTtlMs = () => clientTimeoutMs + 2 * pingMs;
  const presence = (op: (r: NonNullable<Deps['redis']>) => Promise<unknown>) => {
    if (!deps.redis || deps.redis.status !== 'ready') return;
    op(deps.redis).catch((e: unknown) => log({ msg: 'hub presence not written', error: String((e as Error)?.message ?? e) }));
  };
  const pingMs = opts.pingMs ?? HUB_PING_MS;
  const clientTimeoutMs = opts.clientTimeoutMs ?? HUB_CLIENT_TIMEOUT_MS;
  const wss = new WebSocketServer({ noServer: true, perMessageDeflate: false, maxPayload: MAX_FRAME });
  wss.on('error', (e: Error) => {
    errorEvents.inc({ source: 'hub_server' });
    deps.log({ msg: 'hub server error', level: 'error', error: e.message });
  });
  const connections = new Map<string, Conn>();
  const groups = new Map<string, Set<Conn>>();
  /** this node's connections by the record they have open (recordKey) */
  const recordConns = new Map<string, Set<Conn>>();
  const stats = { delivered: 0, dropped: 0 };
  let deliveries = 0; // event batches delivered by this node (deliverLocal)
  let counted = 0; // of stats.delivered, already added to hub_messages_sent_total
  const unregisterMetrics = registerHub(() => ({ connections: connections.size, groups: groups.size }));
  const log = deps.log;

  // ------------------------------------------------------------ tokens

  /** The hub token for an API caller: their claims, their expiry. */
  // Signed and verified with node:crypto's HMAC (auth/hs256.ts): a reconnect storm verifies thousands at once.
  async function issueToken(user: AuthUser, exp: number, epoch: number) {
    const iat = Math.floor(deps.config.now().getTime() / 1000);
    const claims = { tenantId: user.tenantId, email: user.email, permissions: user.permissions, role: user.role, epoch, sub: user.id, iat, exp };
    return signHs256({ ...claims, iss: TOKEN_ISSUER, aud: HUB_AUDIENCE }, deps.config.jwtSecret);
  }

  /**
   * Hub tokens already verified, by their text: a client presents the same token to the hub's
   * negotiate and to the WebSocket upgrade, and again on every reconnect, so the HMAC and the JSON
   * of the claims are checked once per token. Expiry and the session (epoch, lock, deactivation)
   * are checked on every use, as for a token seen the first time: a signed-out or epoch-bumped
   * session is refused at once, an expired token is refused and forgotten. Bounded (oldest first).
   */
  const verified = new Map<string, { user: HubUser; session: { sub?: unknown; epoch?: unknown } }>();

  /** The hub token's user, or undefined (bad signature, other audience, expired, session ended). */
  async function verifyToken(token: string | undefined): Promise<HubUser | undefined> {
    if (!token) return undefined;
    try {
      const now = deps.config.now();
      let hit = verified.get(token);
      if (hit && hit.user.exp <= Math.floor(now.getTime() / 1000)) {
        verified.delete(token);
        return undefined;
      }
      if (!hit) {
        const payload = verifyHs256(token, deps.config.jwtSecret, {
          issuer: TOKEN_ISSUER,
          audience: HUB_AUDIENCE,
          requiredClaims: ['exp', 'sub'],
          currentDate: now,
        });
        if (!payload) return undefined;
        const perms = payload.permissions;
        const role = payload.role;
        const user: HubUser = Object.freeze({
          id: String(payload.sub),
          tenantId: String(payload.tenantId ?? ''),
          email: String(payload.email ?? ''),
          permissions: (Array.isArray(perms) ? perms : []) as Permission[],
          role: Array.isArray(role) ? (role as string[]) : [],
          exp: Number(payload.exp),
          epoch: Number(payload.epoch ?? 0),
        });
        hit = setBounded(verified, token, { user, session: { sub: payload.sub, epoch: payload.epoch } }, VERIFIED_TOKENS);
      }
      if (!(await sessionIsCurrent(deps, hit.session))) return undefined;
      return hit.user;
    } catch {
      return undefined;
    }
  }

  // randomUUID draws from a pooled buffer of random bytes: randomBytes(16) costs a call into OpenSSL per connect
  const newConnectionId = () => randomUUID().replaceAll('-', '');
  const sign = (connectionId: string, userId: string) =>
    createHmac('sha256', keyOf(deps.config.jwtSecret)).update(`hub-connection.${connectionId}.${userId}`).digest('base64url').slice(0, 32);
  function connectionIdOf(token: string, userId: string): string | undefined {
    const [id, sig] = token.split('.');
    if (!id || !sig || !/^[A-Za-z0-9_-]{16,64}$/.test(id)) return undefined;
    const want = Buffer.from(sign(id, userId));
    const got = Buffer.from(sig);
    return want.length === got.length && timingSafeEqual(want, got) ? id : undefined;
  }

  // ------------------------------------------------------------ HTTP: POST /api/admin/negotiate (the API route calls this)

  /** { Url, AccessToken } for the signed-in caller of an API request (bearer access token already verified). */
  async function negotiateFor(c: Context, user: AuthUser) {
    const bearer = requestToken(c.req.raw) ?? '';
    let exp = Math.floor(deps.config.now().getTime() / 1000) + deps.config.accessTokenSeconds;
    let epoch = 0;
    try {
      const claims = decodeJwt(bearer);
      if (typeof claims.exp === 'number') exp = claims.exp;
      if (typeof claims.epoch === 'number') epoch = claims.epoch;
    } catch {
      /* verified already by the route guard */
    }
    return { Url: `${publicOrigin(c, deps)}${HUB_PATH}`, AccessToken: await issueToken(user, exp, epoch) };
  }

  // ------------------------------------------------------------ HTTP: POST {HUB_PATH}/negotiate (the SignalR client)

  async function signalrNegotiate(c: Context) {
    const user = await verifyToken(requestToken(c.req.raw));
    if (!user) return c.json(errorBody(MSG.sessionExpired, CODE.unauthorized), 401);
    const version = Number(c.req.query('negotiateVersion') ?? 0) >= 1 ? 1 : 0;
    const connectionId = newConnectionId();
    const connectionToken = `${connectionId}.${sign(connectionId, user.id)}`;
    const availableTransports = [{ transport: 'WebSockets', transferFormats: ['Text'] }];
    return c.json(
      version === 1
        ? { negotiateVersion: 1, connectionId, connectionToken, availableTransports }
        : { negotiateVersion: 0, connectionId: connectionToken, availableTransports },
    );
  }

  // ------------------------------------------------------------ WebSocket upgrade

  function refuse(socket: Duplex, status: 401 | 404, message: string, code: string) {
    const body = JSON.stringify(errorBody(message, code));
    if (socket.writable)
      socket.write(
        `HTTP/1.1 ${status} ${status === 401 ? 'Unauthorized' : 'Not Found'}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
      );
    socket.destroy();
  }

  /** The onUpgrade handler of HUB_PATH (attached with access 'public': the hub token is checked here). */
  async function handleUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer) {
    const user = await verifyToken(requestToken(req));
    if (!user) return refuse(socket, 401, MSG.sessionExpired, CODE.unauthorized);
    const given = new URL(req.url ?? '/', 'http://localhost').searchParams.get('id');
    // no id: a client that skipped the negotiate (one HTTP request fewer a connect and reconnect)
    const id = given === null ? newConnectionId() : connectionIdOf(given, user.id);
    if (!id || connections.has(id)) return refuse(socket, 404, 'No such connection.', CODE.notFound);
    wss.handleUpgrade(req, socket, head, (ws) => open(ws, id, user));
  }

  function open(ws: WebSocket, id: string, user: HubUser) {
    const conn: Conn = { id, user, ws, groups: new Set(), lastSeen: Date.now(), ready: false, buffer: '', corkedFor: -1, records: new Set() };
    connections.set(id, conn);
    presence((r) => r.set(presenceKey(id), user.id, 'PX', presenceTtlMs()));
    const untilExpiry = user.exp * 1000 - deps.config.now().getTime();
    conn.expiry = setTimeout(() => closeConn(conn, 'Unauthorized: the access token expired.', true), Math.max(0, Math.min(untilExpiry, 2 ** 31 - 1)));
    const handshakeTimer = setTimeout(() => {
      if (!conn.ready) closeConn(conn, 'Handshake was not received in time.', false);
    }, HANDSHAKE_TIMEOUT_MS);
    ws.on('message', (data: RawData, isBinary: boolean) => {
      conn.lastSeen = Date.now();
      if (isBinary) return closeConn(conn, 'Binary frames are not supported (JSON hub protocol).', false);
      conn.buffer += data.toString();
      if (conn.buffer.length > MAX_FRAME) return closeConn(conn, 'Message too large.', false);
      let i: number;
      while ((i = conn.buffer.indexOf(RS)) >= 0) {
        const frame = conn.buffer.slice(0, i);
        conn.buffer = conn.buffer.slice(i + 1);
        if (!conn.ready) {
          clearTimeout(handshakeTimer);
          handshake(conn, frame);
        } else onMessage(conn, frame);
        if (conn.ws.readyState !== WebSocket.OPEN) return;
      }
    });
    ws.on('close', () => {
      clearTimeout(handshakeTimer);
      drop(conn);
    });
    // A socket that fails (a malformed frame, a reset connection) is dropped; its close event tidies up.
    ws.on('error', (e: Error & { code?: string }) => {
      errorEvents.inc({ source: 'hub_socket' });
      log({ msg: 'hub socket error', level: 'warn', connection: id, user: user.id, error: e.message, code: e.code });
      ws.terminate();
    });
  }

  function handshake(conn: Conn, frame: string) {
    let req: { protocol?: unknown; version?: unknown } | undefined;
    try {
      req = JSON.parse(frame);
    } catch {
      /* answered below */
    }
    if (req?.protocol !== 'json' || req.version !== 1) {
      send(
        conn,
        JSON.stringify({
          error: `Requested protocol '${String(req?.protocol)}' version ${String(req?.version)} is not available; this hub speaks 'json' version 1.`,
        }) + RS,
      );
      conn.ws.close(1000);
      return;
    }
    conn.ready = true;
    send(conn, '{}' + RS);
  }

  function onMessage(conn: Conn, frame: string) {
    let m: { type?: unknown; invocationId?: unknown; target?: unknown; arguments?: unknown } | undefined;
    try {
      m = JSON.parse(frame);
    } catch {
      return closeConn(conn, 'Invalid JSON frame.', false);
    }
    if (!m || typeof m !== 'object') return;
    switch (m.type) {
      case MSG_TYPE.Ping:
        return;
      case MSG_TYPE.Close:
        conn.ws.close(1000);
        return;
      case MSG_TYPE.Invocation:
        void invoke(
          conn,
          typeof m.invocationId === 'string' ? m.invocationId : undefined,
          String(m.target ?? ''),
          Array.isArray(m.arguments) ? m.arguments : [],
        );
        return;
      case MSG_TYPE.StreamInvocation:
        if (typeof m.invocationId === 'string') complete(conn, m.invocationId, undefined, 'Streaming is not supported by this hub.');
        return;
      default:
        return; // CancelInvocation, StreamItem, acks: nothing to do
    }
  }

  function complete(conn: Conn, invocationId: string | undefined, result: unknown, error?: string) {
    if (invocationId === undefined) return;
    const msg: Record<string, unknown> = { type: MSG_TYPE.Completion, invocationId };
    if (error !== undefined) msg.error = error;
    else if (result !== undefined) msg.result = result;
    send(conn, JSON.stringify(msg) + RS);
  }

  const identitiesOf = (args: unknown[]): string[] =>
    args
      .flat()
      .filter((x): x is string => typeof x === 'string')
      .map((s) => s.trim())
      .filter((s) => s && s.length <= 64)
      .slice(0, MAX_GROUPS_PER_CONNECTION);

  async function invoke(conn: Conn, invocationId: string | undefined, target: string, args: unknown[]) {
    try {
      switch (target.toLowerCase()) {
        case 'joingroup':
        case 'subscribe': {
          const r = await join(conn, identitiesOf(args));
          return complete(conn, invocationId, r);
        }
        case 'leavegroup':
        case 'unsubscribe': {
          for (const g of identitiesOf(args)) leaveGroup(conn, g);
          return complete(conn, invocationId, null);
        }
        case 'openrecord':
          return complete(conn, invocationId, await openRecord(conn, args[0], args[1], args[2]));
        case 'closerecord': {
          const key = recordKey(args[0], args[1]);
          if (key) closeRecord(conn, key);
          return complete(conn, invocationId, null);
        }
        default:
          return complete(conn, invocationId, undefined, `Unknown hub method '${target}'.`);
      }
    } catch (e) {
      log({ msg: 'hub invocation failed', target, error: String((e as Error)?.stack ?? e) });
      return complete(conn, invocationId, undefined, MSG.default);
    }
  }

  async function join(conn: Conn, identities: string[]) {
    if (!(await sessionIsCurrent(deps, { sub: conn.user.id, epoch: conn.user.epoch }))) {
      closeConn(conn, SESSION_ENDED, true);
      return { Subscribed: [], Refused: [...new Set(identities)] };
    }
    const r = await scopeIdentities(deps.db, conn.user, identities);
    if (connections.get(conn.id) !== conn) return r; // closed meanwhile
    for (const g of r.Subscribed) joinGroup(conn, g);
    return r;
  }

  function joinGroup(conn: Conn, g: string) {
    if (conn.groups.has(g) || conn.groups.size >= MAX_GROUPS_PER_CONNECTION) return;
    conn.groups.add(g);
    let set = groups.get(g);
    if (!set) groups.set(g, (set = new Set()));
    set.add(conn);
  }
  function leaveGroup(conn: Conn, g: string) {
    if (!conn.groups.delete(g)) return;
    const set = groups.get(g);
    set?.delete(conn);
    if (set && !set.size) groups.delete(g);
  }

  function send(conn: Conn, frame: string) {
    const ws = conn.ws;
    if (ws.readyState !== WebSocket.OPEN) return false;
    if (ws.bufferedAmount > MAX_BUFFERED) {
      stats.dropped++;
      ws.terminate();
      return false;
    }
    ws.send(frame);
    return true;
  }

  function closeConn(conn: Conn, error: string | undefined, allowReconnect: boolean) {
    if (conn.ws.readyState === WebSocket.OPEN) {
      const msg: Record<string, unknown> = { type: MSG_TYPE.Close, allowReconnect };
      if (error) msg.error = error;
      // the Close message and the close frame leave in one write (a server dropping thousands at once)
      const socket = socketOf(conn.ws);
      socket?.cork();
      try {
        conn.ws.send(JSON.stringify(msg) + RS);
        conn.ws.close(1000);
      } finally {
        socket?.uncork();
      }
    }
    // a peer that never answers the close handshake is cut after a second
    setTimeout(() => conn.ws.terminate(), 1_000).unref();
    drop(conn);
  }

  function drop(conn: Conn) {
    if (connections.get(conn.id) !== conn) return;
    connections.delete(conn.id);
    presence((r) => r.del(presenceKey(conn.id)));
    clearTimeout(conn.expiry);
    for (const g of [...conn.groups]) leaveGroup(conn, g);
    for (const key of [...conn.records]) closeRecord(conn, key);
  }

  const pinger = setInterval(() => {
    const now = Date.now();
    if (connections.size)
      presence((r) => {
        const batch = r.pipeline();
        for (const conn of connections.values()) batch.pexpire(presenceKey(conn.id), presenceTtlMs());
        // who has which record open: renewed (and written again after a Redis outage)
        for (const conn of connections.values()) for (const key of conn.records) writeOpen(batch, conn, key);
        return batch.exec();
      });
    for (const conn of connections.values()) {
      if (now - conn.lastSeen > clientTimeoutMs) {
        closeConn(conn, 'Server timeout elapsed without receiving a message from the client.', true);
        continue;
      }
      if (conn.ready) send(conn, PING_FRAME);
    }
  }, pingMs);
  pinger.unref();

  // ------------------------------------------------------------ sessions that end

  /** Closes the connections (of the given persons, else all) whose session is no longer the stored one. */
  async function endStaleSessions(personIds?: readonly string[]) {
    const ids = personIds ?? [...new Set([...connections.values()].map((c) => c.user.id))];
    if (!ids.length) return;
    const states = await loadSessionStates(deps.db, ids);
    const only = new Set(ids);
    for (const conn of [...connections.values()]) {
      if (!only.has(conn.user.id)) continue;
      const s = states.get(conn.user.id);
      if (s && (s.blocked || s.epoch !== conn.user.epoch)) closeConn(conn, SESSION_ENDED, true);
    }
  }
  let sweeping = false;
  const sweeper = setInterval(() => {
    const nowS = Math.floor(deps.config.now().getTime() / 1000);
    for (const [token, v] of verified) if (v.user.exp <= nowS) verified.delete(token);
    if (sweeping || !connections.size) return;
    sweeping = true;
    endStaleSessions()
      .catch((e) => log({ msg: 'hub session check failed', error: String((e as Error)?.message ?? e) }))
      .finally(() => (sweeping = false));
  }, deps.config.sessionCheckMs);
  sweeper.unref();
  const stopListening = onSessionChange((personId) => {
    bus.publish(SESSIONS, personId).catch((e) => log({ msg: 'hub session announcement failed', error: String((e as Error)?.message ?? e) }));
  });

  // ------------------------------------------------------------ events and groups across nodes

  /**
   * An event batch to this node's members. Each socket written to is corked until the batch is
   * written, so a connection's frames of one batch (a message's MessageStream and DeviceMonitoring,
   * several devices it watches) leave in one write instead of one each.
   */
  function deliverLocal(frames: [string, string][]) {
    const corked: Duplex[] = [];
    try {
      for (const [identity, frame] of frames) {
        const set = groups.get(identity);
        if (!set) continue;
        for (const conn of set) {
          if (!conn.ready) continue;
          if (conn.corkedFor !== deliveries) {
            conn.corkedFor = deliveries;
            const socket = socketOf(conn.ws);
            if (socket) {
              socket.cork();
              corked.push(socket);
            }
          }
          if (send(conn, frame)) stats.delivered++;
        }
      }
    } finally {
      deliveries++;
      for (const socket of corked) socket.uncork();
    }
    hubMessagesSent.inc(stats.delivered - counted);
    counted = stats.delivered;
  }

  /** A frame for every ready connection of this node (a broadcast: not a device group). */
  function deliverAll(frame: string) {
    for (const conn of connections.values()) if (conn.ready && send(conn, frame)) stats.delivered++;
    hubMessagesSent.inc(stats.delivered - counted);
    counted = stats.delivered;
  }

  function applyControl(m: ControlMessage) {
    const conn = connections.get(m.connectionId);
    if (!conn || conn.user.id !== m.userId) return false;
    for (const g of m.identities) {
      if (m.op === 'join') joinGroup(conn, g);
      else leaveGroup(conn, g);
    }
    return true;
  }

  // ------------------------------------------------------------ records open in tabs: changes and presence

  type OpenEntry = { u: string; n: string };
  const invocationFrame = (target: string, payload: unknown) => JSON.stringify({ type: MSG_TYPE.Invocation, target, arguments: [payload] }) + RS;
  /** The kind and id of a recordKey (`kind:id`; kinds hold no colon). */
  const partsOf = (key: string) => {
    const i = key.indexOf(':');
    return { Kind: key.slice(0, i) as RecordKind, Id: key.slice(i + 1) };
  };
  const redisUp = () => deps.redis?.status === 'ready';

  function writeOpen(batch: ChainableCommander, conn: Conn, key: string) {
    batch.hset(openKey(key), conn.id, JSON.stringify({ u: conn.user.id, n: conn.name ?? conn.user.email, e: Date.now() + presenceTtlMs() }));
    batch.pexpire(openKey(key), presenceTtlMs());
  }

  /**
   * openRecord(kind, id, since?): refused without the read permission, for a record of another
   * tenant or unknown, past MAX_OPEN_RECORDS. With `since` (an At this hub gave the tab before its
   * connection went down) it also answers the newest change by someone else the tab missed.
   */
  async function openRecord(conn: Conn, kind: unknown, id: unknown, since?: unknown): Promise<OpenRecordResult> {
    const refused: OpenRecordResult = { Open: false, Present: [] };
    const key = recordKey(kind, id);
    if (!key) return refused;
    if (!conn.records.has(key)) {
      if (conn.records.size >= MAX_OPEN_RECORDS) return refused;
      if (!(await sessionIsCurrent(deps, { sub: conn.user.id, epoch: conn.user.epoch }))) {
        closeConn(conn, SESSION_ENDED, true);
        return refused;
      }
      const { Kind, Id } = partsOf(key);
      if (!(await mayReadRecord(deps.db, readers, conn.user, Kind, Id))) return refused;
      conn.name ??= await displayName(deps.db, conn.user);
      // closed meanwhile, or other opens of the same moment filled it
      if (connections.get(conn.id) !== conn || conn.records.size >= MAX_OPEN_RECORDS) return refused;
      if (!conn.records.has(key)) {
        conn.records.add(key);
        let set = recordConns.get(key);
        if (!set) recordConns.set(key, (set = new Set()));
        set.add(conn);
        await presenceChanged(key, (b) => writeOpen(b, conn, key));
      }
    }
    const At = deps.config.now().toISOString();
    const { Kind, Id } = partsOf(key);
    const Changed = typeof since === 'string' && !Number.isNaN(Date.parse(since)) ? ((await changedSince(deps.db, conn.user, Kind, Id, since)) ?? null) : null;
    return { Open: true, Present: namesFor(conn, await openEntries(key)), At, Changed };
  }

  /** closeRecord(kind, id), and every open record of a connection that ends. */
  function closeRecord(conn: Conn, key: string) {
    if (!conn.records.delete(key)) return;
    const set = recordConns.get(key);
    set?.delete(conn);
    if (set && !set.size) recordConns.delete(key);
    void presenceChanged(key, (b) => b.hdel(openKey(key), conn.id));
  }

  /** Stores a join or leave (in Redis when it is up) and tells the record's tabs on every node. Never throws. */
  async function presenceChanged(key: string, write: (b: ChainableCommander) => void) {
    try {
      if (deps.redis && busReachable()) {
        const batch = deps.redis.multi();
        write(batch);
        await batch.exec();
        await bus.publish(PRESENCE, key);
      } else await sendPresence(key);
    } catch (e) {
      log({ msg: 'hub presence change not announced', error: String((e as Error)?.message ?? e) });
    }
  }

  /** Who has the record open: this node's connections, and with Redis every node's entries that have not expired. */
  async function openEntries(key: string): Promise<OpenEntry[]> {
    const out: OpenEntry[] = [...(recordConns.get(key) ?? [])].map((c) => ({ u: c.user.id, n: c.name ?? c.user.email }));
    if (!deps.redis || !redisUp()) return out;
    const now = Date.now();
    for (const v of Object.values(await deps.redis.hgetall(openKey(key)))) {
      try {
        const x = JSON.parse(v) as { u?: unknown; n?: unknown; e?: unknown };
        if (typeof x.e === 'number' && x.e > now) out.push({ u: String(x.u), n: String(x.n) });
      } catch {
        /* an unreadable entry counts as nobody */
      }
    }
    return out;
  }

  /** The names a connection is shown: the others (its own user left out), each once, sorted. */
  const namesFor = (conn: Conn, entries: OpenEntry[]) =>
    [...new Set(entries.filter((x) => x.u !== conn.user.id).map((x) => x.n))].sort((a, b) => a.localeCompare(b));

  /** RecordPresence to this node's connections that have the record open. */
  async function sendPresence(key: string) {
    const set = recordConns.get(key);
    if (!set?.size) return;
    const entries = await openEntries(key);
    const { Kind, Id } = partsOf(key);
    for (const conn of [...set])
      if (conn.ready && send(conn, invocationFrame(RECORD_PRESENCE_EVENT, { Kind, Id, Present: namesFor(conn, entries) } satisfies RecordPresenceEvent)))
        stats.delivered++;
  }

  /**
   * RecordChanged to this node's connections that have the record open and whose user may still
   * read it (the reader asked once per tenant and permission set of the receivers).
   */
  async function deliverRecordEvents(events: RecordChangedEvent[]) {
    for (const e of events) {
      const key = `${e.Kind}:${e.Id}`;
      const set = recordConns.get(key);
      if (!set?.size) continue;
      const frame = invocationFrame(RECORD_CHANGED_EVENT, e);
      const verdicts = new Map<string, Promise<boolean>>();
      for (const conn of [...set]) {
        const scope = `${conn.user.tenantId}\n${conn.user.permissions.join(',')}`;
        let may = verdicts.get(scope);
        if (!may) verdicts.set(scope, (may = mayReadRecord(deps.db, readers, conn.user, e.Kind, e.Id).catch(() => false)));
        if ((await may) && conn.records.has(key) && conn.ready && send(conn, frame)) stats.delivered++;
      }
    }
  }

  /**
   * Announces committed changes of records (a write route calls it after its transaction): to the
   * tabs that have them open, on every node. A failure is logged, never thrown.
   */
  async function recordsChanged(by: Pick<AuthUser, 'id' | 'email'>, changes: readonly RecordChangeInput[], at: Date) {
    if (!changes.length) return;
    try {
      const By = await displayName(deps.db, by);
      const events: RecordChangedEvent[] = [];
      for (const ch of changes) {
        const key = recordKey(ch.kind, ch.id);
        if (key) events.push({ ...partsOf(key), What: ch.what, By, ByUserId: by.id, At: at.toISOString(), Note: ch.note ?? null });
      }
      if (!deps.redis || !busReachable()) return await deliverRecordEvents(events);
      for (let i = 0; i < events.length; i += 500) await bus.publish(RECORDS, JSON.stringify(events.slice(i, i + 500)));
    } catch (e) {
      log({ msg: 'hub record change not announced', error: String((e as Error)?.message ?? e) });
    }
  }

  const subscriptions = Promise.all([
    bus.subscribe(EVENTS, (message) => {
      try {
        deliverLocal(JSON.parse(message) as [string, string][]);
      } catch (e) {
        log({ msg: 'hub event batch unreadable', error: String(e) });
      }
    }),
    bus.subscribe(SESSIONS, (personId) => {
      dropSessionState(personId);
      if (![...connections.values()].some((c) => c.user.id === personId)) return;
      endStaleSessions([personId]).catch((e) => log({ msg: 'hub session check failed', error: String((e as Error)?.message ?? e) }));
    }),
    bus.subscribe(BROADCAST, (frame) => deliverAll(frame)),
    bus.subscribe(RECORDS, (message) => {
      let events: RecordChangedEvent[];
      try {
        events = JSON.parse(message) as RecordChangedEvent[];
      } catch (e) {
        return log({ msg: 'hub record changes unreadable', error: String(e) });
      }
      deliverRecordEvents(events).catch((e) => log({ msg: 'hub record changes not delivered', error: String((e as Error)?.message ?? e) }));
    }),
    bus.subscribe(PRESENCE, (key) => {
      if (recordConns.has(key)) sendPresence(key).catch((e) => log({ msg: 'hub presence not sent', error: String((e as Error)?.message ?? e) }));
    }),
    bus.subscribe(CONTROL, (message) => {
      try {
        applyControl(JSON.parse(message) as ControlMessage);
      } catch (e) {
        log({ msg: 'hub control message unreadable', error: String(e) });
      }
    }),
  ]);
  subscriptions.catch((e) => log({ msg: 'hub could not subscribe to the bus', error: String((e as Error)?.message ?? e) }));

  /** Sends events to the subscribers of their devices, on every node. Batches of up to 500 events per bus message. */
  const frameOf = (e: HubEvent) => JSON.stringify({ type: MSG_TYPE.Invocation, target: e.event, arguments: [e.payload] }) + RS;

  /**
   * Whether the bus reaches the other nodes now. While Redis is away (down, reconnecting) events
   * and broadcasts go to this node's connections only and are not queued for Redis: ingestion is
   * answered without waiting for it, and the connections of other nodes miss what happens until
   * it is back (their screens refetch when they reconnect). Logged once per outage.
   */
  let busAway = false;
  function busReachable() {
    const up = deps.redis?.status === 'ready';
    if (!up && !busAway) log({ msg: "hub: Redis away, events reach this node's connections only until it is back", level: 'warn', status: deps.redis?.status });
    if (up && busAway) log({ msg: 'hub: Redis back, events reach every node again' });
    busAway = !up;
    return up;
  }

  async function publish(events: HubEvent[]) {
    // One node (no Redis), or Redis away: straight to this node's members, frames built only for watched devices.
    if (!deps.redis || !busReachable()) {
      deliverLocal(events.filter((e) => groups.has(e.identity)).map((e) => [e.identity, frameOf(e)]));
      return;
    }
    for (let i = 0; i < events.length; i += 500) {
      const frames = events.slice(i, i + 500).map((e) => [e.identity, frameOf(e)] as [string, string]);
      try {
        await bus.publish(EVENTS, JSON.stringify(frames));
      } catch (e) {
        log({ msg: 'hub publish failed', error: String((e as Error)?.message ?? e) });
      }
    }
  }

  /**
   * Sends one event to every connection on every node, whatever devices it watches (a provider
   * setting changed: clients refetch it). Over the bus with Redis, else straight to this node's
   * connections. A failure is logged, never thrown: the change it announces is committed already.
   */
  async function broadcast(event: string, payload: unknown) {
    const frame = JSON.stringify({ type: MSG_TYPE.Invocation, target: event, arguments: [payload] }) + RS;
    if (!deps.redis || !busReachable()) return deliverAll(frame);
    try {
      await bus.publish(BROADCAST, frame);
    } catch (e) {
      log({ msg: 'hub broadcast failed', event, error: String((e as Error)?.message ?? e) });
    }
  }

  /**
   * POST /devices/subscribe-for-monitoring: adds the (already scoped) identities to a connection's
   * groups. A connection of this node is updated at once; otherwise, with several nodes (Redis),
   * the node holding it applies the message. Returns false when no node can hold it (or Redis,
   * which would carry the message, is away).
   */
  async function subscribeConnection(connectionId: string, userId: string, identities: string[]): Promise<boolean> {
    const m: ControlMessage = { op: 'join', connectionId, userId, identities };
    if (applyControl(m)) return true;
    // Redis away: no other node can be told (the client connects again and subscribes anew).
    if (!deps.redis || !busReachable()) return false;
    try {
      // another node's connection of this user, or none (unknown, ended, or another user's)
      if ((await deps.redis.get(presenceKey(connectionId))) !== userId) return false;
      await bus.publish(CONTROL, JSON.stringify(m));
      return true;
    } catch (e) {
      log({ msg: 'hub control message not sent', error: String((e as Error)?.message ?? e) });
      return false;
    }
  }

  return {
    ready: () => subscriptions.then(() => undefined),
    issueToken,
    verifyToken,
    negotiateFor,
    signalrNegotiate,
    handleUpgrade,
    publish,
    broadcast,
    subscribeConnection,
    recordsChanged,
    /** figures for tests and benchmarks */
    stats: () => ({ connections: connections.size, groups: groups.size, records: recordConns.size, ...stats }),
    /** Drops every connection of this node (Close with allowReconnect): the reconnect-storm benchmark. */
    dropAll() {
      for (const conn of [...connections.values()]) closeConn(conn, 'Connection dropped by the server.', true);
    },
    /** Closes every connection (Close message with allowReconnect) and leaves the bus. */
    async close() {
      clearInterval(pinger);
      unregisterMetrics();
      clearInterval(sweeper);
      stopListening();
      verified.clear();
      for (const conn of [...connections.values()]) closeConn(conn, 'Server is shutting down.', true);
      wss.close();
      const unsubs = await subscriptions.catch(() => [] as (() => Promise<void>)[]);
      for (const u of unsubs) await u().catch(() => {});
      if (ownBus) await bus.close();
    },
  };
}

/** The origin browsers reach this server at (behind trusted proxies: X-Forwarded-Proto / -Host). */
function publicOrigin(c: Context, deps: Deps) {
  const url = new URL(c.req.url);
  if (deps.config.trustProxy > 0) {
    const proto = c.req.header('x-forwarded-proto')?.split(',')[0]?.trim();
    const host = c.req.header('x-forwarded-host')?.split(',')[0]?.trim();
    if (proto && /^https?$/.test(proto)) url.protocol = `${proto}:`;
    if (host && /^[A-Za-z0-9.-]+(:\d+)?$/.test(host)) url.host = host;
  }
  return url.origin;
}
