// The server process of the live benchmark (ingest.bench.ts): `node --import tsx tests/bench/live-server.ts <sqlite file> <port>`.
// Runs createServer as `npm start` does (no demo data, test signing key) and prints "ready <port>"; SIGTERM closes it
// (every hub connection gets a Close message first).
import { createServer } from '../../src/server/server.js';
import { testConfig } from '../../src/server/config.js';
import { createOutbox } from '../../src/server/outbox.js';
import { openSqlite } from '../../src/server/db/index.js';

const [file = '', port = '0'] = process.argv.slice(2);
const db = openSqlite(file);
const config = testConfig({ accessTokenSeconds: 3600 });
const log = () => {};
const srv = await createServer({ db, config, outbox: createOutbox({ log, now: () => config.now() }), log }, { port: Number(port), hostname: '127.0.0.1' });
process.stdout.write(`ready ${srv.port}\n`);
process.on('SIGTERM', () => {
  void srv.close().then(async () => {
    await db.destroy();
    process.exit(0);
  });
});
