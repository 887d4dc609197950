// Single sign-on: the token exchange against an OpenID Connect issuer that publishes
// its keys over HTTP (a stand-in for Entra ID: discovery document + JWKS on an ephemeral port).
// ID tokens with a wrong signature, issuer, audience, tenant or nonce, or expired, are refused;
// consent, several accounts, a company that requires SSO and an unknown e-mail each get their
// code; after consent the password no longer works. Runs on SQLite, and PostgreSQL with TEST_DB=pg.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { decodeJwt, exportJWK, generateKeyPair, SignJWT, type CryptoKey, type JWK } from 'jose';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { insertPerson } from '../helpers/auth.js';
import { customerRow } from '../helpers/customer-rows.js';
import { solvedCaptcha } from '../helpers/captcha.js';
import { hashPassword } from '../../src/server/auth/password.js';
import { forgetDiscovery } from '../../src/server/auth/sso/verify.js';
import { SSO_NONCE_TTL_MS } from '../../src/server/auth/sso/nonce.js';
import { PROVIDER_ACCOUNT_NAME } from '../../src/server/auth/sso/accounts.js';
import { embeddedSsoWarning, isLoopbackUrl, ssoConfig, StartupError, type SsoConfig } from '../../src/server/platform/config.js';
import { CODE, MSG } from '../../src/shared/messages.js';
import type { RoleName } from '../../src/shared/permissions.js';

const PASSWORD = 'Sso-Passw0rd!';
const CLIENT_ID = 'workspace-sso-test';
const TENANT = '11111111-2222-4333-8444-555555555555';

type Body = { Content: { Message: string; Code: string }; error?: string; accounts?: { customerName: string; emailAddress: string; canSelect: boolean }[] };
type Tokens = { access_token: string; token_type: string; refresh_token: string; expires_in: number };

let idp: Server;
let issuer: string;
let signingKey: CryptoKey;
let otherKey: CryptoKey;
let t: TestApp;
let noSso: TestApp;
let hash: string;
let n = 0;
/** The server's clock runs this far ahead of the real one (nonce expiry). */
let clockShift = 0;
const unique = (tag: string, domain = 'sso.test') => `${tag}-${++n}@${domain}`;

beforeAll(async () => {
  const pair = await generateKeyPair('RS256', { extractable: true });
  signingKey = pair.privateKey;
  otherKey = (await generateKeyPair('RS256')).privateKey;
  const jwk: JWK = { ...(await exportJWK(pair.publicKey)), kid: 'k1', alg: 'RS256', use: 'sig' };
  idp = createServer((req, res) => {
    res.setHeader('content-type', 'application/json');
    if (req.url === '/tenant/v2.0/.well-known/openid-configuration')
      return res.end(
        JSON.stringify({
          issuer,
          jwks_uri: `${issuer}/keys`,
          authorization_endpoint: `${issuer}/authorize`,
          token_endpoint: `${issuer}/token`,
        }),
      );
    if (req.url === '/tenant/v2.0/keys') return res.end(JSON.stringify({ keys: [jwk] }));
    res.statusCode = 404;
    res.end('{}');
  });
  await new Promise<void>((r) => idp.listen(0, '127.0.0.1', r));
  issuer = `http://127.0.0.1:${(idp.address() as AddressInfo).port}/tenant/v2.0`;
  const sso: SsoConfig = {
    mode: 'external',
    issuer,
    clientId: CLIENT_ID,
    tenantId: TENANT,
    providerName: 'Microsoft',
    scope: 'openid profile email',
    prompt: 'select_account',
  };
  t = await createTestApp({ sso, now: () => new Date(Date.now() + clockShift) });
  noSso = await createTestApp();
  await t.db.updateTable('features').set({ isEnabled: 1 }).where('name', '=', 'SingleSignOn').execute();
  await noSso.db.updateTable('features').set({ isEnabled: 1 }).where('name', '=', 'SingleSignOn').execute();
  hash = await hashPassword(PASSWORD);
});
afterAll(async () => {
  forgetDiscovery();
  await t?.close();
  await noSso?.close();
  await new Promise((r) => idp?.close(r));
});

async function nonce(app: TestApp = t): Promise<string> {
  const res = await app.request('/api/v1/sso/nonce', { method: 'POST' });
  expect(res.status).toBe(200);
  return ((await res.json()) as { nonce: string }).nonce;
}

