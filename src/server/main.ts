// One process: the built client, the API and (later) the hub. `npm start` runs this: it loads the
// config, prepares the database and starts createServer (server.ts).
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { execFileSync } from 'node:child_process';
import { demoGatewayKey, embeddedSsoWarning, isLoopbackUrl, loadConfig, SHUTDOWN_TIMEOUT_MS, StartupError } from './platform/config.js';
import { prepareDatabase } from './platform/startup.js';
import { createOutbox } from './mail/outbox.js';
import { createMemoryBus, openRedis, openRedisBus } from './platform/redis.js';
import { createServer } from './server.js';
import { DEMO_ACCOUNTS } from './seed/accounts.js';
import { SSO_DEMO_IDENTITIES } from './auth/sso/demo-identities.js';
import { startRefreshTokenCleanup } from './auth/token-cleanup.js';
import { backfillLastMessages } from './modules/live/repo.js';
import { createSimulator, type Simulator } from './simulator/simulator.js';
import { startSilenceSweep } from './modules/live/silence.js';
import { startFleetSweep } from './modules/fleet/sweep.js';
import { createReportScheduler } from './modules/schedules/scheduler.js';
import { simulatedDevices } from './simulator/devices.js';
import { log } from './platform/logger.js';
import { runShutdownHooks, setPhase } from './platform/lifecycle.js';
import { startMetricsServer } from './platform/metrics.js';
import { startingResponder } from './platform/starting.js';

/** Whether the promise settles within ms (its outcome is the caller's to await). */
const settlesWithin = (p: Promise<unknown>, ms: number) =>
  new Promise<boolean>((resolve) => {
    const timer = setTimeout(() => resolve(false), ms);
    p.then(
      () => (clearTimeout(timer), resolve(true)),
      () => (clearTimeout(timer), resolve(true)),
    );
  });

// start-up time is counted from the process start (module loading included)
const sinceStart = () => Math.round(process.uptime() * 1000);

