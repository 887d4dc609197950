import { resolve } from 'node:path';

export const E2E_PORT = Number(process.env.E2E_PORT ?? 8199);
export const E2E_DATA_DIR = resolve(process.env.E2E_DATA_DIR ?? '.tmp/e2e-data');
export const DEMO_PASSWORD = 'Demo-Passw0rd!';
/** The ingestion endpoint's gateway key of the e2e server (GATEWAY_KEYS in playwright.config.ts); live.e2e.ts posts with it. */
export const E2E_GATEWAY_KEY = 'e2e-gateway-key';
