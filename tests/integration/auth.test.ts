// The auth service over a real database (SQLite in memory, or PostgreSQL with TEST_DB=pg):
// what a signing-in user sees, and what the server stores (persons, codes, refresh tokens,
// outbox, audit log). The clock is fake so code and token expiry can be tested.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createHash } from 'node:crypto';
import { decodeJwt } from 'jose';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { insertPerson, PROVIDER_TENANT } from '../helpers/auth.js';
import { solvedCaptcha } from '../helpers/captcha.js';
import { at, first, group } from '../helpers/lists.js';
import { hashPassword } from '../../src/server/auth/password.js';
import { AUTH_LIMITS } from '../../src/server/auth/routes.js';
import { CODE, MSG } from '../../src/shared/messages.js';
import { P, permissionsForRoles, ROLE_IDS, type RoleName } from '../../src/shared/permissions.js';

const PASSWORD = 'Correct-Horse-9';
const START = new Date('2031-03-01T09:00:00.000Z');
let fakeNow = new Date(START);
const advance = (ms: number) => {
  fakeNow = new Date(fakeNow.getTime() + ms);
};
const MIN = 60_000;

let t: TestApp;
let hash: string;
let n = 0;
const uniqueEmail = (tag: string) => `${tag}-${++n}@auth.test`;

beforeAll(async () => {
  t = await createTestApp({ now: () => fakeNow });
  hash = await hashPassword(PASSWORD);
});
afterAll(async () => {
  await t?.close();
});

type Body = { Content: { Message: string; Code: string; Errors?: Record<string, string> }; error?: string; error_description?: string };
type Tokens = { access_token: string; token_type: string; refresh_token: string; expires_in: number };

async function person(
  roles: RoleName[] = ['SuperAdminRole'],
  over: { twoFactorType?: number | null; isLocked?: boolean; email?: string; passwordHash?: string | null } = {},
) {
  const email = over.email ?? uniqueEmail(roles.join('-').toLowerCase() || 'none');
  const id = await insertPerson(t.db, {
    email,
    roles,
    passwordHash: over.passwordHash === undefined ? hash : over.passwordHash,
    twoFactorType: over.twoFactorType,
    isLocked: over.isLocked,
  });
  return { id, email };
}

/** A solved captcha from the app (the portal client must send one). */
const captchaFrom = (app: TestApp) => solvedCaptcha((path) => app.request(path));
const captcha = () => captchaFrom(t);
const passwordGrant = async (app: TestApp, username: string, password: string, extra: Record<string, string> = {}, headers: Record<string, string> = {}) =>
  app.request('/connect/token', {
    form: { grant_type: 'password', client_id: 'portal', username, password, captchaResponse: await captchaFrom(app), ...extra },
    headers,
  });
const login = (username: string, password = PASSWORD, extra: Record<string, string> = {}) => passwordGrant(t, username, password, extra);
const refresh = (token: string) => t.request('/connect/token', { form: { grant_type: 'refresh_token', client_id: 'portal', refresh_token: token } });

async function expectError(res: Response, status: number, code: string, message: string) {
  const body = (await res.json()) as Body;
  expect({ status: res.status, code: body.Content?.Code, message: body.Content?.Message }).toEqual({ status, code, message });
  return body;
}
async function signIn(email: string, extra: Record<string, string> = {}) {
  const res = await login(email, PASSWORD, extra);
  expect(res.status).toBe(200);
  return (await res.json()) as Tokens;
}
const personRow = (id: string) => t.db.selectFrom('persons').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
const outboxFor = (recipient: string) => t.db.selectFrom('outbox').selectAll().where('recipient', '=', recipient).orderBy('id').execute();
const auditFor = (id: string) => t.db.selectFrom('auditLog').select(['action', 'details']).where('entityId', '=', id).orderBy('id').execute();
const codeIn = (body: string) => group(/Your verification code is (\d{6})\. It expires in 10 minutes\./, body);
/** The verification code of the first message sent to `recipient`. */
const firstCodeFor = async (recipient: string) => codeIn(first(await outboxFor(recipient)).body);
const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

