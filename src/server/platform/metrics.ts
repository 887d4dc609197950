// Prometheus metrics (prom-client), one registry per process: GET /metrics on the app port with
// METRICS_TOKEN as a bearer token, or on METRICS_PORT bound to 127.0.0.1 without one (docs/operations.md).
// Request figures are labelled by the route as declared ('/api/v1/persons/:id'), never by the
// path a client sent, so the number of series stays bounded.
//
// Other parts of the server report through the setters below (the export pool calls
// registerExportPool; the hub and the ingestion route count what they send and accept).
import { timingSafeEqual, createHash } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { Context, MiddlewareHandler } from 'hono';
import { routePath } from 'hono/route';
import client from 'prom-client';
import type pg from 'pg';
import type { DB } from '../db/types.js';
import { OUTBOX_MAX_ATTEMPTS } from '../mail/limits.js';

export const registry = new client.Registry();
// process CPU and memory, event-loop lag (nodejs_eventloop_lag_seconds and percentiles), GC, handles
client.collectDefaultMetrics({ register: registry, eventLoopMonitoringPrecision: 20 });

export const httpDuration = new client.Histogram({
  name: 'http_request_duration_seconds',
  help: 'HTTP request duration by method, declared route and status',
  labelNames: ['method', 'route', 'status'] as const,
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
  registers: [registry],
});
export const httpInFlight = new client.Gauge({ name: 'http_requests_in_flight', help: 'HTTP requests being served', registers: [registry] });

/** A counter in this process's registry, with the labels it is split by. */
const counter = <L extends string = never>(name: string, help: string, labelNames: readonly L[] = []) =>
  new client.Counter<L>({ name, help, labelNames, registers: [registry] });

export const hubMessagesSent = counter('hub_messages_sent_total', 'Hub invocation frames sent to connections of this node');

export const ingestMessages = counter(
  'ingest_messages_total',
  'Device messages received from gateways: accepted, duplicate, or rejected (reason: the refusal code)',
  ['result', 'reason'],
);
export const ingestBatchesRefused = counter(
  'ingest_batches_refused_total',
  'Whole ingestion batches refused (reason: gateway_key, not_array, too_large, empty, invalid_json, none_stored)',
  ['reason'],
);

export const workerFailures = counter(
  'export_worker_failures_total',
  'Export and import worker threads that failed (pool: export, import; kind: load = could not start, error = its task threw, out_of_memory, exit = ended mid-task)',
  ['pool', 'kind'],
);
export const errorEvents = counter(
  'error_events_total',
  "'error' events handled (source: export_pool, import_pool, redis, database, smtp, hub_socket, hub_server, http_server)",
  ['source'],
);

// ---------------------------------------------------------------- sampled at scrape time

/** A gauge set from `read` at each scrape. */
function sampledGauge(name: string, help: string, read: () => number) {
  return new client.Gauge({
    name,
    help,
    registers: [registry],
    collect() {
      this.set(read());
    },
  });
}

/**
 * What reports figures while it runs (an export pool, a hub): `register` adds its reader and returns
 * the function that removes it; `sum` adds one figure up over all of them.
 */
function reporters<K extends string>() {
  const readers = new Set<() => Record<K, number>>();
  return {
    register(stats: () => Record<K, number>): () => void {
      readers.add(stats);
      return () => void readers.delete(stats);
    },
    sum: (k: K) => [...readers].reduce((n, s) => n + s()[k], 0),
  };
}

const exportPools = reporters<'queued' | 'running'>();
/** The export pool's queue, read at scrape time. Returns a function that unregisters it. */
export const registerExportPool = exportPools.register;
sampledGauge('export_queue_length', 'Export jobs waiting for a worker', () => exportPools.sum('queued'));
sampledGauge('export_jobs_running', 'Export jobs being produced', () => exportPools.sum('running'));

const hubs = reporters<'connections' | 'groups'>();
/** A hub reports its connections and groups while it runs; the returned function unregisters it. */
export const registerHub = hubs.register;
sampledGauge('hub_connections', 'Open hub (SignalR) connections on this node', () => hubs.sum('connections'));
sampledGauge('hub_groups', 'Device groups with at least one subscribed connection on this node', () => hubs.sum('groups'));

