// Fixed ids the demo data, the tests and the client agree on.

/** Tenant of the provider's own staff (admins, ARC managers, supervisors, controllers). Same as tests/helpers/auth.ts. */
export const PROVIDER_TENANT_ID = '00000000-0000-4000-8000-00000000a11c';