describe('password grant', () => {
  test('success: bearer token with the spec claims, refresh token, no-store; last login recorded', async () => {
    const p = await person(['SuperAdminRole', 'ArcManagerRole']);
    const res = await login(p.email.toUpperCase());
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const body = (await res.json()) as Tokens;
    expect(body.token_type).toBe('Bearer');
    expect(body.expires_in).toBe(900);
    expect(body.refresh_token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const claims = decodeJwt(body.access_token);
    expect(claims.sub).toBe(p.id);
    expect(claims.tenantId).toBe(PROVIDER_TENANT);
    expect(claims.email).toBe(p.email);
    expect(claims.role).toEqual(['SuperAdminRole', 'ArcManagerRole']);
    expect(claims.permissions).toEqual(permissionsForRoles(['SuperAdminRole']));
    expect(claims.permissions).toContain(P.HasAccess);
    expect(claims.exp! - claims.iat!).toBe(900);
    expect(claims.iat).toBe(Math.floor(fakeNow.getTime() / 1000));

    const row = await personRow(p.id);
    expect(row.lastLoginDate).toBe(fakeNow.toISOString());
    expect(row.failedAttempts).toBe(0);
    // Stored hashed, never as issued.
    const tokens = await t.db.selectFrom('refreshTokens').selectAll().where('personId', '=', p.id).execute();
    expect(tokens).toHaveLength(1);
    expect(first(tokens).tokenHash).toBe(sha256(body.refresh_token));
    expect(first(tokens).familyId).toBe(claims.sid);
    expect((await auditFor(p.id)).map((a) => a.action)).toEqual(['login-succeeded']);

    const info = await t.request('/api/v1/get-user-info', { token: body.access_token });
    expect(info.status).toBe(200);
  });

  test('a read-only admin gets their own permissions', async () => {
    const p = await person(['SuperAdminReadonlyRole']);
    const claims = decodeJwt((await signIn(p.email)).access_token);
    expect(claims.permissions).toEqual(permissionsForRoles(['SuperAdminReadonlyRole']));
    expect(claims.permissions).not.toContain(P.PersonCreate);
  });

  test('wrong password and unknown e-mail get the same answer; the failure is counted and audited', async () => {
    const p = await person();
    const wrong = await expectError(await login(p.email, 'Wrong-Password-1'), 400, CODE.invalidGrant, MSG.loginFailed);
    expect(wrong.error).toBe('invalid_grant');
    expect(wrong.error_description).toBe(MSG.loginFailed);
    const unknown = await expectError(await login(uniqueEmail('nobody'), PASSWORD), 400, CODE.invalidGrant, MSG.loginFailed);
    expect(unknown).toEqual(wrong);
    expect((await personRow(p.id)).failedAttempts).toBe(1);
    const a = await auditFor(p.id);
    expect(a.map((x) => x.action)).toEqual(['login-failed']);
    expect(JSON.parse(first(a).details)).toMatchObject({ reason: 'wrong-password', failedAttempts: 1 });
  });

  test('a person without a password cannot sign in', async () => {
    const p = await person(['SuperAdminRole'], { passwordHash: null });
    await expectError(await login(p.email, ''), 400, CODE.validation, MSG.pleaseEnter('password'));
    await expectError(await login(p.email, 'anything-at-all'), 400, CODE.invalidGrant, MSG.loginFailed);
  });

  test('missing fields are validation errors with the spec wording', async () => {
    const res = await t.request('/connect/token', { form: { grant_type: 'password', client_id: 'portal', password: 'x' } });
    const body = await expectError(res, 400, CODE.validation, MSG.pleaseEnter('email'));
    expect(body.error).toBe('invalid_request');
    expect(body.Content.Errors).toEqual({ username: MSG.pleaseEnter('email') });
  });

  test('unknown or missing client id is invalid_client', async () => {
    const p = await person();
    const res = await t.request('/connect/token', { form: { grant_type: 'password', client_id: 'evil-app', username: p.email, password: PASSWORD } });
    const body = await expectError(res, 400, CODE.invalidClient, MSG.invalidClient);
    expect(body.error).toBe('invalid_client');
    const none = await t.request('/connect/token', { form: { grant_type: 'password', username: p.email, password: PASSWORD } });
    await expectError(none, 400, CODE.invalidClient, MSG.invalidClient);
    expect((await personRow(p.id)).lastLoginDate).toBeNull();
  });

  test('unsupported grant types; token exchange says single sign-on is unavailable', async () => {
    const cc = await t.request('/connect/token', { form: { grant_type: 'client_credentials', client_id: 'portal' } });
    const body = await expectError(cc, 400, CODE.unsupportedGrant, MSG.unsupportedGrant);
    expect(body.error).toBe('unsupported_grant_type');
    const sso = await t.request('/connect/token', {
      form: { grant_type: 'token-exchange', id_token: 'x', captchaResponse: '', sso_consent: '', selected_account: '' },
    });
    const s = await expectError(sso, 400, 'sso_unavailable', MSG.ssoUnavailable);
    expect(s.error).toBe('sso_unavailable');
    const none = await t.request('/connect/token', { form: { client_id: 'portal' } });
    await expectError(none, 400, CODE.validation, MSG.pleaseEnter('grant_type'));
  });

  test('without AdminPanel.HasAccess the sign-in is refused (portal user)', async () => {
    const p = await person(['PortalUserRole']);
    const body = await expectError(await login(p.email), 400, CODE.permissionMissing, MSG.permissionMissing);
    expect(body.error).toBe(CODE.permissionMissing);
    expect(await t.db.selectFrom('refreshTokens').select('id').where('personId', '=', p.id).execute()).toHaveLength(0);
    expect((await auditFor(p.id)).map((a) => a.action)).toEqual(['login-refused']);
    const none = await person([]);
    await expectError(await login(none.email), 400, CODE.permissionMissing, MSG.permissionMissing);
  });

  test('a customer administrator (admin role in a customer tenant) gets no admin-panel access', async () => {
    const email = uniqueEmail('customer-admin');
    await insertPerson(t.db, { email, roles: ['SuperAdminRole', 'PortalUserRole'], passwordHash: hash, tenantId: '11111111-2222-4333-8444-555555555555' });
    await expectError(await login(email), 400, CODE.permissionMissing, MSG.permissionMissing);
  });

  test('single-sign-on persons are told to use single sign-on', async () => {
    const p = await person();
    await t.db.updateTable('persons').set({ loginMethod: 2 }).where('id', '=', p.id).execute();
    await expectError(await login(p.email), 400, 'sso_required', MSG.ssoRequired);
    await expectError(await login(p.email, 'Wrong-Password-1'), 400, CODE.invalidGrant, MSG.loginFailed);
  });

  test('an inactive person cannot sign in', async () => {
    const p = await person();
    await t.db.updateTable('persons').set({ personStatus: 2 }).where('id', '=', p.id).execute();
    await expectError(await login(p.email), 400, CODE.invalidGrant, MSG.loginFailed);
  });
});

describe('lockout', () => {
  test('five failures lock the person for five minutes; the right password fails too until then', async () => {
    const p = await person();
    for (let i = 1; i <= 4; i++) await expectError(await login(p.email, `Wrong-${i}-password`), 400, CODE.invalidGrant, MSG.loginFailed);
    expect(await personRow(p.id)).toMatchObject({ failedAttempts: 4, isLocked: 0, lockedUntil: null });
    await expectError(await login(p.email, 'Wrong-5-password'), 400, CODE.invalidGrant, MSG.loginFailed);
    expect(await personRow(p.id)).toMatchObject({ failedAttempts: 5, isLocked: 1, lockedUntil: new Date(fakeNow.getTime() + 5 * MIN).toISOString() });
    const actions = (await auditFor(p.id)).map((a) => a.action);
    expect(actions.filter((a) => a === 'login-failed')).toHaveLength(5);
    expect(actions.filter((a) => a === 'locked-out')).toHaveLength(1);

    await expectError(await login(p.email), 400, CODE.invalidGrant, MSG.loginFailed);
    advance(5 * MIN - 1000);
    await expectError(await login(p.email), 400, CODE.invalidGrant, MSG.loginFailed);
    expect((await personRow(p.id)).failedAttempts).toBe(5);
    expect(JSON.parse((await auditFor(p.id)).at(-1)!.details)).toMatchObject({ reason: 'locked' });

    // The lock ends by itself; the sign-in clears it.
    advance(1000);
    await signIn(p.email);
    expect(await personRow(p.id)).toMatchObject({ failedAttempts: 0, isLocked: 0, lockedUntil: null });
  });

  test('a success resets the failure count', async () => {
    const p = await person();
    await login(p.email, 'Wrong-password-1');
    await login(p.email, 'Wrong-password-2');
    expect((await personRow(p.id)).failedAttempts).toBe(2);
    await signIn(p.email);
    expect((await personRow(p.id)).failedAttempts).toBe(0);
  });

  test('a person locked by an administrator cannot sign in', async () => {
    const p = await person(['SuperAdminRole'], { isLocked: true });
    await expectError(await login(p.email), 400, CODE.invalidGrant, MSG.loginFailed);
  });
});

describe('second factor', () => {
  test('e-mail code: required, sent once, stored hashed, wrong code refused, right code signs in once', async () => {
    const p = await person(['SuperAdminRole'], { twoFactorType: 1 });
    const required = await expectError(await login(p.email), 400, CODE.twoFactorRequired, MSG.verificationCodeSent);
    expect(required.error).toBe(CODE.twoFactorRequired);
    // where it went, masked, for the sign-in page to say
    const [, domain] = p.email.split('@');
    expect(required).toMatchObject({ code_channel: 'email', code_sent_to: `${p.email.charAt(0)}•••@${domain}` });
    const mails = await outboxFor(p.email);
    expect(mails).toHaveLength(1);
    expect(first(mails)).toMatchObject({ channel: 'email', subject: 'Your verification code' });
    const code = codeIn(first(mails).body);
    const rows = await t.db.selectFrom('verificationCodes').selectAll().where('personId', '=', p.id).execute();
    expect(rows).toHaveLength(1);
    expect(first(rows).codeHash).toBe(sha256(code));
    expect(first(rows).codeHash).not.toContain(code);
    expect(first(rows).expiresAt).toBe(new Date(fakeNow.getTime() + 10 * MIN).toISOString());

    // Sent once: signing in again without the code (within its validity) sends nothing new.
    advance(2 * MIN);
    await expectError(await login(p.email), 400, CODE.twoFactorRequired, MSG.verificationCodeSent);
    expect(await outboxFor(p.email)).toHaveLength(1);

    // Wrong password with a code is still the generic failure.
    await expectError(await login(p.email, 'Wrong-password-1', { verificationCode: code }), 400, CODE.invalidGrant, MSG.loginFailed);

    const wrongCode = code === '000000' ? '111111' : '000000';
    await expectError(await login(p.email, PASSWORD, { verificationCode: wrongCode }), 400, CODE.invalidCode, MSG.invalidCode);
    await expectError(await login(p.email, PASSWORD, { verificationCode: '12ab' }), 400, CODE.invalidCode, MSG.invalidCode);
    expect((await personRow(p.id)).failedAttempts).toBe(3);

    const ok = (await signIn(p.email, { verificationCode: code })) as Tokens;
    expect(decodeJwt(ok.access_token).sub).toBe(p.id);
    expect((await personRow(p.id)).failedAttempts).toBe(0);
    const used = await t.db.selectFrom('verificationCodes').select('consumedAt').where('personId', '=', p.id).executeTakeFirstOrThrow();
    expect(used.consumedAt).toBe(fakeNow.toISOString());
    // Single use.
    await expectError(await login(p.email, PASSWORD, { verificationCode: code }), 400, CODE.invalidCode, MSG.invalidCode);
  });

  test('an expired code is refused; the next sign-in sends a new one', async () => {
    const p = await person(['SuperAdminRole'], { twoFactorType: 1 });
    await expectError(await login(p.email), 400, CODE.twoFactorRequired, MSG.verificationCodeSent);
    const code = await firstCodeFor(p.email);
    advance(10 * MIN + 1000);
    await expectError(await login(p.email, PASSWORD, { verificationCode: code }), 400, CODE.invalidCode, MSG.invalidCode);
    await expectError(await login(p.email), 400, CODE.twoFactorRequired, MSG.verificationCodeSent);
    const mails = await outboxFor(p.email);
    expect(mails).toHaveLength(2);
    await signIn(p.email, { verificationCode: codeIn(at(mails, 1).body) });
  });

  test('wrong codes count towards the lockout', async () => {
    const p = await person(['SuperAdminRole'], { twoFactorType: 1 });
    for (let i = 0; i < 4; i++) await login(p.email, `Wrong-password-${i}`);
    await expectError(await login(p.email), 400, CODE.twoFactorRequired, MSG.verificationCodeSent);
    const code = await firstCodeFor(p.email);
    await expectError(await login(p.email, PASSWORD, { verificationCode: code === '999999' ? '999998' : '999999' }), 400, CODE.invalidCode, MSG.invalidCode);
    expect(await personRow(p.id)).toMatchObject({ isLocked: 1, failedAttempts: 5 });
    await expectError(await login(p.email, PASSWORD, { verificationCode: code }), 400, CODE.invalidGrant, MSG.loginFailed);
  });

  test('SMS code goes to the two-factor phone number', async () => {
    const p = await person(['ArcControllerRole'], { twoFactorType: 2 });
    await t.db
      .updateTable('persons')
      .set({ twoFactorPhone: JSON.stringify({ countryId: 'country-gb', number: '07911 123456', type: 2 }) })
      .where('id', '=', p.id)
      .execute();
    const required = await expectError(await login(p.email), 400, CODE.twoFactorRequired, MSG.verificationCodeSent);
    expect(required).toMatchObject({ code_channel: 'sms', code_sent_to: '456' }); // only the last digits
    expect(await outboxFor(p.email)).toHaveLength(0);
    const sms = await outboxFor('+447911123456');
    expect(sms).toHaveLength(1);
    expect(first(sms).channel).toBe('sms');
    await signIn(p.email, { verificationCode: codeIn(first(sms).body) });
  });

  test('resend: a fresh code replaces the old one; nothing is sent without a sign-in under way; same answer always', async () => {
    const p = await person(['SuperAdminRole'], { twoFactorType: 1 });
    const idle = await t.request('/api/v1/two-factor-authentication/send', { json: { email: p.email } });
    expect(idle.status).toBe(200);
    const idleBody = await idle.json();
    expect(idleBody).toEqual({ Content: { Message: MSG.verificationCodeResent } });
    expect(await outboxFor(p.email)).toHaveLength(0);

    await expectError(await login(p.email), 400, CODE.twoFactorRequired, MSG.verificationCodeSent);
    const oldCode = await firstCodeFor(p.email);
    advance(12 * MIN); // the first code has expired; a resend still works within the sign-in window
    const res = await t.request('/api/v1/two-factor-authentication/send', { json: { email: p.email.toUpperCase() } });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual(idleBody);
    const mails = await outboxFor(p.email);
    expect(mails).toHaveLength(2);
    const newCode = codeIn(at(mails, 1).body);
    if (newCode !== oldCode) await expectError(await login(p.email, PASSWORD, { verificationCode: oldCode }), 400, CODE.invalidCode, MSG.invalidCode);
    await signIn(p.email, { verificationCode: newCode });

    // After the sign-in completed there is nothing to resend.
    await t.request('/api/v1/two-factor-authentication/send', { json: { email: p.email } });
    expect(await outboxFor(p.email)).toHaveLength(2);

    const unknown = await t.request('/api/v1/two-factor-authentication/send', { json: { email: uniqueEmail('ghost') } });
    expect(unknown.status).toBe(200);
    expect(await unknown.json()).toEqual(idleBody);
    const bad = await t.request('/api/v1/two-factor-authentication/send', { json: { email: 'not-an-email' } });
    await expectError(bad, 400, CODE.validation, MSG.pleaseEnterValid('email'));
  });

  test('when the global setting makes a second factor compulsory, persons without one get e-mail codes', async () => {
    const p = await person();
    await t.db.updateTable('globalSettings').set({ value: '1' }).where('key', '=', 'TwoFactorAuthentication.Mode.Value').execute();
    try {
      await expectError(await login(p.email), 400, CODE.twoFactorRequired, MSG.verificationCodeSent);
      await signIn(p.email, { verificationCode: await firstCodeFor(p.email) });
    } finally {
      await t.db.updateTable('globalSettings').set({ value: '0' }).where('key', '=', 'TwoFactorAuthentication.Mode.Value').execute();
    }
    await signIn(p.email);
  });
});

describe('refresh tokens', () => {
  test('rotation: each refresh gives new tokens in the same family and uses up the old one', async () => {
    const p = await person();
    const a = await signIn(p.email);
    advance(MIN);
    const res = await refresh(a.refresh_token);
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const b = (await res.json()) as Tokens;
    expect(b.token_type).toBe('Bearer');
    expect(b.refresh_token).not.toBe(a.refresh_token);
    const claims = decodeJwt(b.access_token);
    expect(claims).toMatchObject({ sub: p.id, email: p.email, tenantId: PROVIDER_TENANT, role: ['SuperAdminRole'] });
    expect(claims.iat).toBe(Math.floor(fakeNow.getTime() / 1000));
    const rows = await t.db.selectFrom('refreshTokens').selectAll().where('personId', '=', p.id).orderBy('createdAt').execute();
    expect(rows).toHaveLength(2);
    const [used, fresh] = [at(rows, 0), at(rows, 1)];
    expect(used.usedAt).toBe(fakeNow.toISOString());
    expect(fresh.familyId).toBe(used.familyId);
    expect(fresh.usedAt).toBeNull();
    const c = (await (await refresh(b.refresh_token)).json()) as Tokens;
    expect(c.refresh_token).toBeTruthy();
  });

  test('reusing a used refresh token revokes the whole family (the newest token fails too)', async () => {
    const p = await person();
    const a = await signIn(p.email);
    const b = (await (await refresh(a.refresh_token)).json()) as Tokens;
    const body = await expectError(await refresh(a.refresh_token), 400, CODE.invalidGrant, MSG.sessionExpired);
    expect(body.error).toBe('invalid_grant');
    await expectError(await refresh(b.refresh_token), 400, CODE.invalidGrant, MSG.sessionExpired);
    const rows = await t.db.selectFrom('refreshTokens').select('revokedAt').where('personId', '=', p.id).execute();
    expect(rows).toHaveLength(2);
    expect(rows.every((r) => r.revokedAt !== null)).toBe(true);
    expect((await auditFor(p.id)).map((x) => x.action)).toContain('refresh-token-reuse');
    // A new sign-in is a new family and works.
    const fresh = await signIn(p.email);
    expect((await refresh(fresh.refresh_token)).status).toBe(200);
  });

  test('unknown, expired, revoked tokens and locked persons are refused', async () => {
    await expectError(await refresh('x'.repeat(43)), 400, CODE.invalidGrant, MSG.sessionExpired);
    const missing = await t.request('/connect/token', { form: { grant_type: 'refresh_token', client_id: 'portal' } });
    await expectError(missing, 400, CODE.validation, MSG.pleaseEnter('refresh_token'));

    const p = await person();
    const a = await signIn(p.email);
    advance(15 * 24 * 60 * MIN); // past REFRESH_TOKEN_DAYS (14)
    await expectError(await refresh(a.refresh_token), 400, CODE.invalidGrant, MSG.sessionExpired);

    const b = await signIn(p.email);
    await t.db.updateTable('persons').set({ isLocked: 1 }).where('id', '=', p.id).execute();
    await expectError(await refresh(b.refresh_token), 400, CODE.invalidGrant, MSG.sessionExpired);
    await t.db.updateTable('persons').set({ isLocked: 0 }).where('id', '=', p.id).execute();
    // The family was ended, not just the one request.
    await expectError(await refresh(b.refresh_token), 400, CODE.invalidGrant, MSG.sessionExpired);
  });

  test('refresh re-reads the roles', async () => {
    const p = await person(['SuperAdminRole']);
    const a = await signIn(p.email);
    await t.db.deleteFrom('personRoles').where('personId', '=', p.id).execute();
    await t.db.insertInto('personRoles').values({ personId: p.id, roleId: ROLE_IDS.ArcControllerRole }).execute();
    const b = (await (await refresh(a.refresh_token)).json()) as Tokens;
    const claims = decodeJwt(b.access_token);
    expect(claims.role).toEqual(['ArcControllerRole']);
    expect(claims.permissions).toEqual(permissionsForRoles(['ArcControllerRole']));
    await t.db.deleteFrom('personRoles').where('personId', '=', p.id).execute();
    await t.db.insertInto('personRoles').values({ personId: p.id, roleId: ROLE_IDS.PortalUserRole }).execute();
    await expectError(await refresh(b.refresh_token), 400, CODE.permissionMissing, MSG.permissionMissing);
  });
});

describe('rate limits', () => {
  test('per e-mail: attempts over the limit get 429 until the window has passed; right passwords do not count', async () => {
    const app = await createTestApp({ now: () => fakeNow });
    try {
      const email = 'target@auth.test';
      await insertPerson(app.db, { email, roles: ['SuperAdminRole'], passwordHash: hash });
      // More sign-ins with the right password than the limit allows attempts: none is refused.
      for (let i = 0; i < AUTH_LIMITS.signInPerEmail + 5; i++) expect((await passwordGrant(app, email, PASSWORD)).status).toBe(200);
      // Lockout stops real accounts first, so guess at unknown e-mails (the limiter still counts them).
      const ghost = 'ghost@auth.test';
      for (let i = 0; i < AUTH_LIMITS.signInPerEmail; i++) expect((await passwordGrant(app, ghost, `guess-${i}`)).status).toBe(400);
      const limited = await passwordGrant(app, ghost, 'one-more-guess');
      const body = (await limited.json()) as Body;
      expect(limited.status).toBe(429);
      expect(body.Content).toEqual({ Message: MSG.tooManySignInAttempts, Code: CODE.rateLimited });
      expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(Number(limited.headers.get('retry-after'))).toBeLessThanOrEqual(300);
      // Case does not dodge the limit; other e-mails are unaffected.
      expect((await passwordGrant(app, ghost.toUpperCase(), 'x')).status).toBe(429);
      expect((await passwordGrant(app, email, PASSWORD)).status).toBe(200);
      advance(AUTH_LIMITS.windowMs + 1000);
      expect((await passwordGrant(app, ghost, 'after-the-window')).status).toBe(400);
    } finally {
      await app.close();
    }
  });

  test('per client address (x-forwarded-for): 429 after the limit, other addresses unaffected', async () => {
    const app = await createTestApp({ now: () => fakeNow });
    try {
      const from = { 'x-forwarded-for': '203.0.113.7, 10.0.0.1' };
      const bodies = await Promise.all(
        Array.from({ length: AUTH_LIMITS.signInPerAddress }, async (_, i) => (await passwordGrant(app, `spray-${i}@auth.test`, 'guess', {}, from)).status),
      );
      expect(bodies.every((s) => s === 400)).toBe(true);
      const limited = await passwordGrant(app, 'spray-new@auth.test', 'guess', {}, from);
      expect(limited.status).toBe(429);
      expect(((await limited.json()) as Body).Content.Message).toBe(MSG.tooManySignInAttempts);
      expect((await passwordGrant(app, 'spray-new@auth.test', 'guess', {}, { 'x-forwarded-for': '198.51.100.1' })).status).toBe(400);
    } finally {
      await app.close();
    }
  });
});

describe('current user', () => {
  test('get-user-info needs a token and returns the person', async () => {
    const anon = await t.request('/api/v1/get-user-info');
    expect(anon.status).toBe(401);
    expect(((await anon.json()) as Body).Content.Code).toBe(CODE.unauthorized);

    const id = await insertPerson(t.db, {
      email: 'Info.Person@Auth.test',
      firstName: 'Ivy',
      lastName: 'Info',
      roles: ['ArcManagerRole', 'SuperAdminRole'],
      passwordHash: hash,
    });
    await t.db
      .updateTable('persons')
      .set({ phoneNumbers: JSON.stringify([{ CountryCode: 'GB', Number: '7700900123', IsPrimary: true, Type: 2 }]) })
      .where('id', '=', id)
      .execute();
    const gb = await t.db.selectFrom('countries').select('id').where('code', '=', 'GB').executeTakeFirstOrThrow();
    const tokens = await signIn('info.person@auth.test');
    const res = await t.request('/api/v1/get-user-info', { token: tokens.access_token });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      userId: id,
      email: 'info.person@auth.test',
      firstName: 'Ivy',
      lastName: 'Info',
      roles: ['SuperAdminRole', 'ArcManagerRole'],
      tenantId: PROVIDER_TENANT,
      // spec document 1 §3 "Current user": phoneNumbers [{ countryId, number, type }]
      phoneNumbers: [{ countryId: gb.id, number: '7700900123', type: 2 }],
      loginMethod: { value: 1, name: 'Password' },
    });

    await t.db.deleteFrom('personRoles').where('personId', '=', id).execute();
    await t.db.deleteFrom('persons').where('id', '=', id).execute();
    await expectError(await t.request('/api/v1/get-user-info', { token: tokens.access_token }), 404, CODE.notFound, MSG.userNotFound);
  });

  test('an expired access token is a 401', async () => {
    const p = await person();
    const tokens = await signIn(p.email);
    advance(901_000);
    expect((await t.request('/api/v1/get-user-info', { token: tokens.access_token })).status).toBe(401);
  });
});

