// Captcha on sign-in, reset password, change password and 2FA change, over a real database
// (SQLite in memory, or PostgreSQL with TEST_DB=pg): the portal client must send a solved,
// unexpired, unused challenge; a confidential client with its secret is exempt; reCAPTCHA v3 is
// checked against a local server answering in Google's siteverify shape. With TEST_REDIS_URL the
// replay store in Redis is checked across two nodes too.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createServer, type Server } from 'node:http';
import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { Redis } from 'ioredis';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { insertPerson } from '../helpers/auth.js';
import { solveAltcha, solvedCaptcha } from '../helpers/captcha.js';
import { hashPassword, verifyPassword } from '../../src/server/auth/password.js';
import { openRedis } from '../../src/server/platform/redis.js';
import { testConfig, type Config } from '../../src/server/platform/config.js';
import { CODE, MSG } from '../../src/shared/messages.js';
import type { CaptchaChallengeResponse } from '../../src/shared/captcha.js';

const PASSWORD = 'Correct-Horse-9';
const START = new Date('2031-03-01T09:00:00.000Z');
let fakeNow = new Date(START);
const advance = (ms: number) => {
  fakeNow = new Date(fakeNow.getTime() + ms);
};

type Body = { Content: { Message: string; Code: string; Errors?: Record<string, string> }; error?: string; error_description?: string };

let t: TestApp;
let hash: string;
beforeAll(async () => {
  t = await createTestApp({ now: () => fakeNow, clientSecrets: { integration: 'integration-s3cret' } });
  hash = await hashPassword(PASSWORD);
});
afterAll(async () => {
  await t?.close();
});

const captcha = (app: TestApp = t) => solvedCaptcha((path) => app.request(path));
async function person() {
  const email = `captcha-${randomUUID().slice(0, 8)}@captcha.test`;
  const id = await insertPerson(t.db, { email, roles: ['SuperAdminRole'], passwordHash: hash });
  return { id, email };
}
const grant = (form: Record<string, string>, app: TestApp = t) =>
  app.request('/connect/token', { form: { grant_type: 'password', client_id: 'portal', password: PASSWORD, ...form } });
async function expectCaptchaFailed(res: Response) {
  const body = (await res.json()) as Body;
  expect({ status: res.status, code: body.Content?.Code, message: body.Content?.Message }).toEqual({
    status: 400,
    code: CODE.captchaFailed,
    message: MSG.captchaFailed,
  });
  return body;
}
const personRow = (id: string) => t.db.selectFrom('persons').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
const usedSolutions = () => t.db.withTables<{ captchaSolutions: { key: string; expiresAt: string } }>().selectFrom('captchaSolutions').selectAll().execute();

/** A solved payload with one part changed. */
function tampered(
  token: string,
  change: (p: { challenge: { parameters: Record<string, unknown>; signature: string }; solution: { counter: number; derivedKey: string } }) => void,
) {
  const p = JSON.parse(Buffer.from(token, 'base64').toString('utf8'));
  change(p);
  return Buffer.from(JSON.stringify(p)).toString('base64');
}

describe('challenge endpoint', () => {
  test('public, not cached: a signed ALTCHA challenge for action login, expiring with the app clock', async () => {
    const res = await t.request('/api/captcha/challenge');
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const body = (await res.json()) as CaptchaChallengeResponse;
    if (body.provider !== 'altcha') throw new Error('expected altcha');
    expect(body.challenge.signature).toMatch(/^[0-9a-f]{64}$/);
    expect(body.challenge.parameters).toMatchObject({ algorithm: 'SHA-256', cost: 1, data: { action: 'login', expires: START.getTime() / 1000 + 600 } });
    expect(body.challenge.parameters.keySignature).toMatch(/^[0-9a-f]{64}$/);
  });
});

