import { configDefaults, defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';

const apiPrefixes = [
  '/connect',
  '/api',
  '/ps-admin',
  '/persons/get',
  '/customers/get-global-settings',
  '/features',
  '/alarm-report/',
  '/devices/',
  '/device-configuration',
  '/health',
  // the device hub (#11): SignalR negotiate and its WebSocket
  '/hub/',
];

// Tests that start compiled server nodes on a PostgreSQL and a Redis of their own and stop and
// restart those (tests/helpers/cluster.ts): a project of their own, one file at a time, after the
// server is compiled once (its globalSetup).
const clusterTests = ['tests/integration/two-nodes.test.ts', 'tests/integration/restarts.test.ts'];

export default defineConfig({
  plugins: [react()],
  // No source maps in the build: the server would publish them next to the bundles.
  build: { outDir: 'dist/client', emptyOutDir: true, sourcemap: false },
  server: {
    port: 5173,
    proxy: Object.fromEntries(apiPrefixes.map((p) => [p, { target: 'http://127.0.0.1:8080', ws: true }])),
  },
  test: {
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          environment: 'jsdom',
          include: ['tests/unit/**/*.test.{ts,tsx}'],
          setupFiles: ['tests/helpers/setup-dom.ts'],
          // Vitest's default is one worker less than the cores: one worker on a 2-core machine, with
          // a core idle. Two keep both busy (measured in docs/development.md).
          maxWorkers: Number(process.env.UNIT_WORKERS ?? 2),
        },
      },
      {
        extends: true,
        test: {
          name: 'integration',
          environment: 'node',
          include: ['tests/integration/**/*.test.ts'],
          exclude: [...configDefaults.exclude, ...clusterTests],
          testTimeout: 60_000,
          hookTimeout: 120_000,
          pool: 'forks',
          // Most integration time is waiting (child servers, PostgreSQL, Redis, timers), not CPU:
          // three files at a time on a 2-core machine (measured in docs/development.md).
          maxWorkers: Number(process.env.INTEGRATION_WORKERS ?? 3),
          globalSetup: ['tests/helpers/global-build.ts'],
        },
      },
      {
        extends: true,
        test: {
          name: 'cluster',
          environment: 'node',
          include: clusterTests,
          globalSetup: ['tests/helpers/global-build.ts'],
          testTimeout: 90_000,
          hookTimeout: 120_000,
          pool: 'forks',
          fileParallelism: false,
        },
      },
    ],
  },
});
