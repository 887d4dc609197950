// One process: the built client, the API and (later) the hub. `npm start` runs this: it loads the
// config, prepares the database and starts createServer (server.ts).
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { execFileSync } from 'node:child_process';
import { demoGatewayKey, loadConfig, StartupError } from './config.js';
import { prepareDatabase } from './startup.js';
import { createOutbox } from './outbox.js';
import { createMemoryBus, openRedis, openRedisBus } from './redis.js';
import { createServer } from './server.js';
import { DEMO_ACCOUNTS } from './seed/accounts.js';
import { SSO_DEMO_IDENTITIES } from './auth/sso/demo-identities.js';
import { startRefreshTokenCleanup } from './auth/token-cleanup.js';
import { backfillLastMessages } from './modules/live/repo.js';
import { createSimulator, type Simulator } from './simulator/simulator.js';
import { startSilenceSweep } from './modules/live/silence.js';
import { simulatedDevices } from './simulator/devices.js';

const log = (e: Record<string, unknown>) => process.stdout.write(JSON.stringify({ t: new Date().toISOString(), ...e }) + '\n');

async function main() {
  const config = loadConfig();
  // Live devices (#11): with demo data and no GATEWAY_KEYS, a gateway key kept in DATA_DIR (printed below).
  if (config.demo && !config.gatewayKeys.length) {
    config.gatewayKeys = [demoGatewayKey(config.dataDir)];
    config.gatewayKeyGenerated = true;
  }
  const clientDir = resolve('dist/client');
  if (!existsSync(join(clientDir, 'index.html')) && process.env.SKIP_CLIENT_BUILD !== '1') {
    log({ msg: 'building the client (first start)…' });
    execFileSync(process.execPath, [resolve('node_modules/vite/bin/vite.js'), 'build', '--logLevel', 'warn'], { stdio: 'inherit' });
  }
  const db = await prepareDatabase(config, log);
  await backfillLastMessages(db); // live devices (#11): demo message history → each device's last message

  const outbox = createOutbox({ smtpUrl: config.smtpUrl, log, now: config.now });
  // Several nodes share sign-in rate limits through Redis (REDIS_URL); without it each node counts alone.
  const redis = config.redisUrl ? openRedis(config.redisUrl, { log }) : undefined;
  // Pub/sub between nodes on a second Redis connection (subscriber mode takes no other commands).
  const bus = redis ? openRedisBus(redis, { log }) : createMemoryBus();
  // Export workers open their own connections: PostgreSQL by URL, SQLite read-only on the same file.
  const dbSource = config.databaseUrl
    ? ({ kind: 'pg', url: config.databaseUrl } as const)
    : ({ kind: 'sqlite', file: join(config.dataDir, 'workspace.sqlite') } as const);
  const server = await createServer({ db, config, outbox, log, redis, bus, dbSource }, { clientDir });
  // Mail a crash left unsent goes out now, not with the next message (the relay skips anything over an hour old).
  outbox.flush(db);
  // Expired, used and revoked refresh tokens are deleted hourly (docs/decisions.md 44).
  const tokenCleanup = startRefreshTokenCleanup({ db, now: config.now, log });
  // Live devices (#11): devices silent past the connected window are announced as not connected (decision 80).
  const silenceSweep = startSilenceSweep({ db, now: config.now, log, publish: (events) => server.services.hub.publish(events) });
  // Live devices (#11): with demo data the device simulator drives a few demo devices through the public ingestion endpoint (SIMULATOR=off: not).
  let simulator: Simulator | undefined;
  if (config.simulator.enabled && config.gatewayKeys[0]) {
    const devices = await simulatedDevices(db, config.simulator.devices);
    simulator = createSimulator({
      baseUrl: `http://127.0.0.1:${server.port}`,
      gatewayKey: config.gatewayKeys[0],
      devices,
      intervalMs: config.simulator.intervalMs,
      seed: config.seed,
      log,
    });
    simulator.start();
  }

  process.stdout.write(
    [
      '',
      `  Workspace ready at http://localhost:${server.port}`,
      `  Database: ${config.databaseUrl ? 'PostgreSQL (DATABASE_URL)' : join(config.dataDir, 'workspace.sqlite')}`,
      ...(config.demo ? ['  Demo sign-ins (password: ' + config.demoPassword + '):', ...DEMO_ACCOUNTS.map((a) => `    ${a.email.padEnd(28)} ${a.label}`)] : []),
      // sso (#12)
      ...(config.sso?.mode === 'embedded'
        ? [
            `  Single sign-on (${config.sso.providerName}, ${config.sso.issuer}; no password):`,
            ...SSO_DEMO_IDENTITIES.map((i) => `    ${i.email.padEnd(28)} ${i.label}`),
          ]
        : config.sso
          ? [`  Single sign-on: ${config.sso.providerName} (${config.sso.issuer})`]
          : []),
      ...(config.gatewayKeyGenerated ? [`  Gateway key (X-Gateway-Key, kept in ${join(config.dataDir, 'gateway-key.json')}): ${config.gatewayKeys[0]}`] : []),
      ...(simulator ? [`  Device simulator: ${simulator.devices().length} demo devices (SIMULATOR=off to stop it)`] : []),
      '',
    ].join('\n') + '\n',
  );

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log({ msg: 'shutting down', signal });
    const force = setTimeout(() => process.exit(1), 10_000);
    force.unref();
    tokenCleanup.stop();
    silenceSweep.stop();
    await simulator?.stop();
    await server.close();
    await outbox.close(); // waits for the relay's current send
    await bus.close();
    await redis?.close();
    await db.destroy();
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
}

main().catch((e) => {
  // A configuration problem is one line naming what to fix; anything else keeps its stack.
  log({ msg: 'fatal', error: e instanceof StartupError ? e.message : String(e?.stack ?? e) });
  process.exit(1);
});
