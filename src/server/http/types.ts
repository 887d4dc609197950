// The types every route and service shares: the signed-in user, the services a request reaches (Deps)
// and Hono's context carrying both. Types only, so any file can import them without importing the HTTP layer.
import type { Context } from 'hono';
import type { Redis } from 'ioredis';
import type { DB, DbSource } from '../db/index.js';
import type { Config } from '../platform/config.js';
import type { Permission } from '../../shared/permissions.js';
import type { Outbox } from '../mail/outbox.js';
import type { Bus } from '../platform/redis.js';

export type AuthUser = {
  id: string;
  tenantId: string;
  email: string;
  role: string[];
  permissions: Permission[];
};

export type Deps = {
  db: DB;
  config: Config;
  outbox: Outbox;
  log: (entry: Record<string, unknown>) => void;
  /** Set when REDIS_URL is: sign-in rate limits shared by every node. Commands only: never subscribe on it. */
  redis?: Redis;
  /** Pub/sub (the hub's backplane): over Redis on its own subscriber connection when REDIS_URL is set, else in process. */
  bus?: Bus;
  /** Where the database is, for the export pool's workers to open their own connections; without it exports run in this thread. */
  dbSource?: DbSource;
};

export type AppEnv = { Variables: { deps: Deps; user: AuthUser | undefined; requestId: string } };
export type Ctx = Context<AppEnv>;
