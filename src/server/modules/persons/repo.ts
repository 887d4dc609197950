// Database functions of the persons module: the person list, one person with its roles, and the
// writes of the person routes. Each takes the database (or a transaction) first; checks, errors
// and transactions belong to the routes. The reads take the caller's TenantScope
// (tenant-scope.ts): a scoped caller sees the persons of their own tenant only, and another
// tenant's person asked for by id answers as not found.
import { narrowToScope, type PersonScope } from './scope.js';
import { isLockedAt } from '../../auth/store.js';
import { fence, isPostgres, sql, type DB } from '../../db/index.js';
import { cpLength, ftsPhrase } from '../../lib/search-keys.js';
import type { RawBuilder } from 'kysely';
import { edgeOf, keyColumns, keysetPage, keyValues, nearerEnd, orderByKeys, sortsMatches, type SortKey } from '../../lib/keyset.js';
import { likeEscape } from '../../platform/util.js';
import { byTenant, type TenantScope } from '../../auth/tenant-scope.js';
import type { RoleName } from '../../../shared/permissions.js';
import type { RoleDto } from '../../../shared/schemas/reference.js';
import { PERSON_PROFILE_KEYS, type PersonListItem, type PersonListQuery, type PersonRecord, type PhoneEntry } from '../../../shared/schemas/persons.js';

/** The shapes the API answers with are the contract's (src/shared/schemas/persons.ts). */
export type PersonListItemDto = PersonListItem;
export type PersonDto = PersonRecord;

/** What the person list's search value is matched against (kept in the row, lower-case). */
export const searchTextOf = (firstName: string, lastName: string, email: string) => `${firstName} ${lastName} ${email}`.toLowerCase();

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

/** The read view's profile fields a person has stored (the contract's keys only; {} when none). */
function profileOf(json: string | null): Partial<PersonRecord> {
  try {
    const p: unknown = JSON.parse(json ?? '{}');
    if (!p || typeof p !== 'object' || Array.isArray(p)) return {};
    const out: Record<string, unknown> = {};
    for (const k of PERSON_PROFILE_KEYS) if ((p as Record<string, unknown>)[k] !== undefined) out[k] = (p as Record<string, unknown>)[k];
    return out as Partial<PersonRecord>;
  } catch {
    return {};
  }
}

/** Roles of many persons in one query, each list in role order. */
export async function rolesOf(db: DB, personIds: string[]): Promise<Map<string, RoleDto[]>> {
  const map = new Map<string, RoleDto[]>(personIds.map((id) => [id, []]));
  if (!personIds.length) return map;
  const rows = await db
    .selectFrom('personRoles')
    .innerJoin('roles', 'roles.id', 'personRoles.roleId')
    .select(['personRoles.personId', 'roles.id', 'roles.name', 'roles.isDefault', 'roles.order'])
    .where('personRoles.personId', 'in', personIds)
    .orderBy('roles.order')
    .execute();
  for (const r of rows) map.get(r.personId)?.push({ Id: r.id, Name: r.name as RoleName, IsDefault: r.isDefault === 1, Order: r.order });
  return map;
}

/** One person (within the scope) as the API shows it, with its etag; undefined when there is none. */
export async function findPerson(
  db: DB,
  tenant: TenantScope,
  id: string,
  at: Date = new Date(),
): Promise<{ Person: PersonDto; Etag: string; tenantId: string } | undefined> {
  const row = await byTenant(db.selectFrom('persons'), tenant, 'persons.tenantId')
    .select(['id', 'tenantId', 'firstName', 'lastName', 'email', 'isLocked', 'lockedUntil', 'personStatus', 'phoneNumbers', 'profile', 'etag'])
    .where('id', '=', id)
    .executeTakeFirst();
  if (!row) return undefined;
  const roles = (await rolesOf(db, [id])).get(id) ?? [];
  // The read view (profile dialog) shows the stored profile too; the identity fields win.
  const Person: PersonDto = {
    ...profileOf(row.profile),
    Id: row.id,
    FirstName: row.firstName,
    LastName: row.lastName,
    Contact: { EmailAddress: row.email },
    Roles: roles,
    IsLocked: isLockedAt(row, at),
    PersonStatus: row.personStatus,
    PhoneNumbers: parsePhones(row.phoneNumbers),
  };
  return { Person, Etag: row.etag, tenantId: row.tenantId };
}

