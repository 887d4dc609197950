// `npm run build:server` compiles the server to dist/server, and `npm start` (bin/start.mjs) then
// runs that JavaScript — no TypeScript loader — and prints its start-up time. (`npm run build`
// is the client build followed by this.)
import { afterAll, expect, test } from 'vitest';
import { spawnSync } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';
import { logLines, serverEnv, startServerProcess, tempDataDir } from '../helpers/process.js';

const dir = tempDataDir('build-start');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

test.skipIf(process.env.TEST_DB === 'pg')(
  'after the build, npm start runs compiled JavaScript and says how long it took to start',
  async () => {
    const build = spawnSync('npm', ['run', '--silent', 'build:server'], { encoding: 'utf8' });
    expect(build.status, build.stdout + build.stderr).toBe(0);
    expect(existsSync('dist/server/server/main.js')).toBe(true);

    const srv = await startServerProcess(['bin/start.mjs'], serverEnv(dir));
    try {
      expect(srv.output()).toMatch(/Started in \d+ ms \(compiled JavaScript\)/);
      expect(srv.output()).not.toContain('running them through tsx');
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
