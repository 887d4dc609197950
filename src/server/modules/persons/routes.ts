// Persons (portal users): the provider-staff list, one person, add, identity update, unlock,
// and the signed-in user's own profile. Spec document 1, §3, §5, §7, §8.
//
// Concurrency: every update is `UPDATE ... WHERE id = :id AND etag = :old` inside one transaction
// together with the role rewrite, so of N concurrent writers holding the same etag exactly one
// wins and the others get 409 with nothing half-written.
import { deps, ApiError, badRequest, conflict, forbidden, notFound, type Api, type AuthUser, type Ctx } from '../../http/api.js';
import { tx, type DB } from '../../db/index.js';
import { audit, newEtag, newId } from '../../platform/util.js';
import { bumpSessionEpochIfRolesChange, forgetSessionState } from '../../auth/session-epoch.js';
import { CODE, MSG } from '../../../shared/messages.js';
import { CUSTOMER_TENANT_ROLES, P, ROLE, ROLE_IDS, type RoleName } from '../../../shared/permissions.js';
import { isValidId, normaliseId } from '../../../shared/codes.js';
import { PROVIDER_TENANT_ID } from '../../../shared/tenants.js';
import type { CreatedResponse, EtagResponse } from '../../../shared/schemas/common.js';
import {
  ownProfileUpdateBody,
  personByIdQuery,
  personCreateBody,
  personIdentityUpdateBody,
  personListQuery,
  PERSON_TEXT,
  type OwnProfile,
  type PersonDetails,
  type PersonList,
} from '../../../shared/schemas/persons.js';
import { findCustomerByTenant } from '../../lib/customer-lookups.js';
import { queueAdministratorWelcome } from '../../mail/administrator-welcome.js';
import {
  emailTaken,
  findPerson,
  findPersonForUpdate,
  holdsRole,
  insertPerson,
  listPersons,
  replaceRoles,
  rolesByIds,
  unlockPerson,
  updatePersonNames,
} from './repo.js';
import { canSeePerson, personScope } from './scope.js';
import { tenantScope } from '../../auth/tenant-scope.js';
import type { Hub } from '../../realtime/hub.js';
import type { RecordReader } from '../../realtime/records.js';

const isUniqueViolation = (e: unknown) => {
  const code = (e as { code?: unknown } | null)?.code;
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE';
};

function pathId(c: Ctx) {
  const raw = c.req.param('id') ?? '';
  if (!isValidId(raw)) throw badRequest(PERSON_TEXT.invalidId);
  return normaliseId(raw);
}

/**
 * Checks the requested role ids against the roles table and the tenant's rules: provider staff
 * never get the portal user or customer admin role; customer-tenant persons get only those two.
 */
async function checkRoles(db: DB, roleIds: string[], tenantId: string): Promise<RoleName[]> {
  const rows = await rolesByIds(db, roleIds);
  if (rows.length !== roleIds.length) throw badRequest(PERSON_TEXT.unknownRole, CODE.validation, { 'person.roleIds': PERSON_TEXT.unknownRole });
  const names = rows.map((r) => r.name as RoleName);
  if (tenantId === PROVIDER_TENANT_ID) {
    // Provider staff never hold the customer roles (portal user, customer administrator).
    if (names.some((n) => CUSTOMER_TENANT_ROLES.includes(n)))
      throw badRequest(PERSON_TEXT.portalRoleNotAssignable, CODE.roleNotAssignable, { 'person.roleIds': PERSON_TEXT.portalRoleNotAssignable });
  } else if (names.some((n) => !CUSTOMER_TENANT_ROLES.includes(n))) {
    throw badRequest(PERSON_TEXT.customerRoleNotAssignable, CODE.roleNotAssignable, { 'person.roleIds': PERSON_TEXT.customerRoleNotAssignable });
  }
  return names;
}

/** Persons outside the provider tenant are customer administrators: managing them needs the manage-customers permission. */
function assertTenantAccess(user: AuthUser, tenantId: string) {
  if (tenantId !== PROVIDER_TENANT_ID && !user.permissions.includes(P.CustomerManage)) throw forbidden();
}

/** The optional tenant-id header of POST /api/v1/person (adding a customer administrator). */
async function requestedTenant(c: Ctx, user: AuthUser): Promise<string> {
  const raw = (c.req.header('tenant-id') ?? '').trim();
  if (!raw) return PROVIDER_TENANT_ID;
  if (!isValidId(raw)) throw badRequest(PERSON_TEXT.invalidTenant);
  const tenantId = normaliseId(raw);
  if (tenantId === PROVIDER_TENANT_ID) return tenantId;
  assertTenantAccess(user, tenantId);
  const customer = await findCustomerByTenant(deps(c).db, tenantScope(user), tenantId);
  if (!customer) throw badRequest(PERSON_TEXT.unknownTenant);
  return tenantId;
}

