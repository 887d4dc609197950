import { chmodSync, mkdirSync, existsSync, readFileSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { createHmac, randomBytes } from 'node:crypto';

export type Config = {
  port: number;
  dataDir: string;
  databaseUrl?: string;
  redisUrl?: string;
  smtpUrl?: string;
  /** HS256 key for access tokens. */
  jwtSecret: Uint8Array;
  /** OAuth client ids the token endpoint accepts (public clients: the browser app; captcha required). */
  clientIds: string[];
  /** Confidential clients (CLIENT_SECRETS=id:secret,...): authenticate with client_secret, exempt from captcha. */
  clientSecrets: Record<string, string>;
  captcha: CaptchaConfig;
  /** Single sign-on (src/server/auth/sso): an external OpenID Connect issuer, the embedded demo provider, or none. */
  sso?: SsoConfig;
  accessTokenSeconds: number;
  refreshTokenDays: number;
  demoPassword: string;
  demo: boolean;
  seed: number;
  scale: number;
  logRequests: boolean;
  /** Bearer token Prometheus sends to GET /metrics (METRICS_TOKEN); unset: /metrics is not served on the app port. */
  metricsToken?: string;
  /** METRICS_PORT: /metrics without a token on 127.0.0.1:port (0 or unset: no such listener). */
  metricsPort?: number;
  /** How long SIGTERM waits for requests, exports and the outbox before exiting anyway (SHUTDOWN_TIMEOUT_MS, default 25 s). */
  shutdownTimeoutMs?: number;
  /** How often each node looks for due scheduled reports (SCHEDULER_INTERVAL_MS, default 30 s). */
  schedulerIntervalMs?: number;
  /**
   * Break-glass accounts (SIGN_IN_BREAK_GLASS, comma-separated e-mail addresses): their password
   * sign-in works even where single sign-on is required (their domain's or their own login method);
   * the second factor still applies. For getting back in when single sign-on fails.
   */
  signInBreakGlass?: string[];
  /** Failed sign-ins (wrong password or code) in a row that lock a person (LOCKOUT_MAX_FAILURES). */
  lockoutMaxFailures: number;
  /** How long that lock lasts (LOCKOUT_MINUTES); an unlock or a completed password reset ends it at once. */
  lockoutMinutes: number;
  /** How long a node trusts its cached session epoch of a person (ms); other nodes see a bump after at most this. */
  sessionCheckMs: number;
  /**
   * Reverse proxies in front of the server (TRUST_PROXY, default 0): the client address is then
   * taken from X-Forwarded-For, that many entries from the right. 0: the socket peer, header ignored.
   */
  trustProxy: number;
  /**
   * Live devices: keys a gateway sends in X-Gateway-Key to ingest device messages
   * (GATEWAY_KEYS, comma-separated). With demo data and none set, main.ts adds the one kept in the
   * data directory (demoGatewayKey) and prints it at start-up (`gatewayKeyGenerated`).
   */
  gatewayKeys: string[];
  gatewayKeyGenerated?: boolean;
  /** Ingestion batches one gateway key may send per 10 seconds (GATEWAY_BATCHES_PER_10S, default 1,000); more answer 429. */
  gatewayBatchesPer10s?: number;
  /**
   * SQLite page cache and memory-mapped I/O per connection, in MB (SQLITE_CACHE_MB default 16,
   * SQLITE_MMAP_MB default 0: no memory map). The pages beyond the cache are read from the
   * operating system's file cache, which is not the server's memory; a memory map would count every
   * page a shift reads in the server's resident memory (docs/decisions/storage-and-migrations.md).
   */
  sqlite?: SqliteSizing;
  /** The device simulator `npm start` runs with demo data (SIMULATOR=off switches it off; SIMULATOR_DEVICES, SIMULATOR_INTERVAL_MS). */
  simulator: { enabled: boolean; devices: number; intervalMs: number };
  /** Bus channel prefix of the hub (HUB_CHANNEL_PREFIX, default 'hub'): nodes of one deployment share it. */
  hubChannelPrefix?: string;
  /** Time source, replaceable in tests. */
  now: () => Date;
  /** The CRM behind "linked customer account" (customers): the embedded directory unless SALESFORCE_INSTANCE_URL is set. */
  crm?: CrmConfig;
  /**
   * The export pool (src/server/exports): worker threads (EXPORT_WORKERS, default cores − 1) and exports that may wait (EXPORT_QUEUE, default 8);
   * rows an import writes between progress steps (default 500) and rows a CSV download reads at a time (default 1,000), set by tests;
   * tests also point the worker threads at another module (workerFile, a file URL) to make them fail.
   */
  exports?: { workers?: number; queue?: number; importStep?: number; csvPage?: number; workerFile?: string };
};

/**
 * The demo gateway key, kept in DATA_DIR/gateway-key.json (made on first use). main.ts and the
 * simulator call this when demo data is on and GATEWAY_KEYS is empty; loadConfig does not, so
 * reading the configuration writes nothing but the signing key.
 */
export function demoGatewayKey(dataDir: string): string {
  const file = join(dataDir, 'gateway-key.json');
  if (existsSync(file)) return String(JSON.parse(readFileSync(file, 'utf8')).gatewayKey);
  const key = randomBytes(24).toString('base64url');
  writeFileSync(file, JSON.stringify({ gatewayKey: key }), { mode: 0o600 });
  return key;
}

/**
 * Captcha (src/server/captcha): a self-hosted ALTCHA proof of work by default; Google reCAPTCHA v3
 * when RECAPTCHA_SECRET and RECAPTCHA_SITE_KEY are set.
 */
export type CaptchaConfig = {
  /** ALTCHA: HMAC key signing challenges; SHA-256 rounds per attempt; the solution counter is drawn from 1..maxNumber. */
  altcha: { hmacKey: string; cost: number; maxNumber: number; ttlSeconds: number };
  recaptcha?: { secret: string; siteKey: string; verifyUrl: string; minScore: number };
};

/**
 * Single sign-on. `external`: any OpenID Connect issuer, in production Microsoft Entra ID
 * (SSO_ISSUER, or SSO_TENANT_ID alone for https://login.microsoftonline.com/{tenant}/v2.0;
 * SSO_CLIENT_ID; SSO_PROVIDER_NAME, default 'Microsoft'). `embedded`: the demo identity provider
 * this server mounts under /oidc when demo data is on, no issuer is configured and the public URL is
 * a loopback address (SSO_EMBEDDED=true starts it on any address, SSO_EMBEDDED=false turns it off).
 */
export type SsoConfig = {
  mode: 'external' | 'embedded';
  issuer: string;
  clientId: string;
  /** Entra ID directory (tenant) id: ID tokens must carry it as `tid`. */
  tenantId?: string;
  /** Shown on the sign-in button and in the sso_enforced message. */
  providerName: string;
  /** Scopes the browser asks for. */
  scope: string;
  /** OpenID `prompt` the browser sends (SSO_PROMPT; Entra ID: select_account, so a shared machine shows whose account). */
  prompt: string;
};

export const ENTRA_AUTHORITY = 'https://login.microsoftonline.com';

/** Whether the URL's host is this machine only (localhost, 127.0.0.0/8, ::1). */
export function isLoopbackUrl(url: string): boolean {
  let host: string;
  try {
    host = new URL(url).hostname.toLowerCase();
  } catch {
    return false;
  }
  return host === 'localhost' || host.endsWith('.localhost') || /^127(\.\d{1,3}){3}$/.test(host) || host === '[::1]';
}

/** The start-up warning while the embedded demo identity provider runs (printed and logged). */
export const embeddedSsoWarning = (issuer: string) =>
  `WARNING: the embedded demo identity provider is ON at ${issuer}: it signs anyone who can reach it in WITHOUT A PASSWORD, ` +
  'as any demo identity (Provider Admin included). It starts only with demo data and a loopback PUBLIC_URL, or SSO_EMBEDDED=true; ' +
  'SSO_EMBEDDED=false turns it off.';
export const EMBEDDED_SSO_PATH = '/oidc';
export const EMBEDDED_SSO_CLIENT_ID = 'workspace-sso';

export function ssoConfig(env: NodeJS.ProcessEnv, o: { demo: boolean; port: number }): SsoConfig | undefined {
  const tenantId = env.SSO_TENANT_ID?.trim() || undefined;
  const issuer = env.SSO_ISSUER?.trim() || (tenantId ? `${ENTRA_AUTHORITY}/${tenantId}/v2.0` : undefined);
  if (issuer) {
    const clientId = env.SSO_CLIENT_ID?.trim();
    if (!clientId)
      throw new StartupError('SSO_CLIENT_ID must be set with SSO_ISSUER or SSO_TENANT_ID (the application (client) id registered with the identity provider)');
    if (!/^https?:\/\//.test(issuer)) throw new StartupError(`SSO_ISSUER must be an http(s) URL, not "${issuer}"`);
    return {
      mode: 'external',
      issuer: issuer.replace(/\/+$/, ''),
      clientId,
      tenantId,
      providerName: env.SSO_PROVIDER_NAME?.trim() || 'Microsoft',
      scope: env.SSO_SCOPE?.trim() || 'openid profile email',
      prompt: env.SSO_PROMPT?.trim() || 'select_account',
    };
  }
  if (!o.demo || env.SSO_EMBEDDED === 'false' || env.SSO_EMBEDDED === '0') return undefined;
  const base = (env.PUBLIC_URL?.trim() || `http://localhost:${o.port || 8080}`).replace(/\/+$/, '');
  // It signs anyone in without a password: only on a loopback address unless asked for explicitly.
  const explicit = env.SSO_EMBEDDED === 'true' || env.SSO_EMBEDDED === '1';
  if (!explicit && !isLoopbackUrl(base)) return undefined;
  return {
    mode: 'embedded',
    issuer: `${base}${EMBEDDED_SSO_PATH}`,
    clientId: EMBEDDED_SSO_CLIENT_ID,
    providerName: env.SSO_PROVIDER_NAME?.trim() || 'Demo ID',
    scope: 'openid profile email',
    prompt: 'login',
  };
}

export const RECAPTCHA_VERIFY_URL = 'https://www.google.com/recaptcha/api/siteverify';

/** CLIENT_SECRETS=integration:secret,other:secret2 → { integration: 'secret', other: 'secret2' } */
export function parseClientSecrets(value: string | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const pair of (value ?? '').split(',')) {
    const i = pair.indexOf(':');
    const id = pair.slice(0, i).trim();
    const secret = pair.slice(i + 1).trim();
    if (i > 0 && id && secret) out[id] = secret;
  }
  return out;
}

/** How long a SIGTERM drain may take before the process exits anyway (SHUTDOWN_TIMEOUT_MS overrides). */
export const SHUTDOWN_TIMEOUT_MS = 25_000;

export const DEFAULT_DEMO_PASSWORD = 'Demo-Passw0rd!';

function positiveInt(value: string | undefined, fallback: number) {
  const n = Number(value);
  return value !== undefined && value.trim() !== '' && Number.isInteger(n) && n > 0 ? n : fallback;
}

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

export type SqliteSizing = { cacheMb: number; mmapMb: number };
export const SQLITE_SIZING_DEFAULT: SqliteSizing = { cacheMb: 16, mmapMb: 0 };
/** SQLITE_CACHE_MB and SQLITE_MMAP_MB, each defaulting to SQLITE_SIZING_DEFAULT. */
export const sqliteSizingOf = (env: NodeJS.ProcessEnv): SqliteSizing => ({
  cacheMb: nonNegativeInt(env.SQLITE_CACHE_MB, SQLITE_SIZING_DEFAULT.cacheMb, 'SQLITE_CACHE_MB'),
  mmapMb: nonNegativeInt(env.SQLITE_MMAP_MB, SQLITE_SIZING_DEFAULT.mmapMb, 'SQLITE_MMAP_MB'),
});
function nonNegativeInt(raw: string | undefined, fallback: number, name: string): number {
  if (raw === undefined || raw.trim() === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0) throw new StartupError(`${name} must be a whole number of megabytes (0 or more), not "${raw}"`);
  return n;
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
  const port = Number(env.PORT ?? 8080);
  const demo = env.DEMO_DATA !== 'false' && env.DEMO_DATA !== '0';
  return {
    port,
    dataDir,
    databaseUrl: env.DATABASE_URL || undefined,
    exports: { workers: env.EXPORT_WORKERS ? positiveInt(env.EXPORT_WORKERS, 1) : undefined, queue: positiveInt(env.EXPORT_QUEUE, 8) },
    redisUrl: env.REDIS_URL || undefined,
    smtpUrl: env.SMTP_URL || undefined,
    jwtSecret: new TextEncoder().encode(secret!),
    clientIds: (env.CLIENT_IDS ?? 'portal')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean),
    clientSecrets: parseClientSecrets(env.CLIENT_SECRETS),
    captcha: {
      altcha: {
        // Derived from the signing key unless given: every node sharing JWT_SECRET accepts the others' challenges.
        hmacKey: env.ALTCHA_HMAC_KEY || createHmac('sha256', secret!).update('altcha-challenge').digest('base64url'),
        cost: positiveInt(env.ALTCHA_COST, 1),
        maxNumber: positiveInt(env.ALTCHA_MAX_NUMBER, 50_000),
        ttlSeconds: positiveInt(env.CAPTCHA_TTL_SECONDS, 600),
      },
      recaptcha:
        env.RECAPTCHA_SECRET && env.RECAPTCHA_SITE_KEY
          ? {
              secret: env.RECAPTCHA_SECRET,
              siteKey: env.RECAPTCHA_SITE_KEY,
              verifyUrl: env.RECAPTCHA_VERIFY_URL || RECAPTCHA_VERIFY_URL,
              minScore: Number(env.RECAPTCHA_MIN_SCORE ?? 0.5),
            }
          : undefined,
    },
    sso: ssoConfig(env, { demo, port }),
    accessTokenSeconds: Number(env.ACCESS_TOKEN_SECONDS ?? 900),
    refreshTokenDays: Number(env.REFRESH_TOKEN_DAYS ?? 14),
    demoPassword: env.DEMO_PASSWORD || DEFAULT_DEMO_PASSWORD,
    demo,
    seed: Number(env.SEED ?? 1),
    scale: Number(env.SCALE ?? 1),
    logRequests: env.LOG_REQUESTS !== 'false',
    metricsToken: env.METRICS_TOKEN?.trim() || undefined,
    metricsPort: positiveInt(env.METRICS_PORT, 0) || undefined,
    shutdownTimeoutMs: positiveInt(env.SHUTDOWN_TIMEOUT_MS, SHUTDOWN_TIMEOUT_MS),
    schedulerIntervalMs: env.SCHEDULER_INTERVAL_MS ? positiveInt(env.SCHEDULER_INTERVAL_MS, 30_000) : undefined,
    signInBreakGlass: (env.SIGN_IN_BREAK_GLASS ?? '')
      .split(',')
      .map((s) => s.trim().toLowerCase())
      .filter(Boolean),
    lockoutMaxFailures: positiveInt(env.LOCKOUT_MAX_FAILURES, 5),
    lockoutMinutes: positiveInt(env.LOCKOUT_MINUTES, 5),
    sessionCheckMs: 5000,
    trustProxy: proxyHops(env.TRUST_PROXY),
    gatewayKeys: (env.GATEWAY_KEYS ?? '')
      .split(',')
      .map((k) => k.trim())
      .filter(Boolean),
    gatewayBatchesPer10s: positiveInt(env.GATEWAY_BATCHES_PER_10S, 1000),
    sqlite: sqliteSizingOf(env),
    hubChannelPrefix: env.HUB_CHANNEL_PREFIX || undefined,
    simulator: {
      enabled: env.DEMO_DATA !== 'false' && env.DEMO_DATA !== '0' && !['off', 'false', '0', 'no'].includes((env.SIMULATOR ?? '').trim().toLowerCase()),
      devices: positiveInt(env.SIMULATOR_DEVICES, 25),
      intervalMs: positiveInt(env.SIMULATOR_INTERVAL_MS, 5_000),
    },
    now: () => new Date(),
    crm: crmConfig(env),
  };
}

