// The auth service (spec document 1, section 7): token endpoint, current user, second-factor
// settings, password change and reset. Rate limits live in Redis when the deps carry a client
// (REDIS_URL: shared by every node), else in this app's memory.
import { decodeJwt } from 'jose';
import { badRequest, deps, notFound, type Api, type Ctx, type Deps } from '../http/api.js';
import { CODE, MSG } from '../../shared/messages.js';
import { LOGIN_METHOD, PHONE_TYPE, TWO_FACTOR_TYPES } from '../../shared/codes.js';
import {
  changePasswordSchema,
  changeTwoFactorSchema,
  resetPasswordConfirmSchema,
  resetPasswordSchema,
  sendCodeSchema,
  type TwoFactorTypeOption,
  type UserInfo,
} from '../../shared/schemas/auth.js';
import type { MessageResponse } from '../../shared/schemas/common.js';
import { audit } from '../platform/util.js';
import { tx } from '../db/index.js';
import { bumpSessionEpoch, forgetSessionState } from './session-epoch.js';
import { hashPassword, verifyPassword } from './password.js';
import { createLimiter, memoryStore, redisStore, takeAll } from './rate-limit.js';
import { publicBaseUrl, RESET_LINK_TTL_MINUTES, signResetToken, verifyResetToken } from './reset.js';
import {
  auditAccount,
  currentUserPhones,
  findPersonByEmail,
  findPersonById,
  hasOpenCodeRequest,
  isLockedAt,
  revokePersonSessions,
  roleNamesOf,
} from './store.js';
import { clientAddress, tokenRoute, tooMany } from './token.js';
import { requireCaptcha } from '../captcha/index.js';
import { revocationRoute } from './revocation.js';
import { effectiveFactor, internationalNumber, sendVerificationCode, twoFactorEnforced, twoFactorSetting } from './two-factor.js';

const WINDOW_MS = 5 * 60_000;
/** Attempts per window. Sign-in attempts with the right password are not counted. */
export const AUTH_LIMITS = {
  windowMs: WINDOW_MS,
  signInPerEmail: 20,
  signInPerAddress: 100,
  /** Code resends and reset links: messages that land in someone's inbox or phone. */
  mailPerEmail: 5,
  mailPerAddress: 30,
  /** Wrong old passwords on password change, per person. */
  changePasswordPerPerson: 10,
};

async function loadPerson(c: Ctx, id: string) {
  const person = await findPersonById(deps(c).db, id);
  if (!person) throw notFound(MSG.userNotFound);
  return person;
}

/** The session (refresh-token family) of the caller's access token, if it carries one. */
function currentSessionId(c: Ctx) {
  const h = c.req.header('authorization') ?? '';
  try {
    const sid = decodeJwt(h.replace(/^Bearer\s+/i, '')).sid; // signature already checked by the guard
    return typeof sid === 'string' ? sid : undefined;
  } catch {
    return undefined;
  }
}

export type AuthLimiters = ReturnType<typeof createAuthLimiters>;
/**
 * The auth routes' rate limiters, built once per app by createApp. In memory every app (so every
 * test app) starts fresh; in Redis apps sharing the server share the counts.
 */
export function createAuthLimiters(d: Deps) {
  const store = d.redis ? redisStore(d.redis, { log: d.log }) : memoryStore();
  // The names are part of the Redis keys (rl:{name}:{key}): renaming one resets its counts.
  const limiter = (name: string, limit: number) => createLimiter({ name, limit, windowMs: WINDOW_MS, now: () => d.config.now(), store });
  return {
    signIn: { perEmail: limiter('sign-in:email', AUTH_LIMITS.signInPerEmail), perAddress: limiter('sign-in:address', AUTH_LIMITS.signInPerAddress) },
    mail: { perEmail: limiter('mail:email', AUTH_LIMITS.mailPerEmail), perAddress: limiter('mail:address', AUTH_LIMITS.mailPerAddress) },
    changePassword: limiter('change-password:person', AUTH_LIMITS.changePasswordPerPerson),
  };
}

