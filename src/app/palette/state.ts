// Palette state shared with the commands (palette.open toggles it) and the workspace.
import { atom } from 'jotai';
import type { ScopeKey } from './scopes';

export const paletteOpenAtom = atom(false);
/** The scope the palette opens with once (e.g. '$' from "Open customer"); taken and cleared on open. */
export const paletteOpenScopeAtom = atom<ScopeKey | null>(null);

/** A palette entry remembered for the empty box: a record hit or a command. */
export type Recent = { type: 'record'; id: string; kind: string; title: string; subtitle: string; href: string } | { type: 'command'; id: string };

export const MAX_RECENTS = 10;
export const recentsKey = (userId: string) => `palette-recents:${userId}`;

export function readRecents(userId: string | null): Recent[] {
  if (!userId) return [];
  try {
    const raw = JSON.parse(localStorage.getItem(recentsKey(userId)) ?? '[]');
    return Array.isArray(raw) ? raw.filter((r) => r && (r.type === 'record' || r.type === 'command') && typeof r.id === 'string').slice(0, MAX_RECENTS) : [];
  } catch {
    return [];
  }
}

const recentKeyOf = (r: Recent) => (r.type === 'record' ? `r:${r.href}` : `c:${r.id}`);

/** Newest first, no duplicates, at most MAX_RECENTS. Pure, so the order rule is unit-tested. */
export function pushRecent(list: Recent[], item: Recent): Recent[] {
  const key = recentKeyOf(item);
  return [item, ...list.filter((r) => recentKeyOf(r) !== key)].slice(0, MAX_RECENTS);
}

export function writeRecents(userId: string | null, list: Recent[]) {
  if (!userId) return;
  try {
    localStorage.setItem(recentsKey(userId), JSON.stringify(list));
  } catch {
    // storage unavailable: recents are a convenience only
  }
}
