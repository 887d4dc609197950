// The CRM behind "linked customer account" (POST /api/v1/salesforce/account/query): an adapter
// chosen by configuration (Config.crm, src/server/config.ts). Default: the embedded CRM directory
// (table crmAccounts, seeded with demo accounts) so the product works out of the box; with
// SALESFORCE_INSTANCE_URL set: Salesforce's REST query API (./salesforce.ts).
import type { DB } from '../../../db/index.js';
import type { CrmAccount } from '../../../../shared/schemas/customers.js';
import { embeddedCrm } from './embedded.js';
import { salesforceCrm, type SalesforceConfig } from './salesforce.js';

export type CrmConfig = { provider: 'embedded' } | ({ provider: 'salesforce' } & SalesforceConfig);

export type CrmAdapter = {
  /** Accounts whose name or URN contains `query` (case-insensitive), at most `limit`, best first. */
  search: (query: string, limit: number) => Promise<CrmAccount[]>;
};

/** One adapter per configuration (the Salesforce one caches its access token). */
const adapters = new WeakMap<object, CrmAdapter>();
export function crmAdapter(db: DB, config: CrmConfig | undefined): CrmAdapter {
  if (!config || config.provider === 'embedded') return embeddedCrm(db);
  let a = adapters.get(config);
  if (!a) adapters.set(config, (a = salesforceCrm(db, config)));
  return a;
}

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
