// Tenant isolation for the tenant-data routes (devices, customers, persons, alarm reports, live
// devices and their exports). Provider staff (the provider tenant: provider admins and the
// alarm-receiving centre's staff) work across customers. A caller of any other tenant uses only
// their own profile: the tenant-data routes refuse them (403) whatever permissions their token
// carries, so a customer-tenant token never reads another customer's rows, even with a
// permission. The one rule sits in the route guard (http.ts), so a route added later inherits it.
// The live hub applies the same rule to the devices a connection may watch (realtime/scope.ts).
import type { AuthUser } from './http.js';
import { P, type Permission } from '../shared/permissions.js';
import { PROVIDER_TENANT_ID } from '../shared/tenants.js';

/** Provider or ARC staff: may work across customers (the rows are not narrowed to one tenant). */
export const isProviderStaff = (user: Pick<AuthUser, 'tenantId'>) => user.tenantId === PROVIDER_TENANT_ID;

/** What a caller outside the provider tenant may use: their own profile, nothing of any tenant's data. */
export const OWN_PROFILE_PERMISSIONS: readonly Permission[] = [P.HasAccess, P.AdminManageOwnProfile, P.ManageOwnProfile];

/** Whether the caller may use a route guarded by `access` with respect to tenants (the permission itself is checked apart). */
export function tenantMayUse(user: Pick<AuthUser, 'tenantId'>, access: Permission): boolean {
  return isProviderStaff(user) || OWN_PROFILE_PERMISSIONS.includes(access);
}
