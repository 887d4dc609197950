// Which persons a caller may list and open. The whole user directory (provider staff, customer
// administrators, lone workers: customer data, with e-mails and phone numbers) needs the
// customer list permission too (provider admins, read-only included). Everyone else who may list
// persons (the ARC manager) sees the alarm-receiving centre's staff only: persons of the provider
// tenant holding an ARC role.
import type { ExpressionBuilder, SelectQueryBuilder } from 'kysely';
import type { Database } from '../../db/schema.js';
import { sql, type DB } from '../../db/index.js';
import { likeEscape } from '../../platform/util.js';
import type { AuthUser } from '../../http/api.js';
import { P, ROLE_IDS } from '../../../shared/permissions.js';
import { PROVIDER_TENANT_ID } from '../../../shared/tenants.js';
import { byTenant, type TenantScope } from '../../auth/tenant-scope.js';

export const ARC_ROLE_IDS = [ROLE_IDS.ArcManagerRole, ROLE_IDS.ArcSupervisorRole, ROLE_IDS.ArcControllerRole];

export type PersonScope = 'directory' | 'arc-staff';

export function personScope(user: Pick<AuthUser, 'permissions'>): PersonScope {
  return user.permissions.includes(P.CustomerListView) ? 'directory' : 'arc-staff';
}

const arcStaff = (eb: ExpressionBuilder<Database, 'persons'>) =>
  eb.and([
    eb('persons.tenantId', '=', PROVIDER_TENANT_ID),
    eb.exists(
      eb
        .selectFrom('personRoles')
        .select('personRoles.roleId')
        .whereRef('personRoles.personId', '=', 'persons.id')
        .where('personRoles.roleId', 'in', ARC_ROLE_IDS),
    ),
  ]);

/** A persons query narrowed to a scope. */
export function narrowToScope<O>(qb: SelectQueryBuilder<Database, 'persons', O>, scope: PersonScope): SelectQueryBuilder<Database, 'persons', O> {
  return scope === 'directory' ? qb : qb.where(arcStaff);
}

/** The persons query narrowed to what the caller may see. */
export function scopePersons<O>(
  qb: SelectQueryBuilder<Database, 'persons', O>,
  user: Pick<AuthUser, 'permissions'>,
): SelectQueryBuilder<Database, 'persons', O> {
  return narrowToScope(qb, personScope(user));
}

/** Whether the caller may see this person (callers answer 404 otherwise, as for an unknown id). */
export async function canSeePerson(db: DB, user: Pick<AuthUser, 'permissions'>, personId: string): Promise<boolean> {
  if (personScope(user) === 'directory') return true;
  return !!(await scopePersons(db.selectFrom('persons').select('persons.id').where('persons.id', '=', personId), user).executeTakeFirst());
}

/**
 * Palette search candidates for the 'arc-staff' scope: ARC staff whose name or e-mail contains
 * the (lower-cased) query, within the tenant scope (the centre's staff are of the provider
 * tenant, so a customer's scope finds none). The centre's staff are few, so this scans them instead of using the
 * directory-wide indexes (whose capped candidate lists could be all customer-side persons).
 */
export function arcStaffMatching(db: DB, tenant: TenantScope, q: string, limit: number) {
  return byTenant(db.selectFrom('persons'), tenant, 'persons.tenantId')
    .select(['persons.id', 'persons.firstName', 'persons.lastName', 'persons.email', 'persons.createdAt'])
    .where(arcStaff)
    .where(sql<boolean>`${sql.ref('persons.searchText')} like ${`%${likeEscape(q)}%`} escape '\\'`)
    .orderBy('persons.createdAt', 'desc')
    .limit(limit)
    .execute();
}
