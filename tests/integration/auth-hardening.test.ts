// Hardening of sign-in, over a real database (SQLite in memory, or PostgreSQL with
// TEST_DB=pg): temporary lockout, refresh-token reuse under concurrency, multi-step writes in
// transactions, mail after commit through a real SMTP server, logout on the server, and the
// per-person session epoch that ends access tokens within seconds.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { SignJWT, decodeJwt } from 'jose';
import { sql } from 'kysely';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { insertPerson, signedIn } from '../helpers/auth.js';
import { solvedCaptcha } from '../helpers/captcha.js';
import { first, group } from '../helpers/lists.js';
import { hashPassword } from '../../src/server/auth/password.js';
import { TOKEN_AUDIENCE, TOKEN_ISSUER } from '../../src/server/auth/tokens.js';
import { CODE, MSG } from '../../src/shared/messages.js';
import { permissionsForRoles, ROLE_IDS, type RoleName } from '../../src/shared/permissions.js';

const PASSWORD = 'Correct-Horse-9';
const MIN = 60_000;
let fakeNow = new Date('2031-05-01T09:00:00.000Z');
const advance = (ms: number) => {
  fakeNow = new Date(fakeNow.getTime() + ms);
};

let t: TestApp;
let hash: string;
let n = 0;
const uniqueEmail = (tag: string) => `${tag}-${++n}@hardening.test`;

beforeAll(async () => {
  t = await createTestApp({ now: () => fakeNow });
  hash = await hashPassword(PASSWORD);
});
afterAll(async () => {
  await t?.close();
});

type Body = { Content: { Message: string; Code: string } };
type Tokens = { access_token: string; refresh_token: string };

async function person(app: TestApp = t, roles: RoleName[] = ['SuperAdminRole'], over: { twoFactorType?: number | null } = {}) {
  const email = uniqueEmail('p');
  const id = await insertPerson(app.db, { email, roles, passwordHash: hash, twoFactorType: over.twoFactorType });
  return { id, email };
}
/** A solved captcha from the app (the portal client must send one). */
const captchaFrom = (app: TestApp) => solvedCaptcha((path) => app.request(path));
const login = async (email: string, password = PASSWORD, extra: Record<string, string> = {}, app: TestApp = t) =>
  app.request('/connect/token', {
    form: { grant_type: 'password', client_id: 'portal', username: email, password, captchaResponse: await captchaFrom(app), ...extra },
  });
async function signIn(email: string, extra: Record<string, string> = {}, app: TestApp = t) {
  const res = await login(email, PASSWORD, extra, app);
  expect(res.status).toBe(200);
  return (await res.json()) as Tokens;
}
const refresh = (token: string, app: TestApp = t) =>
  app.request('/connect/token', { form: { grant_type: 'refresh_token', client_id: 'portal', refresh_token: token } });
const userInfo = (token: string, app: TestApp = t) => app.request('/api/v1/get-user-info', { token });
const personRow = (id: string, app: TestApp = t) => app.db.selectFrom('persons').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
const outboxFor = (recipient: string, app: TestApp = t) => app.db.selectFrom('outbox').selectAll().where('recipient', '=', recipient).orderBy('id').execute();
async function expectError(res: Response, status: number, code: string, message: string) {
  const body = (await res.json()) as Body;
  expect({ status: res.status, code: body.Content?.Code, message: body.Content?.Message }).toEqual({ status, code, message });
}
const codeIn = (body: string) => group(/Your verification code is (\d{6})\./, body);
const resetTokenIn = (body: string) => decodeURIComponent(group(/reset-password\?token=(\S+)/, body));

/** Makes every INSERT into the table fail (a fault after the earlier statements of a request). */
async function failInserts(app: TestApp, table: string) {
  if (app.dialect === 'pg') {
    await sql
      .raw(`create or replace function fail_insert() returns trigger language plpgsql as $$ begin raise exception 'injected failure'; end $$`)
      .execute(app.db);
    await sql.raw(`create trigger fail_insert before insert on "${table}" for each row execute function fail_insert()`).execute(app.db);
    return () => sql.raw(`drop trigger fail_insert on "${table}"`).execute(app.db);
  }
  await sql.raw(`create trigger fail_insert before insert on "${table}" begin select raise(abort, 'injected failure'); end`).execute(app.db);
  return () => sql.raw('drop trigger fail_insert').execute(app.db);
}