describe('password grant, portal client', () => {
  test('missing, garbage, tampered or wrongly solved captcha: 400 captcha_failed (OAuth fields too); nobody signed in', async () => {
    const p = await person();
    const missing = await expectCaptchaFailed(await grant({ username: p.email }));
    expect(missing).toMatchObject({ error: CODE.captchaFailed, error_description: MSG.captchaFailed });
    await expectCaptchaFailed(await grant({ username: p.email, captchaResponse: '' }));
    await expectCaptchaFailed(await grant({ username: p.email, captchaResponse: 'not-a-captcha' }));
    await expectCaptchaFailed(await grant({ username: p.email, captchaResponse: Buffer.from('{"challenge":1}').toString('base64') }));
    const good = await captcha();
    await expectCaptchaFailed(
      await grant({
        username: p.email,
        captchaResponse: tampered(good, (x) => {
          x.solution.counter += 1;
          x.solution.derivedKey = '00'.repeat(32);
        }),
      }),
    );
    await expectCaptchaFailed(
      await grant({
        username: p.email,
        captchaResponse: tampered(good, (x) => {
          x.challenge.parameters.data = { action: 'login', expires: 4_000_000_000 };
        }),
      }),
    );
    await expectCaptchaFailed(
      await grant({
        username: p.email,
        captchaResponse: tampered(good, (x) => {
          x.challenge.signature = 'ab'.repeat(32);
        }),
      }),
    );
    // A challenge signed with another key (another deployment) does not pass.
    const other = await createTestApp({ now: () => fakeNow, captcha: { altcha: { hmacKey: 'someone-else', cost: 1, maxNumber: 20, ttlSeconds: 600 } } });
    try {
      await expectCaptchaFailed(await grant({ username: p.email, captchaResponse: await captcha(other) }));
    } finally {
      await other.close();
    }
    const row = await personRow(p.id);
    expect(row.lastLoginDate).toBeNull();
    expect(row.failedAttempts).toBe(0); // the password was never looked at
    // The untouched solution still works.
    expect((await grant({ username: p.email, captchaResponse: good })).status).toBe(200);
  });

  test('a solved challenge passes once: the replay is refused; the used solution is stored until it expires', async () => {
    const p = await person();
    const token = await captcha();
    const first = await grant({ username: p.email, captchaResponse: token });
    expect(first.status).toBe(200);
    const signature = JSON.parse(Buffer.from(token, 'base64').toString('utf8')).challenge.signature;
    const stored = (await usedSolutions()).find((r) => r.key === `altcha:${signature}`);
    expect(stored?.expiresAt).toBe(new Date(fakeNow.getTime() + 600_000).toISOString());
    await expectCaptchaFailed(await grant({ username: p.email, captchaResponse: token }));
    // Used on another endpoint: refused there too.
    await expectCaptchaFailed(await t.request('/api/v1/reset-password', { json: { email: p.email, captchaResponse: token } }));
  });

  test('an expired challenge is refused (the app clock decides)', async () => {
    const p = await person();
    const token = await captcha();
    advance(601_000);
    await expectCaptchaFailed(await grant({ username: p.email, captchaResponse: token }));
    expect((await grant({ username: p.email, captchaResponse: await captcha() })).status).toBe(200);
  });

  test('a portal request that also sends a client_secret still needs the captcha', async () => {
    const p = await person();
    await expectCaptchaFailed(await grant({ username: p.email, client_secret: 'integration-s3cret' }));
  });
});

describe('confidential client (CLIENT_SECRETS)', () => {
  test('with its secret: no captcha needed; refresh needs the secret too', async () => {
    const p = await person();
    const res = await grant({ client_id: 'integration', client_secret: 'integration-s3cret', username: p.email });
    expect(res.status).toBe(200);
    const tokens = (await res.json()) as { refresh_token: string };
    const refresh = (form: Record<string, string>) =>
      t.request('/connect/token', { form: { grant_type: 'refresh_token', client_id: 'integration', refresh_token: tokens.refresh_token, ...form } });
    expect((await refresh({ client_secret: 'wrong' })).status).toBe(400);
    expect((await refresh({ client_secret: 'integration-s3cret' })).status).toBe(200);
  });

  test('wrong or missing secret: 400 invalid_client, whether or not a captcha is sent', async () => {
    const p = await person();
    const forms: Record<string, string>[] = [{ client_secret: 'wrong' }, {}, { client_secret: 'wrong', captchaResponse: await captcha() }];
    for (const form of forms) {
      const res = await grant({ client_id: 'integration', username: p.email, ...form });
      const body = (await res.json()) as Body;
      expect({ status: res.status, code: body.Content.Code, error: body.error }).toEqual({ status: 400, code: CODE.invalidClient, error: CODE.invalidClient });
    }
    expect((await personRow(p.id)).lastLoginDate).toBeNull();
  });
});

