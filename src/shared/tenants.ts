/**
 * The provider's own tenant: provider staff (admins, read-only admins) and ARC staff live here.
 * Customer persons carry their customer's tenant id instead. The demo data uses the same literal.
 */
export const PROVIDER_TENANT_ID = '00000000-0000-4000-8000-00000000a11c';
