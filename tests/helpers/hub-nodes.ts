// Server nodes for the live hub tests: one node, or several over one database that share a Redis
// bus (TEST_REDIS_URL), their hubs ready; calls to a node with a bearer token; a browser's hub
// connection negotiated with one.
import { HttpTransportType, HubConnectionBuilder, LogLevel, type HubConnection } from '@microsoft/signalr';
import { createServer, type AppServer } from '../../src/server/server.js';
import type { Config } from '../../src/server/platform/config.js';
import { createOutbox } from '../../src/server/mail/outbox.js';
import { openRedis, openRedisBus, type OpenedRedis, type RedisBus } from '../../src/server/platform/redis.js';
import type { DB } from '../../src/server/db/index.js';

export type HubNode = { srv: AppServer; redis?: OpenedRedis; bus?: RedisBus };
export type RedisNode = Required<HubNode>;

/** One node on a free port, without Redis (its hub in-process). */
export async function startNode(db: DB, config: Config): Promise<HubNode> {
  const log = () => {};
  return { srv: await createServer({ db, config, outbox: createOutbox({ log, now: () => config.now() }), log }, { port: 0, hostname: '127.0.0.1' }) };
}

/**
 * Starts `count` nodes on free ports, each with its own Redis connection and bus, and adds each to
 * `nodes` as soon as it is up (so that stopNodes closes those started before a failure).
 */
export async function startRedisNodes(nodes: HubNode[], db: DB, config: Config, redisUrl: string, count = 2) {
  const log = () => {};
  for (let i = 0; i < count; i++) {
    const redis = openRedis(redisUrl);
    const bus = openRedisBus(redis);
    const srv = await createServer({ db, config, outbox: createOutbox({ log, now: () => config.now() }), log, redis, bus }, { port: 0, hostname: '127.0.0.1' });
    await srv.services.hub.ready();
    nodes.push({ srv, redis, bus });
  }
}

/** Stops the hub connections, then each node and its Redis bus and connection. */
export async function stopNodes(nodes: (HubNode | undefined)[], conns: HubConnection[]) {
  for (const c of conns) await c.stop().catch(() => {});
  for (const n of nodes) {
    if (!n) continue;
    await n.srv.close();
    await n.bus?.close();
    await n.redis?.close();
  }
}

/** A request to the node with the token; the answer's status and JSON body (null when none). */
export async function callNode(node: HubNode, method: string, path: string, token: string, body?: unknown) {
  const res = await fetch(`http://127.0.0.1:${node.srv.port}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json().catch(() => null)) as Record<string, unknown> };
}

/** A hub connection for the person, negotiated on the node with their token; not started yet. */
export async function negotiatedHub(node: HubNode, person: { id: string; token: string }): Promise<HubConnection> {
  const n = await callNode(node, 'POST', `/api/admin/negotiate?userid=${person.id}`, person.token);
  if (n.status !== 200) throw new Error(`negotiate: ${n.status} ${JSON.stringify(n.body)}`);
  return new HubConnectionBuilder()
    .withUrl(String(n.body.Url), { accessTokenFactory: () => String(n.body.AccessToken), transport: HttpTransportType.WebSockets })
    .configureLogging(LogLevel.None)
    .build();
}