type Claims = { email?: string; nonce?: string | null; iss?: string; aud?: string; tid?: string; exp?: number; iat?: number; preferred_username?: string };
async function idToken(email: string | undefined, over: Claims = {}, key: CryptoKey = signingKey) {
  const now = Math.floor(Date.now() / 1000);
  const claims: Record<string, unknown> = { tid: TENANT, name: 'Some One' };
  if (email !== undefined) claims.email = email;
  if (over.preferred_username) claims.preferred_username = over.preferred_username;
  const n = over.nonce === undefined ? await nonce() : over.nonce;
  if (n !== null) claims.nonce = n;
  if (over.tid !== undefined) claims.tid = over.tid;
  return new SignJWT(claims)
    .setProtectedHeader({ alg: 'RS256', kid: 'k1' })
    .setIssuer(over.iss ?? issuer)
    .setAudience(over.aud ?? CLIENT_ID)
    .setSubject(`sub-${email ?? 'none'}`)
    .setIssuedAt(over.iat ?? now)
    .setExpirationTime(over.exp ?? now + 3600)
    .sign(key);
}

async function exchange(token: string, extra: { sso_consent?: string; selected_account?: string } = {}, app: TestApp = t) {
  const captchaResponse = await solvedCaptcha((path) => app.request(path));
  return app.request('/connect/token', {
    form: {
      grant_type: 'token-exchange',
      id_token: token,
      captchaResponse,
      sso_consent: extra.sso_consent ?? '',
      selected_account: extra.selected_account ?? '',
    },
  });
}

async function expectCode(res: Response, code: string, message: string): Promise<Body> {
  const body = (await res.json()) as Body;
  expect({ status: res.status, code: body.Content.Code, message: body.Content.Message }).toEqual({ status: 400, code, message });
  return body;
}
const expectNotRecognised = (res: Response) => expectCode(res, CODE.ssoNotRecognised, MSG.ssoNotRecognised);

async function passwordSignIn(email: string) {
  const captchaResponse = await solvedCaptcha((path) => t.request(path));
  return t.request('/connect/token', { form: { grant_type: 'password', client_id: 'portal', username: email, password: PASSWORD, captchaResponse } });
}

const person = (email: string, roles: RoleName[] = ['SuperAdminRole'], over: { tenantId?: string } = {}) =>
  insertPerson(t.db, { email, roles, passwordHash: hash, ...over });
const stored = (id: string) => t.db.selectFrom('persons').select(['loginMethod', 'lastLoginDate']).where('id', '=', id).executeTakeFirstOrThrow();
const sessionsOf = async (id: string) => (await t.db.selectFrom('refreshTokens').select('id').where('personId', '=', id).execute()).length;

describe('configuration from the environment', () => {
  test('Entra ID from the tenant alone; an explicit issuer wins; the client id is required', () => {
    expect(ssoConfig({ SSO_TENANT_ID: TENANT, SSO_CLIENT_ID: 'app-1' }, { demo: true, port: 8080 })).toEqual({
      mode: 'external',
      issuer: `https://login.microsoftonline.com/${TENANT}/v2.0`,
      clientId: 'app-1',
      tenantId: TENANT,
      providerName: 'Microsoft',
      scope: 'openid profile email',
      prompt: 'select_account',
    });
    expect(
      ssoConfig({ SSO_ISSUER: 'https://id.example.test/realm/', SSO_CLIENT_ID: 'c', SSO_PROVIDER_NAME: 'Example ID' }, { demo: false, port: 1 }),
    ).toMatchObject({
      mode: 'external',
      issuer: 'https://id.example.test/realm',
      providerName: 'Example ID',
    });
    expect(() => ssoConfig({ SSO_TENANT_ID: TENANT }, { demo: true, port: 8080 })).toThrow(StartupError);
    expect(() => ssoConfig({ SSO_ISSUER: 'login.example.test', SSO_CLIENT_ID: 'c' }, { demo: true, port: 8080 })).toThrow(StartupError);
  });

  test('the embedded provider only with demo data and no issuer, at PUBLIC_URL/oidc; SSO_EMBEDDED=false turns it off', () => {
    expect(ssoConfig({}, { demo: true, port: 8208 })).toMatchObject({
      mode: 'embedded',
      issuer: 'http://localhost:8208/oidc',
      providerName: 'Demo ID',
      prompt: 'login',
    });
    expect(ssoConfig({ PUBLIC_URL: 'https://ws.example.test/', SSO_EMBEDDED: 'true' }, { demo: true, port: 8208 })?.issuer).toBe(
      'https://ws.example.test/oidc',
    );
    expect(ssoConfig({ PUBLIC_URL: 'http://127.0.0.1:8208' }, { demo: true, port: 8208 })?.issuer).toBe('http://127.0.0.1:8208/oidc');
    expect(ssoConfig({ PUBLIC_URL: 'http://[::1]:8208' }, { demo: true, port: 8208 })?.mode).toBe('embedded');
    expect(ssoConfig({}, { demo: false, port: 8208 })).toBeUndefined();
    expect(ssoConfig({ SSO_EMBEDDED: 'false' }, { demo: true, port: 8208 })).toBeUndefined();
  });

  test('the embedded provider (no password) never starts on a public address unless SSO_EMBEDDED=true; its warning is loud', () => {
    for (const PUBLIC_URL of [
      'https://ws.example.test',
      'http://10.0.0.5:8080',
      'http://192.168.1.20',
      'https://localhost.example.test',
      'http://127.0.0.1.nip.io',
    ])
      expect(ssoConfig({ PUBLIC_URL }, { demo: true, port: 8208 }), PUBLIC_URL).toBeUndefined();
    expect(ssoConfig({ PUBLIC_URL: 'https://ws.example.test', SSO_EMBEDDED: 'true' }, { demo: false, port: 8208 })).toBeUndefined();
    expect(isLoopbackUrl('http://localhost:8080')).toBe(true);
    expect(isLoopbackUrl('http://127.8.9.10')).toBe(true);
    expect(isLoopbackUrl('not a url')).toBe(false);
    expect(embeddedSsoWarning('https://ws.example.test/oidc')).toMatch(/^WARNING: .*WITHOUT A PASSWORD.*Provider Admin.*SSO_EMBEDDED=true/);
  });
});

