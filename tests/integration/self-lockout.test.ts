// No self-lockout: a provider admin cannot make their own e-mail domain require single sign-on,
// switch their own login method to single sign-on, or switch single sign-on off while it is their
// only way in; nor leave every provider admin without password sign-in. Nothing is stored and the
// admin's password still signs in. Another admin (of another domain) may make the same change; a
// break-glass account (SIGN_IN_BREAK_GLASS) keeps its password sign-in where single sign-on is
// required. SQLite and, with TEST_DB=pg, PostgreSQL.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { insertPerson, tokenFor } from '../helpers/auth.js';
import { errorOf, ok } from '../helpers/customers.js';
import { hashPassword } from '../../src/server/auth/password.js';
import { CODE, LOCKOUT_TEXT, MSG } from '../../src/shared/messages.js';
import type { RoleName } from '../../src/shared/permissions.js';

const PASSWORD = 'Lockout-Passw0rd!';
let t: TestApp;
let hash: string;

beforeAll(async () => {
  t = await createTestApp({
    clientSecrets: { ops: 'ops-s3cret' },
    signInBreakGlass: ['Glass@Glass.Test'],
    // an issuer that is never asked: single sign-on counts as configured
    sso: { mode: 'external', issuer: 'http://127.0.0.1:9/none', clientId: 'x', providerName: 'Microsoft', scope: 'openid', prompt: 'select_account' },
  });
  await t.db.updateTable('features').set({ isEnabled: 1 }).where('name', '=', 'SingleSignOn').execute();
  hash = await hashPassword(PASSWORD);
});
afterAll(async () => {
  await t?.close();
});

async function admin(email: string, over: { password?: boolean; loginMethod?: number; roles?: RoleName[] } = {}) {
  const roles = over.roles ?? ['SuperAdminRole'];
  const id = await insertPerson(t.db, { email, roles, passwordHash: over.password === false ? null : hash });
  if (over.loginMethod) await t.db.updateTable('persons').set({ loginMethod: over.loginMethod }).where('id', '=', id).execute();
  return { id, email, token: await tokenFor(t.config, roles, { id, email }) };
}
const signIn = (username: string) =>
  t.request('/connect/token', { form: { grant_type: 'password', client_id: 'ops', client_secret: 'ops-s3cret', username, password: PASSWORD } });
const addDomain = (token: string, domain: string) => t.request('/ps-admin/sso-domains', { method: 'POST', token, json: { domain } });
const removeDomain = (token: string, domain: string) => t.request(`/ps-admin/sso-domains?domain=${domain}`, { method: 'DELETE', token });
const setMethod = (token: string, id: string, loginMethod: number) =>
  t.request(`/api/v1/person/${id}/login-method`, { method: 'PUT', token, json: { loginMethod, ssoEmail: null } });
const domains = async () => (await t.db.selectFrom('ssoDomains').select('domain').execute()).map((d) => d.domain);
const methodOf = async (id: string) => (await t.db.selectFrom('persons').select('loginMethod').where('id', '=', id).executeTakeFirstOrThrow()).loginMethod;
async function expectLockout(res: Response, message: string, field: string) {
  expect(res.status).toBe(400);
  const err = await errorOf(res);
  expect(err).toEqual({ Message: message, Code: CODE.selfLockout, Errors: { [field]: message } });
}