/** E-mails on request (code resend, reset link): limited per address and per e-mail; a 429 response when over. */
async function mailLimit(c: Ctx, mail: AuthLimiters['mail'], email: string): Promise<Response | undefined> {
  const limit = await takeAll([
    [mail.perEmail, email],
    [mail.perAddress, clientAddress(c)],
  ]);
  return limit.ok ? undefined : tooMany(c, limit.retryAfterSeconds, MSG.tooManyRequests);
}

export function authRoutes(api: Api, limiters: AuthLimiters) {
  tokenRoute(api, () => limiters.signIn);
  revocationRoute(api);

  api.get('/api/v1/get-user-info', { access: 'signed-in' }, async (c, { user }) => {
    const person = await loadPerson(c, user.id);
    const info: UserInfo = {
      userId: person.id,
      email: person.email,
      firstName: person.firstName,
      lastName: person.lastName,
      roles: await roleNamesOf(deps(c).db, person.id),
      tenantId: person.tenantId,
      phoneNumbers: await currentUserPhones(deps(c).db, person.phoneNumbers),
      // sso: the spec's "Current user" loginMethod; the client hides Settings for single-sign-on users.
      loginMethod: { value: person.loginMethod, name: person.loginMethod === LOGIN_METHOD.SingleSignOn ? 'SingleSignOn' : 'Password' },
    };
    return c.json(info);
  });

  api.get('/api/v1/get-user-two-factor-authentication', { access: 'signed-in' }, async (c, { user }) => {
    return c.json(twoFactorSetting(await loadPerson(c, user.id)));
  });

  api.get('/api/v1/two-factor-authentication/types', { access: 'signed-in' }, (c) =>
    c.json(TWO_FACTOR_TYPES.map((t): TwoFactorTypeOption => ({ name: t.Name, value: t.Value }))),
  );

  api.put(
    '/api/v1/change-two-factor-authentication',
    { access: 'signed-in', json: changeTwoFactorSchema, sample: { json: { twoFactorAuthentication: { type: null, phoneNumber: null } } } },
    async (c, { body, user }) => {
      const d = deps(c);
      const person = await loadPerson(c, user.id);
      const { type, phoneNumber } = body.twoFactorAuthentication;
      if (type === null && (await twoFactorEnforced(d.db)))
        throw badRequest(MSG.twoFactorEnforced, CODE.validation, { 'twoFactorAuthentication.type': MSG.twoFactorEnforced });
      let phone: { countryId: string; number: string; type: number } | null = null;
      if (type === 2) {
        const field = 'twoFactorAuthentication.phoneNumber';
        if (!phoneNumber?.countryId || !phoneNumber.number)
          throw badRequest(MSG.pleaseEnter('phone_number'), CODE.validation, { [field]: MSG.pleaseEnter('phone_number') });
        phone = { countryId: phoneNumber.countryId, number: phoneNumber.number, type: phoneNumber.type ?? PHONE_TYPE.Personal };
        if (!(await internationalNumber(d.db, phone))) throw badRequest(MSG.invalidPhone, CODE.validation, { [field]: MSG.invalidPhone });
      }
      await requireCaptcha(c, body.captchaResponse);
      // Asks for the current password: a left-open session alone cannot change the second factor.
      const { changePassword: wrongPasswords } = limiters;
      const limit = await wrongPasswords.take(user.id);
      if (!limit.ok) return tooMany(c, limit.retryAfterSeconds, MSG.tooManyRequests);
      if (!(await verifyPassword(person.passwordHash, body.currentPassword))) {
        await auditAccount(d.db, person.id, 'two-factor-change-failed', { reason: 'current-password-invalid' }, d.config.now(), user.id);
        throw badRequest(MSG.currentPasswordInvalid, CODE.oldPasswordInvalid, { currentPassword: MSG.currentPasswordInvalid });
      }
      await wrongPasswords.refund(limit.ticket);
      const at = d.config.now();
      // Security settings are not part of the person's editable record: the etag stays.
      await tx(d.db, async (trx) => {
        await trx
          .updateTable('persons')
          .set({ twoFactorType: type, twoFactorPhone: phone ? JSON.stringify(phone) : null, updatedAt: at.toISOString() })
          .where('id', '=', person.id)
          .execute();
        const after = { type, sms: phone ? { countryId: phone.countryId } : undefined };
        await auditAccount(trx, person.id, 'two-factor-changed', { before: { type: person.twoFactorType }, after }, at, user.id);
      });
      return c.json(twoFactorSetting({ ...person, twoFactorType: type, twoFactorPhone: phone ? JSON.stringify(phone) : null }));
    },
  );

  // Resend: only to a person with a sign-in under way (password verified within the last half
  // hour, code not used yet). Always the same answer, so it tells nobody whether an account exists.
  api.post(
    '/api/v1/two-factor-authentication/send',
    { access: 'public', json: sendCodeSchema, sample: { json: { email: 'nobody@example.test' } } },
    async (c, { body }) => {
      const d = deps(c);
      const email = body.email.toLowerCase();
      const limited = await mailLimit(c, limiters.mail, email);
      if (limited) return limited;
      const person = await findPersonByEmail(d.db, email);
      const at = d.config.now();
      if (person && !isLockedAt(person, at) && (await hasOpenCodeRequest(d.db, person.id, at))) {
        const factor = effectiveFactor(person, await twoFactorEnforced(d.db));
        if (factor) await sendVerificationCode(d, person, factor, 'resend');
      }
      return c.json({ Content: { Message: MSG.verificationCodeResent } } satisfies MessageResponse);
    },
  );

  api.post(
    '/api/v1/change-password',
    {
      access: 'signed-in',
      json: changePasswordSchema,
      sample: { json: { oldPassword: 'not-the-password', newPassword: 'New-Passw0rd!', newPasswordRepeated: 'New-Passw0rd!' } },
    },
    async (c, { body, user }) => {
      const d = deps(c);
      await requireCaptcha(c, body.captchaResponse);
      const { changePassword } = limiters;
      const limit = await changePassword.take(user.id);
      if (!limit.ok) return tooMany(c, limit.retryAfterSeconds, MSG.tooManyRequests);
      const person = await loadPerson(c, user.id);
      const at = d.config.now();
      if (!(await verifyPassword(person.passwordHash, body.oldPassword))) {
        await auditAccount(d.db, person.id, 'password-change-failed', { reason: 'old-password-invalid' }, at, user.id);
        throw badRequest(MSG.oldPasswordInvalid, CODE.oldPasswordInvalid, { oldPassword: MSG.oldPasswordInvalid });
      }
      await changePassword.refund(limit.ticket);
      const passwordHash = await hashPassword(body.newPassword);
      const changed = await tx(d.db, async (trx) => {
        // Compared in the UPDATE: of two changes with the same old password, one wins.
        const r = await trx
          .updateTable('persons')
          .set({ passwordHash, updatedAt: at.toISOString() })
          .where('id', '=', person.id)
          .where('passwordHash', '=', person.passwordHash!)
          .executeTakeFirst();
        if (Number(r.numUpdatedRows) !== 1) return false;
        // Other sessions end; the caller's own (its refresh-token family) carries on. Every access
        // token ends within seconds (the caller's client refreshes once).
        await revokePersonSessions(trx, person.id, at, currentSessionId(c));
        await bumpSessionEpoch(trx, person.id);
        await auditAccount(trx, person.id, 'password-changed', { otherSessionsEnded: true }, at, user.id);
        return true;
      });
      forgetSessionState(person.id);
      if (!changed) throw badRequest(MSG.oldPasswordInvalid, CODE.oldPasswordInvalid, { oldPassword: MSG.oldPasswordInvalid });
      return c.json({ Content: { Message: MSG.passwordChanged } } satisfies MessageResponse);
    },
  );

  // Forgot password: always the same answer; a link goes out only when the account exists and
  // signs in with a password.
  api.post(
    '/api/v1/reset-password',
    { access: 'public', json: resetPasswordSchema, sample: { json: { email: 'nobody@example.test' } } },
    async (c, { body }) => {
      const d = deps(c);
      const email = body.email.toLowerCase();
      const limited = await mailLimit(c, limiters.mail, email);
      if (limited) return limited;
      await requireCaptcha(c, body.captchaResponse);
      const person = await findPersonByEmail(d.db, email);
      const at = d.config.now();
      if (person && person.personStatus === 1 && person.loginMethod === 1) {
        const token = await signResetToken(d.config, person);
        const link = `${publicBaseUrl(d.config)}/reset-password?token=${encodeURIComponent(token)}`;
        // Recorded here, sent after the commit by the outbox relay: the answer does not wait for
        // SMTP, so its timing does not tell whether the account exists.
        await tx(d.db, async (trx) => {
          await d.outbox.enqueue(trx, {
            channel: 'email',
            recipient: person.email,
            subject: 'Reset your password',
            body:
              `Someone asked to reset the password of your account. To choose a new password, open this link:\n\n${link}\n\n` +
              `The link works once and expires in ${RESET_LINK_TTL_MINUTES} minutes. If you did not ask for this, ignore this e-mail; your password stays as it is.`,
            urgent: true, // asked for by the person: never held by a customer's e-mail pause
          });
          await audit(trx, { actorId: null, action: 'password-reset-requested', entity: 'person', entityId: person.id, at, details: { sent: true } });
        });
        d.outbox.flush(d.db);
      } else {
        // The same kind of work as above (one transaction, one insert), so the answer takes as long.
        await tx(d.db, (trx) =>
          audit(trx, { actorId: null, action: 'password-reset-requested', entity: 'person', entityId: person?.id ?? null, details: { sent: false }, at }),
        );
      }
      return c.json({ Content: { Message: MSG.resetLinkSent(body.email) } } satisfies MessageResponse);
    },
  );

  // Where the e-mailed link leads (ours; the spec shows only the request side).
  api.post(
    '/api/v1/reset-password/confirm',
    {
      access: 'public',
      json: resetPasswordConfirmSchema,
      sample: { json: { token: 'not-a-token', newPassword: 'New-Passw0rd!', newPasswordRepeated: 'New-Passw0rd!' } },
    },
    async (c, { body }) => {
      const d = deps(c);
      const { mail } = limiters;
      const limit = await mail.perAddress.take(clientAddress(c));
      if (!limit.ok) return tooMany(c, limit.retryAfterSeconds, MSG.tooManyRequests);
      const person = await verifyResetToken(d.config, body.token, (id) => findPersonById(d.db, id));
      if (!person) throw badRequest(MSG.resetLinkInvalid, CODE.invalidResetLink);
      await mail.perAddress.refund(limit.ticket);
      const at = d.config.now();
      const passwordHash = await hashPassword(body.newPassword);
      const done = await tx(d.db, async (trx) => {
        // The link is bound to the password it was issued for; comparing it in the UPDATE makes the
        // link single-use even when two confirms arrive together. A completed reset also ends a
        // lock: whoever reads the mailbox is the owner.
        const r = await trx
          .updateTable('persons')
          .set({ passwordHash, isLocked: 0, lockedUntil: null, failedAttempts: 0, updatedAt: at.toISOString() })
          .where('id', '=', person.id)
          .where((eb) => (person.passwordHash === null ? eb('passwordHash', 'is', null) : eb('passwordHash', '=', person.passwordHash)))
          .executeTakeFirst();
        if (Number(r.numUpdatedRows) !== 1) return false;
        await revokePersonSessions(trx, person.id, at);
        await bumpSessionEpoch(trx, person.id);
        await auditAccount(trx, person.id, 'password-reset', { unlocked: person.isLocked === 1 }, at);
        return true;
      });
      forgetSessionState(person.id);
      if (!done) throw badRequest(MSG.resetLinkInvalid, CODE.invalidResetLink);
      return c.json({ Content: { Message: MSG.passwordChanged } } satisfies MessageResponse);
    },
  );
}
