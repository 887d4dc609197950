// RouteId → the page a tab shows. Pages load lazily (one chunk per area). Routes whose screens
// belong to later versions (documents 2 and 3) show a clear "not available yet" panel, and a
// route the user has no permission for shows the spec's permission message instead of the page,
// unless the route has a read view the user may use (a person the role may list but not edit
// opens the spec's 'User Details' dialog).
import { lazy, Suspense, type ComponentType, type LazyExoticComponent } from 'react';
import { ROUTES, type RouteId } from '../paths';
import { P, type Permission } from '../../shared/permissions';
import { useCan } from '../state/session';
import { ForbiddenPanel, NotAvailablePanel, TabLoading } from './panels';

type Page = LazyExoticComponent<ComponentType>;

const PersonListPage: Page = lazy(() => import('../features/persons/person-list-page').then((m) => ({ default: m.PersonListPage })));
const PersonFormPage: Page = lazy(() => import('../features/persons/person-form-page').then((m) => ({ default: m.PersonFormPage })));

export const VIEWS: Partial<Record<RouteId, Page>> = {
  persons: PersonListPage,
  assets: lazy(() => import('../features/assets/asset-list-page').then((m) => ({ default: m.AssetListPage }))),
  device: lazy(() => import('../features/assets/device-page').then((m) => ({ default: m.DevicePage }))),
  personAdd: PersonFormPage,
  personEdit: PersonFormPage,
  editOwnProfile: lazy(() => import('../features/profile/edit-profile-page').then((m) => ({ default: m.EditProfilePage }))),
  bulkUpdate: lazy(() => import('../features/bulk-update/bulk-page').then((m) => ({ default: m.BulkUpdatePage }))),
  // customers
  customers: lazy(() => import('../features/customers/customer-list-page').then((m) => ({ default: m.CustomerListPage }))),
  customerCreate: lazy(() => import('../features/customers/customer-form-page').then((m) => ({ default: m.CustomerFormPage }))),
  customerAccountEdit: lazy(() => import('../features/customers/customer-form-page').then((m) => ({ default: m.CustomerFormPage }))),
  customerAccount: lazy(() => import('../features/customers/customer-account-page').then((m) => ({ default: m.CustomerAccountPage }))),
  customerSubscriptions: lazy(() => import('../features/customers/customer-subscriptions-page').then((m) => ({ default: m.CustomerSubscriptionsPage }))),
  customerDevices: lazy(() => import('../features/customers/customer-devices-page').then((m) => ({ default: m.CustomerDevicesPage }))),
  customerAllocate: lazy(() => import('../features/customers/allocate-page').then((m) => ({ default: m.AllocatePage }))),
  customerSettings: lazy(() => import('../features/customers/customer-settings-page').then((m) => ({ default: m.CustomerSettingsPage }))),
  // live devices: the three Configure & Test Devices tabs
  bulkCurrentConfig: lazy(() => import('../features/bulk-manage/current-config-page').then((m) => ({ default: m.CurrentConfigPage }))),
  bulkDeviceTesting: lazy(() => import('../features/bulk-manage/device-testing-page').then((m) => ({ default: m.DeviceTestingPage }))),
  bulkChangeConfig: lazy(() => import('../features/bulk-manage/change-config-page').then((m) => ({ default: m.ChangeConfigPage }))),
  // alarm reports
  alarmReports: lazy(() => import('../features/alarm-reports/alarm-report-list-page').then((m) => ({ default: m.AlarmReportListPage }))),
  alarmReport: lazy(() => import('../features/alarm-reports/alarm-report-page').then((m) => ({ default: m.AlarmReportPage }))),
  managementReport: lazy(() => import('../features/alarm-reports/management-report-page').then((m) => ({ default: m.ManagementReportPage }))),
  customerManagementReport: lazy(() => import('../features/alarm-reports/management-report-page').then((m) => ({ default: m.ManagementReportPage }))),
  providerSettings: lazy(() => import('../features/admin/provider-settings-page').then((m) => ({ default: m.ProviderSettingsPage }))),
  auditTrail: lazy(() => import('../features/admin/audit-trail-page').then((m) => ({ default: m.AuditTrailPage }))),
  fleetHealth: lazy(() => import('../features/fleet/fleet-health-page').then((m) => ({ default: m.FleetHealthPage }))),
  customerUsageReport: lazy(() => import('../features/usage/usage-report-page').then((m) => ({ default: m.UsageReportPage }))),
  scheduledReports: lazy(() => import('../features/alarm-reports/scheduled-reports-page').then((m) => ({ default: m.ScheduledReportsPage }))),
};

/** Read-only stand-ins for routes whose own permission the user lacks. */
export const READ_VIEWS: Partial<Record<RouteId, { permission: Permission; View: Page }>> = {
  personEdit: {
    permission: P.PersonListView,
    View: lazy(() => import('../features/persons/person-details-dialog').then((m) => ({ default: m.PersonDetailsTab }))),
  },
};

/** Whether the user can open the route at all: its page, or its read view. */
export function canOpenRoute(route: RouteId, can: (access: string) => boolean): boolean {
  const read = READ_VIEWS[route];
  return can(ROUTES[route].permission) || (!!read && can(read.permission));
}

export function RouteView({ route, href }: { route: RouteId; href: string }) {
  const can = useCan();
  const read = READ_VIEWS[route];
  const View = can(ROUTES[route].permission) ? VIEWS[route] : read && can(read.permission) ? read.View : null;
  if (View === null) return <ForbiddenPanel route={route} />;
  if (!View) return <NotAvailablePanel route={route} href={href} />;
  return (
    <Suspense fallback={<TabLoading />}>
      <View />
    </Suspense>
  );
}
