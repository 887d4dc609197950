// An app over a throwaway database, plus request helpers.
import { createApp } from '../../src/server/app.js';
import { testConfig, type Config } from '../../src/server/platform/config.js';
import { createOutbox } from '../../src/server/mail/outbox.js';
import type { Redis } from 'ioredis';
import { createTestDb, type TestDb } from './db.js';

export type TestApp = Awaited<ReturnType<typeof createTestApp>>;

/**
 * `opts.redis`: a client the app's rate limits use (the caller opens and closes it). Exports run on
 * worker threads when the database can be opened from another thread (PostgreSQL, or SQLite with
 * `opts.fileDb`), else in this thread.
 */
export async function createTestApp(over: Partial<Config> = {}, opts: { redis?: Redis; fileDb?: boolean } = {}) {
  const tdb: TestDb = await createTestDb({ file: opts.fileDb });
  const logs: Record<string, unknown>[] = [];
  const config = testConfig(over);
  const log = (e: Record<string, unknown>) => void logs.push(e);
  const outbox = createOutbox({ smtpUrl: config.smtpUrl, log, now: () => config.now() });
  const deps = { db: tdb.db, config, outbox, log, redis: opts.redis, dbSource: tdb.source };
  const { app, routes, services } = createApp(deps);
  const request = (path: string, init: RequestInit & { token?: string; json?: unknown; form?: Record<string, string> } = {}) => {
    const headers = new Headers(init.headers);
    if (init.token) headers.set('authorization', `Bearer ${init.token}`);
    let body = init.body;
    if (init.json !== undefined) {
      headers.set('content-type', 'application/json');
      body = JSON.stringify(init.json);
    } else if (init.form) {
      headers.set('content-type', 'application/x-www-form-urlencoded');
      body = new URLSearchParams(init.form).toString();
    }
    return app.request(path, { ...init, headers, body, method: init.method ?? (body ? 'POST' : 'GET') });
  };
  return {
    app,
    routes,
    services,
    deps,
    db: tdb.db,
    dialect: tdb.dialect,
    config,
    logs,
    request,
    close: async () => {
      await services.exports.close();
      await outbox.close();
      await tdb.close();
    },
  };
}
