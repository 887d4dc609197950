// The workspace in jotai: one atom holds the whole layout (see model.ts), persisted per user in
// localStorage under `workspace:{userId}`. Derived atoms give the focused tab and its title.
import { atom } from 'jotai';
import { appStore } from '../state/store';
import { userIdAtom } from '../state/session';
import { emptyWorkspace, focusedTab, restoreWorkspace, serialiseWorkspace, type Tab, type WorkspaceState } from './model';
import { resolveHref } from './url';

export const storageKey = (userId: string) => `workspace:${userId}`;

type Loaded = { userId: string | null; state: WorkspaceState };
const baseAtom = atom<Loaded>({ userId: null, state: emptyWorkspace() });

export function loadWorkspace(userId: string | null): WorkspaceState {
  if (!userId) return emptyWorkspace();
  try {
    const raw = localStorage.getItem(storageKey(userId));
    if (raw) return restoreWorkspace(JSON.parse(raw), resolveHref) ?? emptyWorkspace();
  } catch {
    // Corrupt or unreadable layout: start afresh rather than fail the whole app.
  }
  return emptyWorkspace();
}

function save(userId: string | null, state: WorkspaceState) {
  // No user (signed out, logout in progress): nothing may be written, logout just cleared storage.
  if (!userId) return;
  try {
    localStorage.setItem(storageKey(userId), serialiseWorkspace(state));
  } catch {
    // Storage full or disabled: the layout simply does not survive a reload.
  }
}

/** The workspace of the signed-in user. Writes persist at once (a reload right after a change keeps it). */
export const workspaceAtom = atom(
  (get) => get(baseAtom).state,
  (get, set, update: WorkspaceState | ((s: WorkspaceState) => WorkspaceState)) => {
    const cur = get(baseAtom);
    const next = typeof update === 'function' ? update(cur.state) : update;
    if (next === cur.state) return;
    set(baseAtom, { ...cur, state: next });
    save(cur.userId, next);
  },
);

/** Which user's layout is loaded (null before sign-in / after logout). */
export const loadedUserAtom = atom((get) => get(baseAtom).userId);

/** The tab shown in the focused pane (null for an empty pane). */
export const focusedTabAtom = atom<Tab | null>((get) => focusedTab(get(workspaceAtom)));
/** Title of the focused page: the top bar and document.title show it. */
export const focusedTabTitleAtom = atom<string | null>((get) => get(focusedTabAtom)?.title ?? null);

/**
 * Makes sure the layout in memory belongs to the signed-in user: loads theirs from storage on
 * first use and whenever the user changes (sign-out, then sign-in as someone else).
 */
export function ensureWorkspaceLoaded(store = appStore): WorkspaceState {
  const userId = store.get(userIdAtom);
  const cur = store.get(baseAtom);
  if (cur.userId !== userId) {
    const state = loadWorkspace(userId);
    store.set(baseAtom, { userId, state });
    return state;
  }
  return cur.state;
}

/** Forget the in-memory layout without writing anything (logout). */
export function resetWorkspace(store = appStore) {
  store.set(baseAtom, { userId: null, state: emptyWorkspace() });
}