// ------------------------------------------------------------------ item 2: lockout

describe('lockout is temporary', () => {
  test('LOCKOUT_MAX_FAILURES and LOCKOUT_MINUTES: 3 failures lock for 15 minutes; then a fresh count', async () => {
    const app = await createTestApp({ now: () => fakeNow, lockoutMaxFailures: 3, lockoutMinutes: 15 });
    try {
      const p = await person(app);
      for (let i = 0; i < 3; i++) await expectError(await login(p.email, `Wrong-${i}`, {}, app), 400, CODE.invalidGrant, MSG.loginFailed);
      expect(await personRow(p.id, app)).toMatchObject({ isLocked: 1, failedAttempts: 3, lockedUntil: new Date(fakeNow.getTime() + 15 * MIN).toISOString() });
      advance(14 * MIN);
      await expectError(await login(p.email, PASSWORD, {}, app), 400, CODE.invalidGrant, MSG.loginFailed);
      advance(MIN);
      // Ended: one more wrong password counts 1 again and does not lock.
      await expectError(await login(p.email, 'Wrong-again', {}, app), 400, CODE.invalidGrant, MSG.loginFailed);
      expect(await personRow(p.id, app)).toMatchObject({ isLocked: 0, failedAttempts: 1, lockedUntil: null });
      await signIn(p.email, {}, app);
    } finally {
      await app.close();
    }
  });

  test('a completed password reset ends the lock at once', async () => {
    const p = await person();
    for (let i = 0; i < 5; i++) await login(p.email, `Wrong-${i}`);
    expect((await personRow(p.id)).isLocked).toBe(1);
    expect((await t.request('/api/v1/reset-password', { json: { email: p.email, captchaResponse: await captchaFrom(t) } })).status).toBe(200);
    const token = resetTokenIn((await outboxFor(p.email)).at(-1)!.body);
    const ok = await t.request('/api/v1/reset-password/confirm', { json: { token, newPassword: 'Reset-Password-1', newPasswordRepeated: 'Reset-Password-1' } });
    expect(ok.status).toBe(200);
    expect(await personRow(p.id)).toMatchObject({ isLocked: 0, failedAttempts: 0, lockedUntil: null });
    expect((await login(p.email, 'Reset-Password-1')).status).toBe(200);
  });

  test('an administrator unlocks at once', async () => {
    const admin = await signedIn(t.db, t.config, ['SuperAdminRole']);
    const p = await person();
    for (let i = 0; i < 5; i++) await login(p.email, `Wrong-${i}`);
    await expectError(await login(p.email), 400, CODE.invalidGrant, MSG.loginFailed);
    expect((await t.request(`/api/v1/${p.id}/unlock`, { method: 'PUT', token: admin.token })).status).toBe(200);
    await signIn(p.email);
  });

  test('the lockout stops guessing only: sessions already open carry on', async () => {
    const p = await person();
    const s = await signIn(p.email);
    for (let i = 0; i < 5; i++) await login(p.email, `Wrong-${i}`);
    expect((await personRow(p.id)).isLocked).toBe(1);
    expect((await userInfo(s.access_token)).status).toBe(200);
    expect((await refresh(s.refresh_token)).status).toBe(200);
  });
});

// ------------------------------------------------------------------ item 4: refresh under concurrency

export const REFRESH_ROUNDS = 20;
export const REFRESH_PARALLEL = 8;

