// Auth-service calls (spec §7). Sign-in and forgot-password run signed out (publicHttp);
// the rest carry the session.
import { CAPTCHA_CHALLENGE_PATH, type CaptchaChallengeResponse } from '../../shared/captcha';
import { queryOptions } from '@tanstack/react-query';
import { http, publicHttp, postTokenForm, CLIENT_ID } from './http';
import type { CurrentUser } from '../state/session';
import type { SsoConfiguration, SsoNonce, TokenResponse, TwoFactorPhone, TwoFactorSetting, TwoFactorTypeOption } from '../../shared/schemas/auth';
import type { MessageResponse } from '../../shared/schemas/common';
import { navigate } from 'wouter/use-browser-location';
import { appStore } from '../state/store';
import {
  clearLocalStorage,
  currentUserAtom,
  endSessionLocally,
  hasAdminAccess,
  landingHref,
  sessionAtom,
  sessionFromTokens,
  storeIssuedSession,
} from '../state/session';
import { markActivity } from '../state/idle';
import { takeReturnPath } from '../shell/return-to';

/** captchaResponse: a one-use token from useCaptcha() (features/auth/captcha.tsx). */
export type PasswordSignIn = { email: string; password: string; verificationCode?: string; captchaResponse: string };

/** POST /connect/token, grant_type password (form-encoded). */
export function requestPasswordToken(input: PasswordSignIn): Promise<TokenResponse> {
  return postTokenForm<TokenResponse>({
    username: input.email.trim(),
    password: input.password,
    grant_type: 'password',
    client_id: CLIENT_ID,
    captchaResponse: input.captchaResponse,
    verificationCode: input.verificationCode?.trim() || undefined,
  });
}

// ---- single sign-on

export type SsoSignIn = { idToken: string; captchaResponse: string; consent?: boolean; selectedAccount?: string };

/** POST /connect/token, grant_type token-exchange: the provider's ID token for our tokens (spec §7). */
export function requestSsoToken(input: SsoSignIn): Promise<TokenResponse> {
  return postTokenForm<TokenResponse>({
    id_token: input.idToken,
    grant_type: 'token-exchange',
    captchaResponse: input.captchaResponse,
    sso_consent: input.consent ? 'true' : '',
    selected_account: input.selectedAccount ?? '',
  });
}

/** GET /api/v1/sso/configuration (public): the provider the browser signs in with, or enabled: false. */
export const ssoConfigurationQuery = () =>
  queryOptions({
    queryKey: [...authKeys.all, 'sso-configuration'] as const,
    queryFn: ({ signal }) => publicHttp<SsoConfiguration>('/api/v1/sso/configuration', { signal }),
    staleTime: 5 * 60_000,
  });

/** POST /api/v1/sso/nonce (public): a signed nonce for the provider redirect. */
export function requestSsoNonce(): Promise<SsoNonce> {
  return publicHttp<SsoNonce>('/api/v1/sso/nonce', { method: 'POST' });
}

/** GET /api/v1/get-user-info (after sign-in and after a session restore). */
export function getUserInfo(): Promise<CurrentUser> {
  return http<CurrentUser>('/api/v1/get-user-info');
}

/** POST /api/v1/two-factor-authentication/send: sends a fresh code to whoever is mid-sign-in. */
export function resendVerificationCode(email: string): Promise<MessageResponse> {
  return publicHttp<MessageResponse>('/api/v1/two-factor-authentication/send', { method: 'POST', body: { email: email.trim() } });
}

/** POST /api/v1/reset-password (forgot-password page). */
export function requestPasswordReset(email: string, captchaResponse: string): Promise<MessageResponse> {
  return publicHttp<MessageResponse>('/api/v1/reset-password', { method: 'POST', body: { email: email.trim(), captchaResponse } });
}

/** POST /api/v1/reset-password/confirm (where the e-mailed link leads). */
export function confirmPasswordReset(input: { token: string; newPassword: string; newPasswordRepeated: string }): Promise<MessageResponse> {
  return publicHttp<MessageResponse>('/api/v1/reset-password/confirm', { method: 'POST', body: input });
}