/**
 * The user list's order as keys (lib/keyset.ts): with sortRoleId the holders of that role first
 * (last when desc), then by name; Email; LastLoginDate (never-logged-in counts as oldest), then by
 * name; else by name (first then last, case-insensitive); the id breaks ties.
 */
function personSortKeys(query: Pick<PersonListQuery, 'orderBy' | 'desc' | 'sortRoleId'>): SortKey[] {
  const k = (expr: RawBuilder<unknown>): SortKey => ({ expr, desc: query.desc });
  const byName = [k(sql`lower(${sql.ref('persons.firstName')})`), k(sql`lower(${sql.ref('persons.lastName')})`)];
  const id = k(sql.ref('persons.id'));
  if (query.sortRoleId)
    return [
      k(
        sql`case when exists (select "personRoles"."roleId" from "personRoles" where "personRoles"."personId" = "persons"."id" and "personRoles"."roleId" = ${query.sortRoleId}) then 0 else 1 end`,
      ),
      ...byName,
      id,
    ];
  if (query.orderBy === 'Email') return [k(sql.ref('persons.email')), id];
  if (query.orderBy === 'LastLoginDate') return [k(sql`coalesce(${sql.ref('persons.lastLoginDate')}, '')`), ...byName, id];
  return [...byName, id];
}

/**
 * Every person, paged. orderBy UserName (first then last name), Email or LastLoginDate
 * (never-logged-in counts as oldest); with sortRoleId the holders of that role come first (last
 * when desc), then by name. Names and e-mails sort case-insensitively; id breaks ties so pages
 * never overlap.
 */
/**
 * One page of the user list. `tenant` narrows it to the caller's tenant scope, `scope` to what
 * the caller may see (persons/scope.ts); `at` decides whether a temporary lock (lockedUntil) is
 * still on.
 */