describe('the acting admin keeps a way in', () => {
  let alex: Awaited<ReturnType<typeof admin>>;
  let sam: Awaited<ReturnType<typeof admin>>;
  beforeAll(async () => {
    alex = await admin('alex@lockout.test');
    sam = await admin('sam@elsewhere.test');
  });

  test("making one's own domain single-sign-on only is refused; the password still signs in", async () => {
    await expectLockout(await addDomain(alex.token, 'Lockout.Test'), LOCKOUT_TEXT.self('requiring single sign-on for lockout.test'), 'domain');
    expect(await domains()).not.toContain('lockout.test');
    expect((await signIn(alex.email)).status).toBe(200);
  });

  test("switching one's own login method to single sign-on is refused", async () => {
    await expectLockout(await setMethod(alex.token, alex.id, 2), LOCKOUT_TEXT.self('this login method'), 'loginMethod');
    expect(await methodOf(alex.id)).toBe(1);
    expect((await signIn(alex.email)).status).toBe(200);
  });

  test("an admin of another domain may require single sign-on for it: the domain's admin then signs in by single sign-on only", async () => {
    await ok(await addDomain(sam.token, 'lockout.test'));
    try {
      const refused = await signIn(alex.email);
      expect(refused.status).toBe(400);
      expect((await refused.json()) as unknown).toMatchObject({ Content: { Code: CODE.ssoEnforced } });
      expect((await signIn(sam.email)).status).toBe(200);
    } finally {
      await ok(await removeDomain(sam.token, 'lockout.test'));
    }
  });

  test('switching single sign-on off is refused to an admin who signs in by single sign-on only', async () => {
    const sso = await admin('sso-only@lockout.test', { password: false, loginMethod: 2 });
    const res = await t.request('/ps-admin/settings/feature', { method: 'PUT', token: sso.token, json: { name: 'SingleSignOn', isEnabled: false } });
    await expectLockout(res, LOCKOUT_TEXT.self('switching single sign-on off'), 'isEnabled');
    expect((await t.db.selectFrom('features').select('isEnabled').where('name', '=', 'SingleSignOn').executeTakeFirstOrThrow()).isEnabled).toBe(1);
  });
});

describe('some provider admin keeps password sign-in', () => {
  test('the change that would take the last password sign-in of a provider admin is refused, whoever makes it', async () => {
    // the database's provider admins so far: every one but the last goes over to single sign-on
    const others = await t.db
      .selectFrom('persons')
      .innerJoin('personRoles', 'personRoles.personId', 'persons.id')
      .select('persons.id')
      .where('personRoles.roleId', '=', '6f1c2a10-0000-4000-8000-000000000001')
      .execute();
    const last = await admin('last@final.test');
    const robot = await admin('robot@final.test', { password: false }); // an integration account: no password
    for (const o of others) await t.db.updateTable('persons').set({ loginMethod: 2 }).where('id', '=', o.id).execute();
    try {
      await expectLockout(await setMethod(robot.token, last.id, 2), LOCKOUT_TEXT.everyAdmin('this login method'), 'loginMethod');
      await expectLockout(await addDomain(robot.token, 'final.test'), LOCKOUT_TEXT.everyAdmin('requiring single sign-on for final.test'), 'domain');
      expect(await methodOf(last.id)).toBe(1);
      expect(await domains()).not.toContain('final.test');
      expect((await signIn(last.email)).status).toBe(200);
    } finally {
      for (const o of others) await t.db.updateTable('persons').set({ loginMethod: 1 }).where('id', '=', o.id).execute();
    }
  });
});

describe('break-glass accounts', () => {
  test('a break-glass admin may require single sign-on for their own domain and still signs in with the password (and only they do)', async () => {
    const glass = await admin('glass@glass.test');
    const pat = await insertPerson(t.db, { email: 'pat@glass.test', roles: ['ArcManagerRole'], passwordHash: hash });
    await ok(await addDomain(glass.token, 'glass.test'));
    try {
      const signedIn = await signIn('glass@glass.test');
      expect(signedIn.status).toBe(200);
      const entry = await t.db
        .selectFrom('auditLog')
        .select('details')
        .where('action', '=', 'login-succeeded')
        .where('entityId', '=', glass.id)
        .orderBy('id', 'desc')
        .executeTakeFirstOrThrow();
      expect(JSON.parse(entry.details)).toMatchObject({ breakGlass: true });
      expect(t.logs.some((l) => l.msg === 'break-glass password sign-in' && l.personId === glass.id)).toBe(true);
      const refused = await signIn('pat@glass.test');
      expect(refused.status).toBe(400);
      expect((await refused.json()) as unknown).toMatchObject({ Content: { Code: CODE.ssoEnforced, Message: MSG.ssoEnforced('Microsoft') } });
      expect(pat).toBeTruthy();
    } finally {
      await ok(await removeDomain(glass.token, 'glass.test'));
    }
  });
});
