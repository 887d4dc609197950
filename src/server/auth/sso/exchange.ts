// POST /connect/token with grant_type token-exchange (spec §7): the browser brings the
// provider's ID token; the server verifies it (./verify.ts), maps its e-mail to the person or
// persons (./accounts.ts) and answers with the spec's codes:
//   sso_unavailable       no provider configured, the feature off, or the provider unreachable
//   sso_select_account    the e-mail reaches several accounts and none was selected (with `accounts`)
//   sso_first_time_login  the person signs in with a password so far: consent needed (sso_consent=true)
//   sso_not_recognised    anything else (bad token, unknown e-mail, account not selectable): generic message
// Consent switches the person's login method to single sign-on; from then on the password grant
// answers sso_required. A company that requires single sign-on (ssoDomains) needs no consent.
import * as v from 'valibot';
import { ApiError, deps, issuesToErrors, type Ctx, type Deps } from '../../http/api.js';
import { CODE, MSG } from '../../../shared/messages.js';
import { LOGIN_METHOD } from '../../../shared/codes.js';
import { tokenExchangeSchema, type TokenRequest, type TokenResponse } from '../../../shared/schemas/auth.js';
import { audit } from '../../platform/util.js';
import { tx } from '../../db/index.js';
import { clientAddress } from '../../http/client-address.js';
import { authenticateClient, requireCaptcha } from '../../captcha/index.js';
import { takeAll } from '../rate-limit.js';
import { auditAccount, recordSuccessfulLogin } from '../store.js';
import { issueSession, oauthError, tooMany, type SignInLimiters } from '../grant.js';
import { candidatesFor, ssoEnforcedFor, ssoFeatureOn, type SsoCandidate } from './accounts.js';
import { consumeNonce } from './nonce.js';
import { SsoTokenError, verifyIdToken, type SsoIdentity } from './verify.js';

const unavailable = () => oauthError(400, MSG.ssoUnavailable, CODE.ssoUnavailable);
const notRecognised = () => oauthError(400, MSG.ssoNotRecognised, CODE.ssoNotRecognised, CODE.invalidGrant);

export async function tokenExchange(c: Ctx, form: TokenRequest, limiters: SignInLimiters): Promise<Response> {
  const d = deps(c);
  const sso = d.config.sso;
  if (!sso || !(await ssoFeatureOn(d.db))) throw unavailable();
  // The spec's exchange carries no client id: the browser app's is assumed. Others must be known.
  const clientId = form.client_id ?? d.config.clientIds[0];
  const confidential = authenticateClient(d.config, form);
  if (!clientId || !(confidential || d.config.clientIds.includes(clientId))) throw oauthError(400, MSG.invalidClient, CODE.invalidClient);

  const parsed = v.safeParse(tokenExchangeSchema, form);
  if (!parsed.success) {
    const errors = issuesToErrors(parsed.issues);
    // A missing provider token is the generic single-sign-on failure (spec §8).
    throw oauthError(400, MSG.ssoNotRecognised, CODE.ssoNotRecognised, 'invalid_request', errors);
  }
  const input = parsed.output;
  const limit = await takeAll([[limiters.perAddress, clientAddress(c)]]);
  if (!limit.ok) return tooMany(c, limit.retryAfterSeconds);
  if (!confidential) await requireCaptcha(c, form.captchaResponse, { oauth: true });

  const at = d.config.now();
  const failed = (reason: string, details: Record<string, unknown> = {}, personId: string | null = null) =>
    audit(d.db, { actorId: personId, action: 'sso-login-failed', entity: 'person', entityId: personId, details: { reason, ...details }, at });

  let identity: SsoIdentity;
  try {
    identity = await verifyIdToken(d.config, sso, input.id_token);
  } catch (e) {
    if (!(e instanceof SsoTokenError)) throw e;
    d.log({ msg: 'sso id token refused', kind: e.kind, reason: e.message });
    await failed(`token-${e.kind}`, { detail: e.message });
    throw e.kind === 'unavailable' ? unavailable() : notRecognised();
  }

  const candidates = await candidatesFor(d.db, identity.email, at);
  if (candidates.length === 0) {
    await failed('unknown-user', { email: identity.email });
    throw notRecognised();
  }
  let chosen: SsoCandidate | undefined;
  if (input.selected_account) {
    chosen = candidates.find((x) => x.person.email === input.selected_account);
    if (!chosen?.account.canSelect) {
      await failed('account-not-selectable', { email: identity.email, selected: input.selected_account }, chosen?.person.id ?? null);
      throw notRecognised();
    }
  } else if (candidates.length > 1) {
    const err = oauthError(400, MSG.ssoSelectAccount, CODE.ssoSelectAccount);
    throw new ApiError(err.status, err.message, err.code, undefined, { ...err.extra, accounts: candidates.map((x) => x.account) });
  } else {
    chosen = candidates[0];
  }
  if (!chosen) throw notRecognised();
  const { person, roles } = chosen;
  if (!chosen.account.canSelect) {
    await failed(chosen.hasAccess ? 'not-selectable' : 'permission-missing', { email: identity.email }, person.id);
    throw chosen.hasAccess || person.personStatus !== 1 ? notRecognised() : oauthError(400, MSG.permissionMissing, CODE.permissionMissing);
  }

  const enforced = await ssoEnforcedFor(d.db, person.email);
  const switching = person.loginMethod !== LOGIN_METHOD.SingleSignOn;
  if (switching && !enforced && input.sso_consent !== 'true') {
    // Not an error of the user's: the consent notice (spec §8 sso_first_time_login).
    throw oauthError(400, MSG.ssoConsentTitle, CODE.ssoFirstTimeLogin);
  }

  const tokens = await tx(d.db, async (trx): Promise<TokenResponse | undefined> => {
    if (!(await consumeNonce(trx, identity.nonce, person.id, identity.nonceExpiresAt, at))) return undefined;
    if (switching) {
      // The portal password stops working from here (the password grant answers sso_required).
      await trx.updateTable('persons').set({ loginMethod: LOGIN_METHOD.SingleSignOn, updatedAt: at.toISOString() }).where('id', '=', person.id).execute();
      await auditAccount(trx, person.id, 'login-method-changed', { to: 'SingleSignOn', reason: enforced ? 'company-enforced' : 'consent' }, at);
    }
    await recordSuccessfulLogin(trx, person.id, at);
    const t = await issueSession(d, trx, person, roles, clientId);
    await auditAccount(trx, person.id, 'login-succeeded', { clientId, method: 'sso', issuer: sso.issuer, subject: identity.subject }, at);
    return t;
  });
  if (!tokens) {
    await failed('id-token-reused', { email: identity.email }, person.id);
    throw notRecognised();
  }
  return c.json(tokens, 200, { 'Cache-Control': 'no-store', Pragma: 'no-cache' });
}

/** The password grant's single-sign-on check: a person of a company that requires it is refused with sso_enforced. */
export async function refuseEnforcedPassword(d: Deps, email: string): Promise<void> {
  if (await ssoEnforcedFor(d.db, email)) throw oauthError(400, MSG.ssoEnforced(d.config.sso?.providerName ?? 'Microsoft'), CODE.ssoEnforced);
}
