// The refresh-token clean-up job (src/server/auth/token-cleanup.ts; decision "Refresh tokens are cleaned up hourly",
// docs/decisions/auth-and-sessions.md) over a
// real database (SQLite in memory, or PostgreSQL with TEST_DB=pg): what it deletes and keeps, and
// that sessions, rotation and reuse detection behave the same afterwards.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { insertPerson } from '../helpers/auth.js';
import { solvedCaptcha } from '../helpers/captcha.js';
import { hashPassword } from '../../src/server/auth/password.js';
import { newOpaqueToken, storeRefreshToken } from '../../src/server/auth/store.js';
import { deleteSpentRefreshTokens, SPENT_RETENTION_MS, startRefreshTokenCleanup } from '../../src/server/auth/token-cleanup.js';
import { CODE, MSG } from '../../src/shared/messages.js';

const PASSWORD = 'Correct-Horse-9';
const START = new Date('2031-03-01T09:00:00.000Z');
let fakeNow = new Date(START);
const HOUR = 3600_000;
const DAY = 24 * HOUR;

let t: TestApp;
let hash: string;
let n = 0;

beforeAll(async () => {
  t = await createTestApp({ now: () => fakeNow });
  hash = await hashPassword(PASSWORD);
});
afterAll(async () => {
  await t?.close();
});

type Tokens = { access_token: string; refresh_token: string };
const newPerson = async () => {
  const email = `cleanup-${++n}@auth.test`;
  return { id: await insertPerson(t.db, { email, roles: ['SuperAdminRole'], passwordHash: hash }), email };
};
const signIn = async (email: string) => {
  const res = await t.request('/connect/token', {
    form: { grant_type: 'password', client_id: 'portal', username: email, password: PASSWORD, captchaResponse: await solvedCaptcha((p) => t.request(p)) },
  });
  expect(res.status).toBe(200);
  return (await res.json()) as Tokens;
};
const refresh = (token: string) => t.request('/connect/token', { form: { grant_type: 'refresh_token', client_id: 'portal', refresh_token: token } });
const tokensOf = (personId: string) =>
  t.db
    .selectFrom('refreshTokens')
    .select(['id', 'familyId', 'usedAt', 'revokedAt', 'expiresAt'])
    .where('personId', '=', personId)
    .orderBy('createdAt')
    .execute();

/** A token row created `ageMs` before now with the given state. */
async function tokenRow(personId: string, label: string, o: { ageMs: number; days?: number; usedAgoMs?: number; revokedAgoMs?: number }) {
  const at = new Date(fakeNow.getTime() - o.ageMs);
  await storeRefreshToken(t.db, { personId, familyId: label, clientId: 'portal', token: newOpaqueToken(), at, days: o.days ?? 14 });
  const set: { usedAt?: string; revokedAt?: string } = {};
  if (o.usedAgoMs !== undefined) set.usedAt = new Date(fakeNow.getTime() - o.usedAgoMs).toISOString();
  if (o.revokedAgoMs !== undefined) set.revokedAt = new Date(fakeNow.getTime() - o.revokedAgoMs).toISOString();
  if (Object.keys(set).length) await t.db.updateTable('refreshTokens').set(set).where('familyId', '=', label).execute();
}