describe('reset, change password, 2FA change', () => {
  const outboxFor = (recipient: string) => t.db.selectFrom('outbox').selectAll().where('recipient', '=', recipient).execute();
  const signIn = async (email: string) =>
    ((await (await grant({ username: email, captchaResponse: await captcha() })).json()) as { access_token: string }).access_token;

  test('reset password: without a captcha nothing is sent', async () => {
    const p = await person();
    await expectCaptchaFailed(await t.request('/api/v1/reset-password', { json: { email: p.email } }));
    await expectCaptchaFailed(await t.request('/api/v1/reset-password', { json: { email: p.email, captchaResponse: 'junk' } }));
    expect(await outboxFor(p.email)).toHaveLength(0);
    expect((await t.request('/api/v1/reset-password', { json: { email: p.email, captchaResponse: await captcha() } })).status).toBe(200);
    expect(await outboxFor(p.email)).toHaveLength(1);
  });

  test('change password: without a captcha the password stays', async () => {
    const p = await person();
    const token = await signIn(p.email);
    const body = { oldPassword: PASSWORD, newPassword: 'New-Password-2', newPasswordRepeated: 'New-Password-2' };
    await expectCaptchaFailed(await t.request('/api/v1/change-password', { token, json: body }));
    expect(await verifyPassword((await personRow(p.id)).passwordHash, PASSWORD)).toBe(true);
    expect((await t.request('/api/v1/change-password', { token, json: { ...body, captchaResponse: await captcha() } })).status).toBe(200);
    expect(await verifyPassword((await personRow(p.id)).passwordHash, 'New-Password-2')).toBe(true);
  });

  test('2FA change: needs a captcha and the current password; the setting stays until both are right', async () => {
    const p = await person();
    const token = await signIn(p.email);
    const put = (json: object) => t.request('/api/v1/change-two-factor-authentication', { method: 'PUT', token, json });
    const change = { twoFactorAuthentication: { type: 1, phoneNumber: null } };
    await expectCaptchaFailed(await put({ ...change, currentPassword: PASSWORD }));
    const noPassword = await put({ ...change, captchaResponse: await captcha() });
    const noPasswordBody = (await noPassword.json()) as Body;
    expect({ status: noPassword.status, code: noPasswordBody.Content.Code, errors: noPasswordBody.Content.Errors }).toEqual({
      status: 400,
      code: CODE.validation,
      errors: { currentPassword: MSG.pleaseEnter('current_password') },
    });
    const wrong = await put({ ...change, captchaResponse: await captcha(), currentPassword: 'Not-My-Password' });
    const wrongBody = (await wrong.json()) as Body;
    expect({ status: wrong.status, code: wrongBody.Content.Code, message: wrongBody.Content.Message, errors: wrongBody.Content.Errors }).toEqual({
      status: 400,
      code: CODE.oldPasswordInvalid,
      message: MSG.currentPasswordInvalid,
      errors: { currentPassword: MSG.currentPasswordInvalid },
    });
    expect((await personRow(p.id)).twoFactorType).toBeNull();
    const audit = await t.db.selectFrom('auditLog').select('action').where('entityId', '=', p.id).execute();
    expect(audit.map((a) => a.action)).toContain('two-factor-change-failed');

    const ok = await put({ ...change, captchaResponse: await captcha(), currentPassword: PASSWORD });
    expect(ok.status).toBe(200);
    expect((await personRow(p.id)).twoFactorType).toBe(1);
  });
});

