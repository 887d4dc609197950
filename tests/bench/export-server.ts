// The server process of the export benchmark (exports.bench.ts): `node --import tsx tests/bench/export-server.ts <sqlite file>`.
// Runs createServer as `npm start` does, with the export pool opening the same file read-only, prints
// "ready <port>", then its resident memory and CPU time every 50 ms ("rss <bytes> <cpu µs>"); SIGTERM closes it.
import { createServer } from '../../src/server/server.js';
import { testConfig } from '../../src/server/platform/config.js';
import { createOutbox } from '../../src/server/mail/outbox.js';
import { openSqlite } from '../../src/server/db/index.js';

const [file = ''] = process.argv.slice(2);
const db = openSqlite(file);
const config = testConfig({ accessTokenSeconds: 3600 });
const log = () => {};
const outbox = createOutbox({ log, now: () => config.now() });
const srv = await createServer({ db, config, outbox, log, dbSource: { kind: 'sqlite', file } }, { port: 0, hostname: '127.0.0.1' });
process.stdout.write(`ready ${srv.port}\n`);
setInterval(() => {
  const c = process.cpuUsage(); // every thread of the process: the request loop and the pool's workers
  process.stdout.write(`rss ${process.memoryUsage().rss} ${c.user + c.system}\n`);
}, 50).unref();
process.on('SIGTERM', () => {
  void srv.close().then(async () => {
    await db.destroy();
    process.exit(0);
  });
});