describe('configuration and availability', () => {
  test('the public configuration names the provider; a nonce is signed and expires', async () => {
    const res = await t.request('/api/v1/sso/configuration');
    expect(await res.json()).toEqual({
      enabled: true,
      providerName: 'Microsoft',
      authority: issuer,
      clientId: CLIENT_ID,
      scope: 'openid profile email',
      prompt: 'select_account',
      // an external provider returns to PUBLIC_URL only (none known without it)
      appOrigins: process.env.PUBLIC_URL ? [new URL(process.env.PUBLIC_URL).origin] : [],
    });
    const n1 = await nonce();
    const n2 = await nonce();
    expect(n1).not.toBe(n2);
    expect(n1.split('.')).toHaveLength(4);
  });

  test('without a provider, or with the feature off, the exchange answers sso_unavailable', async () => {
    expect(await (await noSso.request('/api/v1/sso/configuration')).json()).toEqual({ enabled: false });
    await expectCode(await exchange('x', {}, noSso), CODE.ssoUnavailable, MSG.ssoUnavailable);
    await t.db.updateTable('features').set({ isEnabled: 0 }).where('name', '=', 'SingleSignOn').execute();
    try {
      expect(await (await t.request('/api/v1/sso/configuration')).json()).toEqual({ enabled: false });
      await expectCode(await exchange(await idToken('a@sso.test')), CODE.ssoUnavailable, MSG.ssoUnavailable);
    } finally {
      await t.db.updateTable('features').set({ isEnabled: 1 }).where('name', '=', 'SingleSignOn').execute();
    }
  });

  test('a provider that cannot be reached is unavailable, not the user unknown', async () => {
    const away: SsoConfig = {
      mode: 'external',
      issuer: 'http://127.0.0.1:9/nowhere',
      clientId: CLIENT_ID,
      providerName: 'Microsoft',
      scope: 'openid',
      prompt: 'login',
    };
    const app = await createTestApp({ sso: away });
    try {
      await app.db.updateTable('features').set({ isEnabled: 1 }).where('name', '=', 'SingleSignOn').execute();
      await expectCode(await exchange(await idToken('a@sso.test'), {}, app), CODE.ssoUnavailable, MSG.ssoUnavailable);
    } finally {
      await app.close();
    }
  });
});

