// Spec §8: what a failed sign-in shows. 2fa_code_required is not an error: it reveals the
// verification-code field. Once that field is shown, any other failure is the code message.
import { MSG, messageFromError } from '../../../shared/messages';
import { errorStatus } from '../../api/query-client';
import { PermissionMissingError } from '../../api/auth';
import { isCaptchaFailure } from './captcha';

/** The identity provider's display name in the sso_enforced message when the server has not named one (GET /api/v1/sso/configuration). */
export const SSO_PROVIDER_NAME = 'Microsoft';

export type SignInOutcome = { kind: 'code-required'; sentTo: string } | { kind: 'error'; message: string };

/**
 * Where the verification code went, in words: the token endpoint's masked destination
 * (code_channel + code_sent_to), else the server's message.
 */
export function codeSentText(err: unknown): string {
  const body = (err as { data?: unknown } | null)?.data as { code_channel?: unknown; code_sent_to?: unknown } | null | undefined;
  const to = typeof body?.code_sent_to === 'string' ? body.code_sent_to : '';
  if (body?.code_channel === 'sms' && to) return `We sent a verification code by text message to your phone number ending in ${to}.`;
  if (body?.code_channel === 'email' && to) return `We sent a verification code by e-mail to ${to}.`;
  return messageFromError(body) === MSG.default ? MSG.verificationCodeSent : messageFromError(body);
}

export function errorCode(err: unknown): string | undefined {
  const body = (err as { data?: unknown } | null)?.data as { Content?: { Code?: unknown }; content?: { code?: unknown }; error?: unknown } | null | undefined;
  const c = body?.Content?.Code ?? body?.content?.code ?? body?.error;
  return typeof c === 'string' ? c : undefined;
}

export function classifySignInError(err: unknown, codeShown: boolean, providerName: string = SSO_PROVIDER_NAME): SignInOutcome {
  const error = (message: string): SignInOutcome => ({ kind: 'error', message });
  if (err instanceof PermissionMissingError) return error(MSG.permissionMissing);
  if (isCaptchaFailure(err)) return error(MSG.captchaFailed);
  const status = errorStatus(err);
  const code = errorCode(err);
  if (code === '2fa_code_required') return codeShown ? error(MSG.invalidCode) : { kind: 'code-required', sentTo: codeSentText(err) };
  if (status === 429) return error(messageFromError((err as { data?: unknown }).data));
  if (code === 'permission_missing') return error(MSG.permissionMissing);
  if (code === 'sso_enforced') return error(MSG.ssoEnforced(providerName));
  if (code === 'sso_required') return error(MSG.ssoRequired);
  if (code === 'sso_unavailable') return error(MSG.ssoUnavailable);
  // No answer at all (network down) or a server fault: not the user's credentials.
  if (status === undefined || status >= 500) return error(MSG.default);
  return error(codeShown ? MSG.invalidCode : MSG.loginFailed);
}