describe('refresh-token reuse under concurrency', () => {
  test(`${REFRESH_ROUNDS} rounds × ${REFRESH_PARALLEL} parallel refreshes of one token: afterwards no token of the family is usable`, async () => {
    // Rounds after which a refresh token of the family still worked, or an access token issued in the race.
    const refreshSurvived: number[] = [];
    const accessSurvived: number[] = [];
    for (let round = 0; round < REFRESH_ROUNDS; round++) {
      const p = await person();
      const first = await signIn(p.email);
      const results = await Promise.all(Array.from({ length: REFRESH_PARALLEL }, () => refresh(first.refresh_token)));
      const issued: Tokens[] = [];
      for (const r of results)
        if (r.status === 200) issued.push((await r.json()) as Tokens);
        else await r.body?.cancel();
      expect(issued.length).toBeLessThanOrEqual(1);
      const rows = await t.db.selectFrom('refreshTokens').select(['revokedAt']).where('personId', '=', p.id).execute();
      let usable = rows.filter((r) => r.revokedAt === null).length;
      for (const tok of issued) if ((await refresh(tok.refresh_token)).status === 200) usable++;
      if (usable) refreshSurvived.push(round);
      for (const tok of issued) if ((await userInfo(tok.access_token)).status === 200) accessSurvived.push(round);
    }
    if (process.env.REPORT_RACE)
      console.info(
        `RACE ${t.dialect}: refresh token survived in ${refreshSurvived.length}/${REFRESH_ROUNDS} rounds, access token in ${accessSurvived.length}/${REFRESH_ROUNDS}`,
      );
    expect({ refreshSurvived, accessSurvived }).toEqual({ refreshSurvived: [], accessSurvived: [] });
  });

  test(`a copied old token and the current one refreshed at once (${REFRESH_ROUNDS} rounds): the whole family ends`, async () => {
    const survived: number[] = [];
    for (let round = 0; round < REFRESH_ROUNDS; round++) {
      const p = await person();
      const a = await signIn(p.email);
      const b = (await (await refresh(a.refresh_token)).json()) as Tokens;
      const [stolen, legit] = await Promise.all([refresh(a.refresh_token), refresh(b.refresh_token)]);
      expect(stolen.status).toBe(400);
      await stolen.body?.cancel();
      const rows = await t.db.selectFrom('refreshTokens').select(['revokedAt']).where('personId', '=', p.id).execute();
      let usable = rows.filter((r) => r.revokedAt === null).length;
      if (legit.status === 200) {
        const c = (await legit.json()) as Tokens;
        if ((await refresh(c.refresh_token)).status === 200) usable++;
      } else await legit.body?.cancel();
      if (usable) survived.push(round);
    }
    expect(survived).toEqual([]);
  });

  test('a refresh that fails after the claim leaves the token usable: the retry is no reuse', async () => {
    const p = await person();
    const s = await signIn(p.email);
    const restore = await failInserts(t, 'refreshTokens');
    let failed: Response;
    try {
      failed = await refresh(s.refresh_token);
    } finally {
      await restore();
    }
    expect(failed.status).toBe(500);
    const retry = await refresh(s.refresh_token);
    expect(retry.status).toBe(200);
    const next = (await retry.json()) as Tokens;
    expect((await refresh(next.refresh_token)).status).toBe(200);
    expect((await t.db.selectFrom('auditLog').select('action').where('entityId', '=', p.id).execute()).map((a) => a.action)).not.toContain(
      'refresh-token-reuse',
    );
  });
});

// ------------------------------------------------------------------ item 5: transactions

