// One process: the built client, the API and (later) the hub. `npm start` runs this.
import { serve } from '@hono/node-server';
import { serveStatic } from '@hono/node-server/serve-static';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { execFileSync } from 'node:child_process';
import { loadConfig, StartupError } from './config.js';
import { prepareDatabase } from './startup.js';
import { createApp } from './app.js';
import { createOutbox } from './outbox.js';
import { openRedis } from './redis.js';
import { DEMO_ACCOUNTS } from './seed/accounts.js';

const log = (e: Record<string, unknown>) => process.stdout.write(JSON.stringify({ t: new Date().toISOString(), ...e }) + '\n');

async function main() {
  const config = loadConfig();
  const clientDir = resolve('dist/client');
  if (!existsSync(join(clientDir, 'index.html')) && process.env.SKIP_CLIENT_BUILD !== '1') {
    log({ msg: 'building the client (first start)…' });
    execFileSync(process.execPath, [resolve('node_modules/vite/bin/vite.js'), 'build', '--logLevel', 'warn'], { stdio: 'inherit' });
  }
  const db = await prepareDatabase(config, log);

  const outbox = createOutbox({ smtpUrl: config.smtpUrl, log, now: config.now });
  // Several nodes share sign-in rate limits through Redis (REDIS_URL); without it each node counts alone.
  const redis = config.redisUrl ? openRedis(config.redisUrl, { log }) : undefined;
  const { app } = createApp({ db, config, outbox, log, redis });

  // The built client: static assets, and index.html for every other GET that wants HTML (SPA routes).
  if (existsSync(join(clientDir, 'index.html'))) {
    const indexHtml = readFileSync(join(clientDir, 'index.html'), 'utf8');
    app.use('/assets/*', serveStatic({ root: 'dist/client' }));
    app.get('/favicon.svg', serveStatic({ root: 'dist/client' }));
    app.notFound((c) => {
      if (c.req.method === 'GET' && (c.req.header('accept') ?? '').includes('text/html')) return c.html(indexHtml);
      return c.json({ Content: { Message: 'Not found.', Code: 'not_found' } }, 404);
    });
  }

  const server = serve({ fetch: app.fetch, port: config.port, hostname: process.env.HOST ?? '0.0.0.0' }, (info) => {
    const url = `http://localhost:${info.port}`;
    const lines = [
      '',
      `  Workspace ready at ${url}`,
      `  Database: ${config.databaseUrl ? 'PostgreSQL (DATABASE_URL)' : join(config.dataDir, 'workspace.sqlite')}`,
      ...(config.demo
        ? ['  Demo sign-ins (password: ' + config.demoPassword + '):', ...DEMO_ACCOUNTS.map((a) => `    ${a.email.padEnd(28)} ${a.label}`)]
        : []),
      '',
    ];
    process.stdout.write(lines.join('\n') + '\n');
  });

  let stopping = false;
  const shutdown = (signal: string) => {
    if (stopping) return;
    stopping = true;
    log({ msg: 'shutting down', signal });
    const force = setTimeout(() => process.exit(1), 10_000);
    force.unref();
    server.close(async () => {
      await redis?.close();
      await db.destroy();
      process.exit(0);
    });
  };
  process.on('SIGINT', () => shutdown('SIGINT'));
  process.on('SIGTERM', () => shutdown('SIGTERM'));
}

main().catch((e) => {
  // A configuration problem is one line naming what to fix; anything else keeps its stack.
  log({ msg: 'fatal', error: e instanceof StartupError ? e.message : String(e?.stack ?? e) });
  process.exit(1);
});