async function main() {
  setPhase('starting');
  const config = loadConfig();
  if (config.sso?.mode === 'embedded') log({ msg: 'warning', warning: embeddedSsoWarning(config.sso.issuer) });
  else if (
    config.demo &&
    !config.sso &&
    process.env.PUBLIC_URL &&
    !isLoopbackUrl(process.env.PUBLIC_URL) &&
    !/^(false|0)$/.test(process.env.SSO_EMBEDDED ?? '')
  )
    log({ msg: 'the embedded demo identity provider is not started: PUBLIC_URL is not a loopback address (SSO_EMBEDDED=true starts it anyway)' });
  // Live devices: with demo data and no GATEWAY_KEYS, a gateway key kept in DATA_DIR (printed below).
  if (config.demo && !config.gatewayKeys.length) {
    config.gatewayKeys = [demoGatewayKey(config.dataDir)];
    config.gatewayKeyGenerated = true;
  }
  const clientDir = resolve(process.env.CLIENT_DIR || 'dist/client');
  if (!existsSync(join(clientDir, 'index.html')) && process.env.SKIP_CLIENT_BUILD !== '1') {
    log({ msg: 'building the client (first start)…' });
    execFileSync(process.execPath, [resolve('node_modules/vite/bin/vite.js'), 'build', '--logLevel', 'warn'], { stdio: 'inherit' });
  }
  // While the database is migrated (and on first start seeded) the port answers 503 'starting', so probes and proxies see why.
  const starting = await startingResponder(config.port, process.env.HOST ?? '0.0.0.0');
  const db = await prepareDatabase(config, log);
  await backfillLastMessages(db); // live devices: demo message history → each device's last message

  const outbox = createOutbox({ smtpUrl: config.smtpUrl, log, now: config.now });
  // Several nodes share sign-in rate limits through Redis (REDIS_URL); without it each node counts alone.
  const redis = config.redisUrl ? openRedis(config.redisUrl, { log }) : undefined;
  // Pub/sub between nodes on a second Redis connection (subscriber mode takes no other commands).
  const bus = redis ? openRedisBus(redis, { log }) : createMemoryBus();
  await starting.close();
  // Export workers open their own connections: PostgreSQL by URL, SQLite read-only on the same file.
  const dbSource = config.databaseUrl
    ? ({ kind: 'pg', url: config.databaseUrl } as const)
    : ({ kind: 'sqlite', file: join(config.dataDir, 'workspace.sqlite') } as const);
  const server = await createServer({ db, config, outbox, log, redis, bus, dbSource }, { clientDir });
  const metricsServer = config.metricsPort ? await startMetricsServer(config.metricsPort, db, log) : undefined;
  // Mail a crash left unsent goes out now, not with the next message (the relay skips anything over an hour old).
  outbox.flush(db);
  // Expired, used and revoked refresh tokens are deleted hourly (decision "Refresh tokens are cleaned up hourly",
  // docs/decisions/auth-and-sessions.md).
  const tokenCleanup = startRefreshTokenCleanup({ db, now: config.now, log });
  // Live devices: devices silent past the connected window are announced as not connected (decision
  // "Silent devices are announced as not connected", docs/decisions/live-and-hub.md).
  const silenceSweep = startSilenceSweep({ db, now: config.now, log, publish: (events) => server.services.hub.publish(events) });
  // Fleet Health: counted again every minute; a change is announced once across nodes (modules/fleet/sweep.ts).
  const fleetSweep = startFleetSweep({ db, now: config.now, log, broadcast: (event, payload) => server.services.hub.broadcast(event, payload) });
  // Scheduled reports: due schedules are claimed (one node per due time), built in the export pool and e-mailed through the outbox.
  const scheduler = createReportScheduler({ db, outbox, exports: server.services.exports, now: config.now, log });
  scheduler.start(config.schedulerIntervalMs);
  // Live devices: with demo data the device simulator drives a few demo devices through the public ingestion endpoint (SIMULATOR=off: not).
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
      // sso
      ...(config.sso?.mode === 'embedded'
        ? [
            '',
            `  ${'!'.repeat(78)}`,
            `  ${embeddedSsoWarning(config.sso.issuer)}`,
            `  ${'!'.repeat(78)}`,
            `  Single sign-on (${config.sso.providerName}, ${config.sso.issuer}; no password):`,
            ...SSO_DEMO_IDENTITIES.map((i) => `    ${i.email.padEnd(28)} ${i.label}`),
          ]
        : config.sso
          ? [`  Single sign-on: ${config.sso.providerName} (${config.sso.issuer})`]
          : []),
      ...(config.gatewayKeyGenerated ? [`  Gateway key (X-Gateway-Key, kept in ${join(config.dataDir, 'gateway-key.json')}): ${config.gatewayKeys[0]}`] : []),
      ...(simulator ? [`  Device simulator: ${simulator.devices().length} demo devices (SIMULATOR=off to stop it)`] : []),
      ...(metricsServer ? [`  Metrics: http://127.0.0.1:${config.metricsPort}/metrics (loopback only)`] : []),
      `  Started in ${sinceStart()} ms (${import.meta.url.endsWith('.js') ? 'compiled JavaScript' : 'TypeScript through tsx'})`,
      '',
    ].join('\n') + '\n',
  );

  setPhase('ready');
  log({ msg: 'ready', port: server.port, startupMs: sinceStart() });

  // SIGTERM/SIGINT drain: /ready turns 503, background timers stop, exports and a scheduled run
  // under way get half of SHUTDOWN_TIMEOUT_MS to finish (then they are cancelled), the hub closes
  // its connections with a reconnect hint, the server stops accepting and finishes open requests,
  // registered shutdown hooks finish, the outbox sends what is pending, then the process exits 0.
  // Past SHUTDOWN_TIMEOUT_MS it exits 1 whatever is still running.
  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    setPhase('draining');
    log({ msg: 'shutting down', signal });
    const timeoutMs = config.shutdownTimeoutMs ?? SHUTDOWN_TIMEOUT_MS;
    let step = 'background work';
    const force = setTimeout(() => {
      log({ msg: 'shutdown timed out; exiting with work unfinished', level: 'error', timeoutMs, waitingFor: step });
      process.exit(1);
    }, timeoutMs);
    force.unref();
    const cleanupStopped = tokenCleanup.stop();
    silenceSweep.stop();
    fleetSweep.stop();
    // A token clean-up or scheduled run under way finishes (its e-mails are queued), exports queued or running
    // finish (their downloads are open requests), for at most half the drain time: what is still
    // running then is cancelled (its download ends, a scheduled run is tried again by a node that
    // takes it over), so the rest of the drain fits in the time left.
    step = 'exports and scheduled runs';
    const exportGraceMs = Math.floor(timeoutMs / 2);
    const background = Promise.all([cleanupStopped, scheduler.stop(), simulator?.stop(), server.services.exports.drain()]);
    if (!(await settlesWithin(background, exportGraceMs))) {
      const s = server.services.exports.stats();
      log({ msg: 'exports cancelled on shutdown', level: 'warn', running: s.running, queued: s.queued, imports: s.imports, graceMs: exportGraceMs });
      step = 'cancelled exports';
      await server.services.exports.close();
      await background.catch(() => {}); // each part logs its own failure
    }
    step = 'open requests and connections';
    await server.close(); // hub connections closed with allowReconnect, then no new connections, open requests finish
    step = 'shutdown hooks';
    await runShutdownHooks(log);
    metricsServer?.close();
    step = 'outbox';
    outbox.flush(db);
    await outbox.close(); // waits for the relay to finish what is pending
    step = 'Redis and the database';
    await bus.close();
    await redis?.close();
    await db.destroy();
    log({ msg: 'stopped', signal });
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
}

main().catch((e) => {
  // A configuration problem is one line naming what to fix; anything else keeps its stack.
  log({ msg: 'fatal', level: 'fatal', error: e instanceof StartupError ? e.message : String(e?.stack ?? e) });
  process.exit(1);
});
