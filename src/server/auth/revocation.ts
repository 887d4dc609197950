// POST /connect/revocation (OAuth 2.0 token revocation, RFC 7009): logout. The client sends its
// refresh token before it clears its storage; the server revokes the token's whole family (the
// session) and bumps the person's session epoch, so the access token already out stops working
// within seconds too (other sessions of the person refresh once and carry on). As the RFC asks,
// an unknown, used or already revoked token is no error: the answer is 200 either way.
//
// Public clients (the browser app) name themselves with client_id; confidential clients
// (CLIENT_SECRETS) authenticate with client_id + client_secret, in the form or in an HTTP Basic
// Authorization header (RFC 7009 §2.1, RFC 6749 §2.3.1). A wrong secret is invalid_client, and so
// is any secret sent for a client that has none (portal).
import * as v from 'valibot';
import { deps, type Api } from '../http/api.js';
import { CODE, MSG } from '../../shared/messages.js';
import { tx } from '../db/index.js';
import { auditAccount, findRefreshToken, lockPersonRow, revokeFamily } from './store.js';
import { bumpSessionEpoch, forgetSessionState } from './session-epoch.js';
import { oauthError } from './token.js';
import { authenticateClient } from '../captcha/index.js';

const field = v.optional(v.pipe(v.string(), v.maxLength(2000)));
export const revocationRequestSchema = v.object({ token: field, token_type_hint: field, client_id: field, client_secret: field });

/** client_id / client_secret from an HTTP Basic Authorization header (form-urlencoded parts), if there is one. */
function basicCredentials(header: string | undefined): { client_id?: string; client_secret?: string } {
  const m = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header ?? '');
  if (!m) return {};
  const text = Buffer.from(m[1]!, 'base64').toString('utf8');
  const i = text.indexOf(':');
  if (i < 0) return {};
  const part = (s: string) => {
    try {
      return decodeURIComponent(s.replace(/\+/g, ' '));
    } catch {
      return s;
    }
  };
  return { client_id: part(text.slice(0, i)), client_secret: part(text.slice(i + 1)) };
}

export function revocationRoute(api: Api) {
  api.post(
    '/connect/revocation',
    { access: 'public', form: revocationRequestSchema, sample: { form: { token: 'not-a-token', token_type_hint: 'refresh_token', client_id: 'portal' } } },
    async (c, { form }) => {
      const d = deps(c);
      const basic = basicCredentials(c.req.header('authorization'));
      const credentials = { client_id: basic.client_id ?? form.client_id, client_secret: basic.client_secret ?? form.client_secret };
      const clientId = credentials.client_id;
      const confidential = authenticateClient(d.config, credentials);
      // A secret sent for a client that has none (the public browser app) is not ignored: the caller is not who it says.
      if (credentials.client_secret && !confidential) throw oauthError(400, MSG.invalidClient, CODE.invalidClient);
      if (!clientId || !(confidential || d.config.clientIds.includes(clientId))) throw oauthError(400, MSG.invalidClient, CODE.invalidClient);
      if (!form.token) throw oauthError(400, MSG.pleaseEnter('token'), CODE.validation, 'invalid_request', { token: MSG.pleaseEnter('token') });
      const token = form.token;
      const at = d.config.now();
      const personId = await tx(d.db, async (trx) => {
        const row = await findRefreshToken(trx, token);
        if (!row || row.clientId !== clientId) return null; // another client's token is not ours to revoke
        await lockPersonRow(trx, row.personId); // after a refresh of the same family under way, not in the middle of it
        await revokeFamily(trx, row.familyId, at);
        await bumpSessionEpoch(trx, row.personId);
        await auditAccount(trx, row.personId, 'logout', { familyId: row.familyId, clientId }, at);
        return row.personId;
      });
      if (personId) forgetSessionState(personId);
      return c.body(null, 200, { 'Cache-Control': 'no-store', Pragma: 'no-cache' });
    },
  );
}
