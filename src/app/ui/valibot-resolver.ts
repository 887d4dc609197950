// The one react-hook-form resolver over valibot's safeParse (no @hookform/resolvers here): the
// first issue per top-level field becomes that field's error, worded as the shared schemas word
// it (they carry the spec's MSG texts). `prepare` maps form values to the schema's input;
// `extra` adds rules that need context the schema does not have (e.g. "you are editing yourself").
import * as v from 'valibot';
import type { FieldErrors, FieldValues, Resolver } from 'react-hook-form';

export function valibotResolver<T extends FieldValues>(
  schema: v.GenericSchema<unknown, unknown> | (() => v.GenericSchema<unknown, unknown>),
  opts: {
    prepare?: (values: T) => unknown;
    extra?: (values: T) => Partial<Record<keyof T & string, string>>;
  } = {},
): Resolver<T> {
  return async (values) => {
    const s = typeof schema === 'function' ? schema() : schema;
    const result = v.safeParse(s, opts.prepare ? opts.prepare(values) : values);
    const errors: Record<string, { type: string; message: string }> = {};
    if (!result.success) {
      for (const issue of result.issues) {
        const key = issue.path?.[0]?.key;
        if (typeof key === 'string' && !errors[key]) errors[key] = { type: issue.type, message: issue.message };
      }
    }
    for (const [key, message] of Object.entries(opts.extra?.(values) ?? {})) {
      if (message && !errors[key]) errors[key] = { type: 'custom', message: message as string };
    }
    if (Object.keys(errors).length) return { values: {}, errors: errors as FieldErrors<T> };
    // With `prepare` the schema's output has another shape than the form: hand the form its own values.
    return { values: (opts.prepare || !result.success ? values : result.output) as T, errors: {} };
  };
}
