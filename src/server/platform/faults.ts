// Faults that are the environment's, not the request's: a full disk (SQLITE_FULL, PostgreSQL
// 53100 disk_full) or a database that does not answer. They answer 503 with the error shape and
// a Retry-After, and leave a log line that says what happened; /health reports them.
import type { Context } from 'hono';
import { errorBody, type Deps } from '../http/api.js';
import { CODE, MSG } from '../../shared/messages.js';
import { currentPhase, type Phase } from './lifecycle.js';

export type StorageFault = 'full' | 'unavailable';

const FULL = new Set(['SQLITE_FULL', '53100']);
// SQLite: cannot open or read/write the file; PostgreSQL: server gone, starting, shutting down, out of connections.
const UNAVAILABLE = new Set([
  'SQLITE_CANTOPEN',
  'SQLITE_IOERR',
  'SQLITE_READONLY',
  'SQLITE_BUSY',
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  '57P01',
  '57P02',
  '57P03',
  '08000',
  '08001',
  '08003',
  '08006',
  '53300',
]);

// node-postgres' own errors carry no code: no connection within the pool's connectionTimeoutMillis,
// or a connection the server (or the network) dropped while a query was on it.
const PG_CONNECTION_LOST =
  /^(timeout exceeded when trying to connect|Connection terminated\b|Client (has encountered a connection error|was closed) and is not queryable)/;

/** The storage fault behind an error (its own code, or a cause's), if it is one. */
export function storageFault(err: unknown): { fault: StorageFault; code: string } | undefined {
  for (let e = err, depth = 0; e && typeof e === 'object' && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const code = String((e as { code?: unknown }).code ?? '');
    if (FULL.has(code)) return { fault: 'full', code };
    if (UNAVAILABLE.has(code) || code.startsWith('SQLITE_IOERR_')) return { fault: 'unavailable', code };
    if (!code && PG_CONNECTION_LOST.test(String((e as { message?: unknown }).message ?? ''))) return { fault: 'unavailable', code: 'connection' };
  }
  return undefined;
}

/** When each app last saw its storage full (for /health). */
const lastFull = new WeakMap<Deps, number>();
const FULL_REPORTED_MS = 60_000;

/** The 503 answer for a storage fault (and its log line), or undefined for any other error. */
export function faultResponse(err: unknown, c: Context, deps: Deps): Response | undefined {
  const found = storageFault(err);
  if (!found) return undefined;
  if (found.fault === 'full') lastFull.set(deps, Date.now());
  deps.log({
    msg:
      found.fault === 'full'
        ? 'storage full: the database cannot grow (disk or quota full); writes fail with 503 until space is freed'
        : 'database unavailable: answering 503',
    code: found.code,
    error: String((err as Error)?.message ?? err),
    requestId: c.get('requestId'),
    path: c.req.path,
  });
  return c.json(errorBody(MSG.cosmosConflict, CODE.unavailable), 503, { 'Retry-After': '30' });
}

export type Health = {
  status: 'ok' | 'degraded' | 'unavailable';
  /** 'full': a write failed for lack of space within the last minute. */
  database: 'ok' | 'full' | 'unavailable';
  /** Redis carries shared rate limits: without it each node counts alone ('degraded', still serving). */
  redis: 'ok' | 'unavailable' | 'not configured';
};

/** GET /health: 200 while the database answers and has room, else 503; Redis down is 'degraded' (200). */
export async function health(c: Context, deps: Deps): Promise<Response> {
  let database: Health['database'] = 'ok';
  try {
    await deps.db.selectFrom('features').select('name').limit(1).execute();
    if (Date.now() - (lastFull.get(deps) ?? -Infinity) < FULL_REPORTED_MS) database = 'full';
  } catch {
    database = 'unavailable';
  }
  const redis: Health['redis'] = !deps.redis ? 'not configured' : deps.redis.status === 'ready' ? 'ok' : 'unavailable';
  const status: Health['status'] = database !== 'ok' ? 'unavailable' : redis === 'unavailable' ? 'degraded' : 'ok';
  return c.json({ status, database, redis } satisfies Health, database === 'ok' ? 200 : 503);
}

export type Readiness = { status: 'ready' | 'not ready'; phase: Phase; database: 'ok' | 'unavailable' };

/**
 * GET /ready: 200 when this node should get traffic — started (database migrated), not draining
 * after SIGTERM, and the database answers; else 503. A load balancer routes by this; /health only
 * says the process is alive and what is wrong.
 */
export async function readiness(c: Context, deps: Deps): Promise<Response> {
  const phase = currentPhase();
  let database: Readiness['database'] = 'ok';
  try {
    await deps.db.selectFrom('features').select('name').limit(1).execute();
  } catch {
    database = 'unavailable';
  }
  const ok = phase === 'ready' && database === 'ok';
  return c.json({ status: ok ? 'ready' : 'not ready', phase, database } satisfies Readiness, ok ? 200 : 503, { 'Cache-Control': 'no-store' });
}
