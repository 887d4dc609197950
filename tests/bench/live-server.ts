// The server process of the live benchmark (ingest.bench.ts): `node --import tsx tests/bench/live-server.ts <sqlite file> <port>`.
// Runs createServer as `npm start` does (no demo data, test signing key) and prints "ready <port>"; SIGTERM closes it
// (every hub connection gets a Close message first); SIGUSR2 drops every hub connection and keeps serving.
import { createServer } from '../../src/server/server.js';
import { testConfig } from '../../src/server/platform/config.js';
import { createOutbox } from '../../src/server/mail/outbox.js';
import { checkpointInBackground, openSqlite } from '../../src/server/db/index.js';

const [file = '', port = '0'] = process.argv.slice(2);
const db = openSqlite(file);
checkpointInBackground(db); // as the server's start-up does
const config = testConfig({ accessTokenSeconds: 3600 });
const log = () => {};
const srv = await createServer({ db, config, outbox: createOutbox({ log, now: () => config.now() }), log }, { port: Number(port), hostname: '127.0.0.1' });
// SIGUSR1: print the memory in use after a full GC and the CPU time used so far ("mem <heapUsed + external> <rss> <cpu µs>"),
// for the per-connection, per-message and per-connect figures
process.on('SIGUSR1', () => {
  (globalThis as { gc?: () => void }).gc?.();
  const m = process.memoryUsage();
  const cpu = process.cpuUsage();
  process.stdout.write(`mem ${m.heapUsed + m.external} ${m.rss} ${cpu.user + cpu.system}\n`);
});
// SIGUSR2: drop every hub connection (the reconnect storm)
process.on('SIGUSR2', () => srv.services.hub.dropAll());
process.on('SIGTERM', () => {
  void srv.close().then(async () => {
    await db.destroy();
    process.exit(0);
  });
});
// after the handlers: the bench signals as soon as it reads this line
process.stdout.write(`ready ${srv.port}\n`);