// ---- Settings dialog (signed in)

export const authKeys = {
  all: ['auth'] as const,
  twoFactor: () => ['auth', 'two-factor'] as const,
  twoFactorTypes: () => ['auth', 'two-factor-types'] as const,
};

/** GET /api/v1/get-user-two-factor-authentication */
export const twoFactorSettingQuery = () =>
  queryOptions({
    queryKey: authKeys.twoFactor(),
    queryFn: ({ signal }) => http<TwoFactorSetting>('/api/v1/get-user-two-factor-authentication', { signal }),
  });

/** GET /api/v1/two-factor-authentication/types → [{ name, value }] */
export const twoFactorTypesQuery = () =>
  queryOptions({
    queryKey: authKeys.twoFactorTypes(),
    queryFn: ({ signal }) => http<TwoFactorTypeOption[]>('/api/v1/two-factor-authentication/types', { signal }),
    staleTime: Infinity,
  });

/** PUT /api/v1/change-two-factor-authentication → the saved setting. Also carries a captcha token and the current password. */
export function changeTwoFactor(
  type: number | null,
  phoneNumber: TwoFactorPhone | null,
  proof: { captchaResponse: string; currentPassword: string },
): Promise<TwoFactorSetting> {
  return http<TwoFactorSetting>('/api/v1/change-two-factor-authentication', {
    method: 'PUT',
    body: { twoFactorAuthentication: { type, phoneNumber }, captchaResponse: proof.captchaResponse, currentPassword: proof.currentPassword },
  });
}

/** POST /api/v1/change-password */
export function changePassword(input: {
  oldPassword: string;
  newPassword: string;
  newPasswordRepeated: string;
  captchaResponse: string;
}): Promise<MessageResponse> {
  return http<MessageResponse>('/api/v1/change-password', { method: 'POST', body: input });
}

// ---- completing a sign-in / restoring a session

/** Thrown when the token lacks AdminPanel.HasAccess (spec §1). */
export class PermissionMissingError extends Error {
  constructor() {
    super('permission_missing');
    this.name = 'PermissionMissingError';
  }
}

let loadingUser: Promise<CurrentUser> | null = null;

/** Fetches the current user once at a time and keeps it in currentUserAtom. */
export function loadCurrentUser(): Promise<CurrentUser> {
  loadingUser ??= getUserInfo()
    .then((user) => {
      appStore.set(currentUserAtom, user);
      return user;
    })
    .finally(() => {
      loadingUser = null;
    });
  return loadingUser;
}

/** Stores the session from a token response, loads the user and goes to the link opened while signed out, else the landing route. */
export async function signInWithTokens(tokens: TokenResponse): Promise<void> {
  if (!hasAdminAccess(tokens.access_token)) throw new PermissionMissingError();
  storeIssuedSession(sessionFromTokens(tokens));
  markActivity();
  try {
    await loadCurrentUser();
  } catch (err) {
    clearLocalStorage();
    endSessionLocally('user');
    throw err;
  }
  navigate(takeReturnPath() ?? landingHref(), { replace: true });
}

/** Spec start-up: with stored credentials fetch the current user; on failure clear the session and go to the root. */
export async function restoreSession(): Promise<boolean> {
  if (!appStore.get(sessionAtom)) return false;
  try {
    await loadCurrentUser();
    return true;
  } catch {
    // A 401 whose refresh failed has already logged out; anything else ends the session here.
    if (appStore.get(sessionAtom)) {
      clearLocalStorage();
      endSessionLocally('user');
      navigate('/', { replace: true });
    }
    return false;
  }
}

/** GET /api/captcha/challenge (public): which captcha provider is on and what the browser needs for it. */
export function getCaptchaChallenge(): Promise<CaptchaChallengeResponse> {
  return publicHttp<CaptchaChallengeResponse>(CAPTCHA_CHALLENGE_PATH);
}
