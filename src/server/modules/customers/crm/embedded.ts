// The embedded CRM directory: accounts in the crmAccounts table (migration 009, seeded with demo
// accounts). Matches part of the name or of the URN, case-insensitive; names starting with the
// text come first, then by name.
import { sql, type DB } from '../../../db/index.js';
import { likeEscape } from '../../../platform/util.js';
import type { CrmAccount } from '../../../../shared/schemas/customers.js';
import { countryIds, type CrmAdapter } from './adapter.js';

export function embeddedCrm(db: DB): CrmAdapter {
  return {
    async search(query, limit) {
      const q = query.trim().toLowerCase();
      if (!q) return [];
      const like = `%${likeEscape(q)}%`;
      const prefix = `${likeEscape(q)}%`;
      const [rows, country] = await Promise.all([
        db
          .selectFrom('crmAccounts as a')
          .selectAll()
          .where((eb) => eb.or([eb(sql`a."searchName"`, 'like', sql`${like} escape '\\'`), eb(sql`lower(a."urn")`, 'like', sql`${like} escape '\\'`)]))
          .orderBy(sql`case when a."searchName" like ${prefix} escape '\\' then 0 else 1 end`)
          .orderBy('a.name')
          .orderBy('a.id')
          .limit(limit)
          .execute(),
        countryIds(db),
      ]);
      return rows.map((r): CrmAccount => ({
        id: r.id,
        name: r.name,
        urn: r.urn,
        streetLine1: r.streetLine1,
        streetLine2: r.streetLine2,
        county: r.county,
        city: r.city,
        postalCode: r.postalCode,
        country: r.country,
        countryId: country(r.country),
        phone: r.phone,
        accountManagerFullName: r.accountManagerFullName,
        customerSuccessManagerFullName: r.customerSuccessManagerFullName,
        customerSuccessTier: r.customerSuccessTier,
      }));
    },
  };
}