describe('multi-step writes are transactions', () => {
  test('two confirms with one reset link at once: exactly one sets the password', async () => {
    const p = await person();
    await t.request('/api/v1/reset-password', { json: { email: p.email, captchaResponse: await captchaFrom(t) } });
    const token = resetTokenIn((await outboxFor(p.email)).at(-1)!.body);
    const confirm = (pw: string) => t.request('/api/v1/reset-password/confirm', { json: { token, newPassword: pw, newPasswordRepeated: pw } });
    const res = await Promise.all([confirm('First-Password-1'), confirm('Second-Password-2')]);
    expect(res.map((r) => r.status).sort()).toEqual([200, 400]);
    const winner = res[0].status === 200 ? 'First-Password-1' : 'Second-Password-2';
    const loser = res[0].status === 200 ? 'Second-Password-2' : 'First-Password-1';
    await expectError(
      res.find((r) => r.status === 400)!,
      400,
      CODE.invalidResetLink,
      MSG.resetLinkInvalid,
    );
    expect((await login(p.email, loser)).status).toBe(400);
    expect((await login(p.email, winner)).status).toBe(200);
    expect(await t.db.selectFrom('auditLog').select('action').where('entityId', '=', p.id).where('action', '=', 'password-reset').execute()).toHaveLength(1);
  });

  test('two password changes with the same old password at once: one wins, the other is told the old password is wrong', async () => {
    const p = await person();
    const s = await signIn(p.email);
    const change = async (pw: string) =>
      t.request('/api/v1/change-password', {
        token: s.access_token,
        json: { oldPassword: PASSWORD, newPassword: pw, newPasswordRepeated: pw, captchaResponse: await captchaFrom(t) },
      });
    const res = await Promise.all([change('Changed-Password-1'), change('Changed-Password-2')]);
    expect(res.map((r) => r.status).sort()).toEqual([200, 400]);
    await expectError(
      res.find((r) => r.status === 400)!,
      400,
      CODE.oldPasswordInvalid,
      MSG.oldPasswordInvalid,
    );
    expect(await t.db.selectFrom('auditLog').select('action').where('entityId', '=', p.id).where('action', '=', 'password-changed').execute()).toHaveLength(1);
  });

  test('a verification code whose message could not be recorded is not left behind (the next sign-in sends one)', async () => {
    const p = await person(t, ['SuperAdminRole'], { twoFactorType: 1 });
    const restore = await failInserts(t, 'outbox');
    try {
      expect((await login(p.email)).status).toBe(500);
    } finally {
      await restore();
    }
    expect(await t.db.selectFrom('verificationCodes').select('id').where('personId', '=', p.id).execute()).toHaveLength(0);
    await expectError(await login(p.email), 400, CODE.twoFactorRequired, MSG.verificationCodeSent);
    const mails = await outboxFor(p.email);
    expect(mails).toHaveLength(1);
    await signIn(p.email, { verificationCode: codeIn(first(mails).body) });
  });

  test('sign-ins arriving together send one code, and it works', async () => {
    const p = await person(t, ['SuperAdminRole'], { twoFactorType: 1 });
    const res = await Promise.all(Array.from({ length: 4 }, () => login(p.email)));
    for (const r of res) await expectError(r, 400, CODE.twoFactorRequired, MSG.verificationCodeSent);
    const mails = await outboxFor(p.email);
    expect(mails).toHaveLength(1);
    await signIn(p.email, { verificationCode: codeIn(first(mails).body) });
  });
});

// ------------------------------------------------------------------ items 5 and 6: mail after commit, real SMTP, logs

type Received = { from: string; to: string[]; raw: string; user?: string };
async function startSmtp(opts: { secure?: boolean; user?: string; pass?: string; delayMs?: number } = {}) {
  const messages: Received[] = [];
  const server = new SMTPServer({
    secure: !!opts.secure,
    logger: false,
    disabledCommands: opts.secure ? [] : ['STARTTLS'],
    authOptional: !opts.user,
    allowInsecureAuth: true,
    onAuth(auth, _session, cb) {
      if (auth.username === opts.user && auth.password === opts.pass) cb(null, { user: auth.username });
      else cb(new Error('Invalid username or password'));
    },
    onData(stream, session, cb) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        setTimeout(() => {
          messages.push({
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            to: session.envelope.rcptTo.map((r) => r.address),
            raw: Buffer.concat(chunks).toString('utf8'),
            user: session.user as string | undefined,
          });
          cb();
        }, opts.delayMs ?? 0);
      });
    },
  });
  await new Promise<void>((res) => server.listen(0, '127.0.0.1', () => res()));
  const port = (server.server.address() as AddressInfo).port;
  return {
    port,
    messages,
    async waitFor(count: number, ms = 10_000) {
      const end = Date.now() + ms;
      while (messages.length < count && Date.now() < end) await new Promise((r) => setTimeout(r, 20));
      return messages;
    },
    close: () => new Promise<void>((res) => server.close(() => res())),
  };
}