export async function listPersons(
  db: DB,
  tenant: TenantScope,
  query: PersonListQuery,
  scope: PersonScope = 'directory',
  at: Date = new Date(),
): Promise<{ Items: PersonListItemDto[]; TotalCount: number }> {
  let base = narrowToScope(byTenant(db.selectFrom('persons'), tenant, 'persons.tenantId'), scope);
  const term = query.searchValue.replace(/\s+/g, ' ').toLowerCase();
  if (term) {
    base = base.where(sql<boolean>`${sql.ref('persons.searchText')} like ${`%${likeEscape(term)}%`} escape '\\'`);
    // SQLite: the candidates from the trigram table over the search text (migration 039), the LIKE
    // keeping the match exact; PostgreSQL's LIKE reads its pg_trgm index. Under three characters there is no trigram.
    if (!isPostgres(db) && cpLength(term) >= 3)
      base = base.where(sql<boolean>`${sql.ref('persons.rowid')} in (select rowid from persons_list_fts where persons_list_fts match ${ftsPhrase(term)})`);
  }

  const page = base.select([
    'persons.id',
    'persons.firstName',
    'persons.lastName',
    'persons.email',
    'persons.isLocked',
    'persons.lockedUntil',
    'persons.lastLoginDate',
    'persons.personStatus',
    'persons.etag',
  ]);
  const keys = personSortKeys(query);
  // w.order: a Next / Previous part's keys (those it holds equal left out, lib/keyset.ts), so SQLite
  // walks the part's index range in order instead of sorting it.
  // w.sortMatches: the matches read first and sorted (a PostgreSQL search jumping far; below).
  const read = async (w: {
    where?: RawBuilder<boolean>;
    reversed?: boolean;
    offset: number;
    limit: number;
    order?: readonly SortKey[];
    sortMatches?: boolean;
  }) => {
    if (w.limit <= 0) return [];
    // Fenced, PostgreSQL reads the matches from its trigram index, then sorts them.
    let q = w.sortMatches ? db.selectFrom(fence(db, page).as('persons')).selectAll('persons') : page;
    if (w.where) q = q.where(w.where);
    return orderByKeys(q, w.order ?? keys, w.reversed)
      .limit(w.limit)
      .offset(w.offset)
      .execute();
  };
  // Every person of every tenant: the total kept by migration 038's triggers.
  const directorySize = async () => Number((await db.selectFrom('personTotals').select('n').where('key', '=', 1).executeTakeFirstOrThrow()).n);
  // The whole directory without a search: that total; else the selection counted.
  const counting = async (): Promise<number> => {
    if (scope === 'directory' && tenant.all && !term) return directorySize();
    return Number((await base.select((eb) => eb.fn.countAll<number | string>().as('n')).executeTakeFirstOrThrow()).n);
  };
  /**
   * The role sort: the holders of the role (the non-holders when desc) then the others, each in
   * name order, read as two ranges of the name index (persons_name_ci_idx) — each part's rows
   * found by the role index or tested per person, as each planner prefers — instead of sorting
   * every person on a per-row subquery. A jump counts the holders to know where the second part
   * starts.
   */
  const roleSortedPage = async (roleId: string, at?: { backwards: boolean; values: unknown[] }): Promise<[Awaited<ReturnType<typeof read>>, number]> => {
    const holds = sql<boolean>`exists (select 1 from "personRoles" where "personRoles"."personId" = "persons"."id" and "personRoles"."roleId" = ${roleId})`;
    const nameKeys = keys.slice(1);
    // the two parts in list order: holders first ascending, last descending
    const parts = query.desc ? [false, true] : [true, false];
    const readPart = async (
      holder: boolean,
      w: { where?: RawBuilder<boolean>; reversed?: boolean; offset: number; limit: number; order?: readonly SortKey[]; viaRoleIndex?: boolean },
    ) => {
      if (w.limit <= 0) return [];
      if (w.viaRoleIndex) {
        // The holders found through the role index (personRoles_role_idx), then sorted: fenced,
        // neither planner walks the name index for the order.
        const held = page.where(sql<boolean>`${sql.ref('persons.id')} in (select "personId" from "personRoles" where "roleId" = ${roleId})`);
        let q = db.selectFrom(fence(db, held).as('persons')).selectAll('persons');
        if (w.where) q = q.where(w.where);
        return orderByKeys(q, w.order ?? nameKeys, w.reversed)
          .limit(w.limit)
          .offset(w.offset)
          .execute();
      }
      let q = page.where(holder ? holds : sql<boolean>`not ${holds}`);
      if (w.where) q = q.where(w.where);
      return orderByKeys(q, w.order ?? nameKeys, w.reversed)
        .limit(w.limit)
        .offset(w.offset)
        .execute();
    };
    const size = query.pageSize;
    const firstPage = async () => {
      const first = await readPart(parts[0]!, { offset: 0, limit: size });
      return first.length < size ? [...first, ...(await readPart(parts[1]!, { offset: 0, limit: size - first.length }))] : first;
    };
    if (at) {
      // Next / Previous: after (before) the edge within its part, then on into the next (previous) part;
      // fewer rows before the edge than a page answers page 1.
      const holder = Number(at.values[0]) === 0;
      const i = parts.indexOf(holder);
      const total = counting();
      let got = await keysetPage(nameKeys, at.values.slice(1), at.backwards, size, (where, reversed, limit, order) =>
        readPart(holder, { where, reversed, offset: 0, limit, order }),
      );
      if (got.length < size && !at.backwards && i === 0) got = [...got, ...(await readPart(parts[1]!, { offset: 0, limit: size - got.length }))];
      if (got.length < size && at.backwards && i === 1)
        got = [...(await readPart(parts[0]!, { reversed: true, offset: 0, limit: size - got.length })).reverse(), ...got];
      if (at.backwards && got.length < size) got = await firstPage();
      return [got, await total];
    }
    if (query.page === 1) return Promise.all([firstPage(), counting()]);
    // A jump to page N: the sizes of the two parts, then each part's share of the page from its nearer end.
    const [total, holders] = await Promise.all([
      counting(),
      // driven by the role index (personRoles_role_idx): the holders, then each one's row
      base
        .where(sql<boolean>`${sql.ref('persons.id')} in (select "personId" from "personRoles" where "roleId" = ${roleId})`)
        .select((eb) => eb.fn.countAll<number | string>().as('n'))
        .executeTakeFirstOrThrow()
        .then((r) => Number(r.n)),
    ]);
    const sizes = parts.map((holder) => (holder ? holders : total - holders));
    const out: Awaited<ReturnType<typeof read>> = [];
    let start = (query.page - 1) * size;
    let left = size;
    for (let i = 0; i < 2 && left > 0; i++) {
      const partSize = sizes[i]!;
      if (start >= partSize) {
        start -= partSize;
        continue;
      }
      const n = Math.min(left, partSize - start);
      // The holders' part: walking the name index passes (rows skipped + page) × persons / holders
      // persons; when that is more than the holders, they are read through the role index and
      // sorted instead (the list's rule for few matches; page 50 of a role 0.5 % of persons hold,
      // at 1,000,000 persons: 154 ms on SQLite walking).
      const viaRoleIndex = parts[i]! && sortsMatches(Math.min(start, partSize - start - n) + n, total, holders);
      // from the part's nearer end
      const got =
        partSize - start - n < start
          ? (await readPart(parts[i]!, { reversed: true, offset: partSize - start - n, limit: n, viaRoleIndex })).reverse()
          : await readPart(parts[i]!, { offset: start, limit: n, viaRoleIndex });
      out.push(...got);
      left -= n;
      start = 0;
    }
    return [out, total];
  };
  const edge = edgeOf(query);
  let values: unknown[] | undefined;
  if (edge) {
    const r = await narrowToScope(byTenant(db.selectFrom('persons'), tenant, 'persons.tenantId'), scope)
      .where('persons.id', '=', edge.id)
      .select(keyColumns(keys))
      .executeTakeFirst();
    values = r && keyValues(r as Record<string, unknown>, keys);
  }
  let rows: Awaited<ReturnType<typeof read>>;
  let total: number;
  if (query.sortRoleId) {
    [rows, total] = await roleSortedPage(query.sortRoleId, edge && values ? { backwards: edge.backwards, values } : undefined);
  } else if (edge && values) {
    // Next / Previous: the persons after (before) the edge person's sort key.
    [rows, total] = await Promise.all([
      keysetPage(keys, values, edge.backwards, query.pageSize, (where, reversed, limit, order) => read({ where, reversed, offset: 0, limit, order })),
      counting(),
    ]);
    if (edge.backwards && rows.length < query.pageSize) rows = await read({ offset: 0, limit: query.pageSize });
  } else if (query.page === 1) {
    [rows, total] = await Promise.all([read({ offset: 0, limit: query.pageSize }), counting()]);
  } else {
    // A jump to page N: the count first, then from the nearer end of the selection. A search on
    // PostgreSQL walks the name index testing each person until it has passed the rows skipped and
    // the page; for a search with few matches that passes much of the directory ('smith', 6,224 of
    // 1,000,000: page 50 passed ~200,000 persons, 0.5 s, as the planner took the LIKE to match three
    // times as many). When the walk would pass more persons than match — (rows skipped + page size) ×
    // persons / matches against the matches, the device list's rule — the matches are read and
    // sorted instead.
    const [counted, all] = await Promise.all([counting(), isPostgres(db) && term ? directorySize() : undefined]);
    total = counted;
    const from = nearerEnd(query.page, query.pageSize, total);
    const sortMatches = all !== undefined && sortsMatches(from.offset + from.limit, all, total);
    rows = await read({ ...from, sortMatches });
    if (from.reversed) rows.reverse();
  }
  const roles = await rolesOf(
    db,
    rows.map((r) => r.id),
  );
  const Items: PersonListItemDto[] = rows.map((r) => ({
    Id: r.id,
    FirstName: r.firstName,
    LastName: r.lastName,
    Email: r.email,
    Roles: roles.get(r.id) ?? [],
    IsLocked: isLockedAt(r, at),
    LastLoginDate: r.lastLoginDate,
    PersonStatus: r.personStatus,
    Etag: r.etag,
  }));
  return { Items, TotalCount: total };
}

