// Database functions of the auth service: persons as sign-in subjects, lockout counters,
// refresh-token families and one-time verification codes. Each takes the database first.
import { createHash, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';
import { sql } from 'kysely';
import { isPostgres, type DB } from '../db/index.js';
import type { Person } from '../db/schema.js';
import { audit, newId } from '../platform/util.js';

/** A verification code is valid this long. */
export const CODE_TTL_MS = 10 * 60_000;
/** A resend is honoured this long after the password was last verified. */
export const RESEND_WINDOW_MS = 30 * 60_000;

export const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

export function sameHash(a: string, b: string) {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/**
 * An audit entry about a person's account (sign-in, sign-out, password, second factor, sign-in
 * method): the person is the actor unless `actorId` names another (an administrator, or null).
 */
export const auditAccount = (db: DB, personId: string, action: string, details: unknown, at: Date, actorId: string | null = personId) =>
  audit(db, { actorId, action, entity: 'person', entityId: personId, details, at });

export const findPersonByEmail = (db: DB, email: string) =>
  db.selectFrom('persons').selectAll().where('email', '=', email.trim().toLowerCase()).executeTakeFirst();

export const findPersonById = (db: DB, id: string) => db.selectFrom('persons').selectAll().where('id', '=', id).executeTakeFirst();

/**
 * Inside a transaction: makes other transactions that lock the same person wait until this one
 * ends (PostgreSQL row lock). SQLite needs none: its transactions run one at a time.
 */
export async function lockPersonRow(db: DB, personId: string) {
  if (isPostgres(db)) await db.selectFrom('persons').select('id').where('id', '=', personId).forUpdate().execute();
}

export async function roleNamesOf(db: DB, personId: string): Promise<string[]> {
  const rows = await db
    .selectFrom('personRoles')
    .innerJoin('roles', 'roles.id', 'personRoles.roleId')
    .select('roles.name')
    .where('personRoles.personId', '=', personId)
    .orderBy('roles.order')
    .execute();
  return rows.map((r) => r.name);
}

export async function globalSetting(db: DB, key: string) {
  const row = await db.selectFrom('globalSettings').select('value').where('key', '=', key).executeTakeFirst();
  return row?.value;
}

export type LockoutPolicy = { maxFailures: number; minutes: number };

/** Locked now: locked without an end (an administrator's or demo data's lock), or a lockout that has not ended yet. */
export const isLockedAt = (p: Pick<Person, 'isLocked' | 'lockedUntil'>, at: Date) =>
  p.isLocked === 1 && (p.lockedUntil === null || p.lockedUntil > at.toISOString());

/**
 * Counts one failed attempt and locks the person for policy.minutes at the limit, in one
 * statement (so concurrent failures cannot skip the lock). A lockout that has ended starts a fresh
 * count. Returns whether this attempt is the one that locked.
 */
export async function recordFailedAttempt(db: DB, personId: string, policy: LockoutPolicy, at: Date): Promise<{ lockedNow: boolean; failedAttempts: number }> {
  const now = at.toISOString();
  const until = new Date(at.getTime() + policy.minutes * 60_000).toISOString();
  const count = sql<number>`(case when ${sql.ref('isLocked')} = 1 then 0 else ${sql.ref('failedAttempts')} end) + 1`;
  const reached = sql`${count} >= ${policy.maxFailures}`;
  const row = await db
    .updateTable('persons')
    .set({
      failedAttempts: count,
      isLocked: sql<number>`case when ${reached} then 1 else 0 end`,
      lockedUntil: sql<string | null>`case when ${reached} then ${until} else null end`,
    })
    .where('id', '=', personId)
    .where((eb) => eb.or([eb('isLocked', '=', 0), eb.and([eb('lockedUntil', 'is not', null), eb('lockedUntil', '<=', now)])]))
    .returning(['failedAttempts', 'isLocked'])
    .executeTakeFirst();
  return { lockedNow: row?.isLocked === 1, failedAttempts: row?.failedAttempts ?? policy.maxFailures };
}

/** Successful sign-in: the count starts again and a lockout that has ended is cleared. Not an edit of the person: the etag stays. */
export async function recordSuccessfulLogin(db: DB, personId: string, at: Date) {
  const now = at.toISOString();
  const ended = sql`${sql.ref('isLocked')} = 1 and ${sql.ref('lockedUntil')} is not null and ${sql.ref('lockedUntil')} <= ${now}`;
  await db
    .updateTable('persons')
    .set({
      failedAttempts: 0,
      lastLoginDate: now,
      isLocked: sql<number>`case when ${ended} then 0 else ${sql.ref('isLocked')} end`,
      lockedUntil: sql<string | null>`case when ${ended} then null else ${sql.ref('lockedUntil')} end`,
    })
    .where('id', '=', personId)
    .execute();
}

// ---- refresh tokens: opaque, stored as sha256, rotated on use, grouped in families

export const newOpaqueToken = () => randomBytes(32).toString('base64url');

export async function storeRefreshToken(db: DB, t: { personId: string; familyId: string; clientId: string; token: string; at: Date; days: number }) {
  await db
    .insertInto('refreshTokens')
    .values({
      id: newId(),
      personId: t.personId,
      familyId: t.familyId,
      tokenHash: sha256(t.token),
      clientId: t.clientId,
      createdAt: t.at.toISOString(),
      expiresAt: new Date(t.at.getTime() + t.days * 86_400_000).toISOString(),
      usedAt: null,
      revokedAt: null,
    })
    .execute();
}

export const findRefreshToken = (db: DB, token: string) => db.selectFrom('refreshTokens').selectAll().where('tokenHash', '=', sha256(token)).executeTakeFirst();

/** Marks the token used; false if someone else used or revoked it first. */
export async function claimRefreshToken(db: DB, id: string, at: Date) {
  const r = await db
    .updateTable('refreshTokens')
    .set({ usedAt: at.toISOString() })
    .where('id', '=', id)
    .where('usedAt', 'is', null)
    .where('revokedAt', 'is', null)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

export async function revokeFamily(db: DB, familyId: string, at: Date) {
  await db.updateTable('refreshTokens').set({ revokedAt: at.toISOString() }).where('familyId', '=', familyId).where('revokedAt', 'is', null).execute();
}

/** Ends every session of the person, or all but one (the caller's own). */
export async function revokePersonSessions(db: DB, personId: string, at: Date, keepFamilyId?: string) {
  let q = db.updateTable('refreshTokens').set({ revokedAt: at.toISOString() }).where('personId', '=', personId).where('revokedAt', 'is', null);
  if (keepFamilyId) q = q.where('familyId', '!=', keepFamilyId);
  await q.execute();
}

// ---- verification codes (second factor): six digits, stored as sha256, single use

export const newVerificationCode = () => String(randomInt(0, 1_000_000)).padStart(6, '0');

/** The person's codes that still work at `at`: not used, not expired. */
const validCodes = (db: DB, personId: string, at: Date) =>
  db.selectFrom('verificationCodes').where('personId', '=', personId).where('consumedAt', 'is', null).where('expiresAt', '>', at.toISOString());

/** The unconsumed, unexpired code of the person, if one was sent. */
export const pendingCode = (db: DB, personId: string, at: Date) => validCodes(db, personId, at).select(['id', 'expiresAt']).executeTakeFirst();

/** True when the person's last code was issued recently and has not been used (a sign-in is under way). */
export async function hasOpenCodeRequest(db: DB, personId: string, at: Date) {
  const row = await db
    .selectFrom('verificationCodes')
    .select('id')
    .where('personId', '=', personId)
    .where('consumedAt', 'is', null)
    .where('createdAt', '>', new Date(at.getTime() - RESEND_WINDOW_MS).toISOString())
    .executeTakeFirst();
  return !!row;
}

/** Creates a fresh code; any older unused code stops working (one valid code at a time). Run it in a transaction. */
export async function createVerificationCode(db: DB, personId: string, at: Date) {
  const code = newVerificationCode();
  const now = at.toISOString();
  await db.updateTable('verificationCodes').set({ consumedAt: now }).where('personId', '=', personId).where('consumedAt', 'is', null).execute();
  await db
    .insertInto('verificationCodes')
    .values({
      id: newId(),
      personId,
      codeHash: sha256(code),
      createdAt: now,
      expiresAt: new Date(at.getTime() + CODE_TTL_MS).toISOString(),
      consumedAt: null,
    })
    .execute();
  return code;
}

/** Uses the code if it is the person's valid one; false for wrong, expired or used codes. */
export async function consumeVerificationCode(db: DB, personId: string, code: string, at: Date) {
  if (!/^\d{6}$/.test(code)) return false;
  const rows = await validCodes(db, personId, at).select(['id', 'codeHash']).execute();
  const wanted = sha256(code);
  const match = rows.find((r) => sameHash(r.codeHash, wanted));
  if (!match) return false;
  const r = await db
    .updateTable('verificationCodes')
    .set({ consumedAt: at.toISOString() })
    .where('id', '=', match.id)
    .where('consumedAt', 'is', null)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

/**
 * Spec document 1 §3 "Current user" phoneNumbers [{ countryId, number, type }] from a person's
 * stored entries [{ CountryCode, Number, Type }]: the country code becomes the countries row's id
 * (the id the two-factor phone and the dictionaries use; '' for a code not in the table).
 */
export async function currentUserPhones(db: DB, json: string): Promise<{ countryId: string; number: string; type: number }[]> {
  let list: unknown;
  try {
    list = JSON.parse(json);
  } catch {
    return [];
  }
  if (!Array.isArray(list)) return [];
  const entries = list
    .filter((p): p is Record<string, unknown> => !!p && typeof p === 'object')
    .map((p) => ({ code: String(p.CountryCode ?? ''), number: String(p.Number ?? ''), type: Number(p.Type) || 0 }))
    .filter((p) => p.number !== '');
  if (!entries.length) return [];
  const codes = [...new Set(entries.map((p) => p.code))];
  const rows = await db.selectFrom('countries').select(['id', 'code']).where('code', 'in', codes).execute();
  const idOf = new Map(rows.map((r) => [r.code, r.id]));
  return entries.map((p) => ({ countryId: idOf.get(p.code) ?? '', number: p.number, type: p.type }));
}
