// Idle timeout across browser tabs (spec §2/§4/§9: 30 minutes). Every tab writes the time of
// the user's last activity (keydown, pointerdown, wheel; throttled) to localStorage and checks
// periodically how long ago the latest activity of any tab was. At 30 minutes the
// session-expired dialog opens; closing it logs out. A tab whose session was ended by another
// tab because of inactivity shows the 'Logged out' dialog instead.
// The clock and the interval are injectable so unit tests need no real waiting.
import { atom } from 'jotai';
import { navigate } from 'wouter/use-browser-location';
import { appStore } from './store';
import { endSessionLocally, logout, sessionAtom, SESSION_KEY } from './session';
import { IDLE_TIMEOUT_MS } from '../../shared/codes';
import { getHref } from '../paths';

export { IDLE_TIMEOUT_MS };
export const LAST_ACTIVITY_KEY = 'lastActivity';
export const ACTIVITY_EVENTS = ['keydown', 'pointerdown', 'wheel'] as const;

export type IdleDialog = 'expired' | 'loggedOut' | null;
/** Which idle dialog is open in this tab. */
export const idleDialogAtom = atom<IdleDialog>(null);

export type IdleWatchOptions = {
  now?: () => number;
  timeoutMs?: number;
  /** How often this tab looks at the shared last-activity time. */
  checkEveryMs?: number;
  /** At most one localStorage write per this many ms of continuous activity. */
  throttleMs?: number;
  setInterval?: (fn: () => void, ms: number) => unknown;
  clearInterval?: (handle: unknown) => void;
  target?: Pick<Window, 'addEventListener' | 'removeEventListener'>;
};

let clock: () => number = () => Date.now();
/** Latest activity this tab knows of (its own or another tab's); survives the key being cleared by a logout elsewhere. */
let lastSeen = 0;

export function readLastActivity(): number | null {
  const n = Number(localStorage.getItem(LAST_ACTIVITY_KEY));
  return Number.isFinite(n) && n > 0 ? n : null;
}

/** Records activity now (sign-in counts as activity). */
export function markActivity(at: number = clock()) {
  lastSeen = Math.max(lastSeen, at);
  try {
    localStorage.setItem(LAST_ACTIVITY_KEY, String(at));
  } catch {
    // storage full or blocked: this tab still measures its own activity
  }
}

const signedIn = () => !!appStore.get(sessionAtom);

/** Starts watching; returns the function that stops it. */
export function startIdleWatch(opts: IdleWatchOptions = {}): () => void {
  const now = opts.now ?? (() => Date.now());
  const timeoutMs = opts.timeoutMs ?? IDLE_TIMEOUT_MS;
  const checkEveryMs = opts.checkEveryMs ?? 10_000;
  const throttleMs = opts.throttleMs ?? 5_000;
  const setI = opts.setInterval ?? ((fn: () => void, ms: number) => window.setInterval(fn, ms));
  const clearI = opts.clearInterval ?? ((h: unknown) => window.clearInterval(h as number));
  const target = opts.target ?? window;
  clock = now;

  lastSeen = readLastActivity() ?? 0;
  // Opening or reloading the page is activity.
  if (signedIn()) markActivity(now());
  let lastWrite = now();

  const onActivity = () => {
    if (!signedIn() || appStore.get(idleDialogAtom)) return;
    const t = now();
    if (t - lastWrite < throttleMs) {
      lastSeen = Math.max(lastSeen, t);
      return;
    }
    lastWrite = t;
    markActivity(t);
  };

  const check = () => {
    if (!signedIn() || appStore.get(idleDialogAtom)) return;
    const stored = readLastActivity();
    if (stored) lastSeen = Math.max(lastSeen, stored);
    if (!lastSeen) {
      markActivity(now());
      return;
    }
    if (now() - lastSeen >= timeoutMs) appStore.set(idleDialogAtom, 'expired');
  };

  const onStorage = (e: StorageEvent) => {
    if (e.key === LAST_ACTIVITY_KEY) {
      const n = Number(e.newValue);
      if (Number.isFinite(n) && n > 0) lastSeen = Math.max(lastSeen, n);
      return;
    }
    const sessionGone =
      (e.key === SESSION_KEY && !!e.oldValue && e.oldValue !== 'null' && !e.newValue) || (e.key === null && !localStorage.getItem(SESSION_KEY));
    if (!sessionGone) return;
    // Another tab logged out. If that was for inactivity, say so here too.
    const wasIdle = appStore.get(idleDialogAtom) === 'expired' || (lastSeen > 0 && now() - lastSeen >= timeoutMs);
    endSessionLocally('other-tab');
    appStore.set(idleDialogAtom, wasIdle ? 'loggedOut' : null);
    navigate(getHref('login'), { replace: true });
  };

  for (const ev of ACTIVITY_EVENTS) target.addEventListener(ev, onActivity, { capture: true, passive: true });
  window.addEventListener('storage', onStorage);
  const handle = setI(check, checkEveryMs);

  return () => {
    for (const ev of ACTIVITY_EVENTS) target.removeEventListener(ev, onActivity, { capture: true });
    window.removeEventListener('storage', onStorage);
    clearI(handle);
  };
}

/** Closing the session-expired dialog logs out and goes to the sign-in page. */
export function closeExpiredDialog() {
  appStore.set(idleDialogAtom, null);
  logout('idle');
}

export function closeLoggedOutDialog() {
  appStore.set(idleDialogAtom, null);
}