/** The roles with these ids that exist (id and name). */
export const rolesByIds = (db: DB, roleIds: string[]) => db.selectFrom('roles').select(['id', 'name']).where('id', 'in', roleIds).execute();

export async function holdsRole(db: DB, personId: string, role: RoleName): Promise<boolean> {
  const row = await db
    .selectFrom('personRoles')
    .select('roleId')
    .innerJoin('roles', 'roles.id', 'personRoles.roleId')
    .where('personRoles.personId', '=', personId)
    .where('roles.name', '=', role)
    .executeTakeFirst();
  return !!row;
}

export async function emailTaken(db: DB, email: string): Promise<boolean> {
  return !!(await db.selectFrom('persons').select('id').where('email', '=', email).executeTakeFirst());
}

/** The fields the person writes check before they change a row (a person outside the scope: undefined). */
export const findPersonForUpdate = (db: DB, tenant: TenantScope, id: string) =>
  byTenant(db.selectFrom('persons'), tenant, 'persons.tenantId')
    .select(['id', 'tenantId', 'email', 'etag', 'isLocked'])
    .where('id', '=', id)
    .executeTakeFirst();

/** A new person (no password yet: the welcome/reset flow sets it) with its roles. Call inside a transaction. */
export async function insertPerson(
  db: DB,
  p: { id: string; tenantId: string; firstName: string; lastName: string; email: string; roleIds: string[]; etag: string; at: string },
) {
  await db
    .insertInto('persons')
    .values({
      id: p.id,
      tenantId: p.tenantId,
      firstName: p.firstName,
      lastName: p.lastName,
      email: p.email,
      passwordHash: null,
      isLocked: 0,
      failedAttempts: 0,
      lastLoginDate: null,
      personStatus: 1,
      loginMethod: 1,
      twoFactorType: null,
      twoFactorPhone: null,
      phoneNumbers: '[]',
      profile: '{}',
      searchText: searchTextOf(p.firstName, p.lastName, p.email),
      etag: p.etag,
      createdAt: p.at,
      updatedAt: p.at,
    })
    .execute();
  await replaceRoles(db, p.id, p.roleIds);
}

