// How an input schema states, in the published document, what valibot's own JSON Schema
// conversion cannot. Apart from common.ts (which re-exports it) so the sign-in page's schemas use
// it without loading every other building block.
import * as v from 'valibot';

/**
 * How the published document (src/server/http/openapi.ts) states what this input accepts, where
 * valibot's own JSON Schema conversion cannot: transforms and custom checks. Put it in the pipe
 * before the first transform. `json` replaces the converted schema of the value; `required` adds
 * the key to its object's required list (a value that defaults to '' and then must not be empty).
 * The document's property test (tests/integration/openapi-property.test.ts) keeps it honest.
 */
export const inputJson = <TInput = string>(json: Record<string, unknown>, opts: { required?: boolean } = {}) =>
  v.metadata<TInput, Record<string, unknown>>({ 'x-input': json, ...(opts.required ? { 'x-required': true } : {}) });
/** The same schema, its key stated as required in the published document (it defaults, and then must not be empty). */
export const requiredKey = <S extends v.GenericSchema>(schema: S) =>
  v.pipe(schema, v.metadata<v.InferOutput<S>, Record<string, unknown>>({ 'x-required': true }));
