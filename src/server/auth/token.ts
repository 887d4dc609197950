// POST /connect/token: the password grant (with lockout, second factor and rate limits) and the
// refresh-token grant (rotation with reuse detection). Errors carry the project's
// { Content: { Message, Code } } plus the OAuth fields error / error_description.
import * as v from 'valibot';
import { clientAddress } from '../http/client-address.js';
import { ApiError, deps, issuesToErrors, type Api, type Deps } from '../http/api.js';
import type { Person } from '../db/schema.js';
import { CODE, MSG } from '../../shared/messages.js';
import { P, permissionsForRoles } from '../../shared/permissions.js';
import { effectiveRoles } from './tokens.js';
import { LOGIN_METHOD } from '../../shared/codes.js';
import { passwordGrantSchema, refreshGrantSchema, tokenRequestSchema, type TokenRequest, type TokenResponse } from '../../shared/schemas/auth.js';
import { audit } from '../platform/util.js';
import { hashPassword, verifyPassword } from './password.js';
import { takeAll } from './rate-limit.js';
import {
  auditAccount,
  claimRefreshToken,
  consumeVerificationCode,
  findPersonByEmail,
  findPersonById,
  findRefreshToken,
  isLockedAt,
  lockPersonRow,
  recordFailedAttempt,
  recordSuccessfulLogin,
  revokeFamily,
  roleNamesOf,
} from './store.js';
import { effectiveFactor, internationalNumber, parseTwoFactorPhone, sendVerificationCode, twoFactorEnforced } from './two-factor.js';
import { authenticateClient, requireCaptcha } from '../captcha/index.js';
import { bumpSessionEpoch, forgetSessionState } from './session-epoch.js';
import { tx } from '../db/index.js';
import { refuseEnforcedPassword, tokenExchange } from './sso/exchange.js';
import { issueSession, oauthError, tooMany, type SignInLimiters } from './grant.js';

export { issueSession, oauthError, tooMany, type SignInLimiters } from './grant.js';
import { isBreakGlass } from './lockout.js';

const TOKEN_EXCHANGE = ['token-exchange', 'urn:ietf:params:oauth:grant-type:token-exchange'];

const loginFailed = () => oauthError(400, MSG.loginFailed, CODE.invalidGrant);
const sessionInvalid = () => oauthError(400, MSG.sessionExpired, CODE.invalidGrant);

function parseGrant<S extends v.GenericSchema<unknown, unknown>>(schema: S, form: TokenRequest): v.InferOutput<S> {
  const r = v.safeParse(schema, form);
  if (r.success) return r.output;
  const errors = issuesToErrors(r.issues);
  throw oauthError(400, Object.values(errors)[0] ?? MSG.default, CODE.validation, 'invalid_request', errors);
}

// The client address (socket peer, or X-Forwarded-For as far as TRUST_PROXY trusts it): ../client-address.ts.
export { clientAddress } from '../http/client-address.js';

// Unknown e-mails and persons without a password still pay for one argon2 verify, so response
// time does not tell which accounts exist.
let dummyHash: Promise<string> | undefined;
const timingDummy = () => (dummyHash ??= hashPassword(`no-such-account-${Math.random()}`));

const noStore = { 'Cache-Control': 'no-store', Pragma: 'no-cache' };

export function tokenRoute(api: Api, limitersOf: (d: Deps) => SignInLimiters) {
  api.post(
    '/connect/token',
    {
      access: 'public',
      form: tokenRequestSchema,
      sample: { form: { grant_type: 'password', client_id: 'portal', username: 'nobody@example.test', password: 'x' } },
    },
    async (c, { form }) => {
      const d = deps(c);
      const grant = form.grant_type;
      if (!grant) throw oauthError(400, MSG.pleaseEnter('grant_type'), CODE.validation, 'invalid_request', { grant_type: MSG.pleaseEnter('grant_type') });
      // Single sign-on: the provider's ID token for our tokens (sso/exchange.ts).
      if (TOKEN_EXCHANGE.includes(grant)) return tokenExchange(c, form, limitersOf(d));
      if (grant !== 'password' && grant !== 'refresh_token') throw oauthError(400, MSG.unsupportedGrant, CODE.unsupportedGrant);
      // Public clients (the browser app) by id; confidential clients (CLIENT_SECRETS) by id and client_secret.
      const clientId = form.client_id;
      const confidential = authenticateClient(d.config, form);
      if (!clientId || !(confidential || d.config.clientIds.includes(clientId))) throw oauthError(400, MSG.invalidClient, CODE.invalidClient);

      if (grant === 'refresh_token') {
        const tokens = await refreshGrant(d, parseGrant(refreshGrantSchema, form).refresh_token, clientId);
        return c.json(tokens, 200, noStore);
      }

      const input = parseGrant(passwordGrantSchema, form);
      const limiters = limitersOf(d);
      const limit = await takeAll([
        [limiters.perEmail, input.username],
        [limiters.perAddress, clientAddress(c)],
      ]);
      if (!limit.ok) {
        d.log({ msg: 'sign-in rate limited', email: input.username, address: clientAddress(c) });
        return tooMany(c, limit.retryAfterSeconds);
      }
      if (!confidential) await requireCaptcha(c, form.captchaResponse, { oauth: true });
      const tokens = await passwordGrant(d, input, clientId, limit.refund);
      return c.json(tokens, 200, noStore);
    },
  );
}