/** Replaces a person's roles. Call inside a transaction. */
export async function replaceRoles(db: DB, personId: string, roleIds: string[]) {
  await db.deleteFrom('personRoles').where('personId', '=', personId).execute();
  if (roleIds.length)
    await db
      .insertInto('personRoles')
      .values(roleIds.map((roleId) => ({ personId, roleId })))
      .execute();
}

/**
 * Names (and the search text, which includes the unchanged e-mail) of a person, only when the
 * row still has `oldEtag`. Returns whether it did (false: someone else changed it first).
 */
export async function updatePersonNames(
  db: DB,
  id: string,
  oldEtag: string,
  p: { firstName: string; lastName: string; email: string; phoneNumbers?: PhoneEntry[]; etag: string; at: string },
): Promise<boolean> {
  const r = await db
    .updateTable('persons')
    .set({
      firstName: p.firstName,
      lastName: p.lastName,
      searchText: searchTextOf(p.firstName, p.lastName, p.email),
      ...(p.phoneNumbers ? { phoneNumbers: JSON.stringify(p.phoneNumbers) } : {}),
      etag: p.etag,
      updatedAt: p.at,
    })
    .where('id', '=', id)
    .where('etag', '=', oldEtag)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

/** Clears the lock and the failed-attempt count. */
export async function unlockPerson(db: DB, id: string, p: { etag: string; at: string }) {
  await db.updateTable('persons').set({ isLocked: 0, failedAttempts: 0, etag: p.etag, updatedAt: p.at }).where('id', '=', id).execute();
}