describe('mail goes out after the commit through SMTP (nodemailer), and its secrets stay out of the log', () => {
  test('smtp:// with user:pass and ?from=: the code arrives; the log has no body; the row is marked sent', async () => {
    const smtp = await startSmtp({ user: 'relay-user', pass: 'relay p@ss' });
    const app = await createTestApp({
      now: () => fakeNow,
      smtpUrl: `smtp://relay-user:${encodeURIComponent('relay p@ss')}@127.0.0.1:${smtp.port}?from=alerts@workspace.test`,
    });
    try {
      const p = await person(app, ['SuperAdminRole'], { twoFactorType: 1 });
      // Left unsent two hours ago (a crash): too old to send now.
      const stale = { channel: 'email', recipient: 'stale@hardening.test', subject: 'Your verification code', body: 'Your verification code is 123456.' };
      await app.db
        .insertInto('outbox')
        .values({ ...stale, createdAt: new Date(fakeNow.getTime() - 120 * MIN).toISOString(), sentAt: null, error: null })
        .execute();
      await expectError(await login(p.email, PASSWORD, {}, app), 400, CODE.twoFactorRequired, MSG.verificationCodeSent);
      const msg = first(await smtp.waitFor(1));
      expect(msg).toMatchObject({ from: 'alerts@workspace.test', to: [p.email], user: 'relay-user' });
      const code = codeIn(first(await outboxFor(p.email, app)).body);
      expect(msg.raw).toContain(`Your verification code is ${code}.`);
      expect(msg.raw).toMatch(/^Subject: Your verification code/m);
      await app.deps.outbox.idle();
      expect(first(await outboxFor(p.email, app))).toMatchObject({ error: null, attempts: 1 });
      expect(first(await outboxFor(p.email, app)).sentAt).not.toBeNull();
      expect(smtp.messages).toHaveLength(1);
      expect(first(await outboxFor('stale@hardening.test', app))).toMatchObject({ sentAt: null, error: 'not sent: older than an hour' });
      const logged = JSON.stringify(app.logs);
      expect(logged).not.toContain(code);
      expect(logged).not.toContain('relay p@ss');
      expect(app.logs.find((l) => l.msg === 'outbox')).toMatchObject({ status: 'sent', to: p.email });
      await signIn(p.email, { verificationCode: code }, app);
    } finally {
      await app.close();
      await smtp.close();
    }
  });

  test('smtps:// (TLS from the start) delivers too', async () => {
    const smtp = await startSmtp({ secure: true, user: 'u', pass: 'p' });
    const app = await createTestApp({ now: () => fakeNow, smtpUrl: `smtps://u:p@127.0.0.1:${smtp.port}?from=tls@workspace.test&tls.rejectUnauthorized=false` });
    try {
      const p = await person(app);
      await app.request('/api/v1/reset-password', { json: { email: p.email, captchaResponse: await captchaFrom(app) } });
      const msg = first(await smtp.waitFor(1));
      expect(msg).toMatchObject({ from: 'tls@workspace.test', to: [p.email] });
      expect(msg.raw).toMatch(/^Subject: Reset your password/m);
    } finally {
      await app.close();
      await smtp.close();
    }
  });

  test('the reset answer does not wait for SMTP: known and unknown e-mails answer alike, the mail follows', async () => {
    const smtp = await startSmtp({ delayMs: 1500 });
    const app = await createTestApp({ now: () => fakeNow, smtpUrl: `smtp://127.0.0.1:${smtp.port}` });
    try {
      const p = await person(app);
      const timed = async (email: string) => {
        const started = performance.now();
        const res = await app.request('/api/v1/reset-password', { json: { email, captchaResponse: await captchaFrom(app) } });
        expect(res.status).toBe(200);
        expect(await res.json()).toEqual({ Content: { Message: MSG.resetLinkSent(email) } });
        return performance.now() - started;
      };
      const known = await timed(p.email);
      const unknown = await timed(uniqueEmail('nobody'));
      expect(known).toBeLessThan(1000);
      expect(unknown).toBeLessThan(1000);
      const msg = first(await smtp.waitFor(1));
      expect(msg.to).toEqual([p.email]);
    } finally {
      await app.close();
      await smtp.close();
    }
  });

  test('without SMTP_URL the start-up log says so and the bodies go to the log', async () => {
    const p = await person(t, ['SuperAdminRole'], { twoFactorType: 1 });
    await login(p.email);
    await t.deps.outbox.idle();
    expect(t.logs.some((l) => String(l.msg).includes('SMTP_URL is not set'))).toBe(true);
    const code = codeIn(first(await outboxFor(p.email)).body);
    expect(t.logs.find((l) => l.msg === 'outbox' && l.to === p.email)).toMatchObject({ status: 'not sent', body: expect.stringContaining(code) });
  });
});

