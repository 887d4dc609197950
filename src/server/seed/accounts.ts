import type { RoleName } from '../../shared/permissions.js';

/** The demo sign-ins: one person per role, plus one with e-mail second factor. Demo data only. */
export const DEMO_ACCOUNTS: { email: string; firstName: string; lastName: string; roles: [RoleName, ...RoleName[]]; twoFactor?: 1; label: string }[] = [
  { email: 'admin@demo.test', firstName: 'Alex', lastName: 'Admin', roles: ['SuperAdminRole'], label: 'Provider Admin' },
  { email: 'admin-readonly@demo.test', firstName: 'Robin', lastName: 'Reader', roles: ['SuperAdminReadonlyRole'], label: 'Provider Admin Readonly' },
  { email: 'arc-manager@demo.test', firstName: 'Morgan', lastName: 'Manager', roles: ['ArcManagerRole'], label: 'ARC Manager' },
  { email: 'arc-supervisor@demo.test', firstName: 'Sam', lastName: 'Supervisor', roles: ['ArcSupervisorRole'], label: 'ARC Supervisor' },
  { email: 'arc-controller@demo.test', firstName: 'Casey', lastName: 'Controller', roles: ['ArcControllerRole'], label: 'ARC Controller' },
  { email: 'portal-user@demo.test', firstName: 'Pat', lastName: 'Portal', roles: ['PortalUserRole'], label: 'Portal User (no admin-panel access)' },
  {
    email: 'admin-2fa@demo.test',
    firstName: 'Jordan',
    lastName: 'Twofactor',
    roles: ['SuperAdminRole'],
    twoFactor: 1,
    label: 'Provider Admin, e-mail second factor',
  },
];
