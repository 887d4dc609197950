// Every spec route in one table. Tabs, links, deep links and commands all go through it.
// `match` turns a URL path into { route, params }; `getHref` builds one.
import { P, type Permission } from '../shared/permissions';

export type RouteDef = {
  id: string;
  pattern: string; // wouter-style, e.g. /persons/edit/:userId
  /** Permission needed to open it ('signed-in' = any signed-in user). */
  permission: Permission | 'signed-in' | 'public';
  /** Static title; records override it with their own (customer name, person name ...). */
  title: string;
};

export const ROUTES = {
  login: { id: 'login', pattern: '/login', permission: 'public', title: 'Sign in' },
  forgotPassword: { id: 'forgotPassword', pattern: '/forgot-password', permission: 'public', title: 'Forgot password?' },
  editOwnProfile: { id: 'editOwnProfile', pattern: '/edit-own-profile', permission: P.ManageOwnProfile, title: 'Edit Profile' },
  persons: { id: 'persons', pattern: '/persons', permission: P.PersonListView, title: 'Manage Users' },
  personAdd: { id: 'personAdd', pattern: '/persons/add', permission: P.PersonCreate, title: 'Add new user' },
  personEdit: { id: 'personEdit', pattern: '/persons/edit/:userId', permission: P.PersonEditBasicInformation, title: 'Edit user' },
  assets: { id: 'assets', pattern: '/asset-management', permission: P.DeviceListView, title: 'Asset Management' },
  bulkUpdate: { id: 'bulkUpdate', pattern: '/asset-management/device-bulk-update', permission: P.DeviceListView, title: 'Enter Device Serial Numbers' },
  bulkCurrentConfig: { id: 'bulkCurrentConfig', pattern: '/asset-management/device-bulk-update/manage/current-configuration', permission: P.DeviceListView, title: 'Configure & Test Devices' },
  bulkDeviceTesting: { id: 'bulkDeviceTesting', pattern: '/asset-management/device-bulk-update/manage/device-testing', permission: P.DeviceListView, title: 'Configure & Test Devices' },
  bulkChangeConfig: { id: 'bulkChangeConfig', pattern: '/asset-management/device-bulk-update/manage/change-configuration', permission: P.DeviceListView, title: 'Configure & Test Devices' },
  device: { id: 'device', pattern: '/asset-management/:deviceId', permission: P.DeviceView, title: 'Device Details' },
  customers: { id: 'customers', pattern: '/customers', permission: P.CustomerListView, title: 'Customers' },
  customerCreate: { id: 'customerCreate', pattern: '/customers/create', permission: P.CustomerCreate, title: 'Create Account' },
  customerAccount: { id: 'customerAccount', pattern: '/customers/:customerId/account', permission: P.CustomerView, title: 'Customer' },
  customerAccountEdit: { id: 'customerAccountEdit', pattern: '/customers/:customerId/account/edit', permission: P.CustomerManage, title: 'Edit Account' },
  customerSubscriptions: { id: 'customerSubscriptions', pattern: '/customers/:customerId/subscriptions', permission: P.CustomerView, title: 'Customer' },
  customerDevices: { id: 'customerDevices', pattern: '/customers/:customerId/devices', permission: P.CustomerView, title: 'Customer' },
  customerAllocate: { id: 'customerAllocate', pattern: '/customers/:customerId/devices/allocate', permission: P.CustomerManage, title: 'Allocate Devices' },
  customerSettings: { id: 'customerSettings', pattern: '/customers/:customerId/settings', permission: P.CustomerView, title: 'System' },
  alarmReports: { id: 'alarmReports', pattern: '/alarm-reports', permission: P.AlarmReportListView, title: 'Alarm Reports' },
  alarmReport: { id: 'alarmReport', pattern: '/alarm-reports/:alarmId', permission: P.AlarmReportView, title: 'Closed Alarm Report' },
} as const satisfies Record<string, RouteDef>;

export type RouteId = keyof typeof ROUTES;

// More specific patterns first, so /persons/add is not read as something else.
const ORDER: RouteId[] = (Object.keys(ROUTES) as RouteId[]).sort(
  (a, b) => ROUTES[b].pattern.split('/').filter((s) => !s.startsWith(':')).length - ROUTES[a].pattern.split('/').filter((s) => !s.startsWith(':')).length,
);

export function matchPath(path: string): { route: RouteId; params: Record<string, string> } | null {
  const clean = path.split(/[?#]/)[0].replace(/\/+$/, '') || '/';
  const parts = clean.split('/');
  for (const id of ORDER) {
    const pp = ROUTES[id].pattern.split('/');
    if (pp.length !== parts.length) continue;
    const params: Record<string, string> = {};
    let ok = true;
    for (let i = 0; i < pp.length; i++) {
      if (pp[i].startsWith(':')) {
        if (!parts[i]) { ok = false; break; }
        params[pp[i].slice(1)] = decodeURIComponent(parts[i]);
      } else if (pp[i] !== parts[i]) { ok = false; break; }
    }
    if (ok) return { route: id, params };
  }
  return null;
}

export function getHref(route: RouteId, params: Record<string, string> = {}): string {
  return ROUTES[route].pattern.replace(/:(\w+)/g, (_, k: string) => encodeURIComponent(params[k] ?? ''));
}
