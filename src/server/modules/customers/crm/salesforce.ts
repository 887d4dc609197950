// The Salesforce adapter: REST query API (GET {instance}/services/data/v{version}/query?q={SOQL}),
// answered in Salesforce's documented shape { totalSize, done, records: [{ attributes: { type,
// url }, ...fields }] }. Credentials from the environment (src/server/platform/config.ts):
//   SALESFORCE_INSTANCE_URL        https://yourorg.my.salesforce.com (selects this adapter)
//   SALESFORCE_ACCESS_TOKEN        a ready bearer token, or
//   SALESFORCE_CLIENT_ID/_SECRET   OAuth 2.0 client credentials flow against
//                                  {instance}/services/oauth2/token (SALESFORCE_TOKEN_URL overrides)
//   SALESFORCE_API_VERSION         default 60.0
//   SALESFORCE_URN_FIELD, SALESFORCE_CSM_FIELD, SALESFORCE_TIER_FIELD
//                                  the Account fields holding the URN, the customer success
//                                  manager's name and the tier (defaults URN__c,
//                                  Customer_Success_Manager__c, Customer_Success_Tier__c)
// The search text goes into the SOQL string literal escaped (soqlLikeLiteral), never as SOQL.
import { ApiError } from '../../../http/api.js';
import type { DB } from '../../../db/index.js';
import { TIER_TYPES } from '../../../../shared/codes.js';
import { CUSTOMER_CODE, CUSTOMER_TEXT, type CrmAccount } from '../../../../shared/schemas/customers.js';
import type { SalesforceConfig } from '../../../platform/config.js';
import { countryIds, type CrmAdapter } from './adapter.js';

/** A field API name as SOQL takes it (letters, digits, underscores, dots for relationships). */
const FIELD = /^[A-Za-z][A-Za-z0-9_]*(\.[A-Za-z][A-Za-z0-9_]*)?$/;

/**
 * The search text as the inside of a SOQL LIKE string literal: the characters SOQL escapes in a
 * string literal (backslash, quotes, newline, carriage return, tab, backspace, form feed) and the
 * LIKE wildcards % and _ are escaped with a backslash, so the text only ever matches itself.
 */
export function soqlLikeLiteral(text: string): string {
  let out = '';
  for (const ch of text) {
    if (ch === '\\') out += '\\\\';
    else if (ch === "'") out += "\\'";
    else if (ch === '"') out += '\\"';
    else if (ch === '\n') out += '\\n';
    else if (ch === '\r') out += '\\r';
    else if (ch === '\t') out += '\\t';
    else if (ch === '\b') out += '\\b';
    else if (ch === '\f') out += '\\f';
    else if (ch === '%') out += '\\%';
    else if (ch === '_') out += '\\_';
    else if (ch < ' ') continue; // other control characters have no SOQL escape: dropped
    else out += ch;
  }
  return out;
}

/** The SOQL of a search. */
export function accountQuery(cfg: Pick<SalesforceConfig, 'urnField' | 'csmField' | 'tierField'>, text: string, limit: number): string {
  for (const f of [cfg.urnField, cfg.csmField, cfg.tierField]) if (!FIELD.test(f)) throw new Error(`invalid Salesforce field name ${f}`);
  const like = `'%${soqlLikeLiteral(text)}%'`;
  return (
    `SELECT Id, Name, ${cfg.urnField}, BillingStreet, BillingCity, BillingState, BillingPostalCode, BillingCountry, Phone, Owner.Name, ` +
    `${cfg.csmField}, ${cfg.tierField} FROM Account WHERE Name LIKE ${like} OR ${cfg.urnField} LIKE ${like} ORDER BY Name LIMIT ${Math.max(1, Math.floor(limit))}`
  );
}

type SfRecord = Record<string, unknown> & { attributes?: { type?: string; url?: string } };
type SfQueryResult = { totalSize: number; done: boolean; records: SfRecord[] };

