// Persons (portal users): the provider-staff list, one person, add, identity update, unlock,
// and the signed-in user's own profile. Spec document 1, §3, §5, §7, §8.
//
// Concurrency: every update is `UPDATE ... WHERE id = :id AND etag = :old` inside one transaction
// together with the role rewrite, so of N concurrent writers holding the same etag exactly one
// wins and the others get 409 with nothing half-written.
import { deps, ApiError, badRequest, conflict, forbidden, notFound, type Api, type AuthUser, type Ctx } from '../../http.js';
import { sql, tx, type DB } from '../../db/index.js';
import { audit, likeEscape, newEtag, newId } from '../../util.js';
import { CODE, MSG } from '../../../shared/messages.js';
import { P, ROLE, ROLE_IDS, type RoleName } from '../../../shared/permissions.js';
import { isValidId, normaliseId } from '../../../shared/codes.js';
import { PROVIDER_TENANT_ID } from '../../../shared/tenants.js';
import type { RoleDto } from '../../../shared/schemas/reference.js';
import {
  ownProfileUpdateBody, personByIdQuery, personCreateBody, personIdentityUpdateBody, personListQuery,
  PERSON_TEXT, type PhoneEntry,
} from '../../../shared/schemas/persons.js';

export type PersonListItemDto = {
  Id: string;
  FirstName: string;
  LastName: string;
  Email: string;
  Roles: RoleDto[];
  IsLocked: boolean;
  LastLoginDate: string | null;
  PersonStatus: number;
  Etag: string;
};
export type PersonDto = {
  Id: string;
  FirstName: string;
  LastName: string;
  Contact: { EmailAddress: string };
  Roles: RoleDto[];
  IsLocked: boolean;
  PersonStatus: number;
  PhoneNumbers: PhoneEntry[];
};

/** Customer administrators (persons of a customer tenant) hold only these roles (spec §6). */
const CUSTOMER_TENANT_ROLES: RoleName[] = [ROLE.SuperAdmin, ROLE.PortalUser];

const searchTextOf = (firstName: string, lastName: string, email: string) => `${firstName} ${lastName} ${email}`.toLowerCase();

const isUniqueViolation = (e: unknown) => {
  const code = (e as { code?: unknown } | null)?.code;
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE';
};

function pathId(c: Ctx) {
  const raw = c.req.param('id') ?? '';
  if (!isValidId(raw)) throw badRequest(PERSON_TEXT.invalidId);
  return normaliseId(raw);
}

function parsePhones(json: string): PhoneEntry[] {
  try {
    const list = JSON.parse(json);
    if (!Array.isArray(list)) return [];
    return list
      .filter((p) => p && typeof p === 'object')
      .map((p) => ({ CountryCode: String(p.CountryCode ?? ''), Number: String(p.Number ?? ''), IsPrimary: p.IsPrimary === true, Type: Number(p.Type) }));
  } catch {
    return [];
  }
}

/** The stored lone-worker profile (spec §3 "Person read view": Title, JobSector, PersonalDetails ...), {} when absent. */
function parseProfile(json: string | null): Record<string, unknown> {
  try {
    const p = JSON.parse(json ?? '{}');
    return p && typeof p === 'object' && !Array.isArray(p) ? p : {};
  } catch {
    return {};
  }
}

/** Roles of many persons in one query, each list in role order. */
async function rolesOf(db: DB, personIds: string[]): Promise<Map<string, RoleDto[]>> {
  const map = new Map<string, RoleDto[]>(personIds.map((id) => [id, []]));
  if (!personIds.length) return map;
  const rows = await db.selectFrom('personRoles')
    .innerJoin('roles', 'roles.id', 'personRoles.roleId')
    .select(['personRoles.personId', 'roles.id', 'roles.name', 'roles.isDefault', 'roles.order'])
    .where('personRoles.personId', 'in', personIds)
    .orderBy('roles.order')
    .execute();
  for (const r of rows)
    map.get(r.personId)?.push({ Id: r.id, Name: r.name as RoleName, IsDefault: r.isDefault === 1, Order: r.order });
  return map;
}

