// Database functions of the customers module (routes come with the customers area). Each takes
// the database first, so other modules (persons: customer administrators; devices: allocation)
// share them instead of writing their own queries.
import type { DB } from '../../db/index.js';

/** The customer whose tenant this is (customer administrators live in that tenant). */
export const findCustomerByTenant = (db: DB, tenantId: string) =>
  db.selectFrom('customers').select(['id', 'name', 'tenantId']).where('tenantId', '=', tenantId).executeTakeFirst();

/** Customer names by id, for lists that show the customer of a row. */
export async function customerNames(db: DB, ids: string[]): Promise<Map<string, string>> {
  const names = new Map<string, string>();
  const unique = [...new Set(ids)];
  if (unique.length) for (const c of await db.selectFrom('customers').select(['id', 'name']).where('id', 'in', unique).execute()) names.set(c.id, c.name);
  return names;
}
