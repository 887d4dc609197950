// Which accounts a provider identity reaches: the persons whose e-mail is the
// identity's, or whose ssoEmail is (one identity, several accounts), each with the company it
// belongs to and whether it can be chosen for the admin panel.
import type { DB } from '../../db/index.js';
import type { Person } from '../../db/schema.js';
import { P, permissionsForRoles } from '../../../shared/permissions.js';
import { PROVIDER_TENANT_ID } from '../../../shared/tenants.js';
import { MSG } from '../../../shared/messages.js';
import type { SsoAccount } from '../../../shared/schemas/auth.js';
import { isLockedAt, roleNamesOf } from '../store.js';
import { effectiveRoles } from '../tokens.js';

/** The company name shown for the provider's own staff in the account list. */
export const PROVIDER_ACCOUNT_NAME = `${MSG.productName} staff`;

export type SsoCandidate = { person: Person; roles: string[]; account: SsoAccount; hasAccess: boolean };

export const domainOf = (email: string) => email.slice(email.lastIndexOf('@') + 1).toLowerCase();

export async function candidatesFor(db: DB, email: string, at: Date): Promise<SsoCandidate[]> {
  const persons = await db
    .selectFrom('persons')
    .selectAll()
    .where((eb) => eb.or([eb('email', '=', email), eb('ssoEmail', '=', email)]))
    .orderBy('email')
    .execute();
  const tenants = [...new Set(persons.map((p) => p.tenantId).filter((t) => t !== PROVIDER_TENANT_ID))];
  const customers = tenants.length ? await db.selectFrom('customers').select(['tenantId', 'name']).where('tenantId', 'in', tenants).execute() : [];
  const nameOf = new Map(customers.map((c) => [c.tenantId, c.name]));
  const out: SsoCandidate[] = [];
  for (const person of persons) {
    const roles = effectiveRoles(person.tenantId, await roleNamesOf(db, person.id));
    const hasAccess = permissionsForRoles(roles).includes(P.HasAccess);
    const canSelect = hasAccess && person.personStatus === 1 && !isLockedAt(person, at);
    const customerName = person.tenantId === PROVIDER_TENANT_ID ? PROVIDER_ACCOUNT_NAME : (nameOf.get(person.tenantId) ?? '-');
    out.push({ person, roles, hasAccess, account: { customerName, emailAddress: person.email, canSelect } });
  }
  // Spec §2: selectable entries first.
  return out.sort((a, b) => Number(b.account.canSelect) - Number(a.account.canSelect));
}

/** Whether the person's company (by e-mail domain) requires single sign-on. */
export async function ssoEnforcedFor(db: DB, email: string): Promise<boolean> {
  const row = await db.selectFrom('ssoDomains').select('enforced').where('domain', '=', domainOf(email)).executeTakeFirst();
  return row?.enforced === 1;
}

export async function ssoFeatureOn(db: DB): Promise<boolean> {
  const row = await db.selectFrom('features').select('isEnabled').where('name', '=', 'SingleSignOn').executeTakeFirst();
  return row?.isEnabled === 1;
}
