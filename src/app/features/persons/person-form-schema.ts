// Person form validation (spec §5 "Person form"): first name, last name, email and roles are
// required; the email must look like an address; editing yourself you must keep the super admin
// role. The limits and the address pattern are the server's (src/shared/schemas/persons.ts).
import * as v from 'valibot';
import type { FieldErrors, FieldValues, Resolver } from 'react-hook-form';
import { MSG } from '../../../shared/messages';
import { EMAIL_MAX, EMAIL_PATTERN, NAME_MAX, PERSON_TEXT } from '../../../shared/schemas/persons';

export type PersonFormValues = { firstName: string; lastName: string; email: string; roles: string[] };

const name = (field: string, tooLong: string) =>
  v.pipe(v.string(), v.trim(), v.nonEmpty(MSG.pleaseEnter(field)), v.maxLength(NAME_MAX, tooLong));

export function personFormSchema(opts: { editing: boolean }) {
  return v.object({
    firstName: name('first name', PERSON_TEXT.firstNameTooLong),
    lastName: name('last name', PERSON_TEXT.lastNameTooLong),
    // Editing: the address cannot change, the field is disabled and not validated.
    email: opts.editing
      ? v.optional(v.string(), '')
      : v.pipe(v.string(), v.trim(), v.nonEmpty(MSG.pleaseEnter('email')), v.maxLength(EMAIL_MAX, PERSON_TEXT.emailTooLong), v.regex(EMAIL_PATTERN, MSG.enterValidEmail)),
    roles: v.pipe(v.array(v.string()), v.minLength(1, MSG.pleaseSelectOne('roles'))),
  });
}

/**
 * A react-hook-form resolver over valibot's safeParse (no @hookform/resolvers here): the first
 * issue per top-level field becomes that field's error; `extra` adds rules that need context.
 */
export function valibotResolver<T extends FieldValues>(
  schema: v.GenericSchema<unknown, T>,
  extra?: (values: T) => Partial<Record<keyof T & string, string>>,
): Resolver<T> {
  return async (values) => {
    const result = v.safeParse(schema, values);
    const errors: Record<string, { type: string; message: string }> = {};
    if (!result.success) {
      for (const issue of result.issues) {
        const key = issue.path?.[0]?.key;
        if (typeof key === 'string' && !errors[key]) errors[key] = { type: issue.type, message: issue.message };
      }
    }
    for (const [key, message] of Object.entries(extra?.(values) ?? {})) {
      if (message && !errors[key]) errors[key] = { type: 'custom', message: message as string };
    }
    if (Object.keys(errors).length) return { values: {}, errors: errors as FieldErrors<T> };
    return { values: result.success ? result.output : values, errors: {} };
  };
}

/** Spec §5: editing yourself, the roles must keep the super admin role. */
export function superAdminRule(opts: { self: boolean; hadSuperAdmin: boolean; superAdminId: string }) {
  return (values: PersonFormValues) =>
    opts.self && opts.hadSuperAdmin && !values.roles.includes(opts.superAdminId) ? { roles: MSG.cannotRemoveSuperAdmin } : {};
}