describe('two-factor settings', () => {
  test('read, types, change to e-mail, SMS (phone required and valid), disable; enforced mode forbids disabling', async () => {
    const p = await person();
    const { access_token: token } = await signIn(p.email);
    const get = async () => (await t.request('/api/v1/get-user-two-factor-authentication', { token })).json();
    const put = async (json: object) =>
      t.request('/api/v1/change-two-factor-authentication', {
        method: 'PUT',
        token,
        json: { captchaResponse: await captcha(), currentPassword: PASSWORD, ...json },
      });

    expect(await get()).toEqual({ twoFactorAuthentication: { type: null, phoneNumber: null } });
    const types = await t.request('/api/v1/two-factor-authentication/types', { token });
    expect(await types.json()).toEqual([
      { name: 'Email', value: 1 },
      { name: 'SMS', value: 2 },
    ]);
    expect((await t.request('/api/v1/two-factor-authentication/types')).status).toBe(401);

    const email = await put({ twoFactorAuthentication: { type: 1, phoneNumber: null } });
    expect(email.status).toBe(200);
    expect(await email.json()).toEqual({ twoFactorAuthentication: { type: { name: 'Email', value: 1 }, phoneNumber: null } });
    expect(await get()).toEqual({ twoFactorAuthentication: { type: { name: 'Email', value: 1 }, phoneNumber: null } });
    expect((await personRow(p.id)).twoFactorType).toBe(1);

    const noPhone = await expectError(
      await put({ twoFactorAuthentication: { type: { name: 'SMS', value: 2 }, phoneNumber: null } }),
      400,
      CODE.validation,
      MSG.pleaseEnter('phone_number'),
    );
    expect(noPhone.Content.Errors).toEqual({ 'twoFactorAuthentication.phoneNumber': MSG.pleaseEnter('phone_number') });
    await expectError(
      await put({ twoFactorAuthentication: { type: 2, phoneNumber: { countryId: 'country-gb', number: '123', type: 2 } } }),
      400,
      CODE.validation,
      MSG.invalidPhone,
    );
    await expectError(
      await put({ twoFactorAuthentication: { type: 2, phoneNumber: { countryId: 'country-nowhere', number: '07911123456', type: 2 } } }),
      400,
      CODE.validation,
      MSG.invalidPhone,
    );
    expect((await personRow(p.id)).twoFactorType).toBe(1);

    const phone = { countryId: 'country-gb', number: '07911123456', type: 2 };
    const sms = await put({ twoFactorAuthentication: { type: 2, phoneNumber: phone } });
    expect(sms.status).toBe(200);
    expect(await get()).toEqual({ twoFactorAuthentication: { type: { name: 'SMS', value: 2 }, phoneNumber: phone } });

    // Sign-in now asks for the SMS code.
    await expectError(await login(p.email), 400, CODE.twoFactorRequired, MSG.verificationCodeSent);
    expect(await outboxFor('+447911123456')).not.toHaveLength(0);

    const bad = await put({ twoFactorAuthentication: { type: 7, phoneNumber: null } });
    expect(bad.status).toBe(400);

    await t.db.updateTable('globalSettings').set({ value: '1' }).where('key', '=', 'TwoFactorAuthentication.Mode.Value').execute();
    try {
      await expectError(await put({ twoFactorAuthentication: { type: null, phoneNumber: null } }), 400, CODE.validation, MSG.twoFactorEnforced);
      expect((await personRow(p.id)).twoFactorType).toBe(2);
    } finally {
      await t.db.updateTable('globalSettings').set({ value: '0' }).where('key', '=', 'TwoFactorAuthentication.Mode.Value').execute();
    }
    expect((await put({ twoFactorAuthentication: { type: { name: null, value: 0 }, phoneNumber: null } })).status).toBe(200);
    expect(await get()).toEqual({ twoFactorAuthentication: { type: null, phoneNumber: null } });
    await signIn(p.email);
    expect((await auditFor(p.id)).filter((a) => a.action === 'two-factor-changed')).toHaveLength(3);
    const anon = await t.request('/api/v1/change-two-factor-authentication', { method: 'PUT', json: { twoFactorAuthentication: { type: 1 } } });
    expect(anon.status).toBe(401);
  });
});