describe('ID token verification', () => {
  test('a good token of a known person signs in (after consent) and is audited', async () => {
    const email = unique('good');
    const id = await person(email);
    const token = await idToken(email);
    await expectCode(await exchange(token), CODE.ssoFirstTimeLogin, MSG.ssoConsentTitle);
    const res = await exchange(token, { sso_consent: 'true' });
    expect(res.status).toBe(200);
    const body = (await res.json()) as Tokens;
    expect(decodeJwt(body.access_token).sub).toBe(id);
    expect(await sessionsOf(id)).toBe(1);
  });

  const refused: [string, (email: string) => Promise<string>][] = [
    ['signed with another key', (e) => idToken(e, {}, otherKey)],
    ['from another issuer', (e) => idToken(e, { iss: 'https://login.microsoftonline.com/other/v2.0' })],
    ['for another audience', (e) => idToken(e, { aud: 'someone-else' })],
    ['expired', (e) => idToken(e, { iat: Math.floor(Date.now() / 1000) - 7200, exp: Math.floor(Date.now() / 1000) - 3600 })],
    ['of another tenant', (e) => idToken(e, { tid: 'another-tenant' })],
    ['without a nonce', (e) => idToken(e, { nonce: null })],
    ['with a nonce this server did not sign', (e) => idToken(e, { nonce: 'n1.zzzzzzzz.abcdefghijklmnop.forged-signature' })],
    [
      'with a nonce re-dated by its bearer',
      async (e) => {
        const [p, , r, mac] = (await nonce()).split('.');
        return idToken(e, { nonce: `${p}.${(Date.now() + 10 * SSO_NONCE_TTL_MS).toString(36)}.${r}.${mac}` });
      },
    ],
    ['that is no JWT at all', async () => 'not-a-token'],
  ];
  test.each(refused)('a token %s is refused with the generic message; nothing changes', async (_what, make) => {
    const email = unique('bad');
    const id = await person(email);
    const res = await exchange(await make(email), { sso_consent: 'true' });
    await expectNotRecognised(res);
    expect(await stored(id)).toEqual({ loginMethod: 1, lastLoginDate: null });
    expect(await sessionsOf(id)).toBe(0);
    const audit = await t.db.selectFrom('auditLog').select('details').where('action', '=', 'sso-login-failed').orderBy('id', 'desc').executeTakeFirstOrThrow();
    expect(JSON.parse(audit.details).reason).toBe('token-invalid');
  });

  test('a nonce older than its hour is refused (the ID token itself still valid)', async () => {
    const email = unique('late');
    const id = await person(email);
    const now = Math.floor(Date.now() / 1000);
    const token = await idToken(email, { exp: now + 4 * 3600 });
    clockShift = SSO_NONCE_TTL_MS + 60_000;
    try {
      await expectNotRecognised(await exchange(token, { sso_consent: 'true' }));
    } finally {
      clockShift = 0;
    }
    expect(await sessionsOf(id)).toBe(0);
    expect((await exchange(token, { sso_consent: 'true' })).status).toBe(200); // the same token in time
  });

  test('a missing id_token is the generic failure', async () => {
    const captchaResponse = await solvedCaptcha((path) => t.request(path));
    await expectNotRecognised(await t.request('/connect/token', { form: { grant_type: 'token-exchange', captchaResponse } }));
  });

  test('an ID token signs in once: the same token again is refused', async () => {
    const email = unique('once');
    const id = await person(email);
    const token = await idToken(email);
    expect((await exchange(token, { sso_consent: 'true' })).status).toBe(200);
    await expectNotRecognised(await exchange(token, { sso_consent: 'true' }));
    expect(await sessionsOf(id)).toBe(1);
  });

  test('the captcha is required', async () => {
    const email = unique('captcha');
    await person(email);
    const res = await t.request('/connect/token', { form: { grant_type: 'token-exchange', id_token: await idToken(email), sso_consent: 'true' } });
    expect(res.status).toBe(400);
    expect(((await res.json()) as Body).Content.Code).toBe(CODE.captchaFailed);
  });

  test('Entra ID tokens without an email claim use preferred_username', async () => {
    const email = unique('upn');
    const id = await person(email);
    const res = await exchange(await idToken(undefined, { preferred_username: email.toUpperCase() }), { sso_consent: 'true' });
    expect(res.status).toBe(200);
    expect(decodeJwt(((await res.json()) as Tokens).access_token).sub).toBe(id);
  });
});

