// Every spec route in one table, shared by client and server: tabs, links, deep links, commands and
// the links the search endpoint returns all go through it, so they cannot drift.
// `match` turns a URL path into { route, params }; `getHref` builds one.
import { P, type Permission } from './permissions.js';
import { PAGE_TITLES } from './messages.js';

export type RouteDef = {
  id: string;
  pattern: string; // wouter-style, e.g. /persons/edit/:userId
  /** Permission needed to open it ('signed-in' = any signed-in user). */
  permission: Permission | 'signed-in' | 'public';
  /** Static title; records override it with their own (customer name, person name ...). */
  title: string;
};

/** Each route's pattern and permission; its id is its key, its static title PAGE_TITLES' entry of the same key unless it names one. */
const PATHS = {
  login: { pattern: '/login', permission: 'public' },
  forgotPassword: { pattern: '/forgot-password', permission: 'public' },
  editOwnProfile: { pattern: '/edit-own-profile', permission: P.ManageOwnProfile },
  persons: { pattern: '/persons', permission: P.PersonListView },
  personAdd: { pattern: '/persons/add', permission: P.PersonCreate },
  personEdit: { pattern: '/persons/edit/:userId', permission: P.PersonEditBasicInformation },
  assets: { pattern: '/asset-management', permission: P.DeviceListView },
  bulkUpdate: { pattern: '/asset-management/device-bulk-update', permission: P.DeviceListView },
  bulkCurrentConfig: { pattern: '/asset-management/device-bulk-update/manage/current-configuration', permission: P.DeviceListView },
  bulkDeviceTesting: { pattern: '/asset-management/device-bulk-update/manage/device-testing', permission: P.DeviceListView },
  bulkChangeConfig: { pattern: '/asset-management/device-bulk-update/manage/change-configuration', permission: P.DeviceListView },
  device: { pattern: '/asset-management/:deviceId', permission: P.DeviceView },
  customers: { pattern: '/customers', permission: P.CustomerListView },
  customerCreate: { pattern: '/customers/create', permission: P.CustomerCreate },
  customerAccount: { pattern: '/customers/:customerId/account', permission: P.CustomerView },
  customerAccountEdit: { pattern: '/customers/:customerId/account/edit', permission: P.CustomerManage },
  customerSubscriptions: { pattern: '/customers/:customerId/subscriptions', permission: P.CustomerView },
  customerDevices: { pattern: '/customers/:customerId/devices', permission: P.CustomerView },
  customerAllocate: { pattern: '/customers/:customerId/devices/allocate', permission: P.CustomerManage },
  customerSettings: { pattern: '/customers/:customerId/settings', permission: P.CustomerView },
  alarmReports: { pattern: '/alarm-reports', permission: P.AlarmReportListView },
  alarmReport: { pattern: '/alarm-reports/:alarmId', permission: P.AlarmReportView },
  /** The monthly management report of all customers, or of one (feature ExportManagementReportPDF); the month is the link's ?month=YYYY-MM. */
  managementReport: { pattern: '/management-report', permission: P.AlarmReportExport },
  customerManagementReport: { pattern: '/customers/:customerId/management-report', permission: P.AlarmReportExport },
  providerSettings: { pattern: '/provider-settings', permission: P.SettingsView },
  auditTrail: { pattern: '/audit-trail', permission: P.AuditView },
  fleetHealth: { pattern: '/fleet-health', permission: P.FleetHealthView },
  /** The usage report of one customer (docs/fleet-health.md "Usage report"); the month is the link's ?month=YYYY-MM. */
  customerUsageReport: { pattern: '/customers/:customerId/usage-report', permission: P.UsageReportView, title: PAGE_TITLES.usageReport },
  scheduledReports: { pattern: '/scheduled-reports', permission: P.AlarmReportSchedule },
} as const satisfies Record<string, Pick<RouteDef, 'pattern' | 'permission'> & { title?: string }>;

export type RouteId = keyof typeof PATHS;
type TitledRoute = { [K in RouteId]: (typeof PATHS)[K] extends { title: string } ? K : never }[RouteId];
/** PAGE_TITLES has an entry for every route that names no title of its own (checked by the compiler). */
const titles: Record<Exclude<RouteId, TitledRoute>, string> = PAGE_TITLES;
const titleOf = (id: RouteId): string => {
  const p = PATHS[id];
  return 'title' in p ? p.title : titles[id as Exclude<RouteId, TitledRoute>];
};

export const ROUTES = Object.fromEntries((Object.keys(PATHS) as RouteId[]).map((id) => [id, { id, ...PATHS[id], title: titleOf(id) }])) as {
  [K in RouteId]: { id: K; title: string } & Omit<(typeof PATHS)[K], 'title'>;
} satisfies Record<string, RouteDef>;

// More specific patterns first, so /persons/add is not read as something else.
const ORDER: RouteId[] = (Object.keys(ROUTES) as RouteId[]).sort(
  (a, b) => ROUTES[b].pattern.split('/').filter((s) => !s.startsWith(':')).length - ROUTES[a].pattern.split('/').filter((s) => !s.startsWith(':')).length,
);

export function matchPath(path: string): { route: RouteId; params: Record<string, string> } | null {
  const [pathOnly = ''] = path.split(/[?#]/, 1);
  const clean = pathOnly.replace(/\/+$/, '') || '/';
  const parts = clean.split('/');
  for (const id of ORDER) {
    const pp = ROUTES[id].pattern.split('/');
    if (pp.length !== parts.length) continue;
    const params: Record<string, string> = {};
    // Segment by segment (same length, so parts[i] exists): literals must be equal, :params non-empty.
    const ok = pp.every((seg, i) => {
      const part = parts[i] ?? '';
      if (!seg.startsWith(':')) return seg === part;
      if (!part) return false;
      params[seg.slice(1)] = decodeURIComponent(part);
      return true;
    });
    if (ok) return { route: id, params };
  }
  return null;
}

export function getHref(route: RouteId, params: Record<string, string> = {}): string {
  return ROUTES[route].pattern.replace(/:(\w+)/g, (_, k: string) => encodeURIComponent(params[k] ?? ''));
}
