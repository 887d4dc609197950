// Sign-in, session and own-security payloads (spec document 1, sections 5 and 7). The server
// validates with these; the client's sign-in, forgot-password and settings forms use them too.
import * as v from 'valibot';
import { requiredKey } from './doc-metadata.js';
import { MSG } from '../messages.js';

const MIN_PASSWORD = 8;
const CODE_PATTERN = /^\d{6}$/;

/** A missing key reads as '' so that the field's own "Please enter ..." message is the one shown. */
const required = <S extends v.GenericSchema<string, unknown>>(schema: S) => requiredKey(v.optional(schema, ''));

/** Optional form field: missing and '' both mean "not given". */
const optionalText = v.optional(
  v.pipe(
    v.string(),
    v.transform((s) => (s.trim() === '' ? undefined : s)),
  ),
);

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
  username: required(
    v.pipe(
      v.string(MSG.pleaseEnter('email')),
      v.trim(),
      v.nonEmpty(MSG.pleaseEnter('email')),
      v.maxLength(320, MSG.pleaseEnterValid('email')),
      v.toLowerCase(),
    ),
  ),
  password: required(
    v.pipe(v.string(MSG.pleaseEnter('password')), v.nonEmpty(MSG.pleaseEnter('password')), v.maxLength(1024, MSG.pleaseEnterValid('password'))),
  ),
  verificationCode: v.optional(v.pipe(v.string(), v.trim())),
});

export const refreshGrantSchema = v.object({
  refresh_token: required(
    v.pipe(v.string(MSG.pleaseEnter('refresh_token')), v.nonEmpty(MSG.pleaseEnter('refresh_token')), v.maxLength(200, MSG.pleaseEnterValid('refresh_token'))),
  ),
});

/** Spec §7: access_token, token_type, refresh_token, expires_in (seconds). */
export const tokenResponseSchema = v.strictObject({
  access_token: v.string(),
  token_type: v.literal('Bearer'),
  refresh_token: v.string(),
  expires_in: v.number(),
});
export type TokenResponse = v.InferOutput<typeof tokenResponseSchema>;

// ---- single sign-on

/** One account an identity-provider e-mail reaches (spec §3 "Single sign-on context": accounts). */
export const ssoAccountSchema = v.strictObject({ customerName: v.string(), emailAddress: v.string(), canSelect: v.boolean() });
export type SsoAccount = v.InferOutput<typeof ssoAccountSchema>;

/** Token exchange (grant_type token-exchange): id_token from the provider; sso_consent 'true' or empty; selected_account an e-mail. */
export const tokenExchangeSchema = v.object({
  id_token: v.pipe(v.string(), v.nonEmpty(), v.maxLength(16_384)),
  sso_consent: v.optional(v.string()),
  selected_account: v.optional(v.pipe(v.string(), v.trim(), v.maxLength(320), v.toLowerCase())),
});

/**
 * GET /api/v1/sso/configuration (public, ours): what the browser needs to run the
 * authorization-code flow with PKCE. `enabled: false` (no provider configured) leaves the rest out.
 */
export const ssoConfigurationSchema = v.union([
  v.strictObject({ enabled: v.literal(false) }),
  v.strictObject({
    enabled: v.literal(true),
    providerName: v.string(),
    authority: v.string(),
    clientId: v.string(),
    scope: v.string(),
    /** OpenID `prompt` for the redirect: Entra ID 'select_account', the embedded provider 'login'. */
    prompt: v.string(),
    /**
     * The addresses (origins) the provider sends the browser back to, PUBLIC_URL first; a sign-on
     * started from any other address is refused before the redirect, naming PUBLIC_URL. Empty: not known.
     */
    appOrigins: v.array(v.string()),
  }),
]);
export type SsoConfiguration = v.InferOutput<typeof ssoConfigurationSchema>;

/** POST /api/v1/sso/nonce (public, ours): a signed one-hour nonce to send to the provider. */
export const ssoNonceSchema = v.strictObject({ nonce: v.string(), expiresAt: v.string() });
export type SsoNonce = v.InferOutput<typeof ssoNonceSchema>;

