// A start with a stored session sends its first requests before the app's modules have been
// evaluated: the current user, and the data requests the last start-up's first pages made (kept in
// localStorage under START_REQUESTS_KEY by the workspace, recordRequests in http.ts). The entry's
// first module (src/app/early-start.ts) sends them; `http` takes the answer of the same request,
// made with the same access token, instead of sending it again, and sends it itself when the early
// answer was not a success (a 401 then goes through its refresh, as any request does). Sending early
// shows nothing: the workspace, and with it any page's data, renders only once the user's answer
// says the session is valid, and the server refuses every request of a revoked session itself.
// This module imports nothing, so the entry's first module can run it before anything else.

/** A request a start-up can send early: no query string, no headers of its own, a JSON answer. */
export type EarlyRequest = { path: string; method: 'GET' | 'POST'; body?: unknown };

/** What the workspace keeps for the next start: whose start-up it was, where, and what it asked for. */
export type StartRequests = { user: string; location: string; requests: EarlyRequest[] };

export const START_REQUESTS_KEY = 'startRequests';
export const USER_INFO_PATH = '/api/v1/get-user-info';
/** An early answer not taken by then is dropped: it belongs to the start-up only. */
const KEEP_MS = 10_000;

type Sent = { token: string; at: number; answer: Promise<unknown> };
const sent = new Map<string, Sent>();

const keyOf = (r: EarlyRequest) => `${r.method} ${r.path} ${r.body === undefined ? '' : JSON.stringify(r.body)}`;

/** The JSON of a successful answer; undefined for anything else, and the caller sends the request itself. */
function send(r: EarlyRequest, authorization: string): Promise<unknown> {
  const headers: Record<string, string> = { Authorization: authorization };
  // As ofetch sends a JSON body.
  if (r.body !== undefined) {
    headers['content-type'] = 'application/json';
    headers.accept = 'application/json';
  }
  return fetch(r.path, { method: r.method, headers, body: r.body === undefined ? undefined : JSON.stringify(r.body) })
    .then((res) => (res.ok && res.status !== 204 && /json/.test(res.headers.get('content-type') ?? '') ? res.json() : undefined))
    .catch(() => undefined);
}

/** The `sub` claim of an access token (a JWT), or undefined. */
function subject(token: string): string | undefined {
  try {
    const part = token.split('.')[1]!.replace(/-/g, '+').replace(/_/g, '/');
    const sub = (JSON.parse(atob(part)) as { sub?: unknown }).sub;
    return typeof sub === 'string' ? sub : undefined;
  } catch {
    return undefined;
  }
}

/**
 * With the stored session (SESSION_KEY's JSON) and an access token not yet expired: sends the request
 * for the current user and, when the last start-up was this user's at this location, its data
 * requests. An expired token sends nothing: the app refreshes it first.
 */
export function sendEarlyRequests(storedSession: string, location: string, storage: Storage = localStorage, now = Date.now()) {
  let session: { accessToken?: string; tokenType?: string; expiresAt?: number } | null;
  try {
    session = JSON.parse(storedSession) as typeof session;
  } catch {
    return;
  }
  const token = session?.accessToken;
  if (!session || !token || !(Number(session.expiresAt) > now + 5_000)) return;
  const authorization = `${session.tokenType || 'Bearer'} ${token}`;
  const requests: EarlyRequest[] = [{ path: USER_INFO_PATH, method: 'GET' }];
  try {
    const last = JSON.parse(storage.getItem(START_REQUESTS_KEY) ?? 'null') as StartRequests | null;
    if (last && last.location === location && last.user === subject(token)) requests.push(...last.requests.slice(0, 20));
  } catch {
    // Nothing kept, or not readable: the user alone.
  }
  for (const r of requests) {
    if (typeof r?.path !== 'string' || !r.path.startsWith('/') || (r.method !== 'GET' && r.method !== 'POST')) continue;
    sent.set(keyOf(r), { token, at: now, answer: send(r, authorization) });
  }
}

/**
 * The early answer to this request made with this access token, taken once (a later call sends its
 * own): the promise of its JSON, resolving to undefined when it was not a success. Undefined when no
 * such request went early.
 */
export function takeEarlyAnswer(r: EarlyRequest, token: string, now = Date.now()): Promise<unknown> | undefined {
  if (sent.size === 0) return undefined;
  const key = keyOf(r);
  const s = sent.get(key);
  if (!s) return undefined;
  sent.delete(key);
  return s.token === token && now - s.at < KEEP_MS ? s.answer : undefined;
}

/** Forgets every early answer not yet taken (the session ended). */
export function dropEarlyAnswers() {
  sent.clear();
}
