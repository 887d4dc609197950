// The customers group of the palette search: name and portal reference.
import { getHref } from '../../../shared/routes.js';
import { P } from '../../../shared/permissions.js';
import { CUSTOMER_STATUSES, TIER_TYPES } from '../../../shared/codes.js';
import { best, hitsOf, joinParts, lookupName, range, rate, textSubstring, type SearchProvider } from '../../lib/search-provider.js';

type CustomerRow = { id: string; name: string; portalId: string | null; tier: number | null; status: number | null; createdAt: string };
const CUSTOMER_COLS = `"id", "name", "portalId", "tier", "status", "createdAt"`;

export const customerSearch: SearchProvider<CustomerRow> = {
  kind: 'customer',
  permission: P.CustomerListView,
  prefix: (ctx) => [
    range<CustomerRow>(ctx, 'customers', CUSTOMER_COLS, `lower("name")`),
    range<CustomerRow>(ctx, 'customers', CUSTOMER_COLS, `lower("portalId")`),
  ],
  substring: (ctx) => textSubstring<CustomerRow>(ctx, 'customers', CUSTOMER_COLS, [`lower("name")`, `lower("portalId")`], `"createdAt" desc`, 'name reference'),
  classify: (r, ctx) => best(rate(r.name, ctx.qj, 'name'), rate(r.portalId, ctx.qj, 'reference')),
  score: (m) => m.raw,
  recency: (r) => r.createdAt,
  toHits: hitsOf('customer', (row) => ({
    title: row.name,
    subtitle: joinParts(row.portalId, lookupName(TIER_TYPES, row.tier), lookupName(CUSTOMER_STATUSES, row.status)),
    href: getHref('customerAccount', { customerId: row.id }),
  })),
};