async function passwordGrant(d: Deps, input: v.InferOutput<typeof passwordGrantSchema>, clientId: string, refund: () => Promise<void>): Promise<TokenResponse> {
  const { db } = d;
  const at = d.config.now();
  const person = await findPersonByEmail(db, input.username);
  const hash = person?.passwordHash;
  const passwordOk = (await verifyPassword(hash ?? (await timingDummy()), input.password)) && !!hash;
  const failed = (reason: string, personId: string | null) =>
    audit(db, { actorId: personId, action: 'login-failed', entity: 'person', entityId: personId, details: { email: input.username, reason }, at });

  if (!person) {
    await failed('unknown-user', null);
    throw loginFailed();
  }
  if (isLockedAt(person, at)) {
    await failed('locked', person.id);
    throw loginFailed(); // even with the right password, until the lockout ends or someone unlocks the person
  }
  if (!passwordOk) {
    if (hash) await countFailure(d, person, 'wrong-password');
    else await failed('no-password', person.id);
    throw loginFailed();
  }
  if (person.personStatus !== 1) {
    await failed('inactive', person.id);
    throw loginFailed();
  }
  // From here the password was right: the attempt does not count against the rate limits.
  await refund();
  // A break-glass account (SIGN_IN_BREAK_GLASS) passes the single-sign-on rules: the way back in
  // when single sign-on fails. Its sign-in is logged as a warning and audited as such.
  const breakGlass = isBreakGlass(d.config, person.email);
  if (breakGlass) d.log({ msg: 'break-glass password sign-in', level: 'warn', personId: person.id });
  if (!breakGlass)
    await refuseEnforcedPassword(d, person.email).catch(async (e: unknown) => {
      await failed('sso-enforced', person.id);
      throw e;
    });
  if (!breakGlass && person.loginMethod === LOGIN_METHOD.SingleSignOn) {
    await failed('sso-required', person.id);
    throw oauthError(400, MSG.ssoRequired, CODE.ssoRequired);
  }
  const roles = effectiveRoles(person.tenantId, await roleNamesOf(db, person.id));
  if (!permissionsForRoles(roles).includes(P.HasAccess)) {
    await auditAccount(db, person.id, 'login-refused', { reason: 'permission-missing', roles }, at);
    throw oauthError(400, MSG.permissionMissing, CODE.permissionMissing);
  }

  const factor = effectiveFactor(person, await twoFactorEnforced(db));
  if (factor) {
    if (!input.verificationCode) {
      // The code is sent once: a repeat sign-in while it is still valid does not send another
      // (the resend endpoint does).
      await sendVerificationCode(d, person, factor, 'sign-in', { onlyIfNonePending: true });
      // Where the code went, masked, so the sign-in page can say so (the password was right).
      const err = oauthError(400, MSG.verificationCodeSent, CODE.twoFactorRequired);
      throw new ApiError(err.status, err.message, err.code, undefined, { ...err.extra, ...(await codeDestination(d, person, factor)) });
    }
    if (!(await consumeVerificationCode(db, person.id, input.verificationCode, at))) {
      await countFailure(d, person, 'wrong-code');
      throw oauthError(400, MSG.invalidCode, CODE.invalidCode);
    }
  }

  return tx(db, async (trx) => {
    await recordSuccessfulLogin(trx, person.id, at);
    const tokens = await issueSession(d, trx, person, roles, clientId);
    await auditAccount(trx, person.id, 'login-succeeded', { clientId, secondFactor: factor, ...(breakGlass ? { breakGlass } : {}) }, at);
    return tokens;
  });
}

