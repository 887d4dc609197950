import { mkdirSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { randomBytes } from 'node:crypto';

export type Config = {
  port: number;
  dataDir: string;
  databaseUrl?: string;
  redisUrl?: string;
  smtpUrl?: string;
  /** HS256 key for access tokens. */
  jwtSecret: Uint8Array;
  /** OAuth client ids the token endpoint accepts. */
  clientIds: string[];
  accessTokenSeconds: number;
  refreshTokenDays: number;
  demoPassword: string;
  demo: boolean;
  seed: number;
  scale: number;
  logRequests: boolean;
  /** Failed sign-ins (wrong password or code) in a row that lock a person (LOCKOUT_MAX_FAILURES). */
  lockoutMaxFailures: number;
  /** How long that lock lasts (LOCKOUT_MINUTES); an unlock or a completed password reset ends it at once. */
  lockoutMinutes: number;
  /** How long a node trusts its cached session epoch of a person (ms); other nodes see a bump after at most this. */
  sessionCheckMs: number;
  /** Time source, replaceable in tests. */
  now: () => Date;
};

export const DEFAULT_DEMO_PASSWORD = 'Demo-Passw0rd!';

function positiveInt(value: string | undefined, fallback: number) {
  const n = Number(value);
  return value !== undefined && value.trim() !== '' && Number.isInteger(n) && n > 0 ? n : fallback;
}

/** Reads config from the environment; creates DATA_DIR and its signing key on first start. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const dataDir = resolve(env.DATA_DIR ?? './data');
  mkdirSync(dataDir, { recursive: true });
  let secret = env.JWT_SECRET;
  if (!secret) {
    const keyFile = join(dataDir, 'signing-key.json');
    if (existsSync(keyFile)) secret = JSON.parse(readFileSync(keyFile, 'utf8')).jwtSecret;
    else {
      secret = randomBytes(48).toString('base64url');
      writeFileSync(keyFile, JSON.stringify({ jwtSecret: secret }), { mode: 0o600 });
    }
  }
  return {
    port: Number(env.PORT ?? 8080),
    dataDir,
    databaseUrl: env.DATABASE_URL || undefined,
    redisUrl: env.REDIS_URL || undefined,
    smtpUrl: env.SMTP_URL || undefined,
    jwtSecret: new TextEncoder().encode(secret!),
    clientIds: (env.CLIENT_IDS ?? 'portal').split(',').map((s) => s.trim()).filter(Boolean),
    accessTokenSeconds: Number(env.ACCESS_TOKEN_SECONDS ?? 900),
    refreshTokenDays: Number(env.REFRESH_TOKEN_DAYS ?? 14),
    demoPassword: env.DEMO_PASSWORD || DEFAULT_DEMO_PASSWORD,
    demo: env.DEMO_DATA !== 'false' && env.DEMO_DATA !== '0',
    seed: Number(env.SEED ?? 1),
    scale: Number(env.SCALE ?? 1),
    logRequests: env.LOG_REQUESTS !== 'false',
    lockoutMaxFailures: positiveInt(env.LOCKOUT_MAX_FAILURES, 5),
    lockoutMinutes: positiveInt(env.LOCKOUT_MINUTES, 5),
    sessionCheckMs: 5000,
    now: () => new Date(),
  };
}

/** Config for tests: nothing on disk, fixed secret. */
export function testConfig(over: Partial<Config> = {}): Config {
  return {
    port: 0,
    dataDir: '',
    jwtSecret: new TextEncoder().encode('test-secret-test-secret-test-secret'),
    clientIds: ['portal'],
    accessTokenSeconds: 900,
    refreshTokenDays: 14,
    demoPassword: DEFAULT_DEMO_PASSWORD,
    demo: false,
    seed: 1,
    scale: 1,
    logRequests: false,
    lockoutMaxFailures: 5,
    lockoutMinutes: 5,
    sessionCheckMs: 5000,
    now: () => new Date(),
    ...over,
  };
}
