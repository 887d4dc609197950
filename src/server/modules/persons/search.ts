// The persons group of the palette search: full name, last name and e-mail.
import { arcStaffMatching } from './scope.js';
import { getHref } from '../../../shared/routes.js';
import { P } from '../../../shared/permissions.js';
import { best, hitsOf, range, rate, textSubstring, type SearchProvider } from '../../lib/search-provider.js';

type PersonRow = { id: string; firstName: string; lastName: string; email: string; createdAt: string };
const PERSON_COLS = `"id", "firstName", "lastName", "email", "createdAt"`;
const fullName = (r: { firstName: string; lastName: string }) => `${r.firstName} ${r.lastName}`.trim();

export const personSearch: SearchProvider<PersonRow> = {
  kind: 'person',
  permission: P.PersonListView,
  // The ARC manager finds the centre's staff only (persons/scope.ts): a few rows, scanned directly.
  prefix: (ctx) =>
    ctx.personScope === 'arc-staff'
      ? [arcStaffMatching(ctx.db, ctx.tenant, ctx.qj, 200)]
      : [
          range<PersonRow>(ctx, 'persons', PERSON_COLS, `lower("firstName" || ' ' || "lastName")`),
          range<PersonRow>(ctx, 'persons', PERSON_COLS, `lower("lastName")`),
          // e-mails are stored lower-case; indexed as they are
          range<PersonRow>(ctx, 'persons', PERSON_COLS, `"email"`),
        ],
  substring: async (ctx) =>
    ctx.personScope === 'arc-staff'
      ? []
      : textSubstring<PersonRow>(ctx, 'persons', PERSON_COLS, [`lower("firstName" || ' ' || "lastName")`, `"email"`], `"createdAt" desc`, 'name email'),
  classify: (r, ctx) =>
    best(
      rate(`${r.firstName} ${r.lastName}`, ctx.qj, 'name'),
      rate(r.firstName, ctx.qj, 'name'),
      rate(r.lastName, ctx.qj, 'name'),
      rate(r.email, ctx.qj, 'email'),
    ),
  score: (m) => m.raw,
  recency: (r) => r.createdAt,
  toHits: hitsOf('person', (row) => ({ title: fullName(row), subtitle: row.email, href: getHref('personEdit', { userId: row.id }) })),
};
