// The embedded identity provider on the real Node server: the whole authorization-code
// flow with PKCE without a browser — authorize, the provider's sign-in page, the code in the
// fragment of /login, the code redeemed at /oidc/token — and the ID token it issues accepted by
// the token exchange. Also its CSP and the app's connect-src for the issuer's origin.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createHash, randomBytes } from 'node:crypto';
import { decodeJwt } from 'jose';
import { createServer, type AppServer } from '../../src/server/server.js';
import { createOutbox } from '../../src/server/mail/outbox.js';
import { ssoConfig, testConfig } from '../../src/server/platform/config.js';
import { seedSsoDemo } from '../../src/server/auth/sso/demo-identities.js';
import { forgetDiscovery } from '../../src/server/auth/sso/verify.js';
import { createTestDb, type TestDb } from '../helpers/db.js';
import { solvedCaptcha } from '../helpers/captcha.js';
import { freePort } from '../helpers/ports.js';
import { CODE, MSG } from '../../src/shared/messages.js';

let tdb: TestDb;
let srv: AppServer;
let base: string;
let issuer: string;

beforeAll(async () => {
  tdb = await createTestDb();
  const port = await freePort();
  const sso = ssoConfig({}, { demo: true, port });
  const config = testConfig({ port, demo: true, sso });
  issuer = sso!.issuer;
  await seedSsoDemo(tdb.db, 'Demo-Passw0rd!');
  await tdb.db.updateTable('features').set({ isEnabled: 1 }).where('name', '=', 'SingleSignOn').execute();
  const log = () => {};
  srv = await createServer({ db: tdb.db, config, outbox: createOutbox({ log, now: () => config.now() }), log }, { port, hostname: '127.0.0.1' });
  base = `http://127.0.0.1:${port}`;
});
afterAll(async () => {
  await srv?.close();
  await tdb?.close();
  forgetDiscovery();
});

/** A tiny cookie jar: the provider's interaction cookies, by name (paths ignored; one flow at a time). */
function jar() {
  const cookies = new Map<string, string>();
  return {
    take(res: Response) {
      for (const c of res.headers.getSetCookie()) {
        const [pair = ''] = c.split(';');
        const i = pair.indexOf('=');
        cookies.set(pair.slice(0, i), pair.slice(i + 1));
      }
    },
    header: () => [...cookies].map(([k, v]) => `${k}=${v}`).join('; '),
  };
}

/** Requests on the provider, following its redirects by hand until one leaves it (the app's /login). */
async function providerFlow(email: string) {
  const verifier = randomBytes(32).toString('base64url');
  const challenge = createHash('sha256').update(verifier).digest('base64url');
  const { nonce } = (await (await fetch(`${base}/api/v1/sso/nonce`, { method: 'POST' })).json()) as { nonce: string };
  const redirectUri = `${base}/login`;
  const q = new URLSearchParams({
    client_id: 'workspace-sso',
    response_type: 'code',
    response_mode: 'fragment',
    redirect_uri: redirectUri,
    scope: 'openid profile email',
    code_challenge: challenge,
    code_challenge_method: 'S256',
    nonce,
    state: 'st-1',
    prompt: 'login',
  });
  const cookies = jar();
  const local = (location: string) => new URL(location, base).href.replace(new URL(issuer).origin, base);
  let res = await fetch(`${base}/oidc/auth?${q}`, { redirect: 'manual' });
  cookies.take(res);
  expect(res.status).toBe(303);
  const interaction = local(res.headers.get('location')!);
  expect(interaction).toMatch(/\/oidc\/interaction\/[\w-]+$/);

  res = await fetch(interaction, { headers: { cookie: cookies.header() } });
  const html = await res.text();
  expect(res.status).toBe(200);
  expect(html).toContain('Demo ID');
  expect(html).toContain('sso-multi@demo.test'); // the demo accounts are listed
  expect(res.headers.get('content-security-policy')).toContain("default-src 'none'");
  expect(html).not.toContain('<script');

  res = await fetch(`${interaction}/login`, {
    method: 'POST',
    redirect: 'manual',
    headers: { cookie: cookies.header(), 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ email }).toString(),
  });
  cookies.take(res);
  for (let hops = 0; res.status === 303 || res.status === 302; hops++) {
    const next = res.headers.get('location')!;
    if (next.startsWith(redirectUri)) return { location: next, verifier, redirectUri, nonce };
    expect(hops).toBeLessThan(5);
    res = await fetch(local(next), { redirect: 'manual', headers: { cookie: cookies.header() } });
    cookies.take(res);
  }
  return { location: undefined, page: await res.text(), verifier, redirectUri, nonce };
}

