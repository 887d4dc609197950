// 012_customer_admin_role: customer administrators hold the customer-scoped AdminRole (spec
// document 2 §3), distinct from the provider's SuperAdminRole.
//   - roles: AdminRole is added (fixed id, order 7) when missing.
//   - personRoles: every SuperAdminRole held by a person outside the provider tenant becomes
//     AdminRole, so no customer-tenant person holds a provider role any more.
//
// The ids are written out (not imported): a migration must keep meaning what it meant when written.
import { type Kysely, type Migration, sql } from 'kysely';

const PROVIDER_TENANT_ID = '00000000-0000-4000-8000-00000000a11c';
const SUPER_ADMIN_ROLE_ID = '6f1c2a10-0000-4000-8000-000000000001';
const ADMIN_ROLE_ID = '6f1c2a10-0000-4000-8000-000000000007';

export const m012: Migration = {
  async up(db: Kysely<any>) {
    const roles = await db.selectFrom('roles').select('id').execute();
    // On a fresh database the roles are seeded after the migrations (seedReferenceData adds every missing role).
    if (roles.length && !roles.some((r) => r.id === ADMIN_ROLE_ID))
      await db.insertInto('roles').values({ id: ADMIN_ROLE_ID, name: 'AdminRole', isDefault: 0, order: 7 }).execute();
    await sql`
      update "personRoles" set "roleId" = ${ADMIN_ROLE_ID}
      where "roleId" = ${SUPER_ADMIN_ROLE_ID}
        and "personId" in (select "id" from "persons" where "tenantId" <> ${PROVIDER_TENANT_ID})
    `.execute(db);
  },
  async down(db: Kysely<any>) {
    await sql`update "personRoles" set "roleId" = ${SUPER_ADMIN_ROLE_ID} where "roleId" = ${ADMIN_ROLE_ID}`.execute(db);
    await db.deleteFrom('roles').where('id', '=', ADMIN_ROLE_ID).execute();
  },
};
