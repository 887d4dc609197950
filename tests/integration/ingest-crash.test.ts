// kill -9 during ingestion (the short version of `npm run bench -- crash`): 4 gateways post batches
// of 100 device messages to the real server process, which is killed -9 at a random moment and
// started again on the same database; every message answered 2xx must be stored. The first run
// begins on an empty database, so it runs right after the server's first start (demo data), the
// others on the restarted server. SQLite by default, PostgreSQL with TEST_DB=pg (a database of its
// own, dropped afterwards).
import { expect, test } from 'vitest';
import { crashRuns, describeRun } from '../helpers/ingest-crash.js';
import { PG_ADMIN_URL, pgSelected } from '../helpers/db.js';

const dialect = pgSelected() ? 'pg' : 'sqlite';

test(`kill -9 during ingestion (${dialect}): every acknowledged message is stored, right after a fresh first start and after restarts`, async () => {
  const runs = await crashRuns({ dialect, runs: 3, perFresh: 3, scale: 0.01, pgAdminUrl: PG_ADMIN_URL, onRun: (r) => console.log(describeRun(r)) });
  expect(runs.map((r) => r.fresh)).toEqual([true, false, false]);
  // every run checked something: the kill came after answers
  for (const r of runs) expect(r.acknowledged).toBeGreaterThan(0);
  expect(runs.map((r) => r.lost)).toEqual([0, 0, 0]);
  expect(runs.every((r) => r.stored === r.acknowledged)).toBe(true);
}, 600_000);