/**
 * The masked destination of a verification code, chosen as sendVerificationCode chooses it: the
 * SMS number when the factor is SMS and the number is valid, else the e-mail address.
 * 'a•••@demo.test' / the last three digits of the number.
 */
async function codeDestination(d: Deps, person: Person, factor: 1 | 2): Promise<{ code_channel: 'email' | 'sms'; code_sent_to: string }> {
  if (factor === 2) {
    const phone = parseTwoFactorPhone(person.twoFactorPhone);
    const number = phone && (await internationalNumber(d.db, phone));
    if (number) return { code_channel: 'sms', code_sent_to: number.slice(-3) };
  }
  const [local = '', domain] = person.email.split('@');
  return { code_channel: 'email', code_sent_to: `${local.slice(0, 1)}•••@${domain ?? ''}` };
}

async function countFailure(d: Deps, person: Person, reason: 'wrong-password' | 'wrong-code') {
  const at = d.config.now();
  const r = await recordFailedAttempt(d.db, person.id, { maxFailures: d.config.lockoutMaxFailures, minutes: d.config.lockoutMinutes }, at);
  await auditAccount(d.db, person.id, 'login-failed', { email: person.email, reason, failedAttempts: r.failedAttempts }, at);
  if (r.lockedNow) {
    // No session of the person ends: anyone can make five wrong guesses, and signing the owner
    // out would hand them a way to do so every few minutes. The lockout stops guessing only.
    await auditAccount(d.db, person.id, 'locked-out', { failedAttempts: r.failedAttempts, minutes: d.config.lockoutMinutes }, at);
    d.log({ msg: 'person locked after failed sign-ins', personId: person.id });
  }
}

type RefreshOutcome = { tokens: TokenResponse } | { error: 'invalid' | 'permission'; ended?: string };

/**
 * Rotation with reuse detection, in one transaction per request. The person's row is locked
 * first (PostgreSQL; SQLite runs transactions one at a time), so refreshes of one person take
 * turns: a token presented twice at once is claimed by one request, which stores its successor
 * and commits; the other then sees the token used and revokes the whole family, successor
 * included. A failure after the claim rolls the claim back, so the client's retry is no reuse.
 */
async function refreshGrant(d: Deps, token: string, clientId: string): Promise<TokenResponse> {
  const at = d.config.now();
  const outcome = await tx(d.db, async (trx): Promise<RefreshOutcome> => {
    const seen = await findRefreshToken(trx, token);
    if (!seen || seen.clientId !== clientId) return { error: 'invalid' };
    await lockPersonRow(trx, seen.personId);
    const row = await findRefreshToken(trx, token); // read again: another refresh may have finished meanwhile
    if (!row || row.revokedAt) return { error: 'invalid' };
    const endFamily = () => revokeFamily(trx, row.familyId, at);
    const reused = async (): Promise<RefreshOutcome> => {
      // A used token came back: it was copied. End the whole session (every token of the family)
      // and the access tokens already out.
      await endFamily();
      await bumpSessionEpoch(trx, row.personId);
      await auditAccount(trx, row.personId, 'refresh-token-reuse', { familyId: row.familyId }, at);
      return { error: 'invalid', ended: row.personId };
    };
    if (row.usedAt) return reused();
    if (row.expiresAt <= at.toISOString()) return { error: 'invalid' };
    if (!(await claimRefreshToken(trx, row.id, at))) return reused();
    const person = await findPersonById(trx, row.personId);
    if (!person || (person.isLocked === 1 && person.lockedUntil === null) || person.personStatus !== 1) {
      await endFamily();
      return { error: 'invalid' };
    }
    const roles = effectiveRoles(person.tenantId, await roleNamesOf(trx, person.id));
    if (!permissionsForRoles(roles).includes(P.HasAccess)) {
      await endFamily();
      return { error: 'permission' };
    }
    return { tokens: await issueSession(d, trx, person, roles, clientId, row.familyId) };
  });
  if ('tokens' in outcome) return outcome.tokens;
  if (outcome.ended) forgetSessionState(outcome.ended); // after the commit: live connections of the session end too
  throw outcome.error === 'permission' ? oauthError(400, MSG.permissionMissing, CODE.permissionMissing) : sessionInvalid();
}
