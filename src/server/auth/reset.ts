// Password-reset links. Stateless: a short-lived JWT signed with a key derived from the server
// secret (so it can never pass as an access token), bound to a fingerprint of the current
// password hash (so it stops working once the password has changed: single use in effect).
import { createHmac } from 'node:crypto';
import { SignJWT, jwtVerify } from 'jose';
import type { Config } from '../platform/config.js';
import type { Person } from '../db/schema.js';
import { sha256 } from './store.js';

export const RESET_LINK_TTL_MINUTES = 60;
const PURPOSE = 'password-reset';
const ISSUER = 'safety-workspace';

const resetKey = (config: Config) => new Uint8Array(createHmac('sha256', config.jwtSecret).update(PURPOSE).digest());
const fingerprint = (person: Pick<Person, 'passwordHash'>) => sha256(`pw:${person.passwordHash ?? ''}`).slice(0, 24);

export async function signResetToken(config: Config, person: Pick<Person, 'id' | 'passwordHash'>) {
  const now = Math.floor(config.now().getTime() / 1000);
  return new SignJWT({ purpose: PURPOSE, pwf: fingerprint(person) })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(person.id)
    .setIssuedAt(now)
    .setExpirationTime(now + RESET_LINK_TTL_MINUTES * 60)
    .setIssuer(ISSUER)
    .sign(resetKey(config));
}

/** The person id the token was issued for, or null when invalid, expired or already used. */
export async function verifyResetToken(config: Config, token: string, load: (id: string) => Promise<Person | undefined>) {
  try {
    const { payload } = await jwtVerify(token, resetKey(config), { algorithms: ['HS256'], issuer: ISSUER, currentDate: config.now() });
    if (payload.purpose !== PURPOSE || typeof payload.sub !== 'string') return null;
    const person = await load(payload.sub);
    if (!person || payload.pwf !== fingerprint(person)) return null;
    return person;
  } catch {
    return null;
  }
}

/** Where links in e-mails point: PUBLIC_URL, never the request's Host header (which a caller controls). */
export function publicBaseUrl(config: Config) {
  const env = process.env.PUBLIC_URL?.trim();
  return (env || `http://localhost:${config.port || 8080}`).replace(/\/+$/, '');
}
