// Auth-service calls (spec §7). Sign-in and forgot-password run signed out (publicHttp);
// the rest carry the session.
import { http, publicHttp, postTokenForm, CLIENT_ID } from './http';
import type { CurrentUser, TokenResponse } from '../state/session';
import { navigate } from 'wouter/use-browser-location';
import { appStore } from '../state/store';
import {
  clearLocalStorage, currentUserAtom, endSessionLocally, hasAdminAccess, landingHref, sessionAtom, sessionFromTokens,
} from '../state/session';
import { markActivity } from '../state/idle';
import { takeReturnPath } from '../shell/return-to';

/** No captcha provider is configured: the field is sent empty (the server ignores it). */
export const CAPTCHA_RESPONSE = '';

export type PasswordSignIn = { email: string; password: string; verificationCode?: string };

/** POST /connect/token, grant_type password (form-encoded). */
export function requestPasswordToken(input: PasswordSignIn): Promise<TokenResponse> {
  return postTokenForm<TokenResponse>({
    username: input.email.trim(),
    password: input.password,
    grant_type: 'password',
    client_id: CLIENT_ID,
    captchaResponse: CAPTCHA_RESPONSE,
    verificationCode: input.verificationCode?.trim() || undefined,
  });
}

/** GET /api/v1/get-user-info (after sign-in and after a session restore). */
export function getUserInfo(): Promise<CurrentUser> {
  return http<CurrentUser>('/api/v1/get-user-info');
}

/** POST /api/v1/two-factor-authentication/send: sends a fresh code to whoever is mid-sign-in. */
export function resendVerificationCode(email: string): Promise<unknown> {
  return publicHttp('/api/v1/two-factor-authentication/send', { method: 'POST', body: { email: email.trim() } });
}

/** POST /api/v1/reset-password (forgot-password page). */
export function requestPasswordReset(email: string): Promise<unknown> {
  return publicHttp('/api/v1/reset-password', { method: 'POST', body: { email: email.trim(), captchaResponse: CAPTCHA_RESPONSE } });
}

export type FeatureList = { Features: { FeatureName: string; IsEnabled: boolean }[] };

/** GET /features/all (public). */
export function getFeatures(): Promise<FeatureList> {
  return publicHttp<FeatureList>('/features/all');
}

/** Spec §1: an unknown feature counts as off. */
export function isFeatureOn(list: FeatureList | undefined, name: string): boolean {
  return !!list?.Features?.find((f) => f.FeatureName === name)?.IsEnabled;
}

export const featuresQuery = {
  queryKey: ['features', 'all'] as const,
  queryFn: getFeatures,
  staleTime: 5 * 60_000,
  meta: { silent: true },
};

// ---- Settings dialog (signed in)

export type TwoFactorOption = { name: string; value: number };
export type TwoFactorPhone = { countryId: string; number: string; type: number | null };
export type TwoFactorSetting = { twoFactorAuthentication: { type: TwoFactorOption | null; phoneNumber: TwoFactorPhone | null } };
export type GlobalSettings = { TwoFactorAuthentication: { Mode: { Value: number } } };
export type Country = { Id: string; Code: string; Name: string; PhoneNumberCode: string };

export const getTwoFactorSetting = () => http<TwoFactorSetting>('/api/v1/get-user-two-factor-authentication');
export const getTwoFactorTypes = () => http<TwoFactorOption[] | { Name: string; Value: number }[]>('/api/v1/two-factor-authentication/types');
export const getGlobalSettings = () => http<GlobalSettings>('/customers/get-global-settings');
export const getDictionaries = () => http<{ Countries: Country[] }>('/ps-admin/dictionaries/get-all');

export function changeTwoFactor(type: number | null, phoneNumber: TwoFactorPhone | null) {
  return http('/api/v1/change-two-factor-authentication', {
    method: 'PUT',
    body: { twoFactorAuthentication: { type, phoneNumber }, captchaResponse: CAPTCHA_RESPONSE },
  });
}

export function changePassword(input: { oldPassword: string; newPassword: string; newPasswordRepeated: string }) {
  return http('/api/v1/change-password', { method: 'POST', body: { ...input, captchaResponse: CAPTCHA_RESPONSE } });
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
  appStore.set(sessionAtom, sessionFromTokens(tokens));
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
