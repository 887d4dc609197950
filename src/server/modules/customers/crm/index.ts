// The CRM behind "linked customer account" (POST /api/v1/salesforce/account/query): an adapter
// chosen by configuration (Config.crm, src/server/platform/config.ts). Default: the embedded CRM directory
// (table crmAccounts, seeded with demo accounts) so the product works out of the box; with
// SALESFORCE_INSTANCE_URL set: Salesforce's REST query API (./salesforce.ts).
import type { DB } from '../../../db/index.js';
import { embeddedCrm } from './embedded.js';
import { salesforceCrm } from './salesforce.js';
import type { CrmConfig } from '../../../platform/config.js';
import type { CrmAdapter } from './adapter.js';

export type { CrmConfig, SalesforceConfig } from '../../../platform/config.js';
export { countryIds, type CrmAdapter } from './adapter.js';

/** The CRM page of an account, or null when the CRM has none (the embedded directory). */
export function crmAccountLink(config: CrmConfig | undefined, salesforceId: string | null): string | null {
  if (!salesforceId || !config || config.provider !== 'salesforce') return null;
  return `${config.instanceUrl.replace(/\/+$/, '')}/lightning/r/Account/${encodeURIComponent(salesforceId)}/view`;
}

/** One adapter per configuration (the Salesforce one caches its access token). */
const adapters = new WeakMap<object, CrmAdapter>();
export function crmAdapter(db: DB, config: CrmConfig | undefined): CrmAdapter {
  if (!config || config.provider === 'embedded') return embeddedCrm(db);
  let a = adapters.get(config);
  if (!a) adapters.set(config, (a = salesforceCrm(db, config)));
  return a;
}