describe('reCAPTCHA v3 (RECAPTCHA_SECRET + RECAPTCHA_SITE_KEY)', () => {
  let google: Server;
  let verifyUrl: string;
  const received: URLSearchParams[] = [];
  beforeAll(async () => {
    // Answers like https://www.google.com/recaptcha/api/siteverify does (POST, form-encoded secret + response).
    google = createServer((req, res) => {
      let raw = '';
      req.on('data', (c) => (raw += c));
      req.on('end', () => {
        const form = new URLSearchParams(raw);
        received.push(form);
        const token = form.get('response') ?? '';
        const ok = { success: true, challenge_ts: '2031-03-01T09:00:00Z', hostname: 'workspace.test' };
        const answer =
          form.get('secret') !== 'recaptcha-secret'
            ? { success: false, 'error-codes': ['invalid-input-secret'] }
            : token.startsWith('human')
              ? { ...ok, score: 0.9, action: 'login' }
              : token.startsWith('bot')
                ? { ...ok, score: 0.1, action: 'login' }
                : token.startsWith('elsewhere')
                  ? { ...ok, score: 0.9, action: 'signup' }
                  : { success: false, 'error-codes': ['invalid-input-response'] };
        res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' }).end(JSON.stringify(answer));
      });
    });
    await new Promise<void>((r) => google.listen(0, '127.0.0.1', r));
    verifyUrl = `http://127.0.0.1:${(google.address() as AddressInfo).port}/recaptcha/api/siteverify`;
  });
  afterAll(async () => {
    await new Promise((r) => google?.close(r));
  });

  const recaptchaApp = (over: Partial<NonNullable<Config['captcha']['recaptcha']>> = {}) =>
    createTestApp({
      now: () => fakeNow,
      captcha: { ...testConfig().captcha, recaptcha: { secret: 'recaptcha-secret', siteKey: 'site-key-1', verifyUrl, minScore: 0.5, ...over } },
    });

  test('the challenge endpoint names the provider and site key; score, action and success decide; a token passes once', async () => {
    const app = await recaptchaApp();
    try {
      expect(await (await app.request('/api/captcha/challenge')).json()).toEqual({ provider: 'recaptcha', siteKey: 'site-key-1', action: 'login' });
      const email = `re-${randomUUID().slice(0, 8)}@captcha.test`;
      await insertPerson(app.db, { email, roles: ['SuperAdminRole'], passwordHash: hash });
      const tryToken = (captchaResponse: string) => grant({ username: email, captchaResponse }, app);
      await expectCaptchaFailed(await tryToken('bot-1'));
      await expectCaptchaFailed(await tryToken('elsewhere-1'));
      await expectCaptchaFailed(await tryToken('forged-1'));
      await expectCaptchaFailed(await grant({ username: email }, app));
      const human = await tryToken('human-1');
      expect(human.status).toBe(200);
      const last = received.at(-1)!;
      expect({ secret: last.get('secret'), response: last.get('response') }).toEqual({ secret: 'recaptcha-secret', response: 'human-1' });
      await expectCaptchaFailed(await tryToken('human-1')); // replay
      expect((await app.request('/api/v1/reset-password', { json: { email, captchaResponse: 'human-2' } })).status).toBe(200);
    } finally {
      await app.close();
    }
  });

  test('siteverify unreachable or the secret wrong: the captcha fails (closed)', async () => {
    for (const over of [{ verifyUrl: 'http://127.0.0.1:9/siteverify' }, { secret: 'wrong-secret' }]) {
      const app = await recaptchaApp(over);
      try {
        await expectCaptchaFailed(await grant({ username: 'anyone@captcha.test', captchaResponse: 'human-3' }, app));
      } finally {
        await app.close();
      }
    }
  });
});

