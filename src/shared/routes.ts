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

export const ROUTES = {
  login: { id: 'login', pattern: '/login', permission: 'public', title: PAGE_TITLES.login },
  forgotPassword: { id: 'forgotPassword', pattern: '/forgot-password', permission: 'public', title: PAGE_TITLES.forgotPassword },
  editOwnProfile: { id: 'editOwnProfile', pattern: '/edit-own-profile', permission: P.ManageOwnProfile, title: PAGE_TITLES.editOwnProfile },
  persons: { id: 'persons', pattern: '/persons', permission: P.PersonListView, title: PAGE_TITLES.persons },
  personAdd: { id: 'personAdd', pattern: '/persons/add', permission: P.PersonCreate, title: PAGE_TITLES.personAdd },
  personEdit: { id: 'personEdit', pattern: '/persons/edit/:userId', permission: P.PersonEditBasicInformation, title: PAGE_TITLES.personEdit },
  assets: { id: 'assets', pattern: '/asset-management', permission: P.DeviceListView, title: PAGE_TITLES.assets },
  bulkUpdate: { id: 'bulkUpdate', pattern: '/asset-management/device-bulk-update', permission: P.DeviceListView, title: PAGE_TITLES.bulkUpdate },
  bulkCurrentConfig: {
    id: 'bulkCurrentConfig',
    pattern: '/asset-management/device-bulk-update/manage/current-configuration',
    permission: P.DeviceListView,
    title: PAGE_TITLES.bulkCurrentConfig,
  },
  bulkDeviceTesting: {
    id: 'bulkDeviceTesting',
    pattern: '/asset-management/device-bulk-update/manage/device-testing',
    permission: P.DeviceListView,
    title: PAGE_TITLES.bulkDeviceTesting,
  },
  bulkChangeConfig: {
    id: 'bulkChangeConfig',
    pattern: '/asset-management/device-bulk-update/manage/change-configuration',
    permission: P.DeviceListView,
    title: PAGE_TITLES.bulkChangeConfig,
  },
  device: { id: 'device', pattern: '/asset-management/:deviceId', permission: P.DeviceView, title: PAGE_TITLES.device },
  customers: { id: 'customers', pattern: '/customers', permission: P.CustomerListView, title: PAGE_TITLES.customers },
  customerCreate: { id: 'customerCreate', pattern: '/customers/create', permission: P.CustomerCreate, title: PAGE_TITLES.customerCreate },
  customerAccount: { id: 'customerAccount', pattern: '/customers/:customerId/account', permission: P.CustomerView, title: PAGE_TITLES.customerAccount },
  customerAccountEdit: {
    id: 'customerAccountEdit',
    pattern: '/customers/:customerId/account/edit',
    permission: P.CustomerManage,
    title: PAGE_TITLES.customerAccountEdit,
  },
  customerSubscriptions: {
    id: 'customerSubscriptions',
    pattern: '/customers/:customerId/subscriptions',
    permission: P.CustomerView,
    title: PAGE_TITLES.customerSubscriptions,
  },
  customerDevices: { id: 'customerDevices', pattern: '/customers/:customerId/devices', permission: P.CustomerView, title: PAGE_TITLES.customerDevices },
  customerAllocate: {
    id: 'customerAllocate',
    pattern: '/customers/:customerId/devices/allocate',
    permission: P.CustomerManage,
    title: PAGE_TITLES.customerAllocate,
  },
  customerSettings: { id: 'customerSettings', pattern: '/customers/:customerId/settings', permission: P.CustomerView, title: PAGE_TITLES.customerSettings },
  alarmReports: { id: 'alarmReports', pattern: '/alarm-reports', permission: P.AlarmReportListView, title: PAGE_TITLES.alarmReports },
  alarmReport: { id: 'alarmReport', pattern: '/alarm-reports/:alarmId', permission: P.AlarmReportView, title: PAGE_TITLES.alarmReport },
  /** The monthly management report of all customers, or of one (feature ExportManagementReportPDF); the month is the link's ?month=YYYY-MM. */
  managementReport: { id: 'managementReport', pattern: '/management-report', permission: P.AlarmReportExport, title: PAGE_TITLES.managementReport },
  customerManagementReport: {
    id: 'customerManagementReport',
    pattern: '/customers/:customerId/management-report',
    permission: P.AlarmReportExport,
    title: PAGE_TITLES.customerManagementReport,
  },
  providerSettings: { id: 'providerSettings', pattern: '/provider-settings', permission: P.SettingsView, title: PAGE_TITLES.providerSettings },
  auditTrail: { id: 'auditTrail', pattern: '/audit-trail', permission: P.AuditView, title: PAGE_TITLES.auditTrail },
  fleetHealth: { id: 'fleetHealth', pattern: '/fleet-health', permission: P.FleetHealthView, title: PAGE_TITLES.fleetHealth },
  /** The usage report of one customer (docs/fleet-health.md "Usage report"); the month is the link's ?month=YYYY-MM. */
  customerUsageReport: {
    id: 'customerUsageReport',
    pattern: '/customers/:customerId/usage-report',
    permission: P.UsageReportView,
    title: PAGE_TITLES.usageReport,
  },
  scheduledReports: { id: 'scheduledReports', pattern: '/scheduled-reports', permission: P.AlarmReportSchedule, title: PAGE_TITLES.scheduledReports },
} as const satisfies Record<string, RouteDef>;

export type RouteId = keyof typeof ROUTES;

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