describe('refresh token clean-up', () => {
  test('deletes expired tokens and tokens used or revoked over a day ago; keeps live ones and recently spent ones', async () => {
    const p = await newPerson();
    await tokenRow(p.id, 'live', { ageMs: 2 * DAY });
    await tokenRow(p.id, 'used-1h', { ageMs: 3 * HOUR, usedAgoMs: HOUR });
    await tokenRow(p.id, 'used-2d', { ageMs: 3 * DAY, usedAgoMs: 2 * DAY });
    await tokenRow(p.id, 'revoked-1h', { ageMs: 3 * HOUR, revokedAgoMs: HOUR });
    await tokenRow(p.id, 'revoked-2d', { ageMs: 3 * DAY, revokedAgoMs: 2 * DAY });
    await tokenRow(p.id, 'expired-unused', { ageMs: 15 * DAY, days: 14 });
    await tokenRow(p.id, 'expired-now', { ageMs: 14 * DAY, days: 14 });
    expect(await tokensOf(p.id)).toHaveLength(7);

    expect(SPENT_RETENTION_MS).toBe(DAY);
    const deleted = await deleteSpentRefreshTokens(t.db, fakeNow);
    expect(deleted).toBeGreaterThanOrEqual(4); // other tests' rows may go too, never fewer than these four
    expect((await tokensOf(p.id)).map((r) => r.familyId).sort()).toEqual(['live', 'revoked-1h', 'used-1h']);
    // a second run finds nothing more of this person's
    await deleteSpentRefreshTokens(t.db, fakeNow);
    expect(await tokensOf(p.id)).toHaveLength(3);
  });

  test('after a clean-up the session still refreshes, and reusing a token used within the day still ends the family', async () => {
    const p = await newPerson();
    const a = await signIn(p.email);
    fakeNow = new Date(fakeNow.getTime() + HOUR);
    const res = await refresh(a.refresh_token);
    expect(res.status).toBe(200);
    const b = (await res.json()) as Tokens;
    fakeNow = new Date(fakeNow.getTime() + HOUR);
    await deleteSpentRefreshTokens(t.db, fakeNow);
    expect(await tokensOf(p.id)).toHaveLength(2); // the used one is kept: it is the reuse detector
    // reuse of the used token: refused, and the whole family (b included) ends
    const reuse = await refresh(a.refresh_token);
    expect(reuse.status).toBe(400);
    expect(((await reuse.json()) as { Content: { Code: string; Message: string } }).Content).toMatchObject({
      Code: CODE.invalidGrant,
      Message: MSG.sessionExpired,
    });
    expect((await refresh(b.refresh_token)).status).toBe(400);
    expect((await tokensOf(p.id)).every((r) => r.revokedAt !== null)).toBe(true);
    // a day later the revoked family is gone
    fakeNow = new Date(fakeNow.getTime() + DAY + HOUR);
    await deleteSpentRefreshTokens(t.db, fakeNow);
    expect(await tokensOf(p.id)).toHaveLength(0);
    // and a used token that was deleted is simply refused
    expect((await refresh(a.refresh_token)).status).toBe(400);
    // a new sign-in works
    const c = await signIn(p.email);
    expect((await refresh(c.refresh_token)).status).toBe(200);
  });

  test('the job runs at start and then on its interval, logs what it deleted, and stops', async () => {
    const p = await newPerson();
    await tokenRow(p.id, 'job-expired-1', { ageMs: 20 * DAY });
    const logs: Record<string, unknown>[] = [];
    const job = startRefreshTokenCleanup({ db: t.db, now: () => fakeNow, log: (e) => void logs.push(e) }, { intervalMs: 50 });
    try {
      await expect.poll(() => tokensOf(p.id).then((r) => r.length)).toBe(0);
      expect(logs.some((e) => e.msg === 'refresh tokens cleaned up' && Number(e.deleted) >= 1)).toBe(true);
      // a token that expires later is taken by a later tick
      await tokenRow(p.id, 'job-expired-2', { ageMs: 20 * DAY });
      await expect.poll(() => tokensOf(p.id).then((r) => r.length)).toBe(0);
    } finally {
      await job.stop();
    }
    await tokenRow(p.id, 'after-stop', { ageMs: 20 * DAY });
    await new Promise((r) => setTimeout(r, 200));
    expect((await tokensOf(p.id)).map((r) => r.familyId)).toEqual(['after-stop']);
    expect(await job.runNow()).toBeGreaterThanOrEqual(1);
    expect(await tokensOf(p.id)).toHaveLength(0);
  });
});
