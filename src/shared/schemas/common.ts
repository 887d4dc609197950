// Building blocks for endpoint schemas: query-string numbers and booleans (query values always
// arrive as strings), paging, GUID ids, and text fields that can never reach the database in a
// shape it rejects (PostgreSQL refuses NUL characters in text; everything has a length cap).
import * as v from 'valibot';
import { ID_PATTERN, isValidId, normaliseId, PAGE_SIZES, DEFAULT_PAGE_SIZE } from '../codes.js';

import { inputJson, requiredKey } from './doc-metadata.js';

export { inputJson, requiredKey };

/** Text with something besides spaces (what a trimmed, non-empty value accepts). */
export const NOT_BLANK = '\\S';
/** An id as the spec allows it (a GUID, optionally braced, optionally ':' and a second GUID), surrounding spaces allowed. */
export const ID_JSON = { type: 'string', pattern: `^\\s*${ID_PATTERN.source.slice(1, -1)}\\s*$` } as const;

/** Largest page number a list accepts; beyond it the offset is meaningless. */
export const MAX_PAGE = 1_000_000;
/** Spec §5: text filter maximum length 255. */
export const MAX_SEARCH_LENGTH = 255;

export const noNul = (s: string) => !s.includes('\u0000');
const NUL_MESSAGE = 'Text must not contain NUL characters.';

/**
 * An optional query-string integer. Empty or missing gives `dflt`; anything that is not a whole
 * number in [min, max] is a 400 with `message`.
 */
export function qsInt(dflt: number, min: number, max: number, message: string, allowed?: readonly number[]) {
  return v.pipe(
    v.optional(v.string(message), ''),
    inputJson(allowed ? { type: 'integer', enum: [...allowed] } : { type: 'integer', minimum: min, maximum: max }),
    v.trim(),
    v.transform((s) => (s === '' ? dflt : /^[+-]?\d+$/.test(s) ? Number(s) : NaN)),
    v.number(message),
    v.integer(message),
    v.minValue(min, message),
    v.maxValue(max, message),
  );
}

/** An optional query-string boolean: true/false/1/0 in any case; missing or empty gives `dflt`. */
export function qsBool(dflt: boolean, message: string) {
  return v.pipe(
    v.optional(v.string(message), ''),
    v.trim(),
    v.toLowerCase(),
    inputJson({ type: 'string', enum: ['', 'true', 'false', '1', '0', 'TRUE', 'FALSE', 'True', 'False'] }),
    v.picklist(['', 'true', 'false', '1', '0'], message),
    v.transform((s) => (s === '' ? dflt : s === 'true' || s === '1')),
  );
}

/**
 * An optional query-string choice among `values`, matched case-insensitively and returned in the
 * canonical spelling; missing or empty gives `dflt`.
 */
export function qsChoice<const T extends string>(values: readonly T[], dflt: T, message: string) {
  const byLower = new Map(values.map((x) => [x.toLowerCase(), x] as const));
  return v.pipe(
    v.optional(v.string(message), ''),
    inputJson({ type: 'string', enum: ['', ...values] }),
    v.trim(),
    v.check((s) => s === '' || byLower.has(s.toLowerCase()), message),
    v.transform((s): T => (s === '' ? dflt : byLower.get(s.toLowerCase())!)),
  );
}

/** An optional free-text filter (trimmed, max 255 by default); missing gives ''. */
export function qsSearch(max = MAX_SEARCH_LENGTH) {
  const msg = `Search text can be at most ${max} characters long.`;
  return v.pipe(v.optional(v.string(msg), ''), v.trim(), v.maxLength(max, msg), v.check(noNul, NUL_MESSAGE));
}

export const pageMessage = `page must be a whole number from 1 to ${MAX_PAGE}.`;
export const pageSizeMessage = `pageSize must be one of ${PAGE_SIZES.join(', ')}.`;

/** page (1-based, default 1) and pageSize (10, 25, 50 or 100; default 10) of a JSON body. */
export const pagingBody = {
  page: v.optional(v.pipe(v.number(pageMessage), v.integer(pageMessage), v.minValue(1, pageMessage), v.maxValue(MAX_PAGE, pageMessage)), 1),
  pageSize: v.optional(v.pipe(v.picklist(PAGE_SIZES as unknown as number[], pageSizeMessage)), DEFAULT_PAGE_SIZE),
};

/** A page of a list as the PascalCase endpoints answer it: the page's rows and how many rows match the filters. */
export const pagedListSchema = <T extends v.GenericSchema>(item: T) => v.strictObject({ Items: v.array(item), TotalCount: v.number() });

/** A free-text filter of a JSON body: missing or null gives ''; trimmed, at most 255 characters. */
export const bodySearch = v.optional(
  v.pipe(
    v.nullable(v.string('Search text must be text.')),
    v.transform((s) => (s ?? '').trim()),
    v.maxLength(MAX_SEARCH_LENGTH, `Search text can be at most ${MAX_SEARCH_LENGTH} characters long.`),
    v.check(noNul, 'Search text must be text.'),
  ),
  '',
);

