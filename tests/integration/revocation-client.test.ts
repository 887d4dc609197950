// POST /connect/revocation with confidential client authentication (RFC 7009 §2.1): client_id +
// client_secret in the form or in an HTTP Basic header revoke the client's session; a wrong
// secret is invalid_client and revokes nothing; another client's token is not revoked. The public
// client (portal) sending a client_secret is invalid_client too.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { insertPerson } from '../helpers/auth.js';
import { hashPassword } from '../../src/server/auth/password.js';
import { solvedCaptcha } from '../helpers/captcha.js';
import { CODE, MSG } from '../../src/shared/messages.js';

const PASSWORD = 'Rev0ke-Client-Pass!';
const CLIENT = { client_id: 'integration', client_secret: 'integration-s3cret' };
let t: TestApp;
let hash: string;
let n = 0;

beforeAll(async () => {
  t = await createTestApp({ clientSecrets: { [CLIENT.client_id]: CLIENT.client_secret, other: 'other-s3cret' } });
  hash = await hashPassword(PASSWORD);
});
afterAll(async () => {
  await t?.close();
});

async function signIn(client: { client_id: string; client_secret: string } = CLIENT) {
  const email = `revoke-${++n}@revocation.test`;
  await insertPerson(t.db, { email, roles: ['SuperAdminRole'], passwordHash: hash });
  const res = await t.request('/connect/token', { form: { grant_type: 'password', ...client, username: email, password: PASSWORD } });
  expect(res.status).toBe(200);
  return (await res.json()) as { access_token: string; refresh_token: string };
}
const refresh = (token: string, client = CLIENT) => t.request('/connect/token', { form: { grant_type: 'refresh_token', ...client, refresh_token: token } });
const userInfo = (token: string) => t.request('/api/v1/get-user-info', { token });

describe('confidential clients revoke', () => {
  test('client_id + client_secret in the form: 200, the refresh token and the access token stop working', async () => {
    const s = await signIn();
    const res = await t.request('/connect/revocation', { form: { token: s.refresh_token, token_type_hint: 'refresh_token', ...CLIENT } });
    expect(res.status).toBe(200);
    expect((await refresh(s.refresh_token)).status).toBe(400);
    expect((await userInfo(s.access_token)).status).toBe(401);
  });

  test('HTTP Basic client authentication', async () => {
    const s = await signIn();
    const basic = Buffer.from(`${CLIENT.client_id}:${CLIENT.client_secret}`).toString('base64');
    const res = await t.request('/connect/revocation', { form: { token: s.refresh_token }, headers: { authorization: `Basic ${basic}` } });
    expect(res.status).toBe(200);
    expect((await refresh(s.refresh_token)).status).toBe(400);
  });

  test('a wrong secret is invalid_client and revokes nothing; another client cannot revoke this client’s token', async () => {
    const s = await signIn();
    const wrong = await t.request('/connect/revocation', { form: { token: s.refresh_token, client_id: CLIENT.client_id, client_secret: 'nope' } });
    expect(wrong.status).toBe(400);
    expect((await wrong.json()) as { error: string; Content: { Message: string } }).toMatchObject({
      error: CODE.invalidClient,
      Content: { Message: MSG.invalidClient },
    });
    const missing = await t.request('/connect/revocation', { form: { token: s.refresh_token, client_id: CLIENT.client_id } });
    expect(missing.status).toBe(400);
    const other = await t.request('/connect/revocation', { form: { token: s.refresh_token, client_id: 'other', client_secret: 'other-s3cret' } });
    expect(other.status).toBe(200); // RFC 7009: not this client's token, nothing to say
    const again = await refresh(s.refresh_token);
    expect(again.status).toBe(200);
  });
});

describe('the public client', () => {
  test('client_id=portal with a client_secret is invalid_client (a public client has none) and revokes nothing; without one it revokes', async () => {
    const email = `revoke-portal-${++n}@revocation.test`;
    await insertPerson(t.db, { email, roles: ['SuperAdminRole'], passwordHash: hash });
    const captchaResponse = await solvedCaptcha((path) => t.request(path));
    const signedIn = await t.request('/connect/token', {
      form: { grant_type: 'password', client_id: 'portal', username: email, password: PASSWORD, captchaResponse },
    });
    expect(signedIn.status).toBe(200);
    const s = (await signedIn.json()) as { access_token: string; refresh_token: string };
    for (const secret of ['anything', CLIENT.client_secret]) {
      const res = await t.request('/connect/revocation', { form: { token: s.refresh_token, client_id: 'portal', client_secret: secret } });
      expect(res.status).toBe(400);
      expect((await res.json()) as unknown).toMatchObject({ error: CODE.invalidClient, Content: { Code: CODE.invalidClient, Message: MSG.invalidClient } });
    }
    const basic = Buffer.from('portal:anything').toString('base64');
    expect((await t.request('/connect/revocation', { form: { token: s.refresh_token }, headers: { authorization: `Basic ${basic}` } })).status).toBe(400);
    expect((await userInfo(s.access_token)).status).toBe(200); // still signed in
    expect((await t.request('/connect/revocation', { form: { token: s.refresh_token, client_id: 'portal' } })).status).toBe(200);
    expect((await userInfo(s.access_token)).status).toBe(401);
  });
});
