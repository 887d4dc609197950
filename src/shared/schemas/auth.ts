// Sign-in, session and own-security payloads (spec document 1, sections 5 and 7). The server
// validates with these; the client's sign-in, forgot-password and settings forms use them too.
import * as v from 'valibot';
import { MSG } from '../messages.js';

const MIN_PASSWORD = 8;
const CODE_PATTERN = /^\d{6}$/;

/** A missing key reads as '' so that the field's own "Please enter ..." message is the one shown. */
const required = <S extends v.GenericSchema<string, unknown>>(schema: S) => v.optional(schema, '');

/** Optional form field: missing and '' both mean "not given". */
const optionalText = v.optional(v.pipe(v.string(), v.transform((s) => (s.trim() === '' ? undefined : s))));

// ---- POST /connect/token (form-encoded)

/**
 * Everything the token endpoint may receive. All optional here so that the endpoint itself
 * answers with OAuth errors (unsupported_grant_type, invalid_client, invalid_request) instead
 * of a generic validation error; each grant then checks its own fields below.
 */
export const tokenRequestSchema = v.object({
  grant_type: optionalText,
  client_id: optionalText,
  client_secret: optionalText,
  username: optionalText,
  password: v.optional(v.string()),
  captchaResponse: optionalText,
  verificationCode: optionalText,
  refresh_token: optionalText,
  id_token: optionalText,
  sso_consent: optionalText,
  selected_account: optionalText,
});
export type TokenRequest = v.InferOutput<typeof tokenRequestSchema>;

export const passwordGrantSchema = v.object({
  username: required(v.pipe(
    v.string(MSG.pleaseEnter('email')),
    v.trim(),
    v.nonEmpty(MSG.pleaseEnter('email')),
    v.maxLength(320, MSG.pleaseEnterValid('email')),
    v.toLowerCase(),
  )),
  password: required(v.pipe(v.string(MSG.pleaseEnter('password')), v.nonEmpty(MSG.pleaseEnter('password')), v.maxLength(1024, MSG.pleaseEnterValid('password')))),
  verificationCode: v.optional(v.pipe(v.string(), v.trim())),
});

export const refreshGrantSchema = v.object({
  refresh_token: required(v.pipe(v.string(MSG.pleaseEnter('refresh_token')), v.nonEmpty(MSG.pleaseEnter('refresh_token')), v.maxLength(200, MSG.pleaseEnterValid('refresh_token')))),
});

export type TokenResponse = { access_token: string; token_type: 'Bearer'; refresh_token: string; expires_in: number };

/** OAuth error fields the token endpoint adds next to { Content: { Message, Code } }. */
export type TokenErrorBody = {
  Content: { Message: string; Code: string; Errors?: Record<string, string> };
  error: string;
  error_description: string;
};

// ---- client sign-in form (spec 5: email required and valid, password required, code 6 digits)

export const emailField = v.pipe(
  v.string(MSG.pleaseEnter('email')),
  v.trim(),
  v.nonEmpty(MSG.pleaseEnter('email')),
  v.email(MSG.pleaseEnterValid('email')),
);
export const verificationCodeField = v.pipe(
  v.string(MSG.pleaseEnter('verification_code')),
  v.trim(),
  v.nonEmpty(MSG.pleaseEnter('verification_code')),
  v.regex(CODE_PATTERN, MSG.pleaseEnterValid('verification_code')),
);
export const loginFormSchema = v.object({
  email: required(emailField),
  password: required(v.pipe(v.string(MSG.pleaseEnter('password')), v.nonEmpty(MSG.pleaseEnter('password')))),
  /** Required only once the server has answered 2fa_code_required. */
  verificationCode: v.optional(verificationCodeField),
});
export type LoginForm = v.InferOutput<typeof loginFormSchema>;

// ---- GET /api/v1/get-user-info

export type UserInfo = { userId: string; email: string; firstName: string; lastName: string; roles: string[]; tenantId: string };

