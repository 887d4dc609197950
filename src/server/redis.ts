// The Redis client (REDIS_URL): shared sign-in rate limits across server nodes now, the hub's
// backplane later. Connects at once and keeps reconnecting (backing off up to 2 s) for as long
// as the process runs; a command waits at most `commandTimeoutMs` (queued while connecting),
// so callers can fall back instead of hanging when Redis is away.
import { Redis, type RedisOptions } from 'ioredis';

export type OpenedRedis = Redis & {
  /** QUIT (pending replies first), or drop the connection when that fails. Safe to call twice. */
  close(): Promise<void>;
};

export type OpenRedisOptions = {
  log?: (e: Record<string, unknown>) => void;
  /** Prefix for every key this client touches (tests use one per run). */
  keyPrefix?: string;
  connectTimeoutMs?: number;
  commandTimeoutMs?: number;
};

export function openRedis(url: string, opts: OpenRedisOptions = {}): OpenedRedis {
  const options: RedisOptions = {
    lazyConnect: false,
    connectTimeout: opts.connectTimeoutMs ?? 5_000,
    commandTimeout: opts.commandTimeoutMs ?? 1_000,
    // Queued commands fail after one failed reconnect instead of piling up.
    maxRetriesPerRequest: 1,
    retryStrategy: (times) => Math.min(100 * 2 ** Math.min(times, 5), 2_000),
    ...(opts.keyPrefix ? { keyPrefix: opts.keyPrefix } : {}),
  };
  const client = new Redis(url, options);

  // Without a listener ioredis prints every connection error; log each outage once instead.
  let down = false;
  const where = redactedUrl(url);
  client.on('error', (e: Error) => {
    if (!down) opts.log?.({ msg: 'redis error', url: where, error: e.message });
    down = true;
  });
  client.on('ready', () => {
    opts.log?.({ msg: down ? 'redis reconnected' : 'redis connected', url: where });
    down = false;
  });

  let closing: Promise<void> | undefined;
  return Object.assign(client, {
    close: () =>
      (closing ??= (async () => {
        try {
          if (client.status === 'ready') await client.quit();
        } catch {
          /* fall through to disconnect */
        }
        client.disconnect();
      })()),
  });
}

/** The URL without its password, for logs. */
export function redactedUrl(url: string) {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return 'redis://(unparsable url)';
  }
}
