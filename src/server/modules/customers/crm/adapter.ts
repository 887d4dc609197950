// What every CRM adapter answers, and the country mapping the adapters share.
import type { DB } from '../../../db/index.js';
import type { CrmAccount } from '../../../../shared/schemas/customers.js';

export type CrmAdapter = {
  /** Accounts whose name or URN contains `query` (case-insensitive), at most `limit`, best first. */
  search: (query: string, limit: number) => Promise<CrmAccount[]>;
};

/** Countries by lower-cased name and code, for mapping a CRM country text to the dictionaries' id. */
export async function countryIds(db: DB): Promise<(country: string | null) => string | null> {
  const rows = await db.selectFrom('countries').select(['id', 'name', 'code']).execute();
  const by = new Map<string, string>();
  for (const r of rows) {
    by.set(r.name.toLowerCase(), r.id);
    by.set(r.code.toLowerCase(), r.id);
  }
  const alias: Record<string, string> = { uk: 'gb', 'great britain': 'gb', england: 'gb', scotland: 'gb', wales: 'gb', 'northern ireland': 'gb' };
  return (country) => {
    if (!country) return null;
    const k = country.trim().toLowerCase();
    return by.get(k) ?? by.get(alias[k] ?? '') ?? null;
  };
}
