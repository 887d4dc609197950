import { chmodSync, mkdirSync, existsSync, readFileSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
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
  /**
   * Reverse proxies in front of the server (TRUST_PROXY, default 0): the client address is then
   * taken from X-Forwarded-For, that many entries from the right. 0: the socket peer, header ignored.
   */
  trustProxy: number;
  /** Time source, replaceable in tests. */
  now: () => Date;
};

export const DEFAULT_DEMO_PASSWORD = 'Demo-Passw0rd!';

/** A problem the operator must fix before the server can start: main prints the message as one line and exits. */
export class StartupError extends Error {}

/**
 * Creates the directory (and missing parents, 0700) and proves it writable, or throws a
 * StartupError naming the path. Not `mkdirSync(..., { recursive: true })`: under /proc that never
 * returns (Node 20).
 */
export function ensureWritableDir(dir: string, name = 'DATA_DIR') {
  const fail = (what: string, e?: unknown): never => {
    const code = (e as NodeJS.ErrnoException | undefined)?.code;
    throw new StartupError(`${name} ${dir} ${what}${code ? ` (${code})` : ''}: point ${name} at a directory this user can create and write`);
  };
  const missing: string[] = [];
  for (let p = dir; !existsSync(p); p = dirname(p)) {
    missing.unshift(p);
    if (dirname(p) === p) break;
  }
  for (const m of missing) {
    try {
      mkdirSync(m, { mode: 0o700 });
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') fail('cannot be created', e);
    }
  }
  let isDir = false;
  try {
    isDir = statSync(dir).isDirectory();
  } catch (e) {
    fail('cannot be read', e);
  }
  if (!isDir) fail('is not a directory');
  const probe = join(dir, `.write-probe-${process.pid}`);
  try {
    writeFileSync(probe, '', { mode: 0o600 });
    unlinkSync(probe);
  } catch (e) {
    fail('is not writable', e);
  }
}

/** Reads config from the environment; creates DATA_DIR and its signing key on first start. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const dataDir = resolve(env.DATA_DIR ?? './data');
  ensureWritableDir(dataDir);
  let secret = env.JWT_SECRET;
  if (!secret) {
    const keyFile = join(dataDir, 'signing-key.json');
    if (existsSync(keyFile)) {
      chmodSync(keyFile, 0o600); // owner-only, also when an older version wrote it otherwise
      secret = JSON.parse(readFileSync(keyFile, 'utf8')).jwtSecret;
    } else {
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
    trustProxy: proxyHops(env.TRUST_PROXY),
    now: () => new Date(),
  };
}

function proxyHops(raw: string | undefined): number {
  if (raw === undefined || raw.trim() === '') return 0;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0 || n > 10)
    throw new StartupError(`TRUST_PROXY must be the number of reverse proxies in front of the server (0, 1, 2…), not "${raw}"`);
  return n;
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
    // app.request() has no socket: tests stand in for one proxy and say who the client is in X-Forwarded-For.
    trustProxy: 1,
    now: () => new Date(),
    ...over,
  };
}