describe('accounts and login method', () => {
  test('an unknown e-mail is not recognised', async () => {
    await expectNotRecognised(await exchange(await idToken(unique('unknown')), { sso_consent: 'true' }));
  });

  test('consent: first sso_first_time_login, Accept switches the login method; the password then answers sso_required', async () => {
    const email = unique('consent');
    const id = await person(email);
    expect((await passwordSignIn(email)).status).toBe(200); // the password works before
    const token = await idToken(email);
    await expectCode(await exchange(token), CODE.ssoFirstTimeLogin, MSG.ssoConsentTitle);
    expect((await stored(id)).loginMethod).toBe(1); // nothing changes without consent
    const res = await exchange(token, { sso_consent: 'true' });
    expect(res.status).toBe(200);
    const tokens = (await res.json()) as Tokens;
    expect(await stored(id)).toMatchObject({ loginMethod: 2 });
    expect((await stored(id)).lastLoginDate).not.toBeNull();
    const actions = (await t.db.selectFrom('auditLog').select('action').where('entityId', '=', id).orderBy('id').execute()).map((a) => a.action);
    expect(actions).toEqual(expect.arrayContaining(['login-method-changed', 'login-succeeded']));
    // The user info says so (the client hides Settings).
    const info = await t.request('/api/v1/get-user-info', { token: tokens.access_token });
    expect(((await info.json()) as { loginMethod: unknown }).loginMethod).toEqual({ value: 2, name: 'SingleSignOn' });
    // The portal password no longer works.
    await expectCode(await passwordSignIn(email), CODE.ssoRequired, MSG.ssoRequired);
    // Next time no consent is asked.
    expect((await exchange(await idToken(email))).status).toBe(200);
  });

  test('several accounts: sso_select_account lists them (selectable first); choosing one signs in with it', async () => {
    const email = unique('multi');
    const customer = await t.db.selectFrom('customers').select(['tenantId', 'name']).executeTakeFirst();
    const tenantId = customer?.tenantId ?? '99999999-0000-4000-8000-000000000009';
    if (!customer)
      await t.db
        .insertInto('customers')
        .values(customerRow({ id: tenantId, tenantId, name: 'Acme Lone Workers', status: 1, trackingInterval: 0 }))
        .execute();
    const customerName = customer?.name ?? 'Acme Lone Workers';
    const own = await person(email, ['ArcManagerRole']);
    const ops = `ops-${email}`;
    const opsId = await person(ops, ['SuperAdminReadonlyRole']);
    const cust = `customer-${email}`;
    await person(cust, ['PortalUserRole'], { tenantId });
    await t.db.updateTable('persons').set({ ssoEmail: email }).where('email', 'in', [ops, cust]).execute();

    const token = await idToken(email);
    const body = await expectCode(await exchange(token), CODE.ssoSelectAccount, MSG.ssoSelectAccount);
    expect(body.accounts).toEqual([
      { customerName: PROVIDER_ACCOUNT_NAME, emailAddress: email, canSelect: true },
      { customerName: PROVIDER_ACCOUNT_NAME, emailAddress: ops, canSelect: true },
      { customerName, emailAddress: cust, canSelect: false },
    ]);
    // An account that cannot be selected, or one the e-mail does not reach, is refused.
    await expectNotRecognised(await exchange(token, { selected_account: cust }));
    await expectNotRecognised(await exchange(token, { selected_account: 'admin@demo.test' }));
    // Choosing one: its own consent, then its session.
    await expectCode(await exchange(token, { selected_account: ops }), CODE.ssoFirstTimeLogin, MSG.ssoConsentTitle);
    const res = await exchange(token, { selected_account: ops, sso_consent: 'true' });
    expect(res.status).toBe(200);
    expect(decodeJwt(((await res.json()) as Tokens).access_token).sub).toBe(opsId);
    expect((await stored(opsId)).loginMethod).toBe(2);
    expect((await stored(own)).loginMethod).toBe(1); // the other account is untouched
  });

  test('a company that requires single sign-on: sso_enforced on the password, no consent step on SSO', async () => {
    const domain = `enforced-${++n}.test`;
    await t.db.insertInto('ssoDomains').values({ domain, enforced: 1 }).execute();
    const email = unique('staff', domain);
    const id = await person(email, ['ArcSupervisorRole']);
    await expectCode(await passwordSignIn(email), CODE.ssoEnforced, MSG.ssoEnforced('Microsoft'));
    const res = await exchange(await idToken(email));
    expect(res.status).toBe(200);
    expect((await stored(id)).loginMethod).toBe(2);
  });

  test('a person without admin-panel access gets the permission message; an inactive one the generic message', async () => {
    const portal = unique('portal');
    await person(portal, ['PortalUserRole']);
    await expectCode(await exchange(await idToken(portal), { sso_consent: 'true' }), CODE.permissionMissing, MSG.permissionMissing);
    const inactive = unique('inactive');
    const id = await person(inactive);
    await t.db.updateTable('persons').set({ personStatus: 2 }).where('id', '=', id).execute();
    await expectNotRecognised(await exchange(await idToken(inactive), { sso_consent: 'true' }));
  });
});
