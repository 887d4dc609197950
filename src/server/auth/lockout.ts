// No self-lockout: a change to the sign-in rules (a domain that requires single sign-on, a
// person's login method, the SingleSignOn feature) is refused when it would leave the acting admin,
// or every provider admin, without a way to sign in (docs/security.md, "No self-lockout";
// break-glass: docs/operations.md).
//
// A password sign-in is possible for an active person with a password whose login method is
// password and whose e-mail domain does not require single sign-on, or who is named in
// SIGN_IN_BREAK_GLASS (config.signInBreakGlass). A single-sign-on sign-in is possible while the
// feature is on and an issuer is configured, but the server cannot know that the identity provider
// works, so losing one's password sign-in counts as a lockout even while single sign-on remains.
// The second factor never locks anyone out: codes go to the person's e-mail address (SMS falls
// back to it), or into the server log when SMTP_URL is not set.
import type { DB } from '../db/index.js';
import type { Config } from '../platform/config.js';
import { ApiError } from '../http/api.js';
import { CODE, LOCKOUT_TEXT } from '../../shared/messages.js';
import { ROLE_IDS } from '../../shared/permissions.js';
import { PROVIDER_TENANT_ID } from '../../shared/tenants.js';
import { LOGIN_METHOD } from '../../shared/schemas/admin.js';
import { domainOf, ssoFeatureOn } from './sso/accounts.js';

/** The e-mail addresses SIGN_IN_BREAK_GLASS names (lower case). */
export const breakGlassAccounts = (config: Pick<Config, 'signInBreakGlass'>) => new Set((config.signInBreakGlass ?? []).map((e) => e.toLowerCase()));

/** Whether the password grant lets this person through the single-sign-on rules (a break-glass account). */
export const isBreakGlass = (config: Pick<Config, 'signInBreakGlass'>, email: string) => breakGlassAccounts(config).has(email.toLowerCase());

/** What decides whether someone can sign in, before or after a change. */
type Rules = { enforcedDomains: Set<string>; ssoOn: boolean; loginMethodOf: (p: Signer) => number };
type Signer = { id: string; email: string; loginMethod: number; passwordHash: string | null; personStatus: number };

/** One proposed change to the sign-in rules. */
export type SignInChange =
  | { kind: 'require-sso-domain'; domain: string }
  | { kind: 'login-method'; personId: string; loginMethod: number }
  | { kind: 'sso-feature'; isEnabled: boolean };

function paths(p: Signer, r: Rules, breakGlass: Set<string>): { password: boolean; any: boolean } {
  const active = p.personStatus === 1;
  const email = p.email.toLowerCase();
  const password =
    active && !!p.passwordHash && (breakGlass.has(email) || (!r.enforcedDomains.has(domainOf(email)) && r.loginMethodOf(p) === LOGIN_METHOD.Password));
  return { password, any: password || (active && r.ssoOn) };
}

/**
 * Refuses (400, code `self_lockout`) a change after which the acting admin, who could sign in with
 * a password, no longer could, or could not sign in at all; or after which no provider admin
 * could sign in with a password (or at all) where one could before.
 */
export async function refuseLockout(d: { db: DB; config: Config }, actorId: string, change: SignInChange): Promise<void> {
  const { db, config } = d;
  const breakGlass = breakGlassAccounts(config);
  const cols = ['persons.id', 'persons.email', 'persons.loginMethod', 'persons.passwordHash', 'persons.personStatus'] as const;
  const admins = await db
    .selectFrom('persons')
    .innerJoin('personRoles', 'personRoles.personId', 'persons.id')
    .select(cols)
    .where('persons.tenantId', '=', PROVIDER_TENANT_ID)
    .where('personRoles.roleId', '=', ROLE_IDS.SuperAdminRole)
    .execute();
  const actor = admins.find((a) => a.id === actorId) ?? (await db.selectFrom('persons').select(cols).where('persons.id', '=', actorId).executeTakeFirst());
  const domains = await db.selectFrom('ssoDomains').select('domain').where('enforced', '=', 1).execute();
  const before: Rules = {
    enforcedDomains: new Set(domains.map((x) => x.domain)),
    ssoOn: !!config.sso && (await ssoFeatureOn(db)),
    loginMethodOf: (p) => p.loginMethod,
  };
  const after: Rules = { ...before, enforcedDomains: new Set(before.enforcedDomains) };
  if (change.kind === 'require-sso-domain') after.enforcedDomains.add(change.domain);
  if (change.kind === 'sso-feature') after.ssoOn = !!config.sso && change.isEnabled;
  if (change.kind === 'login-method') after.loginMethodOf = (p) => (p.id === change.personId ? change.loginMethod : p.loginMethod);

  const refuse = (message: string) => {
    throw new ApiError(400, message, CODE.selfLockout, { [fieldOf(change)]: message });
  };
  if (actor) {
    const [was, will] = [paths(actor, before, breakGlass), paths(actor, after, breakGlass)];
    if ((was.password && !will.password) || (was.any && !will.any)) refuse(LOCKOUT_TEXT.self(describe(change)));
  }
  const count = (r: Rules, key: 'password' | 'any') => admins.filter((a) => paths(a, r, breakGlass)[key]).length;
  for (const key of ['password', 'any'] as const) if (count(before, key) > 0 && count(after, key) === 0) refuse(LOCKOUT_TEXT.everyAdmin(describe(change)));
}

const fieldOf = (c: SignInChange) => (c.kind === 'require-sso-domain' ? 'domain' : c.kind === 'login-method' ? 'loginMethod' : 'isEnabled');
const describe = (c: SignInChange) =>
  c.kind === 'require-sso-domain'
    ? `requiring single sign-on for ${c.domain}`
    : c.kind === 'login-method'
      ? 'this login method'
      : 'switching single sign-on off';
