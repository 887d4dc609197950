// The signed-in session: tokens persisted in localStorage (so every tab shares them), the
// claims read from the access token, the current user, and the permission check used by the
// shell, the pages and the commands (`can` works outside React, `useCan` inside).
import { atom, useAtomValue } from 'jotai';
import { atomWithStorage, createJSONStorage, RESET } from 'jotai/utils';
import { decodeJwt } from 'jose';
import { navigate } from 'wouter/use-browser-location';
import { appStore } from './store';
import { queryClient } from '../api/query-client';
import { revokeRefreshToken } from '../api/revocation';
import { dropEarlyAnswers } from '../api/early-requests';
import { toast } from '../ui/toast';
import { MSG } from '../../shared/messages';
import { P } from '../../shared/permissions';
import { getHref, ROUTES, type RouteId } from '../paths';
import type { TokenResponse, UserInfo } from '../../shared/schemas/auth';

export type Session = {
  accessToken: string;
  tokenType: string;
  refreshToken: string;
  /** epoch ms when the access token expires */
  expiresAt: number;
};

/** What GET /api/v1/get-user-info answers (the contract's UserInfo: spec §3 "User info" + "Current user"). */
export type CurrentUser = UserInfo;

export const SESSION_KEY = 'session';
/** Spec §3: the single-sign-on-enabled flag is the only item kept in localStorage after logout. */
export const SSO_LOADING_KEY = 'IsSSOLoading';
export const SSO_ENABLED_KEY = 'IsSSOEnabled';
export const KEEP_ON_LOGOUT = [SSO_ENABLED_KEY];

const storage = createJSONStorage<Session | null>(() => localStorage);

/** Persisted tokens. Other tabs see changes through the storage event (jotai subscribes while mounted). */
export const sessionAtom = atomWithStorage<Session | null>(SESSION_KEY, null, storage, { getOnInit: true });

let issuedHere: Session | null = null;

/** Stores tokens this page's sign-in has just received (signInWithTokens). */
export function storeIssuedSession(session: Session) {
  issuedHere = session;
  appStore.set(sessionAtom, session);
}

/**
 * Whether the session is the one this page's sign-in stored (not one restored from storage, nor
 * refreshed since): its tokens were issued just now, so no revocation can have come before them.
 */
export const isIssuedHere = (session: Session | null) => session !== null && session === issuedHere;

export type TokenClaims = { sub?: string; tenantId?: string; email?: string; permissions: string[]; role: string[] };

export function readClaims(accessToken: string | undefined | null): TokenClaims {
  if (!accessToken) return { permissions: [], role: [] };
  try {
    const c = decodeJwt(accessToken) as Record<string, unknown>;
    const list = (x: unknown) => (Array.isArray(x) ? x.map(String) : typeof x === 'string' ? [x] : []);
    return {
      sub: typeof c.sub === 'string' ? c.sub : undefined,
      tenantId: typeof c.tenantId === 'string' ? c.tenantId : undefined,
      email: typeof c.email === 'string' ? c.email : undefined,
      permissions: list(c.permissions),
      role: list(c.role),
    };
  } catch {
    return { permissions: [], role: [] };
  }
}

export const claimsAtom = atom((get) => readClaims(get(sessionAtom)?.accessToken));
export const permissionsAtom = atom((get) => get(claimsAtom).permissions);
export const userIdAtom = atom((get) => get(claimsAtom).sub ?? null);
export const currentUserAtom = atom<CurrentUser | null>(null);

/** Single-sign-on users have no portal password: the Settings dialog is hidden for them. */
export const isSsoUserAtom = atom((get) => {
  const m = get(currentUserAtom)?.loginMethod;
  return (typeof m === 'number' ? m : m?.value) === 2;
});

function check(access: string, session: Session | null, permissions: readonly string[]) {
  if (access === 'public' || access === '') return true;
  if (!session) return false;
  if (access === 'signed-in') return true;
  return permissions.includes(access);
}

/** Permission check usable anywhere (commands, loaders): 'public', 'signed-in' or a permission name. */
export function can(access: string): boolean {
  return check(access, appStore.get(sessionAtom), appStore.get(permissionsAtom));
}

/** The same check inside React, re-rendering when the session changes. */
export function useCan(): (access: string) => boolean {
  const session = useAtomValue(sessionAtom);
  const permissions = useAtomValue(permissionsAtom);
  return (access: string) => check(access, session, permissions);
}

/**
 * Where a signed-in user lands (route '/'): Asset Management when permitted, else the first
 * area they may open (an ARC controller goes to Alarm Reports, persons-only staff to /persons).
 */
export const LANDING_ORDER: RouteId[] = ['assets', 'customers', 'alarmReports', 'persons', 'editOwnProfile'];
export function landingHref(): string {
  const id = LANDING_ORDER.find((r) => can(ROUTES[r].permission));
  return id ? getHref(id) : getHref('editOwnProfile');
}

/** Whether a token grants admin-panel use at all (spec §1: AdminPanel.HasAccess). */
export const hasAdminAccess = (accessToken: string) => readClaims(accessToken).permissions.includes(P.HasAccess);

export function sessionFromTokens(t: TokenResponse, now = Date.now()): Session {
  return {
    accessToken: t.access_token,
    tokenType: t.token_type || 'Bearer',
    refreshToken: t.refresh_token,
    expiresAt: now + (t.expires_in ?? 0) * 1000,
  };
}

// ---- logout

export type LogoutReason = 'expired' | 'idle' | 'user';
const logoutListeners = new Set<(reason: LogoutReason | 'other-tab') => void>();

/**
 * Features holding their own in-memory state for the signed-in user (bulk lists, workspace
 * layout) register here to drop it on logout; localStorage is already cleared for them.
 */
export function onLogout(fn: (reason: LogoutReason | 'other-tab') => void): () => void {
  logoutListeners.add(fn);
  return () => logoutListeners.delete(fn);
}

/** Removes every localStorage item but the single-sign-on-enabled flag, one key at a time so other tabs get a storage event per key. */
export function clearLocalStorage() {
  const keys: string[] = [];
  for (let i = 0; i < localStorage.length; i++) {
    const k = localStorage.key(i);
    if (k !== null && !KEEP_ON_LOGOUT.includes(k)) keys.push(k);
  }
  for (const k of keys) localStorage.removeItem(k);
}

/** Drops everything this tab holds for the user (used by logout, and when another tab logged out). */
export function endSessionLocally(reason: LogoutReason | 'other-tab') {
  appStore.set(sessionAtom, RESET);
  appStore.set(currentUserAtom, null);
  queryClient.clear();
  dropEarlyAnswers();
  for (const fn of [...logoutListeners]) {
    try {
      fn(reason);
    } catch (err) {
      console.error(err);
    }
  }
}

/**
 * Spec §4: logout clears local storage (the bulk device lists included), keeping only the
 * single-sign-on flag, clears the query cache and returns to the sign-in page. 'expired' adds
 * the toast 'Your session has expired, please login.'
 */
export function logout(reason: LogoutReason = 'user') {
  // The server ends the session too (an expired one is over already).
  const refreshToken = appStore.get(sessionAtom)?.refreshToken;
  if (refreshToken && reason !== 'expired') revokeRefreshToken(refreshToken);
  clearLocalStorage();
  endSessionLocally(reason);
  if (reason === 'expired') toast.error(MSG.sessionExpired, { area: 'signin' });
  navigate(getHref('login'), { replace: true });
}