const REDIS_URL = process.env.TEST_REDIS_URL;
describe.skipIf(!REDIS_URL)('replay store in Redis (TEST_REDIS_URL)', () => {
  test('two nodes sharing Redis: a solution used on one is refused on the other', async () => {
    const prefix = `test-captcha-${randomUUID()}:`;
    const ra = openRedis(REDIS_URL!, { keyPrefix: prefix });
    const rb = openRedis(REDIS_URL!, { keyPrefix: prefix });
    const a = await createTestApp({ now: () => fakeNow }, { redis: ra });
    const b = await createTestApp({ now: () => fakeNow }, { redis: rb });
    try {
      const token = await captcha(a);
      const email = `redis-${randomUUID().slice(0, 8)}@captcha.test`;
      await insertPerson(a.db, { email, roles: ['SuperAdminRole'], passwordHash: hash });
      expect((await grant({ username: email, captchaResponse: token }, a)).status).toBe(200);
      // b has its own database (no such person), but the captcha is checked first: refused as a replay.
      await expectCaptchaFailed(await grant({ username: email, captchaResponse: token }, b));
      const signature = JSON.parse(Buffer.from(token, 'base64').toString('utf8')).challenge.signature;
      expect(await ra.pttl(`captcha:used:altcha:${signature}`)).toBeGreaterThan(590_000);
      expect(await a.db.withTables<{ captchaSolutions: { key: string } }>().selectFrom('captchaSolutions').selectAll().execute()).toHaveLength(0);
    } finally {
      const admin = new Redis(REDIS_URL!, { maxRetriesPerRequest: 1 });
      const mine = await admin.keys(`${prefix}*`);
      if (mine.length) await admin.del(...mine);
      await admin.quit();
      await a.close();
      await b.close();
      await ra.close();
      await rb.close();
    }
  });
});

// solveAltcha is what the e2e helper uses against a running server.
test('solveAltcha answers a challenge the server accepts', async () => {
  const body = (await (await t.request('/api/captcha/challenge')).json()) as CaptchaChallengeResponse;
  if (body.provider !== 'altcha') throw new Error('expected altcha');
  const p = await person();
  expect((await grant({ username: p.email, captchaResponse: await solveAltcha(body.challenge) })).status).toBe(200);
});

test('configuration from the environment: CLIENT_SECRETS, reCAPTCHA only with secret and site key, ALTCHA numbers', async () => {
  const { loadConfig } = await import('../../src/server/platform/config.js');
  const { mkdtempSync } = await import('node:fs');
  const { tmpdir } = await import('node:os');
  const { join } = await import('node:path');
  const base = { DATA_DIR: mkdtempSync(join(tmpdir(), 'captcha-config-')), JWT_SECRET: 'x'.repeat(40) };
  const c = loadConfig({ ...base, CLIENT_SECRETS: 'integration:s3cret, other:with:colon ,broken', ALTCHA_MAX_NUMBER: 'lots', RECAPTCHA_SECRET: 'only-secret' });
  expect(c.clientSecrets).toEqual({ integration: 's3cret', other: 'with:colon' });
  expect(c.clientIds).toEqual(['portal']);
  expect(c.captcha.recaptcha).toBeUndefined();
  expect(c.captcha.altcha).toMatchObject({ cost: 1, maxNumber: 50_000, ttlSeconds: 600 });
  expect(c.captcha.altcha.hmacKey).toBe(loadConfig(base).captcha.altcha.hmacKey); // stable: derived from the signing key
  expect(c.captcha.altcha.hmacKey).not.toBe(loadConfig({ ...base, JWT_SECRET: 'y'.repeat(40) }).captcha.altcha.hmacKey);
  const r = loadConfig({ ...base, RECAPTCHA_SECRET: 's', RECAPTCHA_SITE_KEY: 'k', RECAPTCHA_MIN_SCORE: '0.7' });
  expect(r.captcha.recaptcha).toEqual({ secret: 's', siteKey: 'k', verifyUrl: 'https://www.google.com/recaptcha/api/siteverify', minScore: 0.7 });
});
