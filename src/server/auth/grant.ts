// What every grant of the token endpoint shares (password, refresh, SSO token exchange): the
// OAuth-shaped error, the 429 answer, the sign-in limiters and issuing a session.
import type { Person } from '../db/schema.js';
import type { DB } from '../db/index.js';
import { ApiError } from '../http/api.js';
import type { Ctx, Deps } from '../http/types.js';
import { CODE, MSG } from '../../shared/messages.js';
import type { TokenResponse } from '../../shared/schemas/auth.js';
import { newId } from '../platform/util.js';
import type { Limiter } from './rate-limit.js';
import { issueAccessToken } from './tokens.js';
import { newOpaqueToken, storeRefreshToken } from './store.js';

export type SignInLimiters = { perEmail: Limiter; perAddress: Limiter };

/** Token-endpoint error: project shape plus OAuth's error / error_description. */
export function oauthError(status: ApiError['status'], message: string, code: string, error: string = code, errors?: Record<string, string>) {
  return new ApiError(status, message, code, errors, { error, error_description: message });
}

export function tooMany(c: Ctx, retryAfterSeconds: number, message: string = MSG.tooManySignInAttempts) {
  return c.json({ Content: { Message: message, Code: CODE.rateLimited }, error: CODE.rateLimited, error_description: message }, 429, {
    'Retry-After': String(retryAfterSeconds),
  });
}

/** Stores a new refresh token of the family and signs the access token; `db` is the caller's transaction. */
export async function issueSession(d: Deps, db: DB, person: Person, roles: string[], clientId: string, familyId: string = newId()): Promise<TokenResponse> {
  const at = d.config.now();
  const refresh = newOpaqueToken();
  await storeRefreshToken(db, { personId: person.id, familyId, clientId, token: refresh, at, days: d.config.refreshTokenDays });
  const access = await issueAccessToken(d.config, {
    id: person.id,
    tenantId: person.tenantId,
    email: person.email,
    roles,
    sid: familyId,
    epoch: person.sessionEpoch,
  });
  return { access_token: access, token_type: 'Bearer', refresh_token: refresh, expires_in: d.config.accessTokenSeconds };
}
