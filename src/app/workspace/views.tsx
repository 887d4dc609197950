// RouteId → the page a tab shows. Pages load lazily (one chunk per area). Routes whose screens
// belong to later versions (documents 2 and 3) show a clear "not available yet" panel, and a
// route the user has no permission for shows the spec's permission message instead of the page,
// unless the route has a read view the user may use (a person the role may list but not edit
// opens the spec's 'User Details' dialog).
import { Suspense, type ComponentType } from 'react';
import { preloadable, type Preloadable } from '../ui/preloadable';
import { ROUTES, type RouteId } from '../paths';
import { P, type Permission } from '../../shared/permissions';
import { useCan } from '../state/session';
import { ForbiddenPanel, NotAvailablePanel, TabLoading } from './panels';
import { recordRequests } from '../api/http';
import type { EarlyRequest } from '../api/early-requests';

/**
 * A page's module: the page, and what it asks for first given its tab's link, for a start-up to ask
 * for before the page renders (prefetchViewData).
 */
type PageExtras = { prefetch?: (href: string) => void };
type Page = Preloadable<object, PageExtras>;

/** A page loaded with its first use (or ahead, preloadView), one chunk per area. */
const page = (load: () => Promise<{ default: ComponentType } & PageExtras>): Page => preloadable(load);

const PersonListPage: Page = page(() => import('../features/persons/person-list-page').then((m) => ({ default: m.PersonListPage })));
const PersonFormPage: Page = page(() => import('../features/persons/person-form-page').then((m) => ({ default: m.PersonFormPage })));

export const VIEWS: Partial<Record<RouteId, Page>> = {
  persons: PersonListPage,
  assets: page(() => import('../features/assets/asset-list-page').then((m) => ({ default: m.AssetListPage, prefetch: m.prefetchAssetList }))),
  device: page(() => import('../features/assets/device-page').then((m) => ({ default: m.DevicePage }))),
  personAdd: PersonFormPage,
  personEdit: PersonFormPage,
  editOwnProfile: page(() => import('../features/profile/edit-profile-page').then((m) => ({ default: m.EditProfilePage }))),
  bulkUpdate: page(() => import('../features/bulk-update/bulk-page').then((m) => ({ default: m.BulkUpdatePage }))),
  // customers
  customers: page(() => import('../features/customers/customer-list-page').then((m) => ({ default: m.CustomerListPage }))),
  customerCreate: page(() => import('../features/customers/customer-form-page').then((m) => ({ default: m.CustomerFormPage }))),
  customerAccountEdit: page(() => import('../features/customers/customer-form-page').then((m) => ({ default: m.CustomerFormPage }))),
  customerAccount: page(() => import('../features/customers/customer-account-page').then((m) => ({ default: m.CustomerAccountPage }))),
  customerSubscriptions: page(() => import('../features/customers/customer-subscriptions-page').then((m) => ({ default: m.CustomerSubscriptionsPage }))),
  customerDevices: page(() => import('../features/customers/customer-devices-page').then((m) => ({ default: m.CustomerDevicesPage }))),
  customerAllocate: page(() => import('../features/customers/allocate-page').then((m) => ({ default: m.AllocatePage }))),
  customerSettings: page(() => import('../features/customers/customer-settings-page').then((m) => ({ default: m.CustomerSettingsPage }))),
  // live devices: the three Configure & Test Devices tabs
  bulkCurrentConfig: page(() => import('../features/bulk-manage/current-config-page').then((m) => ({ default: m.CurrentConfigPage }))),
  bulkDeviceTesting: page(() => import('../features/bulk-manage/device-testing-page').then((m) => ({ default: m.DeviceTestingPage }))),
  bulkChangeConfig: page(() => import('../features/bulk-manage/change-config-page').then((m) => ({ default: m.ChangeConfigPage }))),
  // alarm reports
  alarmReports: page(() => import('../features/alarm-reports/alarm-report-list-page').then((m) => ({ default: m.AlarmReportListPage }))),
  alarmReport: page(() => import('../features/alarm-reports/alarm-report-page').then((m) => ({ default: m.AlarmReportPage }))),
  managementReport: page(() => import('../features/alarm-reports/management-report-page').then((m) => ({ default: m.ManagementReportPage }))),
  customerManagementReport: page(() => import('../features/alarm-reports/management-report-page').then((m) => ({ default: m.ManagementReportPage }))),
  providerSettings: page(() => import('../features/admin/provider-settings-page').then((m) => ({ default: m.ProviderSettingsPage }))),
  auditTrail: page(() => import('../features/admin/audit-trail-page').then((m) => ({ default: m.AuditTrailPage }))),
  fleetHealth: page(() => import('../features/fleet/fleet-health-page').then((m) => ({ default: m.FleetHealthPage }))),
  customerUsageReport: page(() => import('../features/usage/usage-report-page').then((m) => ({ default: m.UsageReportPage }))),
  scheduledReports: page(() => import('../features/alarm-reports/scheduled-reports-page').then((m) => ({ default: m.ScheduledReportsPage }))),
};

/** Read-only stand-ins for routes whose own permission the user lacks. */
export const READ_VIEWS: Partial<Record<RouteId, { permission: Permission; View: Page }>> = {
  personEdit: {
    permission: P.PersonListView,
    View: page(() => import('../features/persons/person-details-dialog').then((m) => ({ default: m.PersonDetailsTab }))),
  },
};

/** The page the route shows to this user: its own, its read view, or null (no permission). */
function viewFor(route: RouteId, can: (access: string) => boolean): Page | null | undefined {
  const read = READ_VIEWS[route];
  return can(ROUTES[route].permission) ? VIEWS[route] : read && can(read.permission) ? read.View : null;
}

/**
 * Starts loading the chunk of the page the route shows to this user, so that a tab about to open
 * does not wait for it after the workspace has rendered, and renders at once when it does.
 * Resolves when it has loaded or failed (the page then shows the failure when it renders).
 */
export function preloadView(route: RouteId, can: (access: string) => boolean): Promise<unknown> {
  return (
    viewFor(route, can)
      ?.preload()
      .catch(() => undefined) ?? Promise.resolve()
  );
}

/**
 * Loads the route's page (as preloadView) and asks for the data it shows first for the tab's link
 * `href`, where the page says what that is (its module's `prefetch`). The requests carry the
 * session; what they answer is shown only once the server has answered for the user. Nothing is
 * asked for when `still()` says no once the page has loaded (the session ended or changed meanwhile).
 * Resolves to the requests the page asked for that a start-up can send early (recordRequests in
 * api/http.ts).
 */
export function prefetchViewData(route: RouteId, href: string, can: (access: string) => boolean, still = () => true): Promise<EarlyRequest[]> {
  return (
    viewFor(route, can)
      ?.preload()
      .then((m) => (still() ? recordRequests(() => m.prefetch?.(href)) : []))
      .catch(() => []) ?? Promise.resolve([])
  );
}

/** Whether the user can open the route at all: its page, or its read view. */
export function canOpenRoute(route: RouteId, can: (access: string) => boolean): boolean {
  const read = READ_VIEWS[route];
  return can(ROUTES[route].permission) || (!!read && can(read.permission));
}

export function RouteView({ route, href }: { route: RouteId; href: string }) {
  const View = viewFor(route, useCan());
  if (View === null) return <ForbiddenPanel route={route} />;
  if (!View) return <NotAvailablePanel route={route} href={href} />;
  return (
    <Suspense fallback={<TabLoading />}>
      <View />
    </Suspense>
  );
}
