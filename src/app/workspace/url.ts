// URL ↔ tab mapping. The browser URL always shows the focused tab's href; a URL typed, pasted
// or bookmarked opens as a tab. Only signed-in routes become tabs.
import { ROUTES, getHref, matchPath, type RouteId } from '../paths';
import type { TabTarget } from './model';

/** Routes that never live in a tab (the signed-out pages). */
const NOT_A_TAB: ReadonlySet<RouteId> = new Set<RouteId>(['login', 'forgotPassword']);

/** The href as a tab target, or null when it is not a workspace route (/, /login, unknown paths). */
export function resolveHref(href: string): TabTarget | null {
  const [path = ''] = href.split(/[?#]/);
  // The query is the tab's list state (list-state.ts); it stays part of the href.
  const query = /\?[^#]+/.exec(href)?.[0] ?? '';
  const m = matchPath(path);
  if (!m || NOT_A_TAB.has(m.route)) return null;
  // Rebuild the href from the route table so that equivalent spellings (trailing slash,
  // percent-encoding) give the same tab.
  const canonical = getHref(m.route, m.params);
  return { href: canonical + (query.length > 1 ? query : ''), route: m.route, params: m.params, title: ROUTES[m.route].title };
}