/** page (1-based, default 1) and pageSize (10, 25, 50 or 100; default 10) from a query string. */
export const pagingQuery = {
  page: qsInt(1, 1, MAX_PAGE, pageMessage),
  pageSize: v.pipe(
    qsInt(DEFAULT_PAGE_SIZE, 1, 100, pageSizeMessage, PAGE_SIZES),
    v.check((n) => (PAGE_SIZES as readonly number[]).includes(n), pageSizeMessage),
  ),
};

const edgeMessage = 'after and before must be the id of a row of the list.';
/** An optional row id (null or '' = none). */
const edgeId = v.optional(
  v.pipe(
    v.nullable(v.string(edgeMessage)),
    v.transform((s) => (s ?? '').trim()),
    v.maxLength(100, edgeMessage),
    v.check(noNul, edgeMessage),
  ),
  '',
);
/**
 * Next and Previous of a paged list (ours; the spec pages by number): `after` the id of the last
 * row of the page on screen, `before` the id of its first row, with `page` the page asked for. The
 * server then reads the page from that row's sort key instead of skipping the earlier pages; the
 * answer is the same page. A row it does not find (deleted, or not the caller's) is ignored.
 */
export const edgeEntries = { after: edgeId, before: edgeId };
/** The same from a query string (after=, before=; missing when not given). */
const edgeParam = v.optional(v.pipe(v.string(edgeMessage), v.trim(), v.maxLength(100, edgeMessage), v.check(noNul, edgeMessage)));
export const edgeQuery = { after: edgeParam, before: edgeParam };

/** A required id (spec §5: GUID, optionally braced, optionally ':' + GUID), normalised to its bare lower-case GUID. */
export function guid(message: string) {
  return v.pipe(
    v.string(message),
    inputJson(ID_JSON),
    v.trim(),
    v.check((s) => isValidId(s), message),
    v.transform((s) => normaliseId(s)),
  );
}

/** The same, but missing/empty is allowed and gives undefined. */
export function optionalGuid(message: string) {
  return v.pipe(
    v.optional(v.string(message), ''),
    inputJson({ type: 'string', pattern: `^\\s*(${ID_PATTERN.source.slice(1, -1)})?\\s*$` }),
    v.trim(),
    v.check((s) => s === '' || isValidId(s), message),
    v.transform((s) => (s === '' ? undefined : normaliseId(s))),
  );
}

/**
 * A required text field: missing, null, a non-string or only spaces gives `requiredMessage`
 * (the spec's 'Please enter {field}'); longer than `max` gives `tooLongMessage`.
 */
export function requiredText(
  requiredMessage: string,
  max: number,
  tooLongMessage: string,
  json: Record<string, unknown> = { type: 'string', pattern: NOT_BLANK, maxLength: max },
) {
  return v.pipe(
    v.optional(v.nullable(v.string(requiredMessage)), ''),
    inputJson<string | null>(json, { required: true }),
    v.transform((s) => s ?? ''),
    v.trim(),
    v.nonEmpty(requiredMessage),
    v.maxLength(max, tooLongMessage),
    v.check(noNul, NUL_MESSAGE),
  );
}

/** An optional text field: missing or null gives undefined; otherwise trimmed and capped. */
export function optionalText(typeMessage: string, max: number, tooLongMessage: string) {
  return v.pipe(
    v.optional(v.nullable(v.string(typeMessage))),
    inputJson<string | null | undefined>({ anyOf: [{ type: 'string', maxLength: max }, { type: 'null' }] }),
    v.transform((s) => (s == null ? undefined : s.trim())),
    v.check((s) => s === undefined || s.length <= max, tooLongMessage),
    v.check((s) => s === undefined || noNul(s), NUL_MESSAGE),
  );
}

// ---------------------------------------------------------------- response shapes
//
// Output schemas are strict: a field the server sends that the contract does not name fails the
// contract tests (tests/integration/contract.test.ts), so the contract cannot fall behind.

/** Every error answer: { Content: { Message, Code, Errors? } } (the token endpoint adds error / error_description). */
export const errorBodySchema = v.object({
  Content: v.strictObject({ Message: v.string(), Code: v.string(), Errors: v.optional(v.record(v.string(), v.string())) }),
});
export type ErrorBodyDto = v.InferOutput<typeof errorBodySchema>;

/** Answers that only confirm: { Content: { Message } } (reset link sent, password changed, code resent). */
export const messageResponseSchema = v.strictObject({ Content: v.strictObject({ Message: v.string() }) });
export type MessageResponse = v.InferOutput<typeof messageResponseSchema>;

/** Updates answer the record's new version. */
export const etagResponseSchema = v.strictObject({ Etag: v.string() });
export type EtagResponse = v.InferOutput<typeof etagResponseSchema>;

/** Creates answer the new id and version. */
export const createdResponseSchema = v.strictObject({ Id: v.string(), Etag: v.string() });
export type CreatedResponse = v.InferOutput<typeof createdResponseSchema>;
