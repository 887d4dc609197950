// A link survives sign-in: a workspace route opened while signed out (a bookmark, a link in an
// e-mail, a search hit pasted into the address bar) is remembered for this browser tab and
// opened once the sign-in succeeds, instead of the landing area. sessionStorage, not
// localStorage: it belongs to the tab that was given the link, and logout (which clears
// localStorage) must not be the thing that keeps or drops it.
import { resolveHref } from '../workspace/url';

export const RETURN_TO_KEY = 'returnTo';

function storage(): Storage | null {
  try {
    return typeof sessionStorage === 'undefined' ? null : sessionStorage;
  } catch {
    return null; // storage disabled: the link is simply not remembered
  }
}

/** Remembers `path` when it is a workspace route (not '/', not the sign-in pages, not unknown). */
export function rememberReturnPath(path: string): void {
  const target = resolveHref(path);
  if (target) storage()?.setItem(RETURN_TO_KEY, target.href);
}

/** The remembered route (canonical href), left in place (takeReturnPath reads and removes it). */
export function peekReturnPath(): string | null {
  const href = storage()?.getItem(RETURN_TO_KEY) ?? null;
  return href && resolveHref(href) ? href : null;
}

/** The remembered route (canonical href), removed as it is read. */
export function takeReturnPath(): string | null {
  const s = storage();
  const href = s?.getItem(RETURN_TO_KEY) ?? null;
  s?.removeItem(RETURN_TO_KEY);
  return href && resolveHref(href) ? href : null;
}