// ------------------------------------------------------------------ item 7: logout on the server

describe('logout: POST /connect/revocation', () => {
  const revoke = (token: string, clientId = 'portal') =>
    t.request('/connect/revocation', { form: { token, token_type_hint: 'refresh_token', client_id: clientId } });

  test('revokes the session: its refresh token and access token stop working; another session carries on', async () => {
    const p = await person();
    const mine = await signIn(p.email);
    const other = await signIn(p.email);
    const res = await revoke(mine.refresh_token);
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    await expectError(await refresh(mine.refresh_token), 400, CODE.invalidGrant, MSG.sessionExpired);
    expect((await userInfo(mine.access_token)).status).toBe(401);
    // The other session's access token ends too (epoch), its refresh works and it goes on.
    const again = (await (await refresh(other.refresh_token)).json()) as Tokens;
    expect((await userInfo(again.access_token)).status).toBe(200);
    const rows = await t.db.selectFrom('refreshTokens').select(['familyId', 'revokedAt']).where('personId', '=', p.id).execute();
    const mineFamily = decodeJwt(mine.access_token).sid;
    expect(rows.filter((r) => r.familyId === mineFamily).every((r) => r.revokedAt !== null)).toBe(true);
    expect((await t.db.selectFrom('auditLog').select('action').where('entityId', '=', p.id).execute()).map((a) => a.action)).toContain('logout');
  });

  test('unknown tokens are no error (RFC 7009); an unknown client is; the route is public', async () => {
    expect((await revoke('x'.repeat(43))).status).toBe(200);
    await expectError(await revoke('x'.repeat(43), 'evil-app'), 400, CODE.invalidClient, MSG.invalidClient);
    const p = await person();
    const s = await signIn(p.email);
    await expectError(await revoke(s.refresh_token, 'evil-app'), 400, CODE.invalidClient, MSG.invalidClient);
    expect((await refresh(s.refresh_token)).status).toBe(200);
  });
});

// ------------------------------------------------------------------ item 8: session epoch, exp, iss, aud

