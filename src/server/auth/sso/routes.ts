// Single sign-on endpoints besides the token exchange: the public configuration the
// browser needs for the provider redirect, and the signed nonce it sends there.
import { deps, type Api } from '../../http/api.js';
import type { SsoConfiguration, SsoNonce } from '../../../shared/schemas/auth.js';
import { issueNonce } from './nonce.js';
import { ssoFeatureOn } from './accounts.js';
import { ssoReturnOrigins } from './origins.js';

export function ssoRoutes(api: Api) {
  // Public: the sign-in page asks before the redirect. Nothing secret here (a public client).
  api.get('/api/v1/sso/configuration', { access: 'public' }, async (c) => {
    const d = deps(c);
    const sso = d.config.sso;
    const body: SsoConfiguration =
      sso && (await ssoFeatureOn(d.db))
        ? {
            enabled: true,
            providerName: sso.providerName,
            authority: sso.issuer,
            clientId: sso.clientId,
            scope: sso.scope,
            prompt: sso.prompt,
            appOrigins: ssoReturnOrigins(d.config),
          }
        : { enabled: false };
    return c.json(body);
  });

  api.post('/api/v1/sso/nonce', { access: 'public' }, (c) => {
    const body: SsoNonce = issueNonce(deps(c).config);
    return c.json(body);
  });
}