const str = (x: unknown) => (typeof x === 'string' && x.trim() ? x.trim() : null);
/** A field by API name, following one relationship ('Owner.Name'). */
function field(r: SfRecord, name: string): unknown {
  const [a, b] = name.split('.');
  const v = r[a!];
  if (b === undefined) return v;
  return v && typeof v === 'object' ? (v as Record<string, unknown>)[b] : undefined;
}
function tierOf(x: unknown): number | null {
  if (typeof x === 'number') return TIER_TYPES.some((t) => t.Value === x) ? x : null;
  const s = str(x)?.toLowerCase();
  if (!s) return null;
  if (/^\d+$/.test(s)) return tierOf(Number(s));
  return TIER_TYPES.find((t) => t.Name.toLowerCase() === s)?.Value ?? null;
}

const unavailable = () => new ApiError(503, CUSTOMER_TEXT.crmUnavailable, CUSTOMER_CODE.crmUnavailable);

export function salesforceCrm(db: DB, cfg: SalesforceConfig): CrmAdapter {
  const base = cfg.instanceUrl.replace(/\/+$/, '');
  let token: { value: string; instance: string } | undefined = cfg.accessToken ? { value: cfg.accessToken, instance: base } : undefined;
  const timeout = () => AbortSignal.timeout(cfg.timeoutMs ?? 10_000);

  async function fetchToken(): Promise<{ value: string; instance: string }> {
    if (cfg.accessToken) return { value: cfg.accessToken, instance: base };
    if (!cfg.clientId || !cfg.clientSecret) throw unavailable();
    const res = await fetch(cfg.tokenUrl || `${base}/services/oauth2/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
      body: new URLSearchParams({ grant_type: 'client_credentials', client_id: cfg.clientId, client_secret: cfg.clientSecret }).toString(),
      signal: timeout(),
    }).catch(() => {
      throw unavailable();
    });
    if (!res.ok) throw unavailable();
    const body = (await res.json().catch(() => ({}))) as { access_token?: unknown; instance_url?: unknown };
    if (typeof body.access_token !== 'string') throw unavailable();
    return { value: body.access_token, instance: typeof body.instance_url === 'string' ? body.instance_url.replace(/\/+$/, '') : base };
  }

  async function query(soql: string, retried = false): Promise<SfQueryResult> {
    token ??= await fetchToken();
    const url = `${token.instance}/services/data/v${cfg.apiVersion}/query?q=${encodeURIComponent(soql)}`;
    const res = await fetch(url, { headers: { authorization: `Bearer ${token.value}`, accept: 'application/json' }, signal: timeout() }).catch(() => {
      throw unavailable();
    });
    if (res.status === 401 && !retried && !cfg.accessToken) {
      token = undefined; // expired: one new token, one retry
      return query(soql, true);
    }
    if (!res.ok) throw unavailable();
    const body = (await res.json().catch(() => null)) as SfQueryResult | null;
    if (!body || !Array.isArray(body.records)) throw unavailable();
    return body;
  }

  return {
    async search(text, limit) {
      const q = text.trim();
      if (!q) return [];
      const [result, country] = await Promise.all([query(accountQuery(cfg, q, limit)), countryIds(db)]);
      return result.records.slice(0, limit).map((r): CrmAccount => {
        const street = (str(r.BillingStreet) ?? '').split(/\r?\n/).map((s) => s.trim());
        const c = str(r.BillingCountry);
        return {
          id: String(r.Id ?? ''),
          name: str(r.Name) ?? '',
          urn: str(field(r, cfg.urnField)),
          streetLine1: street[0] || null,
          streetLine2: street.slice(1).filter(Boolean).join(', ') || null,
          county: str(r.BillingState),
          city: str(r.BillingCity),
          postalCode: str(r.BillingPostalCode),
          country: c,
          countryId: country(c),
          phone: str(r.Phone),
          accountManagerFullName: str(field(r, 'Owner.Name')),
          customerSuccessManagerFullName: str(field(r, cfg.csmField)),
          customerSuccessTier: tierOf(field(r, cfg.tierField)),
        };
      });
    },
  };
}
