// react-hook-form resolver over a valibot schema: the first message per field, as the spec
// words it (the shared schemas in src/shared/schemas carry the MSG texts).
import * as v from 'valibot';
import type { FieldErrors, FieldValues, Resolver } from 'react-hook-form';

export function valibotResolver<T extends FieldValues>(
  schema: v.GenericSchema<unknown, unknown> | (() => v.GenericSchema<unknown, unknown>),
  prepare: (values: T) => unknown = (x) => x,
): Resolver<T> {
  return async (values) => {
    const s = typeof schema === 'function' ? schema() : schema;
    const r = v.safeParse(s, prepare(values));
    if (r.success) return { values, errors: {} };
    const errors: Record<string, { type: string; message: string }> = {};
    for (const issue of r.issues) {
      const key = issue.path?.map((p) => String(p.key)).join('.') ?? '';
      if (key && !errors[key]) errors[key] = { type: issue.type, message: issue.message };
    }
    return { values: {}, errors: errors as unknown as FieldErrors<T> };
  };
}
