import { resolve } from 'node:path';

export const E2E_PORT = Number(process.env.E2E_PORT ?? 8199);
export const E2E_DATA_DIR = resolve(process.env.E2E_DATA_DIR ?? '.tmp/e2e-data');
export const DEMO_PASSWORD = 'Demo-Passw0rd!';
