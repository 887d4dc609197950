import { resolve } from 'node:path';

// `npm test` runs the end-to-end tests in E2E_WORKERS Playwright workers, each against a server of
// its own (tests/e2e/playwright.config.ts starts one per worker): worker N talks to the server on
// E2E_PORT + N whose data is in E2E_DATA_DIR-N. Playwright loads this module, and the config, in
// every worker process after setting TEST_PARALLEL_INDEX, so the constants below are that worker's.
export const E2E_WORKERS = Math.max(1, Number(process.env.E2E_WORKERS ?? 1));
const BASE_PORT = Number(process.env.E2E_PORT ?? 8199);
const BASE_DATA_DIR = resolve(process.env.E2E_DATA_DIR ?? '.tmp/e2e-data');
/** Port and data directory of server `n` (0 for the first). */
export const e2eServer = (n: number) => ({ port: BASE_PORT + n, dataDir: n === 0 ? BASE_DATA_DIR : `${BASE_DATA_DIR}-${n}` });
const mine = e2eServer(Number(process.env.TEST_PARALLEL_INDEX ?? 0));
export const E2E_PORT = mine.port;
export const E2E_DATA_DIR = mine.dataDir;
export const DEMO_PASSWORD = 'Demo-Passw0rd!';
/** The ingestion endpoint's gateway key of the e2e server (GATEWAY_KEYS in playwright.config.ts); live.e2e.ts posts with it. */
export const E2E_GATEWAY_KEY = 'e2e-gateway-key';