async function loadPerson(db: DB, id: string) {
  const row = await db.selectFrom('persons')
    .select(['id', 'tenantId', 'firstName', 'lastName', 'email', 'isLocked', 'personStatus', 'phoneNumbers', 'profile', 'etag'])
    .where('id', '=', id)
    .executeTakeFirst();
  if (!row) return undefined;
  const roles = (await rolesOf(db, [id])).get(id) ?? [];
  const Person: PersonDto = {
    Id: row.id,
    FirstName: row.firstName,
    LastName: row.lastName,
    Contact: { EmailAddress: row.email },
    Roles: roles,
    IsLocked: row.isLocked === 1,
    PersonStatus: row.personStatus,
    PhoneNumbers: parsePhones(row.phoneNumbers),
  };
  return { row, Person };
}

/**
 * Checks the requested role ids against the roles table and the tenant's rules: provider staff
 * never get the portal user role; customer-tenant persons get only the admin and portal roles.
 */
async function checkRoles(db: DB, roleIds: string[], tenantId: string): Promise<RoleName[]> {
  const rows = await db.selectFrom('roles').select(['id', 'name']).where('id', 'in', roleIds).execute();
  if (rows.length !== roleIds.length)
    throw badRequest(PERSON_TEXT.unknownRole, CODE.validation, { 'person.roleIds': PERSON_TEXT.unknownRole });
  const names = rows.map((r) => r.name as RoleName);
  if (tenantId === PROVIDER_TENANT_ID) {
    if (names.includes(ROLE.PortalUser))
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
  const customer = await deps(c).db.selectFrom('customers').select('id').where('tenantId', '=', tenantId).executeTakeFirst();
  if (!customer) throw badRequest(PERSON_TEXT.unknownTenant);
  return tenantId;
}

export function personRoutes(api: Api) {
  /**
   * Every person (provider staff, customer administrators and lone workers: the whole user
   * directory, so an admin can find and unlock anyone), paged. orderBy UserName (first then last name), Email or
   * LastLoginDate (never-logged-in counts as oldest); with sortRoleId the holders of that role come
   * first (last when desc), then by name. Names and e-mails sort case-insensitively; id breaks ties
   * so pages never overlap.
   */
  api.get('/ps-admin/persons/get-list', {
    access: P.PersonListView,
    query: personListQuery,
    sample: { query: { page: '1', pageSize: '10', orderBy: 'UserName', desc: 'false', searchValue: 'a', sortRoleId: ROLE_IDS.ArcManagerRole } },
  }, async (c, { query }) => {
    const { db } = deps(c);
    const dir = query.desc ? 'desc' : 'asc';
    let base = db.selectFrom('persons');
    const term = query.searchValue.replace(/\s+/g, ' ').toLowerCase();
    if (term) base = base.where(sql<boolean>`${sql.ref('persons.searchText')} like ${`%${likeEscape(term)}%`} escape '\\'`);

    let page = base.select([
      'persons.id', 'persons.firstName', 'persons.lastName', 'persons.email', 'persons.isLocked',
      'persons.lastLoginDate', 'persons.personStatus', 'persons.etag',
    ]);
    const byName = () => {
      page = page.orderBy(sql`lower(${sql.ref('persons.firstName')})`, dir).orderBy(sql`lower(${sql.ref('persons.lastName')})`, dir);
    };
    if (query.sortRoleId) {
      const roleId = query.sortRoleId;
      page = page.orderBy(
        (eb) => eb.case()
          .when(eb.exists(eb.selectFrom('personRoles').select('personRoles.roleId')
            .whereRef('personRoles.personId', '=', 'persons.id').where('personRoles.roleId', '=', roleId)))
          .then(0).else(1).end(),
        dir,
      );
      byName();
    } else if (query.orderBy === 'Email') {
      page = page.orderBy('persons.email', dir);
    } else if (query.orderBy === 'LastLoginDate') {
      page = page.orderBy(sql`coalesce(${sql.ref('persons.lastLoginDate')}, '')`, dir);
      byName();
    } else byName();
    page = page.orderBy('persons.id', dir);

    const [rows, total] = await Promise.all([
      page.limit(query.pageSize).offset((query.page - 1) * query.pageSize).execute(),
      base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
    ]);
    const roles = await rolesOf(db, rows.map((r) => r.id));
    const Items: PersonListItemDto[] = rows.map((r) => ({
      Id: r.id,
      FirstName: r.firstName,
      LastName: r.lastName,
      Email: r.email,
      Roles: roles.get(r.id) ?? [],
      IsLocked: r.isLocked === 1,
      LastLoginDate: r.lastLoginDate,
      PersonStatus: r.personStatus,
      Etag: r.etag,
    }));
    return c.json({ Items, TotalCount: Number(total.n) });
  });

  api.get('/persons/get-by-id', {
    access: P.PersonListView,
    query: personByIdQuery,
    sample: { query: { Id: '00000000-0000-4000-8000-000000000000' } },
  }, async (c, { query }) => {
    const found = await loadPerson(deps(c).db, query);
    if (!found) throw notFound(MSG.userNotFound);
    // The read view (profile dialog) shows the stored profile too; the identity fields win.
    return c.json({ Person: { ...parseProfile(found.row.profile), ...found.Person }, Etag: found.row.etag });
  });

  api.post('/api/v1/person', {
    access: P.PersonCreate,
    json: personCreateBody,
    sample: { json: { person: { firstName: 'Sample', lastName: 'Person', emailAddress: 'sample@example.com', roleIds: [ROLE_IDS.ArcManagerRole] } } },
  }, async (c, { body, user }) => {
    const { db, config } = deps(c);
    const p = body.person;
    const tenantId = await requestedTenant(c, user);
    const roleNames = await checkRoles(db, p.roleIds, tenantId);
    const dup = await db.selectFrom('persons').select('id').where('email', '=', p.emailAddress).executeTakeFirst();
    if (dup) throw new ApiError(409, PERSON_TEXT.duplicateEmail, CODE.duplicateEmail, { 'person.emailAddress': PERSON_TEXT.duplicateEmail });
    const id = newId();
    const etag = newEtag();
    const now = config.now().toISOString();
    try {
      await tx(db, async (trx) => {
        await trx.insertInto('persons').values({
          id, tenantId, firstName: p.firstName, lastName: p.lastName, email: p.emailAddress, passwordHash: null,
          isLocked: 0, failedAttempts: 0, lastLoginDate: null, personStatus: 1, loginMethod: 1, twoFactorType: null,
          twoFactorPhone: null, phoneNumbers: '[]', profile: '{}', searchText: searchTextOf(p.firstName, p.lastName, p.emailAddress),
          etag, createdAt: now, updatedAt: now,
        }).execute();
        await trx.insertInto('personRoles').values(p.roleIds.map((roleId) => ({ personId: id, roleId }))).execute();
        await audit(trx, {
          actorId: user.id, action: 'person.create', entity: 'person', entityId: id, at: config.now(),
          details: { tenantId, firstName: p.firstName, lastName: p.lastName, email: p.emailAddress, roles: roleNames },
        });
      });
    } catch (e) {
      if (isUniqueViolation(e))
        throw new ApiError(409, PERSON_TEXT.duplicateEmail, CODE.duplicateEmail, { 'person.emailAddress': PERSON_TEXT.duplicateEmail });
      throw e;
    }
    return c.json({ Id: id, Etag: etag }, 201);
  });

  api.put('/api/v1/person/:id/identity-update', {
    access: P.PersonEditBasicInformation,
    json: personIdentityUpdateBody,
    sample: {
      json: { person: { firstName: 'Sample', lastName: 'Person', emailAddress: 'sample@example.com', roleIds: [ROLE_IDS.ArcManagerRole], etag: '"sample"' } },
    },
  }, async (c, { body, user }) => {
    const { db, config } = deps(c);
    const id = pathId(c);
    if (body.personId !== undefined && body.personId !== '' && (!isValidId(body.personId) || normaliseId(body.personId) !== id))
      throw badRequest(PERSON_TEXT.personIdMismatch);
    const p = body.person;
    const etag = newEtag();
    await tx(db, async (trx) => {
      const current = await trx.selectFrom('persons').select(['id', 'tenantId', 'email', 'etag']).where('id', '=', id).executeTakeFirst();
      if (!current) throw notFound(MSG.userNotFound);
      assertTenantAccess(user, current.tenantId);
      if (p.emailAddress !== undefined && p.emailAddress !== current.email)
        throw badRequest(PERSON_TEXT.emailCannotChange, CODE.validation, { 'person.emailAddress': PERSON_TEXT.emailCannotChange });
      const roleNames = await checkRoles(trx, p.roleIds, current.tenantId);
      if (id === user.id && !roleNames.includes(ROLE.SuperAdmin)) {
        const had = await trx.selectFrom('personRoles').select('roleId')
          .innerJoin('roles', 'roles.id', 'personRoles.roleId')
          .where('personRoles.personId', '=', id).where('roles.name', '=', ROLE.SuperAdmin).executeTakeFirst();
        if (had) throw badRequest(MSG.cannotRemoveSuperAdmin, CODE.cannotRemoveSuperAdmin, { 'person.roleIds': MSG.cannotRemoveSuperAdmin });
      }
      if (current.etag !== body.etag) throw conflict();
      const r = await trx.updateTable('persons')
        .set({
          firstName: p.firstName, lastName: p.lastName, searchText: searchTextOf(p.firstName, p.lastName, current.email),
          etag, updatedAt: config.now().toISOString(),
        })
        .where('id', '=', id).where('etag', '=', body.etag)
        .executeTakeFirst();
      if (Number(r.numUpdatedRows) !== 1) throw conflict();
      await trx.deleteFrom('personRoles').where('personId', '=', id).execute();
      await trx.insertInto('personRoles').values(p.roleIds.map((roleId) => ({ personId: id, roleId }))).execute();
      await audit(trx, {
        actorId: user.id, action: 'person.identity-update', entity: 'person', entityId: id, at: config.now(),
        details: { firstName: p.firstName, lastName: p.lastName, roles: roleNames },
      });
    });
    return c.json({ Etag: etag });
  });

  api.put('/api/v1/:id/unlock', { access: P.UserUnlock }, async (c, { user }) => {
    const { db, config } = deps(c);
    const id = pathId(c);
    const etag = newEtag();
    await tx(db, async (trx) => {
      const current = await trx.selectFrom('persons').select(['tenantId', 'isLocked']).where('id', '=', id).executeTakeFirst();
      if (!current) throw notFound(MSG.userNotFound);
      assertTenantAccess(user, current.tenantId);
      await trx.updateTable('persons').set({ isLocked: 0, failedAttempts: 0, etag, updatedAt: config.now().toISOString() })
        .where('id', '=', id).execute();
      await audit(trx, {
        actorId: user.id, action: 'person.unlock', entity: 'person', entityId: id, at: config.now(),
        details: { wasLocked: current.isLocked === 1 },
      });
    });
    return c.json({ Etag: etag });
  });

  api.get('/persons/get-own-profile', { access: P.ManageOwnProfile }, async (c, { user }) => {
    const found = await loadPerson(deps(c).db, user.id);
    if (!found) throw notFound(MSG.userNotFound);
    return c.json({ Person: found.Person, Etag: found.row.etag });
  });

  api.put('/api/v1/person/basic-info-update', {
    access: P.ManageOwnProfile,
    json: ownProfileUpdateBody,
    sample: {
      json: {
        etag: '"sample"',
        person: { firstName: 'Sample', lastName: 'Person', phoneNumbers: [{ CountryCode: 'GB', Number: '020 7946 0018', IsPrimary: true, Type: 1 }] },
      },
    },
  }, async (c, { body, user }) => {
    const { db, config } = deps(c);
    const p = body.person;
    const etag = newEtag();
    await tx(db, async (trx) => {
      const current = await trx.selectFrom('persons').select(['email', 'etag']).where('id', '=', user.id).executeTakeFirst();
      if (!current) throw notFound(MSG.userNotFound);
      if (current.etag !== body.etag) throw conflict();
      const r = await trx.updateTable('persons')
        .set({
          firstName: p.firstName, lastName: p.lastName, phoneNumbers: JSON.stringify(p.phoneNumbers),
          searchText: searchTextOf(p.firstName, p.lastName, current.email), etag, updatedAt: config.now().toISOString(),
        })
        .where('id', '=', user.id).where('etag', '=', body.etag)
        .executeTakeFirst();
      if (Number(r.numUpdatedRows) !== 1) throw conflict();
      await audit(trx, {
        actorId: user.id, action: 'person.basic-info-update', entity: 'person', entityId: user.id, at: config.now(),
        details: { firstName: p.firstName, lastName: p.lastName, phoneNumbers: p.phoneNumbers.length },
      });
    });
    return c.json({ Etag: etag });
  });
}