/** Token-endpoint errors: the project's { Content: { Message, Code } } plus OAuth's error / error_description. */
export const tokenErrorSchema = v.strictObject({
  Content: v.strictObject({ Message: v.string(), Code: v.string(), Errors: v.optional(v.record(v.string(), v.string())) }),
  error: v.string(),
  error_description: v.string(),
  /** With `2fa_code_required` only: where the code went ('email' | 'sms') and the masked address or number. */
  code_channel: v.optional(v.picklist(['email', 'sms'])),
  code_sent_to: v.optional(v.string()),
  /** With `sso_select_account` only: the accounts the provider's e-mail reaches, selectable ones first. */
  accounts: v.optional(v.array(ssoAccountSchema)),
});
export type TokenErrorBody = v.InferOutput<typeof tokenErrorSchema>;

// ---- client sign-in form (spec 5: email required and valid, password required, code 6 digits)

export const emailField = v.pipe(v.string(MSG.pleaseEnter('email')), v.trim(), v.nonEmpty(MSG.pleaseEnter('email')), v.email(MSG.pleaseEnterValid('email')));
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

/**
 * Spec §3 "User info response": userId, email, firstName, lastName, roles, tenantId, and the
 * "Current user" additions: phoneNumbers [{ countryId (the dictionaries' country id), number,
 * type (1 Work, 2 Personal, 3 Home, 4 Office) }] and loginMethod (the client reads it to hide the
 * password settings of single-sign-on users). Both are always sent; optional in the type for fixtures.
 */
export const userInfoSchema = v.strictObject({
  userId: v.string(),
  email: v.string(),
  firstName: v.string(),
  lastName: v.string(),
  roles: v.array(v.string()),
  tenantId: v.string(),
  phoneNumbers: v.optional(v.array(v.strictObject({ countryId: v.string(), number: v.string(), type: v.number() }))),
  /** 1 Password, 2 SingleSignOn */
  loginMethod: v.optional(v.union([v.number(), v.strictObject({ value: v.number(), name: v.optional(v.string()) })])),
});
export type UserInfo = v.InferOutput<typeof userInfoSchema>;

// ---- two-factor settings

/** GET /api/v1/two-factor-authentication/types → [{ name, value }] (1 Email, 2 SMS). */
export const twoFactorTypeSchema = v.strictObject({ name: v.string(), value: v.number() });
export type TwoFactorTypeOption = v.InferOutput<typeof twoFactorTypeSchema>;
export const twoFactorTypesSchema = v.array(twoFactorTypeSchema);

export const twoFactorPhoneSchema = v.strictObject({ countryId: v.string(), number: v.string(), type: v.nullable(v.number()) });
export type TwoFactorPhone = v.InferOutput<typeof twoFactorPhoneSchema>;

/** GET /api/v1/get-user-two-factor-authentication, and the answer of PUT /api/v1/change-two-factor-authentication. */
export const twoFactorSettingSchema = v.strictObject({
  twoFactorAuthentication: v.strictObject({ type: v.nullable(twoFactorTypeSchema), phoneNumber: v.nullable(twoFactorPhoneSchema) }),
});
export type TwoFactorSetting = v.InferOutput<typeof twoFactorSettingSchema>;

/** The type arrives as a number, as a {name, value} option, or null/0 for Disabled. */
const twoFactorTypeInput = v.pipe(
  v.nullish(v.union([v.picklist([0, 1, 2]), v.object({ value: v.picklist([0, 1, 2]), name: v.optional(v.nullable(v.string())) })]), null),
  v.transform((t) => {
    const n = typeof t === 'number' ? t : (t?.value ?? 0);
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
  currentPassword: required(
    v.pipe(
      v.string(MSG.pleaseEnter('current_password')),
      v.nonEmpty(MSG.pleaseEnter('current_password')),
      v.maxLength(1024, MSG.pleaseEnterValid('current_password')),
    ),
  ),
});
export type ChangeTwoFactor = v.InferInput<typeof changeTwoFactorSchema>;

/** POST /api/v1/two-factor-authentication/send: resend the code to whoever is mid-sign-in. */
export const sendCodeSchema = v.object({ email: required(emailField) });

// ---- passwords

const passwordField = (field: string) =>
  required(
    v.pipe(
      v.string(MSG.pleaseEnter(field)),
      v.nonEmpty(MSG.pleaseEnter(field)),
      v.minLength(MIN_PASSWORD, MSG.passwordLength),
      v.maxLength(1024, MSG.pleaseEnterValid(field)),
    ),
  );

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
