// `npm start` (bin/start.mjs) runs the compiled server in dist/server — no TypeScript loader — and
// prints its start-up time. The integration project's global set-up has compiled it
// (tests/helpers/global-build.ts, the same function `npm start` calls when the build is stale).
import { afterAll, expect, test } from 'vitest';
import { existsSync, rmSync } from 'node:fs';
import { logLines, serverEnv, startServerProcess, tempDataDir } from '../helpers/process.js';

const dir = tempDataDir('build-start');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

test.skipIf(process.env.TEST_DB === 'pg')(
  'after the build, npm start runs compiled JavaScript and says how long it took to start',
  async () => {
    expect(existsSync('dist/server/server/main.js')).toBe(true);

    const srv = await startServerProcess(['bin/start.mjs'], serverEnv(dir));
    try {
      expect(srv.output()).toMatch(/Started in \d+ ms \(compiled JavaScript\)/);
      expect(srv.output()).not.toContain('Compiling');
      const ready = logLines(srv.output()).find((l) => l.msg === 'ready');
      expect(ready).toMatchObject({ level: 'info', startupMs: expect.any(Number) });
      const health = await fetch(`${srv.url}/health`);
      expect(await health.json()).toEqual({ status: 'ok', database: 'ok', redis: 'not configured' });
      // the compiled server answers the API like the sources do
      const res = await fetch(`${srv.url}/api/v1/device/00000000-0000-4000-8000-000000000001/general-details`, { method: 'PUT' });
      expect(res.status).toBe(401);
    } finally {
      srv.child.kill('SIGTERM');
      expect(await srv.exited).toBe(0);
    }
  },
  240_000,
);