/** The Salesforce adapter's settings (modules/customers/crm/salesforce.ts). */
export type SalesforceConfig = {
  instanceUrl: string;
  apiVersion: string;
  accessToken?: string;
  clientId?: string;
  clientSecret?: string;
  tokenUrl?: string;
  urnField: string;
  csmField: string;
  tierField: string;
  timeoutMs?: number;
};

/** Which CRM answers customer account searches (modules/customers/crm). */
export type CrmConfig = { provider: 'embedded' } | ({ provider: 'salesforce' } & SalesforceConfig);

/** Customers' CRM (modules/customers/crm): Salesforce when SALESFORCE_INSTANCE_URL is set (README "Customers"), else the embedded directory. */
export function crmConfig(env: NodeJS.ProcessEnv): CrmConfig {
  const instanceUrl = env.SALESFORCE_INSTANCE_URL?.trim();
  if (!instanceUrl || env.CRM_PROVIDER === 'embedded') return { provider: 'embedded' };
  if (!/^https?:\/\//.test(instanceUrl)) throw new StartupError(`SALESFORCE_INSTANCE_URL must be an http(s) URL, not "${instanceUrl}"`);
  const accessToken = env.SALESFORCE_ACCESS_TOKEN?.trim() || undefined;
  const clientId = env.SALESFORCE_CLIENT_ID?.trim() || undefined;
  const clientSecret = env.SALESFORCE_CLIENT_SECRET?.trim() || undefined;
  if (!accessToken && !(clientId && clientSecret))
    throw new StartupError('SALESFORCE_INSTANCE_URL needs SALESFORCE_ACCESS_TOKEN or SALESFORCE_CLIENT_ID and SALESFORCE_CLIENT_SECRET');
  return {
    provider: 'salesforce',
    instanceUrl,
    apiVersion: (env.SALESFORCE_API_VERSION?.trim() || '60.0').replace(/^v/, ''),
    accessToken,
    clientId,
    clientSecret,
    tokenUrl: env.SALESFORCE_TOKEN_URL?.trim() || undefined,
    urnField: env.SALESFORCE_URN_FIELD?.trim() || 'URN__c',
    csmField: env.SALESFORCE_CSM_FIELD?.trim() || 'Customer_Success_Manager__c',
    tierField: env.SALESFORCE_TIER_FIELD?.trim() || 'Customer_Success_Tier__c',
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
    clientSecrets: {},
    // Real verification, low difficulty: a test solves a challenge in a few hashes.
    captcha: { altcha: { hmacKey: 'test-altcha-key', cost: 1, maxNumber: 20, ttlSeconds: 600 } },
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
    // app.request() has no socket: tests stand in for one proxy and say who the client is in X-Forwarded-For.
    trustProxy: 1,
    gatewayKeys: ['test-gateway-key'],
    simulator: { enabled: false, devices: 0, intervalMs: 5_000 },
    now: () => new Date(),
    ...over,
  };
}
