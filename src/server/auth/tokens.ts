import { SignJWT } from 'jose';
import type { Config } from '../platform/config.js';
import { CUSTOMER_TENANT_ROLES, permissionsForRoles, ROLE } from '../../shared/permissions.js';
import { PROVIDER_TENANT_ID } from '../../shared/tenants.js';

/**
 * Roles that count for the admin panel. Customer administrators hold the customer-scoped AdminRole
 * with PortalUserRole (spec document 2 §3); outside the provider tenant only those two count (a
 * provider role there never grants anything), and AdminRole never counts in the provider tenant.
 */
export function effectiveRoles(tenantId: string, roles: string[]): string[] {
  return tenantId === PROVIDER_TENANT_ID ? roles.filter((r) => r !== ROLE.Admin) : roles.filter((r) => (CUSTOMER_TENANT_ROLES as string[]).includes(r));
}

export type TokenSubject = {
  id: string;
  tenantId: string;
  email: string;
  roles: string[];
  /** Session id: the refresh-token family the token was issued with (lets a password change end the other sessions). */
  sid?: string;
  /** The person's session epoch when issued (session-epoch.ts); 0 for a person never bumped. */
  epoch?: number;
};

export const TOKEN_ISSUER = 'safety-workspace';
/** Access tokens are for this API only (a reset link's token, signed with another key, has no audience either). */
export const TOKEN_AUDIENCE = 'safety-workspace-api';
/** What every access token must pass besides signature and algorithm: issuer, audience, and an exp (a token without one would never expire). */
export const ACCESS_TOKEN_CHECKS = { issuer: TOKEN_ISSUER, audience: TOKEN_AUDIENCE, requiredClaims: ['exp', 'sub'] };

/** Access token: HS256 JWT carrying sub, tenantId, email, permissions, role (claims the spec reads), iss, aud, exp and the session epoch. */
export async function issueAccessToken(config: Config, s: TokenSubject) {
  const now = Math.floor(config.now().getTime() / 1000);
  return new SignJWT({
    tenantId: s.tenantId,
    email: s.email,
    permissions: permissionsForRoles(s.roles),
    role: s.roles,
    ...(s.sid ? { sid: s.sid } : {}),
    epoch: s.epoch ?? 0,
  })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(s.id)
    .setIssuedAt(now)
    .setExpirationTime(now + config.accessTokenSeconds)
    .setIssuer(TOKEN_ISSUER)
    .setAudience(TOKEN_AUDIENCE)
    .sign(config.jwtSecret);
}
