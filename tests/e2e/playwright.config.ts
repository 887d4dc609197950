import { existsSync } from 'node:fs';
import { defineConfig } from '@playwright/test';
import { E2E_PORT, E2E_GATEWAY_KEY, E2E_WORKERS, e2eServer } from './env';

export default defineConfig({
  testDir: '.',
  testMatch: /.*\.e2e\.ts$/,
  fullyParallel: false,
  // One server per worker (env.ts): a test sees only its own worker's data, as one operator's machine would.
  workers: E2E_WORKERS,
  // In CI a test that fails is run once more, and one that then passes is named as flaky in the
  // suite's summary (tests/run-all.ts): a timing failure under load is reported, not hidden, and a
  // real fault fails twice.
  retries: process.env.CI === 'true' || process.env.CI === '1' ? 1 : 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [['list'], ['json']],
  outputDir: '../../.tmp/e2e-results',
  use: {
    baseURL: `http://127.0.0.1:${E2E_PORT}`,
    viewport: { width: 1440, height: 900 },
    // A trace only on a test's second try (CI retries a failure once): recording one for every test
    // streams a screenshot of every frame through the browser, which doubled Chromium's CPU time
    // (measured: 142 → 69 CPU seconds for three files) and slowed every other step beside it.
    // E2E_TRACE=retain-on-failure records one on the first try too (locally, where there is no retry).
    trace: (process.env.E2E_TRACE as 'on' | 'off' | 'retain-on-failure' | 'on-first-retry' | undefined) ?? 'on-first-retry',
    screenshot: 'only-on-failure',
    launchOptions: {
      // Chromium's headless shell (Debian's chromium-headless-shell, the same release as chromium),
      // as Playwright itself runs headless tests: the same Blink and V8 without the browser's UI
      // layer, a quarter less CPU per test (pane-layout.e2e.ts: 237 → 181 CPU seconds). The full
      // browser when the shell is not installed, or CHROMIUM_PATH names another.
      executablePath: process.env.CHROMIUM_PATH ?? (existsSync('/usr/bin/chromium-headless-shell') ? '/usr/bin/chromium-headless-shell' : '/usr/bin/chromium'),
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
  webServer: Array.from({ length: E2E_WORKERS }, (_, n) => e2eServer(n)).map(({ port, dataDir }) => ({
    // fresh demo data each run (the wipe must happen before the server starts)
    // the compiled server, started as `npm start` starts it (tests/run-all.ts builds it first as the README says)
    command: `rm -rf '${dataDir}' && node bin/start.mjs`,
    cwd: '../..',
    url: `http://127.0.0.1:${port}/health`,
    timeout: 600_000,
    reuseExistingServer: false,
    stdout: 'ignore',
    stderr: 'pipe',
    env: {
      PORT: String(port),
      DATA_DIR: dataDir,
      SCALE: process.env.E2E_SCALE ?? '0.05',
      SEED: '7',
      LOG_REQUESTS: 'false',
      DEMO_PASSWORD: 'Demo-Passw0rd!',
      // live devices: the gateway key live.e2e.ts ingests with; the simulator stays off (tests post their own messages)
      GATEWAY_KEYS: E2E_GATEWAY_KEY,
      SIMULATOR: 'off',
    },
  })),
});