describe('access ends within seconds after a password change, a role change or a lock', () => {
  test('password change: every other access token ends at once; the caller refreshes once and carries on', async () => {
    const p = await person();
    const mine = await signIn(p.email);
    const other = await signIn(p.email);
    expect((await userInfo(other.access_token)).status).toBe(200);
    const res = await t.request('/api/v1/change-password', {
      token: mine.access_token,
      json: { oldPassword: PASSWORD, newPassword: 'Changed-Password-9', newPasswordRepeated: 'Changed-Password-9', captchaResponse: await captchaFrom(t) },
    });
    expect(res.status).toBe(200);
    expect((await userInfo(other.access_token)).status).toBe(401);
    expect((await userInfo(mine.access_token)).status).toBe(401);
    const next = (await (await refresh(mine.refresh_token)).json()) as Tokens;
    expect((await userInfo(next.access_token)).status).toBe(200);
    expect((await personRow(p.id)).sessionEpoch).toBe(1);
  });

  test('password reset ends every access token', async () => {
    const p = await person();
    const s = await signIn(p.email);
    await t.request('/api/v1/reset-password', { json: { email: p.email, captchaResponse: await captchaFrom(t) } });
    const token = resetTokenIn((await outboxFor(p.email)).at(-1)!.body);
    await t.request('/api/v1/reset-password/confirm', { json: { token, newPassword: 'Reset-Password-3', newPasswordRepeated: 'Reset-Password-3' } });
    expect((await userInfo(s.access_token)).status).toBe(401);
  });

  test('role change in the person form: the old permissions end at once; a refresh brings the new ones', async () => {
    const admin = await signedIn(t.db, t.config, ['SuperAdminRole']);
    const p = await person(t, ['SuperAdminRole']);
    const s = await signIn(p.email);
    const list = () => t.request('/ps-admin/persons/get-list?page=1&pageSize=10', { token: s.access_token });
    expect((await list()).status).toBe(200);
    const update = async (roles: RoleName[]) => {
      const row = await personRow(p.id);
      const res = await t.request(`/api/v1/person/${p.id}/identity-update`, {
        method: 'PUT',
        token: admin.token,
        json: { person: { firstName: row.firstName, lastName: 'Renamed', emailAddress: row.email, roleIds: roles.map((r) => ROLE_IDS[r]), etag: row.etag } },
      });
      expect(res.status).toBe(200);
    };
    await update(['SuperAdminRole']); // same roles: nothing ends
    expect((await list()).status).toBe(200);
    await update(['ArcControllerRole']);
    expect((await list()).status).toBe(401);
    const next = (await (await refresh(s.refresh_token)).json()) as Tokens;
    expect(decodeJwt(next.access_token).permissions).toEqual(permissionsForRoles(['ArcControllerRole']));
    expect((await t.request('/ps-admin/persons/get-list?page=1&pageSize=10', { token: next.access_token })).status).toBe(403);
  });

  test("a lock without an end (an administrator's) ends access within config.sessionCheckMs, also when written by another node", async () => {
    const app = await createTestApp({ now: () => fakeNow, sessionCheckMs: 300 });
    try {
      const p = await person(app);
      const s = await signIn(p.email, {}, app);
      expect((await userInfo(s.access_token, app)).status).toBe(200);
      // Written straight to the database, as another node (or an operator) would: this node's cache holds it for up to 300 ms.
      await app.db.updateTable('persons').set({ isLocked: 1, lockedUntil: null }).where('id', '=', p.id).execute();
      await new Promise((r) => setTimeout(r, 350));
      expect((await userInfo(s.access_token, app)).status).toBe(401);
      await expectError(await refresh(s.refresh_token, app), 400, CODE.invalidGrant, MSG.sessionExpired);
    } finally {
      await app.close();
    }
  });

  test('tokens without exp, or with another issuer or audience, are refused', async () => {
    const p = await person();
    const now = Math.floor(fakeNow.getTime() / 1000);
    const make = (over: { iss?: string; aud?: string; exp?: boolean }) => {
      let j = new SignJWT({ tenantId: 'x', email: p.email, permissions: permissionsForRoles(['SuperAdminRole']), role: ['SuperAdminRole'], epoch: 0 })
        .setProtectedHeader({ alg: 'HS256' })
        .setSubject(p.id)
        .setIssuedAt(now)
        .setIssuer(over.iss ?? TOKEN_ISSUER)
        .setAudience(over.aud ?? TOKEN_AUDIENCE);
      if (over.exp !== false) j = j.setExpirationTime(now + 600);
      return j.sign(t.config.jwtSecret);
    };
    expect((await userInfo(await make({}))).status).toBe(200);
    expect((await userInfo(await make({ exp: false }))).status).toBe(401);
    expect((await userInfo(await make({ iss: 'someone-else' }))).status).toBe(401);
    expect((await userInfo(await make({ aud: 'another-api' }))).status).toBe(401);
  });
});
