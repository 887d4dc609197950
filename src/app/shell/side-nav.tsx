// Spec §2 application shell: side navigation (280 px), each entry only with its permission.
// An entry opens its route in the focused tab; with Ctrl/⌘/Shift or the middle button the
// browser opens the link itself (new tab/window), as links should.
// Below 1,100 px wide the nav collapses to its icons (72 px), leaving the room to the panes; the
// links stay in the Tab order with their names (visually hidden, and as a tooltip).
import { useSyncExternalStore, type MouseEvent } from 'react';
import './side-nav.css';
import { useLocation } from 'wouter';
import { MSG, PAGE_TITLES } from '../../shared/messages';
import { getHref, ROUTES, type RouteId } from '../paths';
import { useCan } from '../state/session';
import { openRoute } from '../workspace/actions';
import { LineIcon } from '../ui/line-icon';

export const NAV_ENTRIES: { route: RouteId; label: string; icon: string }[] = [
  { route: 'assets', label: MSG.navAssetManagement, icon: 'M4 7h16M4 12h16M4 17h10' },
  { route: 'customers', label: MSG.navCustomers, icon: 'M8 11a3 3 0 1 0 0-6 3 3 0 0 0 0 6zM2 20a6 6 0 0 1 12 0M16 11a3 3 0 1 0 0-6M22 20a6 6 0 0 0-5-5.9' },
  { route: 'persons', label: MSG.navUserManagement, icon: 'M12 12a4 4 0 1 0 0-8 4 4 0 0 0 0 8zM4 21a8 8 0 0 1 16 0' },
  { route: 'alarmReports', label: MSG.navAlarmReports, icon: 'M12 3l9 16H3L12 3zM12 10v4M12 17h.01' },
  { route: 'fleetHealth', label: PAGE_TITLES.fleetHealth, icon: 'M3 12h4l3-7 4 14 3-7h4' },
  { route: 'auditTrail', label: PAGE_TITLES.auditTrail, icon: 'M6 3h9l3 3v15H6zM9 9h6M9 13h6M9 17h4' },
  { route: 'providerSettings', label: PAGE_TITLES.providerSettings, icon: 'M12 15a3 3 0 1 0 0-6 3 3 0 0 0 0 6zM4 12h2M18 12h2M12 4v2M12 18v2' },
];

/** The nav collapses to icons below this width (px). */
export const SIDE_NAV_COLLAPSE_BELOW = 1100;
const COLLAPSE_QUERY = `(max-width: ${SIDE_NAV_COLLAPSE_BELOW - 0.02}px)`;

function subscribeCollapse(onChange: () => void) {
  if (typeof window === 'undefined' || typeof window.matchMedia !== 'function') return () => {};
  const mq = window.matchMedia(COLLAPSE_QUERY);
  mq.addEventListener?.('change', onChange);
  return () => mq.removeEventListener?.('change', onChange);
}
const collapsedNow = () => typeof window !== 'undefined' && typeof window.matchMedia === 'function' && window.matchMedia(COLLAPSE_QUERY).matches;

/** Whether the window is narrower than SIDE_NAV_COLLAPSE_BELOW. */
export function useSideNavCollapsed(): boolean {
  return useSyncExternalStore(subscribeCollapse, collapsedNow, () => false);
}

/** Whether `path` lies in the area of the nav entry (the list and everything under it). */
export function inArea(path: string, route: RouteId) {
  const base = ROUTES[route].pattern;
  return path === base || path.startsWith(`${base}/`);
}

export function SideNav() {
  const can = useCan();
  const [location] = useLocation();
  const entries = NAV_ENTRIES.filter((e) => can(ROUTES[e.route].permission));
  const collapsed = useSideNavCollapsed();

  const onClick = (e: MouseEvent<HTMLAnchorElement>, href: string) => {
    if (e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
    e.preventDefault();
    openRoute(href);
  };

  return (
    <nav className="side-nav" aria-label="Main" data-collapsed={collapsed || undefined}>
      <div className="side-nav-brand">
        <span className="brand-mark" aria-hidden="true" />
        <span className="brand-name">{MSG.productName}</span>
      </div>
      <ul className="side-nav-list">
        {entries.map((e) => {
          const href = getHref(e.route);
          const active = inArea(location, e.route);
          return (
            <li key={e.route}>
              <a
                href={href}
                className="side-nav-link"
                title={collapsed ? e.label : undefined}
                aria-current={active ? 'page' : undefined}
                onClick={(ev) => onClick(ev, href)}
              >
                <LineIcon d={e.icon} />
                <span>{e.label}</span>
              </a>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
