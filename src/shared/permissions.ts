// The one role → permission table. Both the server (token claims, route guard) and the
// client (hiding what the user cannot do) read it. Documented in docs/permissions.md.

export const P = {
  HasAccess: 'AdminPanel.HasAccess',
  DeviceListView: 'AdminPanel.Device.ListView',
  DeviceView: 'AdminPanel.Device.View',
  DeviceExport: 'AdminPanel.Device.Export',
  /** Not named by the spec: editing device details, bulk status/order/type/config changes. */
  DeviceManage: 'AdminPanel.Device.Manage',
  CustomerListView: 'AdminPanel.Customer.ListView',
  CustomerExport: 'AdminPanel.Customer.Export',
  CustomerView: 'AdminPanel.Customer.View',
  CustomerCreate: 'AdminPanel.Customer.Create',
  /** Not named by the spec ("manage-customers permission, name not shown"). */
  CustomerManage: 'AdminPanel.Customer.Manage',
  PersonListView: 'AdminPanel.Person.ListView',
  AdminManageOwnProfile: 'AdminPanel.Person.ManageOwnProfile',
  ManageOwnProfile: 'Person.ManageOwnProfile',
  PersonCreate: 'Person.Create',
  PersonEditBasicInformation: 'Person.EditBasicInformation',
  UserUnlock: 'User.Unlock',
  AlarmReportListView: 'AdminPanel.AlarmReport.ListView',
  AlarmReportAddNote: 'AdminPanel.AlarmReport.AddNote',
  AlarmReportView: 'AdminPanel.AlarmReport.View',
  AlarmReportExport: 'AdminPanel.AlarmReport.Export',
  /** Ours: scheduled reports (create, edit, pause, delete; see runs). Those who annotate and export alarm reports: ARC managers and supervisors. */
  AlarmReportSchedule: 'AdminPanel.AlarmReport.Schedule',
  /** Ours: seeing and changing (edit, pause, delete) other people's schedules; without it a schedule is its creator's alone. Provider admins. */
  AlarmReportScheduleOthers: 'AdminPanel.AlarmReport.Schedule.Others',
  /** Ours: writing closed alarm reports that arrive from the ARC platform (POST /alarm-report/import). Provider admins only: an integration account of the provider. */
  AlarmReportImport: 'AdminPanel.AlarmReport.Import',
  /** Ours: the provider settings area (features, global settings, single-sign-on domains), read. */
  SettingsView: 'AdminPanel.Settings.View',
  /** Ours: changing features, global settings, single-sign-on domains and a person's login method. */
  SettingsManage: 'AdminPanel.Settings.Manage',
  /** Ours: reading the audit trail. */
  AuditView: 'AdminPanel.Audit.View',
  /** Ours: Fleet Health, the allocated devices that are silent, not charged, unused, switched off, unconfigured or behind on firmware. Provider staff. */
  FleetHealthView: 'AdminPanel.FleetHealth.View',
  /** Ours: the usage report of a customer (days used, check-ins, alarms, low battery per device and month). Provider staff who see customers and devices. */
  UsageReportView: 'AdminPanel.UsageReport.View',
} as const;

export type Permission = (typeof P)[keyof typeof P];
export const ALL_PERMISSIONS: Permission[] = Object.values(P);

/** Role names as the person dictionaries carry them. */
export const ROLE = {
  SuperAdmin: 'SuperAdminRole',
  SuperAdminReadonly: 'SuperAdminReadonlyRole',
  ArcManager: 'ArcManagerRole',
  ArcSupervisor: 'ArcSupervisorRole',
  ArcController: 'ArcControllerRole',
  PortalUser: 'PortalUserRole',
  /** A customer administrator: customer-scoped, distinct from the provider's SuperAdminRole. */
  Admin: 'AdminRole',
} as const;
export type RoleName = (typeof ROLE)[keyof typeof ROLE];