/** Who may follow a person live (their tab open): the get-by-id read's permission, scoped look-up and who may see whom. */
export const personReader: RecordReader = {
  access: P.PersonListView,
  mayRead: async (db, user, id) => !!(await findPerson(db, tenantScope(user), id)) && (await canSeePerson(db, user, id)),
};

export function personRoutes(api: Api, hub: Hub) {
  /**
   * Every person (provider staff, customer administrators and lone workers: the whole user
   * directory, so an admin can find and unlock anyone), paged and sorted as listPersons says.
   */
  api.get(
    '/ps-admin/persons/get-list',
    {
      access: P.PersonListView,
      query: personListQuery,
      sample: { query: { page: '1', pageSize: '10', orderBy: 'UserName', desc: 'false', searchValue: 'a', sortRoleId: ROLE_IDS.ArcManagerRole } },
    },
    async (c, { query, user }) => {
      const { db, config } = deps(c);
      return c.json((await listPersons(db, tenantScope(user), query, personScope(user), config.now())) satisfies PersonList);
    },
  );

  api.get(
    '/persons/get-by-id',
    {
      access: P.PersonListView,
      query: personByIdQuery,
      sample: { query: { Id: '00000000-0000-4000-8000-000000000000' } },
    },
    async (c, { query, user }) => {
      const { db, config } = deps(c);
      const found = await findPerson(db, tenantScope(user), query, config.now());
      if (!found || !(await canSeePerson(db, user, found.Person.Id))) throw notFound(MSG.userNotFound);
      return c.json({ Person: found.Person, Etag: found.Etag } satisfies PersonDetails);
    },
  );

  api.post(
    '/api/v1/person',
    {
      access: P.PersonCreate,
      json: personCreateBody,
      sample: { json: { person: { firstName: 'Sample', lastName: 'Person', emailAddress: 'sample@example.com', roleIds: [ROLE_IDS.ArcManagerRole] } } },
    },
    async (c, { body, user }) => {
      const { db, config, outbox } = deps(c);
      const p = body.person;
      const tenantId = await requestedTenant(c, user);
      const customer = tenantId === PROVIDER_TENANT_ID ? undefined : await findCustomerByTenant(db, tenantScope(user), tenantId);
      const roleNames = await checkRoles(db, p.roleIds, tenantId);
      if (await emailTaken(db, p.emailAddress))
        throw new ApiError(409, PERSON_TEXT.duplicateEmail, CODE.duplicateEmail, { 'person.emailAddress': PERSON_TEXT.duplicateEmail });
      const id = newId();
      const etag = newEtag();
      const now = config.now().toISOString();
      try {
        await tx(db, async (trx) => {
          await insertPerson(trx, { id, tenantId, firstName: p.firstName, lastName: p.lastName, email: p.emailAddress, roleIds: p.roleIds, etag, at: now });
          await audit(trx, {
            actorId: user.id,
            action: 'person.create',
            entity: 'person',
            entityId: id,
            at: config.now(),
            details: { tenantId, firstName: p.firstName, lastName: p.lastName, email: p.emailAddress, roles: roleNames },
          });
          // A customer administrator gets a set-password e-mail (customers; held while the customer pauses e-mail).
          if (customer) await queueAdministratorWelcome(trx, outbox, config, { email: p.emailAddress, firstName: p.firstName, customerName: customer.name });
        });
      } catch (e) {
        if (isUniqueViolation(e))
          throw new ApiError(409, PERSON_TEXT.duplicateEmail, CODE.duplicateEmail, { 'person.emailAddress': PERSON_TEXT.duplicateEmail });
        throw e;
      }
      if (customer) outbox.flush(db);
      return c.json({ Id: id, Etag: etag } satisfies CreatedResponse, 201);
    },
  );

  api.put(
    '/api/v1/person/:id/identity-update',
    {
      access: P.PersonEditBasicInformation,
      json: personIdentityUpdateBody,
      sample: {
        json: { person: { firstName: 'Sample', lastName: 'Person', emailAddress: 'sample@example.com', roleIds: [ROLE_IDS.ArcManagerRole], etag: '"sample"' } },
      },
    },
    async (c, { body, user }) => {
      const { db, config } = deps(c);
      const id = pathId(c);
      if (body.personId !== undefined && body.personId !== '' && (!isValidId(body.personId) || normaliseId(body.personId) !== id))
        throw badRequest(PERSON_TEXT.personIdMismatch);
      const p = body.person;
      const etag = newEtag();
      await tx(db, async (trx) => {
        const current = await findPersonForUpdate(trx, tenantScope(user), id);
        if (!current) throw notFound(MSG.userNotFound);
        assertTenantAccess(user, current.tenantId);
        if (p.emailAddress !== undefined && p.emailAddress !== current.email)
          throw badRequest(PERSON_TEXT.emailCannotChange, CODE.validation, { 'person.emailAddress': PERSON_TEXT.emailCannotChange });
        const roleNames = await checkRoles(trx, p.roleIds, current.tenantId);
        if (id === user.id && !roleNames.includes(ROLE.SuperAdmin)) {
          if (await holdsRole(trx, id, ROLE.SuperAdmin))
            throw badRequest(MSG.cannotRemoveSuperAdmin, CODE.cannotRemoveSuperAdmin, { 'person.roleIds': MSG.cannotRemoveSuperAdmin });
        }
        if (current.etag !== body.etag) throw conflict();
        const updated = await updatePersonNames(trx, id, body.etag, {
          firstName: p.firstName,
          lastName: p.lastName,
          email: current.email,
          etag,
          at: config.now().toISOString(),
        });
        if (!updated) throw conflict();
        await bumpSessionEpochIfRolesChange(trx, id, p.roleIds); // the person's access tokens carry the old permissions: they end within seconds
        await replaceRoles(trx, id, p.roleIds);
        await audit(trx, {
          actorId: user.id,
          action: 'person.identity-update',
          entity: 'person',
          entityId: id,
          at: config.now(),
          details: { firstName: p.firstName, lastName: p.lastName, roles: roleNames },
        });
      });
      forgetSessionState(id); // after the commit: live connections holding the old permissions end too
      await hub.recordsChanged(user, [{ kind: 'person', id, what: 'change' }], config.now());
      return c.json({ Etag: etag } satisfies EtagResponse);
    },
  );

  api.put('/api/v1/:id/unlock', { access: P.UserUnlock }, async (c, { user }) => {
    const { db, config } = deps(c);
    const id = pathId(c);
    const etag = newEtag();
    await tx(db, async (trx) => {
      const current = await findPersonForUpdate(trx, tenantScope(user), id);
      if (!current) throw notFound(MSG.userNotFound);
      assertTenantAccess(user, current.tenantId);
      await unlockPerson(trx, id, { etag, at: config.now().toISOString() });
      await audit(trx, {
        actorId: user.id,
        action: 'person.unlock',
        entity: 'person',
        entityId: id,
        at: config.now(),
        details: { wasLocked: current.isLocked === 1 },
      });
    });
    await hub.recordsChanged(user, [{ kind: 'person', id, what: 'change' }], config.now());
    return c.json({ Etag: etag } satisfies EtagResponse);
  });

  api.get('/persons/get-own-profile', { access: P.ManageOwnProfile }, async (c, { user }) => {
    const found = await findPerson(deps(c).db, tenantScope(user), user.id, deps(c).config.now());
    if (!found) throw notFound(MSG.userNotFound);
    return c.json({ Person: found.Person, Etag: found.Etag } satisfies OwnProfile);
  });

  api.put(
    '/api/v1/person/basic-info-update',
    {
      access: P.ManageOwnProfile,
      json: ownProfileUpdateBody,
      sample: {
        json: {
          etag: '"sample"',
          person: { firstName: 'Sample', lastName: 'Person', phoneNumbers: [{ CountryCode: 'GB', Number: '020 7946 0018', IsPrimary: true, Type: 1 }] },
        },
      },
    },
    async (c, { body, user }) => {
      const { db, config } = deps(c);
      const p = body.person;
      const etag = newEtag();
      await tx(db, async (trx) => {
        const current = await findPersonForUpdate(trx, tenantScope(user), user.id);
        if (!current) throw notFound(MSG.userNotFound);
        if (current.etag !== body.etag) throw conflict();
        const updated = await updatePersonNames(trx, user.id, body.etag, {
          firstName: p.firstName,
          lastName: p.lastName,
          email: current.email,
          phoneNumbers: p.phoneNumbers,
          etag,
          at: config.now().toISOString(),
        });
        if (!updated) throw conflict();
        await audit(trx, {
          actorId: user.id,
          action: 'person.basic-info-update',
          entity: 'person',
          entityId: user.id,
          at: config.now(),
          details: { firstName: p.firstName, lastName: p.lastName, phoneNumbers: p.phoneNumbers.length },
        });
      });
      await hub.recordsChanged(user, [{ kind: 'person', id: user.id, what: 'change' }], config.now());
      return c.json({ Etag: etag } satisfies EtagResponse);
    },
  );
}