// ---- two-factor settings

export type TwoFactorTypeOption = { name: string; value: number };
export type TwoFactorPhone = { countryId: string; number: string; type: number | null };
export type TwoFactorSetting = { twoFactorAuthentication: { type: TwoFactorTypeOption | null; phoneNumber: TwoFactorPhone | null } };

/** The type arrives as a number, as a {name, value} option, or null/0 for Disabled. */
const twoFactorTypeInput = v.pipe(
  v.nullish(v.union([v.picklist([0, 1, 2]), v.object({ value: v.picklist([0, 1, 2]), name: v.optional(v.nullable(v.string())) })]), null),
  v.transform((t) => {
    const n = typeof t === 'number' ? t : t?.value ?? 0;
    return n === 0 ? null : (n as 1 | 2);
  }),
);

export const changeTwoFactorSchema = v.object({
  twoFactorAuthentication: v.object({
    type: twoFactorTypeInput,
    phoneNumber: v.nullish(
      v.object({
        countryId: v.nullish(v.string()),
        number: v.nullish(v.pipe(v.string(), v.trim(), v.maxLength(40, MSG.invalidPhone))),
        type: v.nullish(v.number()),
      }),
    ),
  }),
  captchaResponse: v.nullish(v.string()),
  /** Ours: changing the second factor asks for the current password. */
  currentPassword: required(v.pipe(v.string(MSG.pleaseEnter('current_password')), v.nonEmpty(MSG.pleaseEnter('current_password')), v.maxLength(1024, MSG.pleaseEnterValid('current_password')))),
});
export type ChangeTwoFactor = v.InferInput<typeof changeTwoFactorSchema>;

/** POST /api/v1/two-factor-authentication/send: resend the code to whoever is mid-sign-in. */
export const sendCodeSchema = v.object({ email: required(emailField) });

// ---- passwords

const passwordField = (field: string) =>
  required(v.pipe(v.string(MSG.pleaseEnter(field)), v.nonEmpty(MSG.pleaseEnter(field)), v.minLength(MIN_PASSWORD, MSG.passwordLength), v.maxLength(1024, MSG.pleaseEnterValid(field))));

export const changePasswordSchema = v.pipe(
  v.object({
    oldPassword: passwordField('old_password'),
    newPassword: passwordField('new_password'),
    newPasswordRepeated: passwordField('repeat_new_password'),
    captchaResponse: v.nullish(v.string()),
  }),
  v.forward(
    v.partialCheck([['newPassword'], ['newPasswordRepeated']], (i) => i.newPassword === i.newPasswordRepeated, MSG.passwordsDoNotMatch),
    ['newPasswordRepeated'],
  ),
);
export type ChangePassword = v.InferInput<typeof changePasswordSchema>;

/** POST /api/v1/reset-password (forgot-password page). */
export const resetPasswordSchema = v.object({
  email: required(v.pipe(v.string(MSG.pleaseEnter('email')), v.trim(), v.nonEmpty(MSG.pleaseEnter('email')), v.email(MSG.enterValidEmailDot))),
  captchaResponse: v.nullish(v.string()),
});

/** POST /api/v1/reset-password/confirm (ours: where the e-mailed reset link leads). */
export const resetPasswordConfirmSchema = v.pipe(
  v.object({
    token: required(v.pipe(v.string(MSG.resetLinkInvalid), v.nonEmpty(MSG.resetLinkInvalid), v.maxLength(2000, MSG.resetLinkInvalid))),
    newPassword: passwordField('new_password'),
    newPasswordRepeated: passwordField('repeat_new_password'),
  }),
  v.forward(
    v.partialCheck([['newPassword'], ['newPasswordRepeated']], (i) => i.newPassword === i.newPasswordRepeated, MSG.passwordsDoNotMatch),
    ['newPasswordRepeated'],
  ),
);
