// Persons and tokens for tests, without going through /connect/token.
import { randomUUID } from 'node:crypto';
import type { DB } from '../../src/server/db/index.js';
import type { Config } from '../../src/server/platform/config.js';
import { issueAccessToken } from '../../src/server/auth/tokens.js';
import { ROLE_IDS, type RoleName } from '../../src/shared/permissions.js';

export const PROVIDER_TENANT = '00000000-0000-4000-8000-00000000a11c';

export async function insertPerson(
  db: DB,
  p: {
    email: string;
    firstName?: string;
    lastName?: string;
    roles: RoleName[];
    passwordHash?: string | null;
    tenantId?: string;
    twoFactorType?: number | null;
    isLocked?: boolean;
  },
) {
  const id = randomUUID();
  const now = new Date().toISOString();
  const firstName = p.firstName ?? 'Test';
  const lastName = p.lastName ?? 'Person';
  await db
    .insertInto('persons')
    .values({
      id,
      tenantId: p.tenantId ?? PROVIDER_TENANT,
      firstName,
      lastName,
      email: p.email.toLowerCase(),
      passwordHash: p.passwordHash ?? null,
      isLocked: p.isLocked ? 1 : 0,
      failedAttempts: 0,
      lastLoginDate: null,
      personStatus: 1,
      loginMethod: 1,
      twoFactorType: p.twoFactorType ?? null,
      twoFactorPhone: null,
      phoneNumbers: '[]',
      profile: '{}',
      searchText: `${firstName} ${lastName} ${p.email}`.toLowerCase(),
      etag: `"${randomUUID()}"`,
      createdAt: now,
      updatedAt: now,
    })
    .execute();
  if (p.roles.length)
    await db
      .insertInto('personRoles')
      .values(p.roles.map((r) => ({ personId: id, roleId: ROLE_IDS[r] })))
      .execute();
  return id;
}

export async function tokenFor(config: Config, roles: RoleName[], over: { id?: string; email?: string; tenantId?: string } = {}) {
  return issueAccessToken(config, {
    id: over.id ?? randomUUID(),
    tenantId: over.tenantId ?? PROVIDER_TENANT,
    email: over.email ?? `${roles.join('-') || 'none'}@test.test`,
    roles,
  });
}

/** Inserts a person with the roles and returns a token for them. */
export async function signedIn(db: DB, config: Config, roles: RoleName[], email?: string) {
  const e = email ?? `${roles.join('-').toLowerCase() || 'none'}-${randomUUID().slice(0, 8)}@test.test`;
  const id = await insertPerson(db, { email: e, roles });
  return { id, email: e, token: await tokenFor(config, roles, { id, email: e }) };
}

/** The names of the person's stored roles, sorted. */
export async function storedRoleNames(db: DB, personId: string) {
  const rows = await db
    .selectFrom('personRoles')
    .innerJoin('roles', 'roles.id', 'personRoles.roleId')
    .select('roles.name')
    .where('personRoles.personId', '=', personId)
    .execute();
  return rows.map((r) => r.name).sort();
}
