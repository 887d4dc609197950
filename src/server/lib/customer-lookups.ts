// The customer a row belongs to, looked up by the areas that show or check it (devices' search shows
// customer names; persons find the customer of a tenant's administrators). The customers area's own
// queries stay in modules/customers/repo.ts, which the area depends on; these two sit here so that
// devices and persons need not import the customers area (it imports them).
import type { DB } from '../db/index.js';
import { byTenant, type TenantScope } from '../auth/tenant-scope.js';

/** The customer whose tenant this is (customer administrators live in that tenant), within the scope. */
export const findCustomerByTenant = (db: DB, scope: TenantScope, tenantId: string) =>
  byTenant(db.selectFrom('customers'), scope, 'customers.tenantId')
    .select(['id', 'name', 'tenantId', 'isAutomaticEmailsPaused'])
    .where('tenantId', '=', tenantId)
    .executeTakeFirst();

/** Customer names by id, for lists that show the customer of a row. */
export async function customerNames(db: DB, ids: string[]): Promise<Map<string, string>> {
  const names = new Map<string, string>();
  const unique = [...new Set(ids)];
  if (unique.length) for (const c of await db.selectFrom('customers').select(['id', 'name']).where('id', 'in', unique).execute()) names.set(c.id, c.name);
  return names;
}
