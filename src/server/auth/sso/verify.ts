// ID-token verification against the issuer's published keys: the issuer's discovery
// document names its key set (jwks_uri); jose fetches and caches it (createRemoteJWKSet) and checks
// signature, issuer, audience (our client id), expiry and, for Entra ID, the tenant (tid). The
// nonce must be one this server issued (./nonce.ts).
import { createLocalJWKSet, createRemoteJWKSet, errors, jwtVerify, type JWTPayload } from 'jose';
import type { Config, SsoConfig } from '../../platform/config.js';
import { checkNonce } from './nonce.js';

export type SsoIdentity = { email: string; subject: string; nonce: string; nonceExpiresAt: Date; name?: string };

/** Why a token was refused: `unavailable` when the provider could not be reached, `invalid` for the token itself. */
export class SsoTokenError extends Error {
  constructor(
    readonly kind: 'unavailable' | 'invalid',
    reason: string,
  ) {
    super(reason);
    this.name = 'SsoTokenError';
  }
}

type Discovery = { issuer: string; jwks_uri: string; authorization_endpoint: string; token_endpoint: string; end_session_endpoint?: string };
type KeySet = ReturnType<typeof createRemoteJWKSet> | ReturnType<typeof createLocalJWKSet>;

const DISCOVERY_TTL_MS = 60 * 60_000;
const cache = new Map<string, { at: number; discovery: Discovery; keys: KeySet }>();

/** Key sets of issuers this process runs itself (the embedded provider): the keys it publishes, without an HTTP call to itself. */
const localKeys = new Map<string, KeySet>();
export const registerLocalKeys = (issuer: string, keys: KeySet) => void localKeys.set(issuer, keys);

/** The issuer's key set: its OpenID configuration names jwks_uri; both are fetched once an hour per issuer. */
export async function keysOf(issuer: string): Promise<KeySet> {
  return localKeys.get(issuer) ?? (await discover(issuer)).keys;
}

async function discover(issuer: string): Promise<{ discovery: Discovery; keys: KeySet }> {
  const hit = cache.get(issuer);
  if (hit && Date.now() - hit.at < DISCOVERY_TTL_MS) return hit;
  let discovery: Discovery;
  try {
    const res = await fetch(`${issuer}/.well-known/openid-configuration`, { signal: AbortSignal.timeout(5000), headers: { accept: 'application/json' } });
    if (!res.ok) throw new Error(`discovery answered ${res.status}`);
    discovery = (await res.json()) as Discovery;
  } catch (e) {
    throw new SsoTokenError('unavailable', `discovery failed: ${String((e as Error)?.message ?? e)}`);
  }
  if (discovery.issuer !== issuer || typeof discovery.jwks_uri !== 'string')
    throw new SsoTokenError('unavailable', 'discovery names another issuer or no jwks_uri');
  const entry = { at: Date.now(), discovery, keys: createRemoteJWKSet(new URL(discovery.jwks_uri), { timeoutDuration: 5000, cooldownDuration: 30_000 }) };
  cache.set(issuer, entry);
  return entry;
}

/** Forgets cached discovery documents and keys (tests that restart a provider). */
export const forgetDiscovery = () => {
  cache.clear();
  localKeys.clear();
};

const emailOf = (p: JWTPayload): string | undefined => {
  for (const claim of ['email', 'preferred_username', 'upn']) {
    const v = p[claim];
    if (typeof v === 'string' && /^[^\s@]+@[^\s@]+$/.test(v.trim())) return v.trim().toLowerCase();
  }
  return undefined;
};

/** Verifies an ID token of the configured provider; throws SsoTokenError. */
export async function verifyIdToken(config: Config, sso: SsoConfig, idToken: string): Promise<SsoIdentity> {
  const keys = await keysOf(sso.issuer);
  let payload: JWTPayload;
  try {
    ({ payload } = await jwtVerify(idToken, keys, {
      issuer: sso.issuer,
      audience: sso.clientId,
      algorithms: ['RS256', 'RS384', 'RS512', 'PS256', 'ES256', 'ES384', 'EdDSA'],
      requiredClaims: ['exp', 'iat', 'sub', 'nonce'],
      clockTolerance: 60,
      currentDate: config.now(),
    }));
  } catch (e) {
    // The key set could not be fetched (network, timeout): the provider is away, not the token wrong.
    if (e instanceof errors.JWKSTimeout || !(e instanceof errors.JOSEError)) throw new SsoTokenError('unavailable', String((e as Error)?.message ?? e));
    throw new SsoTokenError('invalid', e.code);
  }
  if (sso.tenantId && payload.tid !== sso.tenantId) throw new SsoTokenError('invalid', 'tenant');
  const nonce = payload.nonce as string;
  const nonceExpiresAt = checkNonce(config, nonce);
  if (!nonceExpiresAt) throw new SsoTokenError('invalid', 'nonce');
  const email = emailOf(payload);
  if (!email) throw new SsoTokenError('invalid', 'no e-mail claim');
  return { email, subject: payload.sub!, nonce, nonceExpiresAt, name: typeof payload.name === 'string' ? payload.name : undefined };
}