const pools = new Set<pg.Pool>();
/** PostgreSQL pools report their use (SQLite has one connection in process and reports nothing). */
export function registerPool(pool: pg.Pool) {
  pools.add(pool);
}
new client.Gauge({
  name: 'db_pool_connections',
  help: 'PostgreSQL pool connections: total, idle, and requests waiting for one',
  labelNames: ['state'] as const,
  registers: [registry],
  collect() {
    let total = 0,
      idle = 0,
      waiting = 0;
    for (const p of pools) {
      if (p.ended) {
        pools.delete(p);
        continue;
      }
      total += p.totalCount;
      idle += p.idleCount;
      waiting += p.waitingCount;
    }
    this.set({ state: 'total' }, total);
    this.set({ state: 'idle' }, idle);
    this.set({ state: 'waiting' }, waiting);
  },
});

const outboxBacklog = new client.Gauge({
  name: 'outbox_backlog',
  help: 'Outbox messages not sent yet (waiting, retrying or held by an e-mail pause)',
  registers: [registry],
});
const outboxSampled = new WeakMap<DB, Promise<void>>();

/** The text a scrape gets; reads the outbox backlog of `db` first (one indexed count). */
export async function scrape(db: DB | undefined): Promise<string> {
  if (db) {
    // one count at a time per database, however many scrapers ask at once
    let p = outboxSampled.get(db);
    if (!p) {
      p = db
        .selectFrom('outbox')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('sentAt', 'is', null)
        .where('attempts', '<', OUTBOX_MAX_ATTEMPTS)
        .executeTakeFirst()
        .then((r) => void outboxBacklog.set(Number(r?.n ?? 0)))
        .catch(() => {})
        .finally(() => outboxSampled.delete(db));
      outboxSampled.set(db, p);
    }
    await p;
  }
  return registry.metrics();
}

// ---------------------------------------------------------------- request middleware and access

/**
 * The declared route that answered (its pattern), or 'other' for paths no route declares. Read
 * after the chain ran: Hono's current route index is then the handler that produced the response.
 */
function routeLabel(c: Context): string {
  const r = routePath(c);
  return !r || r === '*' || r === '/*' ? 'other' : r;
}

/** The methods a request series is labelled with; any other method a client sends is one 'other' series. */
export const METRIC_METHODS: ReadonlySet<string> = new Set(['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS']);
export const methodLabel = (method: string) => (METRIC_METHODS.has(method) ? method : 'other');

/** Counts in-flight requests and observes each request's duration by method, route and status (each from a bounded set). */
export function requestMetrics(): MiddlewareHandler {
  return async (c, next) => {
    httpInFlight.inc();
    const end = httpDuration.startTimer();
    try {
      await next();
    } finally {
      httpInFlight.dec();
      end({ method: methodLabel(c.req.method), route: routeLabel(c), status: String(c.res.status) });
    }
  };
}

const digest = (s: string) => createHash('sha256').update(s).digest();
/** Whether the request carries `Authorization: Bearer <token>` (constant time). */
export function metricsAuthorized(header: string | undefined, token: string | undefined): boolean {
  if (!token) return false;
  const given = /^Bearer\s+(.+)$/i.exec(header ?? '')?.[1];
  return !!given && timingSafeEqual(digest(given), digest(token));
}

export const METRICS_CONTENT_TYPE = registry.contentType;

/** What a scrape without METRICS_TOKEN as its bearer token is told (no session is involved, so not the sign-in's 'session expired'). */
export const METRICS_TOKEN_REQUIRED = 'The metrics need the METRICS_TOKEN as a bearer token (Authorization: Bearer <token>).';

/** METRICS_PORT: a second listener on 127.0.0.1 that answers GET /metrics without a token. */
export function startMetricsServer(port: number, db: DB | undefined, log?: (e: Record<string, unknown>) => void): Promise<Server> {
  const server = createServer((req, res) => {
    if (req.method !== 'GET' || (req.url ?? '').split('?')[0] !== '/metrics') {
      res.writeHead(404).end();
      return;
    }
    scrape(db).then(
      (text) => res.writeHead(200, { 'Content-Type': METRICS_CONTENT_TYPE }).end(text),
      () => res.writeHead(500).end(),
    );
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      server.off('error', reject);
      server.on('error', (e: Error) => {
        errorEvents.inc({ source: 'http_server' });
        log?.({ msg: 'metrics server error', level: 'error', error: e.message });
      });
      resolve(server);
    });
  });
}
