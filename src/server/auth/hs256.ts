// HS256 JSON Web Tokens (RFC 7519) signed and verified with node:crypto's HMAC, for the tokens
// checked on every request and every hub connect: ~15 µs a verify where jose (WebCrypto) spends
// 160–370 µs. The tokens are ordinary compact JWS: jose verifies ours and we verify jose's.
// Verification refuses anything but a three-part compact token whose protected header says
// alg HS256 (no 'none', no other algorithm, no 'crit' extensions), compares the signature in
// constant time, and checks exp (required), nbf, issuer, audience and the required claims.
import { createHmac, createSecretKey, timingSafeEqual, type KeyObject } from 'node:crypto';

export type JwtClaims = Record<string, unknown> & { sub?: string; iss?: string; aud?: string | string[]; exp?: number; nbf?: number; iat?: number };
export type Hs256Checks = { issuer?: string; audience?: string; requiredClaims?: readonly string[]; currentDate?: Date };

const keys = new WeakMap<Uint8Array, KeyObject>();
/** The secret as a KeyObject, made once per secret (HMAC with a KeyObject skips copying the key on every call). */
export function keyOf(secret: Uint8Array): KeyObject {
  let k = keys.get(secret);
  if (!k) keys.set(secret, (k = createSecretKey(secret)));
  return k;
}

const HEADER = Buffer.from(JSON.stringify({ alg: 'HS256', typ: 'JWT' })).toString('base64url');
const mac = (secret: Uint8Array, input: string) => createHmac('sha256', keyOf(secret)).update(input).digest();

/** A signed compact token of the claims (header { alg: HS256, typ: JWT }). */
export function signHs256(claims: JwtClaims, secret: Uint8Array): string {
  const input = `${HEADER}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}`;
  return `${input}.${mac(secret, input).toString('base64url')}`;
}

const B64URL = /^[A-Za-z0-9_-]*$/;
function decodePart(part: string): Record<string, unknown> | undefined {
  if (!B64URL.test(part)) return undefined;
  try {
    const v: unknown = JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** The token's claims when it is a valid HS256 token for the checks, else undefined. */
export function verifyHs256(token: string, secret: Uint8Array, checks: Hs256Checks = {}): JwtClaims | undefined {
  const parts = token.split('.');
  if (parts.length !== 3) return undefined;
  const [h, p, s] = parts as [string, string, string];
  const header = decodePart(h);
  if (!header || header.alg !== 'HS256' || 'crit' in header || 'b64' in header) return undefined;
  if (!B64URL.test(s)) return undefined;
  const given = Buffer.from(s, 'base64url');
  const want = mac(secret, `${h}.${p}`);
  if (given.length !== want.length || !timingSafeEqual(given, want)) return undefined;
  const claims = decodePart(p) as JwtClaims | undefined;
  if (!claims) return undefined;
  const now = Math.floor((checks.currentDate ?? new Date()).getTime() / 1000);
  if (typeof claims.exp !== 'number' || !Number.isFinite(claims.exp) || claims.exp <= now) return undefined;
  if (claims.nbf !== undefined && (typeof claims.nbf !== 'number' || claims.nbf > now)) return undefined;
  if (claims.iat !== undefined && typeof claims.iat !== 'number') return undefined;
  if (checks.issuer !== undefined && claims.iss !== checks.issuer) return undefined;
  if (checks.audience !== undefined) {
    const aud = claims.aud;
    if (!(aud === checks.audience || (Array.isArray(aud) && aud.includes(checks.audience)))) return undefined;
  }
  for (const c of checks.requiredClaims ?? []) if (claims[c] === undefined) return undefined;
  if (claims.sub !== undefined && typeof claims.sub !== 'string') return undefined;
  return claims;
}
