// The embedded identity provider's demo identities, and the workspace persons and
// company rule they meet. Demo data only: seeded at start when the embedded provider is on.
import type { DB } from '../../db/index.js';
import { PROVIDER_TENANT_ID } from '../../../shared/tenants.js';
import { ROLE_IDS } from '../../../shared/permissions.js';
import type { RoleName } from '../../../shared/permissions.js';
import { hashPassword } from '../password.js';
import { newEtag, newId } from '../../platform/util.js';
import { LOGIN_METHOD } from '../../../shared/codes.js';

export type SsoDemoIdentity = { id: string; email: string; name: string; label: string };

/** Who can sign in at the embedded provider. */
export const SSO_DEMO_IDENTITIES: SsoDemoIdentity[] = [
  { id: 'demo-sso-new', email: 'sso-new@demo.test', name: 'Noa Newcomer', label: 'signs in with a password so far: asked for consent once' },
  { id: 'demo-sso-multi', email: 'sso-multi@demo.test', name: 'Mika Many', label: 'one e-mail, several accounts: chooses one' },
  { id: 'demo-sso-enforced', email: 'sso@enforced.demo.test', name: 'Eden Enforced', label: 'company requires single sign-on: no password, no consent step' },
  { id: 'demo-sso-unknown', email: 'sso-unknown@demo.test', name: 'Uri Unknown', label: 'no account in the workspace: not recognised' },
];

/** The company (by e-mail domain) of the enforced demo identity requires single sign-on. */
export const SSO_ENFORCED_DEMO_DOMAIN = 'enforced.demo.test';

type DemoPerson = {
  email: string;
  firstName: string;
  lastName: string;
  roles: RoleName[];
  ssoEmail?: string;
  loginMethod?: number;
  tenant?: 'customer';
  active?: boolean;
};

/** The workspace persons behind the identities (the unknown one has none). */
export const SSO_DEMO_PERSONS: DemoPerson[] = [
  { email: 'sso-new@demo.test', firstName: 'Noa', lastName: 'Newcomer', roles: ['SuperAdminRole'] },
  // sso-multi@demo.test reaches three accounts: two of the provider's staff and one customer's (no admin-panel access).
  { email: 'sso-multi@demo.test', firstName: 'Mika', lastName: 'Many', roles: ['ArcManagerRole'], loginMethod: LOGIN_METHOD.SingleSignOn },
  {
    email: 'mika.many@ops.demo.test',
    firstName: 'Mika',
    lastName: 'Many (Ops)',
    roles: ['SuperAdminReadonlyRole'],
    ssoEmail: 'sso-multi@demo.test',
    loginMethod: LOGIN_METHOD.SingleSignOn,
  },
  {
    email: 'mika.many@customer.demo.test',
    firstName: 'Mika',
    lastName: 'Many (Customer)',
    roles: ['PortalUserRole'],
    ssoEmail: 'sso-multi@demo.test',
    tenant: 'customer',
  },
  { email: 'sso@enforced.demo.test', firstName: 'Eden', lastName: 'Enforced', roles: ['ArcSupervisorRole'] },
];

/** Adds the demo SSO persons and the enforced company when missing (idempotent; never touches existing rows). */
export async function seedSsoDemo(db: DB, password: string, now = new Date()) {
  const have = new Set(
    (
      await db
        .selectFrom('persons')
        .select('email')
        .where(
          'email',
          'in',
          SSO_DEMO_PERSONS.map((p) => p.email),
        )
        .execute()
    ).map((r) => r.email),
  );
  const missing = SSO_DEMO_PERSONS.filter((p) => !have.has(p.email));
  if (missing.length) {
    const passwordHash = await hashPassword(password);
    const customer = await db.selectFrom('customers').select('tenantId').orderBy('name').executeTakeFirst();
    for (const p of missing) {
      const id = newId();
      await db
        .insertInto('persons')
        .values({
          id,
          tenantId: p.tenant === 'customer' && customer ? customer.tenantId : PROVIDER_TENANT_ID,
          firstName: p.firstName,
          lastName: p.lastName,
          email: p.email,
          passwordHash,
          isLocked: 0,
          failedAttempts: 0,
          lastLoginDate: null,
          personStatus: p.active === false ? 2 : 1,
          loginMethod: p.loginMethod ?? LOGIN_METHOD.Password,
          twoFactorType: null,
          twoFactorPhone: null,
          phoneNumbers: '[]',
          profile: '{}',
          searchText: `${p.firstName} ${p.lastName} ${p.email}`.toLowerCase(),
          etag: newEtag(),
          createdAt: now.toISOString(),
          updatedAt: now.toISOString(),
          ssoEmail: p.ssoEmail ?? null,
        })
        .execute();
      if (p.roles.length)
        await db
          .insertInto('personRoles')
          .values(p.roles.map((r) => ({ personId: id, roleId: ROLE_IDS[r] })))
          .execute();
    }
  }
  await db
    .insertInto('ssoDomains')
    .values({ domain: SSO_ENFORCED_DEMO_DOMAIN, enforced: 1 })
    .onConflict((oc) => oc.column('domain').doNothing())
    .execute();
}