describe('passwords', () => {
  test('change password: validation, wrong old password, success ends the other sessions only', async () => {
    const p = await person();
    const mine = await signIn(p.email);
    const other = await signIn(p.email);
    const change = async (json: Record<string, unknown>) =>
      t.request('/api/v1/change-password', { token: mine.access_token, json: { captchaResponse: await captcha(), ...json } });

    expect(
      (await t.request('/api/v1/change-password', { json: { oldPassword: PASSWORD, newPassword: 'New-Password-2', newPasswordRepeated: 'New-Password-2' } }))
        .status,
    ).toBe(401);
    await expectError(await change({ oldPassword: PASSWORD, newPassword: 'short', newPasswordRepeated: 'short' }), 400, CODE.validation, MSG.passwordLength);
    const mismatch = await expectError(
      await change({ oldPassword: PASSWORD, newPassword: 'New-Password-2', newPasswordRepeated: 'New-Password-3' }),
      400,
      CODE.validation,
      MSG.passwordsDoNotMatch,
    );
    expect(mismatch.Content.Errors).toEqual({ newPasswordRepeated: MSG.passwordsDoNotMatch });
    await expectError(
      await change({ newPassword: 'New-Password-2', newPasswordRepeated: 'New-Password-2' }),
      400,
      CODE.validation,
      MSG.pleaseEnter('old_password'),
    );
    await expectError(
      await change({ oldPassword: 'Not-My-Password', newPassword: 'New-Password-2', newPasswordRepeated: 'New-Password-2' }),
      400,
      CODE.oldPasswordInvalid,
      MSG.oldPasswordInvalid,
    );

    const ok = await change({ oldPassword: PASSWORD, newPassword: 'New-Password-2', newPasswordRepeated: 'New-Password-2' });
    expect(ok.status).toBe(200);
    expect(await ok.json()).toEqual({ Content: { Message: MSG.passwordChanged } });
    await expectError(await login(p.email, PASSWORD), 400, CODE.invalidGrant, MSG.loginFailed);
    expect((await login(p.email, 'New-Password-2')).status).toBe(200);
    // The caller's session carries on; the other one has ended.
    expect((await refresh(mine.refresh_token)).status).toBe(200);
    await expectError(await refresh(other.refresh_token), 400, CODE.invalidGrant, MSG.sessionExpired);
    expect((await auditFor(p.id)).map((a) => a.action)).toContain('password-changed');
  });

  test('reset password: same answer for everyone, a link by e-mail for real accounts, the link sets a new password once', async () => {
    const p = await person();
    const stranger = uniqueEmail('stranger');
    const unknown = await t.request('/api/v1/reset-password', { json: { email: stranger, captchaResponse: await captcha() } });
    expect(unknown.status).toBe(200);
    expect(await unknown.json()).toEqual({ Content: { Message: MSG.resetLinkSent(stranger) } });
    expect(await outboxFor(stranger)).toHaveLength(0);

    const known = await t.request('/api/v1/reset-password', { json: { email: p.email, captchaResponse: await captcha() } });
    expect(known.status).toBe(200);
    expect(await known.json()).toEqual({ Content: { Message: MSG.resetLinkSent(p.email) } });
    const mails = await outboxFor(p.email);
    expect(mails).toHaveLength(1);
    expect(first(mails)).toMatchObject({ channel: 'email', subject: 'Reset your password' });
    const link = /(https?:\/\/\S+\/reset-password\?token=\S+)/.exec(first(mails).body)?.[1];
    expect(link).toBeTruthy();
    const token = decodeURIComponent(new URL(link!).searchParams.get('token')!);

    await expectError(await t.request('/api/v1/reset-password', { json: { email: 'nope' } }), 400, CODE.validation, MSG.enterValidEmailDot);
    await expectError(await t.request('/api/v1/reset-password', { json: {} }), 400, CODE.validation, MSG.pleaseEnter('email'));

    // A reset token is no access token.
    expect((await t.request('/api/v1/get-user-info', { token })).status).toBe(401);

    const session = await signIn(p.email);
    const confirm = (json: unknown) => t.request('/api/v1/reset-password/confirm', { json });
    await expectError(
      await confirm({ token, newPassword: 'Reset-Password-7', newPasswordRepeated: 'Other-Password-7' }),
      400,
      CODE.validation,
      MSG.passwordsDoNotMatch,
    );
    await expectError(
      await confirm({ token: token + 'x', newPassword: 'Reset-Password-7', newPasswordRepeated: 'Reset-Password-7' }),
      400,
      'invalid_reset_link',
      MSG.resetLinkInvalid,
    );
    const ok = await confirm({ token, newPassword: 'Reset-Password-7', newPasswordRepeated: 'Reset-Password-7' });
    expect(ok.status).toBe(200);
    expect((await login(p.email, 'Reset-Password-7')).status).toBe(200);
    await expectError(await login(p.email, PASSWORD), 400, CODE.invalidGrant, MSG.loginFailed);
    // Used once: the link stops working; earlier sessions ended.
    await expectError(
      await confirm({ token, newPassword: 'Again-Password-8', newPasswordRepeated: 'Again-Password-8' }),
      400,
      'invalid_reset_link',
      MSG.resetLinkInvalid,
    );
    await expectError(await refresh(session.refresh_token), 400, CODE.invalidGrant, MSG.sessionExpired);

    // Links expire.
    await t.request('/api/v1/reset-password', { json: { email: p.email, captchaResponse: await captcha() } });
    const later = decodeURIComponent(group(/token=(\S+)/, at(await outboxFor(p.email), 1).body));
    advance(61 * MIN);
    await expectError(
      await confirm({ token: later, newPassword: 'Late-Password-9', newPasswordRepeated: 'Late-Password-9' }),
      400,
      'invalid_reset_link',
      MSG.resetLinkInvalid,
    );
  });
});