/** Fixed role ids (GUIDs) so that demo data, tests and the client agree. */
export const ROLE_IDS: Record<RoleName, string> = {
  SuperAdminRole: '6f1c2a10-0000-4000-8000-000000000001',
  SuperAdminReadonlyRole: '6f1c2a10-0000-4000-8000-000000000002',
  ArcManagerRole: '6f1c2a10-0000-4000-8000-000000000003',
  ArcSupervisorRole: '6f1c2a10-0000-4000-8000-000000000004',
  ArcControllerRole: '6f1c2a10-0000-4000-8000-000000000005',
  PortalUserRole: '6f1c2a10-0000-4000-8000-000000000006',
  AdminRole: '6f1c2a10-0000-4000-8000-000000000007',
};

export const ROLE_LABELS: Record<RoleName, string> = {
  SuperAdminRole: 'Provider Admin',
  SuperAdminReadonlyRole: 'Provider Admin Readonly',
  ArcManagerRole: 'ARC Manager',
  ArcSupervisorRole: 'ARC Supervisor',
  ArcControllerRole: 'ARC Controller',
  PortalUserRole: 'Portal User',
  AdminRole: 'Customer Admin',
};

/** Roles the person form offers (the portal user role is never assignable there). */
export const ASSIGNABLE_ROLES: RoleName[] = ['ArcControllerRole', 'ArcManagerRole', 'ArcSupervisorRole', 'SuperAdminReadonlyRole', 'SuperAdminRole'];

const own = [P.HasAccess, P.AdminManageOwnProfile, P.ManageOwnProfile];
const alarmRead = [P.AlarmReportListView, P.AlarmReportView];

export const ROLE_PERMISSIONS: Record<RoleName, Permission[]> = {
  // Provider admin: everything.
  SuperAdminRole: [...ALL_PERMISSIONS],
  // Read-only provider staff: see and export everything, change nothing but their own profile.
  SuperAdminReadonlyRole: [
    ...own,
    P.DeviceListView,
    P.DeviceView,
    P.DeviceExport,
    P.CustomerListView,
    P.CustomerView,
    P.CustomerExport,
    P.PersonListView,
    ...alarmRead,
    P.AlarmReportExport,
    P.SettingsView,
    P.AuditView,
    P.FleetHealthView,
    P.UsageReportView,
  ],
  // ARC manager: runs the centre; reviews, annotates and exports alarm reports, sees staff.
  ArcManagerRole: [...own, ...alarmRead, P.AlarmReportAddNote, P.AlarmReportExport, P.AlarmReportSchedule, P.PersonListView],
  // ARC supervisor: reviews, annotates and exports alarm reports; schedules reports.
  ArcSupervisorRole: [...own, ...alarmRead, P.AlarmReportAddNote, P.AlarmReportExport, P.AlarmReportSchedule],
  // ARC controller: reviews and annotates the alarms they handle.
  ArcControllerRole: [...own, ...alarmRead, P.AlarmReportAddNote],
  // Customer-side portal users have no admin-panel access at all.
  PortalUserRole: [P.ManageOwnProfile],
  // Customer administrator: administers their own customer (portal side); no admin-panel access,
  // never a provider permission.
  AdminRole: [P.ManageOwnProfile],
};

/** Roles a person of a customer tenant may hold (customer administrators: both). */
export const CUSTOMER_TENANT_ROLES: RoleName[] = ['AdminRole', 'PortalUserRole'];

export function permissionsForRoles(roles: readonly string[]): Permission[] {
  const set = new Set<Permission>();
  for (const r of roles) for (const p of ROLE_PERMISSIONS[r as RoleName] ?? []) set.add(p);
  return ALL_PERMISSIONS.filter((p) => set.has(p));
}

export function roleNameById(id: string): RoleName | undefined {
  return (Object.keys(ROLE_IDS) as RoleName[]).find((r) => ROLE_IDS[r] === id);
}
