// Tenant isolation for the tenant data (devices, customers, persons, alarm reports, live devices
// and their exports), in two layers.
//
// 1. The route guard (http.ts): provider staff (the provider tenant: provider admins and the
//    alarm-receiving centre's staff) work across customers. A caller of any other tenant uses
//    only their own profile: the tenant-data routes refuse them (403) whatever permissions their
//    token carries. The one rule sits in the guard, so a route added later inherits it.
// 2. The repositories: every read of tenant data takes a TenantScope (required, so the compiler
//    makes each caller pass one) and narrows its SQL by it. Provider staff read every tenant; a
//    customer person reads only the rows of the customer whose tenant they belong to, counts
//    included, and a row of another tenant asked for by id answers as not found. Should the
//    guard ever let a customer-tenant caller through (a new route, a token minted with the
//    signing key), the rows still stay within their customer.
// The live hub applies the same rule to the devices a connection may watch (realtime/scope.ts).
import { sql, type RawBuilder } from 'kysely';
import type { AuthUser } from '../http/types.js';
import { P, type Permission } from '../../shared/permissions.js';
import { PROVIDER_TENANT_ID } from '../../shared/tenants.js';

/** Provider or ARC staff: may work across customers (the rows are not narrowed to one tenant). */
export const isProviderStaff = (user: Pick<AuthUser, 'tenantId'>) => user.tenantId === PROVIDER_TENANT_ID;

/** What a caller outside the provider tenant may use: their own profile, nothing of any tenant's data. */
export const OWN_PROFILE_PERMISSIONS: readonly Permission[] = [P.HasAccess, P.AdminManageOwnProfile, P.ManageOwnProfile];

/** Whether the caller may use a route guarded by `access` with respect to tenants (the permission itself is checked apart). */
export function tenantMayUse(user: Pick<AuthUser, 'tenantId'>, access: Permission): boolean {
  return isProviderStaff(user) || OWN_PROFILE_PERMISSIONS.includes(access);
}

/**
 * Which tenants' rows a read may return: every tenant's (provider staff, and the server's own
 * jobs), or one tenant's — the rows of the customer whose tenant id it is (customers.tenantId is
 * unique): that customer, its devices, persons, alarm reports and live data.
 */
export type TenantScope = { readonly all: true } | { readonly all: false; readonly tenantId: string };

/** Every tenant: provider staff, and the server's own work (ingest, seeding, scheduled jobs). */
export const ALL_TENANTS: TenantScope = Object.freeze({ all: true });

/** The scope of an authenticated caller: provider staff read every tenant, anyone else their own tenant's rows. */
export function tenantScope(user: Pick<AuthUser, 'tenantId'>): TenantScope {
  return isProviderStaff(user) ? ALL_TENANTS : { all: false, tenantId: user.tenantId };
}

/** `column` (a customer id) names a customer of the scope's tenant. */
const customerOfTenant = (column: string, tenantId: string) =>
  sql<boolean>`${sql.ref(column)} in (select "customers"."id" from "customers" where "customers"."tenantId" = ${tenantId})`;

/** `column` (a device id) names a device of a customer of the scope's tenant. */
const deviceOfTenant = (column: string, tenantId: string) =>
  sql<boolean>`${sql.ref(column)} in (select "devices"."id" from "devices" where ${customerOfTenant('devices.customerId', tenantId)})`;

/** The predicate a scoped query adds, by what the column holds; undefined for every tenant. */
export function scopePredicate(scope: TenantScope, kind: 'customerId' | 'tenantId' | 'deviceId', column: string): RawBuilder<boolean> | undefined {
  if (scope.all) return undefined;
  if (kind === 'tenantId') return sql<boolean>`${sql.ref(column)} = ${scope.tenantId}`;
  return kind === 'customerId' ? customerOfTenant(column, scope.tenantId) : deviceOfTenant(column, scope.tenantId);
}

type Narrowable<QB> = { where(e: RawBuilder<boolean>): QB };

/** A query narrowed to the rows whose customer (customer id in `column`) is of the scope's tenant. */
export const byCustomer = <QB extends Narrowable<QB>>(qb: QB, scope: TenantScope, column: string): QB =>
  narrow(qb, scopePredicate(scope, 'customerId', column));
/** A query narrowed to the rows of the scope's tenant (tenant id in `column`: customers, persons). */
export const byTenant = <QB extends Narrowable<QB>>(qb: QB, scope: TenantScope, column: string): QB => narrow(qb, scopePredicate(scope, 'tenantId', column));
/** A query narrowed to the rows of devices (device id in `column`) of the scope's tenant. */
export const byDevice = <QB extends Narrowable<QB>>(qb: QB, scope: TenantScope, column: string): QB => narrow(qb, scopePredicate(scope, 'deviceId', column));

const narrow = <QB extends Narrowable<QB>>(qb: QB, p: RawBuilder<boolean> | undefined): QB => (p ? qb.where(p) : qb);
