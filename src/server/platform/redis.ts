// The Redis client (REDIS_URL): shared sign-in rate limits across server nodes now, the hub's
// backplane later. Connects at once and keeps reconnecting (backing off up to 2 s) for as long
// as the process runs; a command waits at most `commandTimeoutMs` (queued while connecting),
// so callers can fall back instead of hanging when Redis is away.
//
// Pub/sub (openRedisBus) uses a connection of its own: over RESP2 a connection that has
// subscribed refuses every other command, and over RESP3 (ioredis' default) the pushed messages
// share the socket with command replies, so a burst of hub traffic would delay the rate-limit
// commands past their timeout. Messages are published on the command connection.
import { EventEmitter } from 'node:events';
import { Redis, type RedisOptions } from 'ioredis';
import { errorEvents } from './metrics.js';

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
  return withClose(new Redis(url, options), redactedUrl(url), 'commands', opts.log);
}

/** Logs each outage once (without a listener ioredis prints every connection error) and adds close(). */
function withClose(client: Redis, where: string, role: 'commands' | 'subscriber', log?: (e: Record<string, unknown>) => void): OpenedRedis {
  let down = false;
  client.on('error', (e: Error) => {
    errorEvents.inc({ source: 'redis' });
    if (!down) log?.({ msg: 'redis error', url: where, role, error: e.message });
    down = true;
  });
  client.on('ready', () => {
    log?.({ msg: down ? 'redis reconnected' : 'redis connected', url: where, role });
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

/** Publish/subscribe between the parts of one process or, over Redis, between server nodes. */
export type Bus = {
  /** Sends a message to every subscriber of the channel (on every node). Resolves with the number of receivers Redis reports (local: handlers). */
  publish(channel: string, message: string): Promise<number>;
  /** Calls onMessage for each message on the channel; resolves once subscribed, with a function that unsubscribes. */
  subscribe(channel: string, onMessage: (message: string, channel: string) => void): Promise<() => Promise<void>>;
  close(): Promise<void>;
};

export type RedisBus = Bus & {
  /** the connection in subscriber mode (opened with the command connection's options) */
  readonly subscriber: OpenedRedis;
};

/**
 * Pub/sub over Redis. PUBLISH goes out on `commands`; SUBSCRIBE on a duplicate of it (same URL and
 * options), so the command connection never enters subscriber mode. ioredis subscribes again by
 * itself after a reconnect. close() closes the subscriber connection only: `commands` stays its
 * owner's to close.
 */
export function openRedisBus(commands: Redis, opts: { log?: (e: Record<string, unknown>) => void } = {}): RedisBus {
  const where = `${commands.options.host ?? ''}:${commands.options.port ?? ''}`;
  const subscriber = withClose(commands.duplicate(), where, 'subscriber', opts.log);
  const handlers = new Map<string, Set<(message: string, channel: string) => void>>();
  subscriber.on('message', (channel: string, message: string) => {
    for (const h of handlers.get(channel) ?? []) {
      try {
        h(message, channel);
      } catch (e) {
        opts.log?.({ msg: 'bus handler failed', channel, error: String((e as Error)?.stack ?? e) });
      }
    }
  });
  return {
    subscriber,
    publish: (channel, message) => commands.publish(channel, message),
    async subscribe(channel, onMessage) {
      let set = handlers.get(channel);
      if (!set) handlers.set(channel, (set = new Set()));
      set.add(onMessage);
      if (set.size === 1) await subscriber.subscribe(channel);
      return async () => {
        const s = handlers.get(channel);
        if (!s?.delete(onMessage) || s.size) return;
        handlers.delete(channel);
        if (subscriber.status === 'ready') await subscriber.unsubscribe(channel);
      };
    },
    close: () => {
      handlers.clear();
      return subscriber.close();
    },
  };
}

/** The same Bus within one process (no REDIS_URL: one node, nothing to share). */
export function createMemoryBus(): Bus {
  const events = new EventEmitter();
  events.setMaxListeners(0);
  return {
    async publish(channel, message) {
      const n = events.listenerCount(channel);
      events.emit(channel, message, channel);
      return n;
    },
    async subscribe(channel, onMessage) {
      const listener = (message: string, ch: string) => onMessage(message, ch);
      events.on(channel, listener);
      return async () => void events.off(channel, listener);
    },
    async close() {
      events.removeAllListeners();
    },
  };
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
