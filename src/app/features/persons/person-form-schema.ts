// Person form validation (spec §5 "Person form"): first name, last name, email and roles are
// required; the email must look like an address; editing yourself you must keep the super admin
// role. The limits and the address pattern are the server's (src/shared/schemas/persons.ts).
import * as v from 'valibot';
import { MSG } from '../../../shared/messages';
import { EMAIL_MAX, EMAIL_PATTERN, NAME_MAX, PERSON_TEXT } from '../../../shared/schemas/persons';

export type PersonFormValues = { firstName: string; lastName: string; email: string; roles: string[] };

const name = (field: string, tooLong: string) => v.pipe(v.string(), v.trim(), v.nonEmpty(MSG.pleaseEnter(field)), v.maxLength(NAME_MAX, tooLong));

export function personFormSchema(opts: { editing: boolean }) {
  return v.object({
    firstName: name('first name', PERSON_TEXT.firstNameTooLong),
    lastName: name('last name', PERSON_TEXT.lastNameTooLong),
    // Editing: the address cannot change, the field is disabled and not validated.
    email: opts.editing
      ? v.optional(v.string(), '')
      : v.pipe(
          v.string(),
          v.trim(),
          v.nonEmpty(MSG.pleaseEnter('email')),
          v.maxLength(EMAIL_MAX, PERSON_TEXT.emailTooLong),
          v.regex(EMAIL_PATTERN, MSG.enterValidEmail),
        ),
    roles: v.pipe(v.array(v.string()), v.minLength(1, MSG.pleaseSelectOne('roles'))),
  });
}

/** Spec §5: editing yourself, the roles must keep the super admin role. */
export function superAdminRule(opts: { self: boolean; hadSuperAdmin: boolean; superAdminId: string }) {
  return (values: PersonFormValues) =>
    opts.self && opts.hadSuperAdmin && !values.roles.includes(opts.superAdminId) ? { roles: MSG.cannotRemoveSuperAdmin } : {};
}
