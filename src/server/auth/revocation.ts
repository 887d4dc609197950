// POST /connect/revocation (OAuth 2.0 token revocation, RFC 7009): logout. The client sends its
// refresh token before it clears its storage; the server revokes the token's whole family (the
// session) and bumps the person's session epoch, so the access token already out stops working
// within seconds too (other sessions of the person refresh once and carry on). As the RFC asks,
// an unknown, used or already revoked token is no error: the answer is 200 either way.
import * as v from 'valibot';
import { deps, type Api } from '../http.js';
import { CODE, MSG } from '../../shared/messages.js';
import { tx } from '../db/index.js';
import { audit } from '../util.js';
import { findRefreshToken, lockPersonRow, revokeFamily } from './store.js';
import { bumpSessionEpoch, forgetSessionState } from './session-epoch.js';
import { oauthError } from './token.js';

const field = v.optional(v.pipe(v.string(), v.maxLength(2000)));
export const revocationRequestSchema = v.object({ token: field, token_type_hint: field, client_id: field });

export function revocationRoute(api: Api) {
  api.post(
    '/connect/revocation',
    { access: 'public', form: revocationRequestSchema, sample: { form: { token: 'not-a-token', token_type_hint: 'refresh_token', client_id: 'portal' } } },
    async (c, { form }) => {
      const d = deps(c);
      const clientId = form.client_id;
      if (!clientId || !d.config.clientIds.includes(clientId)) throw oauthError(400, MSG.invalidClient, CODE.invalidClient);
      if (!form.token) throw oauthError(400, MSG.pleaseEnter('token'), CODE.validation, 'invalid_request', { token: MSG.pleaseEnter('token') });
      const token = form.token;
      const at = d.config.now();
      const personId = await tx(d.db, async (trx) => {
        const row = await findRefreshToken(trx, token);
        if (!row || row.clientId !== clientId) return null; // another client's token is not ours to revoke
        await lockPersonRow(trx, row.personId); // after a refresh of the same family under way, not in the middle of it
        await revokeFamily(trx, row.familyId, at);
        await bumpSessionEpoch(trx, row.personId);
        await audit(trx, {
          actorId: row.personId,
          action: 'logout',
          entity: 'person',
          entityId: row.personId,
          details: { familyId: row.familyId, clientId },
          at,
        });
        return row.personId;
      });
      if (personId) forgetSessionState(personId);
      return c.body(null, 200, { 'Cache-Control': 'no-store', Pragma: 'no-cache' });
    },
  );
}
