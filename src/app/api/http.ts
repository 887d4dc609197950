// The one HTTP client (ofetch). Adds `Authorization: {token_type} {access_token}`; on a 401 it
// refreshes the tokens once (POST /connect/token, grant_type refresh_token) and retries the
// request. Concurrent 401s share one refresh. A failed refresh logs out with
// 'Your session has expired, please login.' (spec §4). Errors are ofetch FetchErrors
// (.status, .data); show them with messageFromError(err.data).
import { ofetch, FetchError } from 'ofetch';
import { appStore } from '../state/store';
import { logout, sessionAtom, sessionFromTokens, SESSION_KEY, type Session } from '../state/session';
import type { TokenResponse } from '../../shared/schemas/auth';
import { takeEarlyAnswer, type EarlyRequest } from './early-requests';

export { FetchError };

export type HttpOptions = {
  method?: 'GET' | 'POST' | 'PUT' | 'DELETE';
  query?: Record<string, unknown>;
  body?: unknown;
  headers?: Record<string, string>;
  signal?: AbortSignal;
  responseType?: 'json' | 'blob' | 'text';
};

/** OAuth client id of this product (spec §7 "client id"). */
export const CLIENT_ID = 'portal';
export const TOKEN_PATH = '/connect/token';

// No ofetch-level retries: the query client decides what to retry.
const raw = ofetch.create({ retry: 0 });

function send<T>(path: string, opts: HttpOptions, session: Session | null): Promise<T> {
  const headers: Record<string, string> = { ...opts.headers };
  if (session) headers.Authorization = `${session.tokenType} ${session.accessToken}`;
  return raw<T>(path, {
    method: opts.method ?? 'GET',
    query: opts.query,
    body: opts.body as BodyInit | Record<string, unknown> | undefined,
    headers,
    signal: opts.signal,
    responseType: opts.responseType as 'json',
  });
}

const isStatus = (err: unknown, status: number) => (err instanceof FetchError ? err.status === status : (err as { status?: number } | null)?.status === status);

/** Calls without the session (sign-in, forgot password, public feature list). */
export function publicHttp<T = unknown>(path: string, opts: HttpOptions = {}): Promise<T> {
  return send<T>(path, opts, null);
}

/** Form-encoded POST to the token endpoint. */
export function postTokenForm<T = TokenResponse>(fields: Record<string, string | undefined>): Promise<T> {
  const form = new URLSearchParams();
  for (const [k, v] of Object.entries(fields)) if (v !== undefined) form.set(k, v);
  return raw<T>(TOKEN_PATH, { method: 'POST', body: form, headers: { Accept: 'application/json' } });
}

let refreshing: Promise<Session | null> | null = null;

/** The tokens another tab may have written meanwhile (it refreshed with the same refresh token first). */
function storedSession(): Session | null {
  try {
    const s = JSON.parse(localStorage.getItem(SESSION_KEY) ?? 'null') as Session | null;
    return s?.accessToken ? s : null;
  } catch {
    return null;
  }
}

async function doRefresh(used: Session): Promise<Session | null> {
  try {
    const t = await postTokenForm({ grant_type: 'refresh_token', client_id: CLIENT_ID, refresh_token: used.refreshToken });
    const next = sessionFromTokens(t);
    appStore.set(sessionAtom, next);
    return next;
  } catch {
    const other = storedSession();
    if (other && other.refreshToken !== used.refreshToken) {
      appStore.set(sessionAtom, other);
      return other;
    }
    // Only log out if nobody signed out or in meanwhile.
    if (appStore.get(sessionAtom)?.refreshToken === used.refreshToken) logout('expired');
    return null;
  }
}

/**
 * Across browser tabs: refresh tokens rotate and the server revokes the whole family when a used
 * one comes back, so two tabs refreshing with the same token would sign each other out. The Web
 * Locks API serialises the refresh between tabs; inside the lock, a tab first looks whether
 * another tab already stored newer tokens and adopts them instead of refreshing again.
 */
function refreshAcrossTabs(used: Session): Promise<Session | null> {
  const locks = (globalThis.navigator as Navigator | undefined)?.locks;
  if (!locks?.request) return doRefresh(used);
  return locks.request('session-refresh', async () => {
    const other = storedSession();
    if (other && other.refreshToken !== used.refreshToken) {
      appStore.set(sessionAtom, other);
      return other;
    }
    return doRefresh(used);
  }) as Promise<Session | null>;
}

/** One refresh at a time: every 401 arriving while it runs waits for the same answer. */
export function refreshSession(used: Session): Promise<Session | null> {
  if (!refreshing) {
    refreshing = refreshAcrossTabs(used).finally(() => {
      refreshing = null;
    });
  }
  return refreshing;
}

let recording: EarlyRequest[] | null = null;

/** The request as a start-up could send it early (api/early-requests.ts), or null. */
function earlyForm(path: string, opts: HttpOptions): EarlyRequest | null {
  const method = opts.method ?? 'GET';
  if ((method !== 'GET' && method !== 'POST') || opts.query || opts.headers || (opts.responseType && opts.responseType !== 'json')) return null;
  const body = opts.body;
  const plain = body === undefined || Array.isArray(body) || (typeof body === 'object' && body !== null && Object.getPrototypeOf(body) === Object.prototype);
  return plain ? { path, method, body } : null;
}

/**
 * Runs `fn` and returns the requests `http` was asked for while it ran (synchronously) that a
 * start-up could send early: what a page's `prefetch` asks for (workspace.tsx keeps them for the
 * next start).
 */
export function recordRequests(fn: () => unknown): EarlyRequest[] {
  const outer = recording;
  const mine: EarlyRequest[] = [];
  recording = mine;
  try {
    fn();
  } finally {
    recording = outer;
  }
  outer?.push(...mine);
  return mine;
}

export async function http<T = unknown>(path: string, opts: HttpOptions = {}): Promise<T> {
  const used = appStore.get(sessionAtom);
  const early = used || recording ? earlyForm(path, opts) : null;
  if (early && recording) recording.push(early);
  try {
    // The same request sent by the start-up with the same token (early-start.ts): its answer, if a success.
    const answer = early && used ? takeEarlyAnswer(early, used.accessToken) : undefined;
    const data = answer && (await answer);
    if (data !== undefined) return data as T;
    return await send<T>(path, opts, used);
  } catch (err) {
    if (!used || !isStatus(err, 401)) throw err;
    const now = appStore.get(sessionAtom);
    if (!now) throw err;
    // Someone refreshed since this request left: just retry with the new token.
    const next = now.accessToken !== used.accessToken ? now : await refreshSession(now);
    if (!next) throw err;
    return await send<T>(path, opts, next);
  }
}
