// GET /api/search — the palette's record search (ours; not part of the provider's contract).
// Query: q (trimmed, at most 100 characters), scope (all | devices | customers | persons |
// alarmReports; default all), limit (hits per group, 1..50; default 8).
import * as v from 'valibot';
import { noNul, qsChoice, qsInt } from './common.js';

export const SEARCH_MAX_QUERY = 100;
export const SEARCH_DEFAULT_LIMIT = 8;
export const SEARCH_MAX_LIMIT = 50;
export const SEARCH_SCOPES = ['all', 'devices', 'customers', 'persons', 'alarmReports'] as const;
export type SearchScope = (typeof SEARCH_SCOPES)[number];

export const SEARCH_MESSAGES = {
  queryTooLong: `Search text can be at most ${SEARCH_MAX_QUERY} characters long.`,
  queryInvalid: 'Search text must not contain NUL characters.',
  scope: `scope must be one of ${SEARCH_SCOPES.join(', ')}.`,
  limit: `limit must be a whole number from 1 to ${SEARCH_MAX_LIMIT}.`,
} as const;

export const searchQuerySchema = v.object({
  q: v.pipe(
    v.optional(v.string(SEARCH_MESSAGES.queryTooLong), ''),
    v.trim(),
    v.maxLength(SEARCH_MAX_QUERY, SEARCH_MESSAGES.queryTooLong),
    v.check(noNul, SEARCH_MESSAGES.queryInvalid),
  ),
  scope: qsChoice(SEARCH_SCOPES, 'all', SEARCH_MESSAGES.scope),
  limit: qsInt(SEARCH_DEFAULT_LIMIT, 1, SEARCH_MAX_LIMIT, SEARCH_MESSAGES.limit),
});
export type SearchQuery = v.InferOutput<typeof searchQuerySchema>;

export const SEARCH_KINDS = ['device', 'customer', 'person', 'alarmReport'] as const;
export type SearchKind = (typeof SEARCH_KINDS)[number];

export const SEARCH_GROUP_LABELS: Record<SearchKind, string> = {
  device: 'Devices',
  customer: 'Customers',
  person: 'Persons',
  alarmReport: 'Alarm reports',
};

/** The scope value that narrows the search to one kind. */
export const SEARCH_SCOPE_OF_KIND: Record<SearchKind, Exclude<SearchScope, 'all'>> = {
  device: 'devices',
  customer: 'customers',
  person: 'persons',
  alarmReport: 'alarmReports',
};

export const SEARCH_MATCHED = ['serial', 'imei', 'phone', 'name', 'reference', 'email', 'alarmId', 'person', 'account'] as const;
export type SearchMatched = (typeof SEARCH_MATCHED)[number];

export const searchHitSchema = v.strictObject({
  id: v.string(),
  kind: v.picklist(SEARCH_KINDS),
  title: v.string(),
  subtitle: v.string(),
  /** client route to open the record */
  href: v.string(),
  /** 3.x exact, 2.x prefix, 1.x substring; higher is better */
  score: v.number(),
  matched: v.picklist(SEARCH_MATCHED),
});
export type SearchHit = v.InferOutput<typeof searchHitSchema>;

export const searchGroupSchema = v.strictObject({
  kind: v.picklist(SEARCH_KINDS),
  label: v.string(),
  hits: v.array(searchHitSchema),
});
export type SearchGroup = v.InferOutput<typeof searchGroupSchema>;

export const searchResponseSchema = v.strictObject({
  query: v.string(),
  groups: v.array(searchGroupSchema),
});
export type SearchResponse = v.InferOutput<typeof searchResponseSchema>;