async function redeem(location: string, verifier: string, redirectUri: string) {
  const fragment = new URLSearchParams(location.split('#')[1] ?? '');
  expect(fragment.get('state')).toBe('st-1');
  const code = fragment.get('code');
  expect(code).toBeTruthy();
  const res = await fetch(`${base}/oidc/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin: base },
    body: new URLSearchParams({
      grant_type: 'authorization_code',
      code: code!,
      redirect_uri: redirectUri,
      client_id: 'workspace-sso',
      code_verifier: verifier,
    }),
  });
  expect(res.status).toBe(200);
  expect(res.headers.get('access-control-allow-origin')).toBe(base); // the browser redeems it cross-origin
  return ((await res.json()) as { id_token: string }).id_token;
}

async function exchange(idToken: string, consent = '') {
  const captchaResponse = await solvedCaptcha((path) => fetch(`${base}${path}`));
  return fetch(`${base}/connect/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'token-exchange', id_token: idToken, captchaResponse, sso_consent: consent, selected_account: '' }),
  });
}

describe('embedded identity provider', () => {
  test('discovery names the issuer; the configuration endpoint points the browser at it; the CSP lets the browser reach it', async () => {
    const discovery = (await (await fetch(`${base}/oidc/.well-known/openid-configuration`)).json()) as {
      issuer: string;
      code_challenge_methods_supported: string[];
    };
    expect(discovery.issuer).toBe(issuer);
    expect(discovery.code_challenge_methods_supported).toContain('S256');
    const cfg = await (await fetch(`${base}/api/v1/sso/configuration`)).json();
    expect(cfg).toEqual({
      enabled: true,
      providerName: 'Demo ID',
      authority: issuer,
      clientId: 'workspace-sso',
      scope: 'openid profile email',
      prompt: 'login',
      // where the embedded provider returns to: PUBLIC_URL first, then this port on localhost and 127.0.0.1
      appOrigins: [...new Set([...(process.env.PUBLIC_URL ? [new URL(process.env.PUBLIC_URL).origin] : []), `http://localhost:${new URL(base).port}`, base])],
    });
    const csp = (await fetch(`${base}/health`)).headers.get('content-security-policy') ?? '';
    expect(csp).toMatch(new RegExp(`connect-src 'self' ${new URL(issuer).origin.replace(/[.]/g, '\\.')}`));
  });

  test('the whole code flow: the ID token carries the e-mail and our nonce, and the exchange accepts it', async () => {
    const flow = await providerFlow('sso-new@demo.test');
    expect(flow.location).toMatch(/\/login#code=/);
    const idToken = await redeem(flow.location!, flow.verifier, flow.redirectUri);
    const claims = decodeJwt(idToken);
    expect(claims).toMatchObject({ iss: issuer, aud: 'workspace-sso', email: 'sso-new@demo.test', nonce: flow.nonce });
    let res = await exchange(idToken);
    expect(((await res.json()) as { Content: { Code: string } }).Content.Code).toBe(CODE.ssoFirstTimeLogin);
    res = await exchange(idToken, 'true');
    expect(res.status).toBe(200);
    const person = await tdb.db.selectFrom('persons').select(['id', 'loginMethod']).where('email', '=', 'sso-new@demo.test').executeTakeFirstOrThrow();
    expect(person.loginMethod).toBe(2);
    expect(decodeJwt(((await res.json()) as { access_token: string }).access_token).sub).toBe(person.id);
  });

  test('the unknown identity gets its ID token, and the workspace does not recognise it', async () => {
    const flow = await providerFlow('sso-unknown@demo.test');
    const res = await exchange(await redeem(flow.location!, flow.verifier, flow.redirectUri), 'true');
    const body = (await res.json()) as { Content: { Code: string; Message: string } };
    expect(body.Content).toEqual({ Code: CODE.ssoNotRecognised, Message: MSG.ssoNotRecognised });
  });

  test('an e-mail the provider does not know stays on its sign-in page with an alert', async () => {
    const flow = await providerFlow('nobody@demo.test');
    expect(flow.location).toBeUndefined();
    expect(flow.page).toContain('role="alert"');
    expect(flow.page).toContain('No demo account nobody@demo.test here.');
  });
});

describe('the provider answers with the same protective headers as the rest', () => {
  test('nosniff, CSP and X-Frame-Options on discovery, keys, an authorization error, the token endpoint and an unknown path', async () => {
    const answers = await Promise.all([
      fetch(`${base}/oidc/.well-known/openid-configuration`),
      fetch(`${base}/oidc/jwks`),
      fetch(`${base}/oidc/auth?client_id=unknown-client&response_type=code`, { redirect: 'manual' }),
      fetch(`${base}/oidc/token`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'grant_type=nothing' }),
      fetch(`${base}/oidc/no-such-page`),
    ]);
    for (const res of answers) {
      const what = `${res.url} (${res.status})`;
      expect(res.headers.get('x-content-type-options'), what).toBe('nosniff');
      expect(res.headers.get('x-frame-options'), what).toBe('DENY');
      expect(res.headers.get('content-security-policy') ?? '', what).toMatch(/frame-ancestors 'none'/);
      expect(res.headers.get('content-security-policy') ?? '', what).toMatch(/default-src 'none'/);
    }
  });
});
