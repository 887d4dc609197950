// Nonces for the single-sign-on redirect. The server hands the browser a signed nonce
// (POST /api/v1/sso/nonce); the browser passes it to the identity provider, which copies it into
// the ID token. At the token exchange the nonce must carry our signature and be unexpired, so an ID
// token obtained for another application, or minted before, is refused. Once an ID token has
// produced a session its nonce is recorded (ssoNonces) and the same ID token cannot sign in again.
import { createHmac, randomBytes } from 'node:crypto';
import type { Config } from '../../platform/config.js';
import type { DB } from '../../db/index.js';
import { sameHash, sha256 } from '../store.js';

/** How long a nonce is good for: the redirect, the provider's sign-in, and the consent / account steps. */
export const SSO_NONCE_TTL_MS = 60 * 60_000;
const PREFIX = 'n1';

const mac = (config: Config, body: string) => createHmac('sha256', config.jwtSecret).update(`sso-nonce:${body}`).digest('base64url');

export function issueNonce(config: Config): { nonce: string; expiresAt: string } {
  const exp = config.now().getTime() + SSO_NONCE_TTL_MS;
  const body = `${PREFIX}.${exp.toString(36)}.${randomBytes(16).toString('base64url')}`;
  return { nonce: `${body}.${mac(config, body)}`, expiresAt: new Date(exp).toISOString() };
}

/** The nonce's expiry when it is ours and unexpired, else undefined. */
export function checkNonce(config: Config, nonce: unknown): Date | undefined {
  if (typeof nonce !== 'string' || nonce.length > 200) return undefined;
  const parts = nonce.split('.');
  if (parts.length !== 4 || parts[0] !== PREFIX) return undefined;
  const body = parts.slice(0, 3).join('.');
  if (!sameHash(mac(config, body), parts[3] ?? '')) return undefined;
  const exp = parseInt(parts[1] ?? '', 36);
  if (!Number.isFinite(exp) || exp <= config.now().getTime()) return undefined;
  return new Date(exp);
}

/**
 * Records that the ID token with this nonce has signed in. False when it had already: an ID token
 * produces one session. `db` is the caller's transaction.
 */
export async function consumeNonce(db: DB, nonce: string, personId: string, expiresAt: Date, now: Date): Promise<boolean> {
  await db.deleteFrom('ssoNonces').where('expiresAt', '<', now.toISOString()).execute();
  const r = await db
    .insertInto('ssoNonces')
    .values({ nonceHash: sha256(nonce), personId, expiresAt: expiresAt.toISOString() })
    .onConflict((oc) => oc.column('nonceHash').doNothing())
    .returning('nonceHash')
    .executeTakeFirst();
  return r !== undefined;
}
