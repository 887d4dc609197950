import { defineConfig } from '@playwright/test';
import { E2E_PORT, E2E_DATA_DIR, E2E_GATEWAY_KEY } from './env';

export default defineConfig({
  testDir: '.',
  testMatch: /.*\.e2e\.ts$/,
  fullyParallel: false,
  workers: 1,
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [['list'], ['json']],
  // Each shard of `npm test` has its own (tests/run-all.ts): Playwright empties this folder when it starts.
  outputDir: process.env.E2E_OUTPUT_DIR ?? '../../.tmp/e2e-results',
  use: {
    baseURL: `http://127.0.0.1:${E2E_PORT}`,
    viewport: { width: 1440, height: 900 },
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--disable-quic',
        '--no-first-run',
      ],
    },
  },
  webServer: {
    // fresh demo data each run (the wipe must happen before the server starts)
    // the compiled server, started as `npm start` starts it (tests/run-all.ts builds it first as the README says)
    command: `rm -rf '${E2E_DATA_DIR}' && node bin/start.mjs`,
    cwd: '../..',
    url: `http://127.0.0.1:${E2E_PORT}/health`,
    timeout: 600_000,
    reuseExistingServer: false,
    stdout: 'ignore',
    stderr: 'pipe',
    env: {
      PORT: String(E2E_PORT),
      DATA_DIR: E2E_DATA_DIR,
      SCALE: process.env.E2E_SCALE ?? '0.05',
      SEED: '7',
      LOG_REQUESTS: 'false',
      DEMO_PASSWORD: 'Demo-Passw0rd!',
      // live devices: the gateway key live.e2e.ts ingests with; the simulator stays off (tests post their own messages)
      GATEWAY_KEYS: E2E_GATEWAY_KEY,
      SIMULATOR: 'off',
    },
  },
});
