// The embedded identity provider: a real OpenID Connect provider (oidc-provider, a
// certified implementation) mounted by this server under /oidc when demo data is on and no
// external issuer is configured. It knows only the demo identities (./demo-identities.ts); its
// sign-in page is a minimal keyboard-usable form. The workspace is its one client: public,
// authorization code with PKCE, redirect back to /login. Keys and sessions live in memory (a
// restart signs everyone out of the demo provider, nothing else).
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createHmac } from 'node:crypto';
import Provider, { type Configuration, type KoaContextWithOIDC } from 'oidc-provider';
import { exportJWK, generateKeyPair, createLocalJWKSet, type JWK } from 'jose';
import { EMBEDDED_SSO_PATH, type Config, type SsoConfig } from '../../platform/config.js';
import { SSO_DEMO_IDENTITIES } from './demo-identities.js';
import { registerLocalKeys } from './verify.js';
import { appOrigins } from './origins.js';

export type EmbeddedProvider = {
  /** Whether the request is the provider's (its path prefix). */
  owns(req: IncomingMessage): boolean;
  handle(req: IncomingMessage, res: ServerResponse): void;
};

const esc = (s: string) => s.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);

function page(title: string, body: string) {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${esc(title)}</title>
<style>
body{font:16px/1.5 system-ui,sans-serif;background:#f4f5f7;color:#1c2024;margin:0;display:flex;min-height:100vh;align-items:center;justify-content:center}
main{background:#fff;border-radius:12px;box-shadow:0 2px 12px #0002;padding:32px;width:min(420px,90vw)}
h1{font-size:22px;margin:0 0 4px}p{margin:0 0 16px;color:#555}
label{display:block;font-weight:600;margin-bottom:4px}
input{width:100%;box-sizing:border-box;font:inherit;padding:8px 10px;border:1px solid #bbb;border-radius:6px;margin-bottom:12px}
button{font:inherit;padding:8px 14px;border-radius:6px;border:1px solid #0b5cad;background:#0b5cad;color:#fff;cursor:pointer}
button.secondary{background:#fff;color:#0b5cad}
:focus-visible{outline:3px solid #f59e0b;outline-offset:2px}
ul{list-style:none;padding:0;margin:12px 0 16px}li{margin:10px 0}li form{display:flex;flex-direction:column;gap:2px}li button{text-align:left}li small{color:#666}
.error{color:#b42318;font-weight:600}
</style></head><body><main>${body}</main></body></html>`;
}

function loginPage(uid: string, providerName: string, error?: string) {
  const action = `${EMBEDDED_SSO_PATH}/interaction/${encodeURIComponent(uid)}`;
  const accounts = SSO_DEMO_IDENTITIES.map(
    (i) =>
      `<li><form method="post" action="${action}/login"><input type="hidden" name="email" value="${esc(i.email)}"><button type="submit" class="secondary">${esc(i.email)}</button><small>${esc(i.label)}</small></form></li>`,
  ).join('');
  return page(
    `Sign in - ${providerName}`,
    `<h1>${esc(providerName)}</h1><p>Demo identity provider: sign in with a demo account (no password).</p>
${error ? `<p class="error" role="alert">${esc(error)}</p>` : ''}
<form method="post" action="${action}/login" aria-label="Sign in">
<label for="email">Email</label><input id="email" name="email" type="email" autocomplete="username" autofocus required>
<button type="submit">Sign in</button></form>
<h2 style="font-size:16px;margin:20px 0 0">Demo accounts</h2><ul>${accounts}</ul>
<form method="post" action="${action}/abort"><button type="submit" class="secondary">Cancel</button></form>`,
  );
}

async function readForm(req: IncomingMessage): Promise<URLSearchParams> {
  let body = '';
  for await (const chunk of req) {
    body += String(chunk);
    if (body.length > 10_000) break;
  }
  return new URLSearchParams(body);
}

export async function createEmbeddedProvider(config: Config, sso: SsoConfig): Promise<EmbeddedProvider> {
  const { privateKey, publicKey } = await generateKeyPair('RS256', { extractable: true });
  const kid = 'embedded-1';
  const privateJwk: JWK = { ...(await exportJWK(privateKey)), kid, alg: 'RS256', use: 'sig' };
  const publicJwk: JWK = { ...(await exportJWK(publicKey)), kid, alg: 'RS256', use: 'sig' };
  // The server verifies ID tokens of its own provider with the keys the provider publishes at
  // /oidc/jwks, in process (no HTTP call to itself).
  registerLocalKeys(sso.issuer, createLocalJWKSet({ keys: [publicJwk] }));
  const origins = appOrigins(config);
  const byId = new Map(SSO_DEMO_IDENTITIES.map((i) => [i.id, i]));

  const configuration: Configuration = {
    clients: [
      {
        client_id: sso.clientId,
        token_endpoint_auth_method: 'none',
        application_type: 'web',
        grant_types: ['authorization_code'],
        response_types: ['code'],
        redirect_uris: origins.map((o) => `${o}/login`),
        post_logout_redirect_uris: origins.map((o) => `${o}/login`),
      },
    ],
    jwks: { keys: [privateJwk] },
    cookies: { keys: [createHmac('sha256', config.jwtSecret).update('embedded-oidc-cookies').digest('base64url')] },
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
    // The ID token carries the e-mail (the token exchange reads it there, as from Entra ID).
    conformIdTokenClaims: false,
    pkce: { required: () => true },
    features: { devInteractions: { enabled: false }, rpInitiatedLogout: { enabled: false } },
    ttl: { IdToken: 3600, AccessToken: 600, AuthorizationCode: 120, Interaction: 900, Session: 8 * 3600, Grant: 8 * 3600 },
    interactions: { url: (_ctx: KoaContextWithOIDC, interaction) => `${EMBEDDED_SSO_PATH}/interaction/${interaction.uid}` },
    clientBasedCORS: (_ctx: KoaContextWithOIDC, origin: string) => origins.includes(origin),
    async findAccount(_ctx: KoaContextWithOIDC, sub: string) {
      const who = byId.get(sub);
      if (!who) return undefined;
      return { accountId: who.id, claims: () => ({ sub: who.id, email: who.email, email_verified: true, name: who.name }) };
    },
    // The workspace is the provider's only (first-party) client: no consent screen at the provider.
    async loadExistingGrant(ctx: KoaContextWithOIDC) {
      const grantId = ctx.oidc.result?.consent?.grantId || ctx.oidc.session!.grantIdFor(ctx.oidc.client!.clientId);
      if (grantId) return ctx.oidc.provider.Grant.find(grantId);
      const grant = new ctx.oidc.provider.Grant({ clientId: ctx.oidc.client!.clientId, accountId: ctx.oidc.session!.accountId! });
      grant.addOIDCScope('openid email profile');
      await grant.save();
      return grant;
    },
    renderError(ctx: KoaContextWithOIDC, out) {
      ctx.type = 'html';
      ctx.body = page('Sign-in error', `<h1>Sign-in error</h1><p class="error" role="alert">${esc(String(out.error_description ?? out.error))}</p>`);
    },
  };
  const provider = new Provider(sso.issuer, configuration);
  provider.proxy = config.trustProxy > 0;
  const callback = provider.callback();
  // Our pages: no scripts at all; forms post to the provider and redirect back to the app.
  const csp = `default-src 'none'; style-src 'unsafe-inline'; form-action 'self' ${origins.join(' ')}; frame-ancestors 'none'; base-uri 'none'`;

  const interaction = async (req: IncomingMessage, res: ServerResponse, rest: string) => {
    const [uid = '', action = ''] = rest.split('/');
    const send = (status: number, html: string) => {
      res.writeHead(status, {
        'Content-Type': 'text/html; charset=utf-8',
        'Content-Security-Policy': csp,
        'Cache-Control': 'no-store',
        'X-Frame-Options': 'DENY',
      });
      res.end(html);
    };
    const details = await provider.interactionDetails(req, res);
    if (details.uid !== uid) return send(400, page('Sign-in error', '<p class="error" role="alert">This sign-in has expired. Go back and start again.</p>'));
    if (req.method === 'GET' && !action) return send(200, loginPage(uid, sso.providerName));
    if (req.method === 'POST' && action === 'login') {
      const email = (await readForm(req)).get('email')?.trim().toLowerCase() ?? '';
      const who = SSO_DEMO_IDENTITIES.find((i) => i.email === email);
      if (!who) return send(200, loginPage(uid, sso.providerName, `No demo account ${email || 'without an e-mail'} here.`));
      await provider.interactionFinished(req, res, { login: { accountId: who.id } }, { mergeWithLastSubmission: false });
      return;
    }
    if (req.method === 'POST' && action === 'abort') {
      await provider.interactionFinished(
        req,
        res,
        { error: 'access_denied', error_description: 'The sign-in was cancelled.' },
        { mergeWithLastSubmission: false },
      );
      return;
    }
    send(404, page('Not found', '<p>Not found.</p>'));
  };

  return {
    owns: (req) => {
      const path = (req.url ?? '/').split('?')[0] ?? '/';
      return path === EMBEDDED_SSO_PATH || path.startsWith(`${EMBEDDED_SSO_PATH}/`);
    },
    handle(req, res) {
      // The same protective headers as every other answer of this server, on every answer of the
      // provider (discovery, keys, authorization redirects, token, errors, our pages).
      res.setHeader('X-Content-Type-Options', 'nosniff');
      res.setHeader('Content-Security-Policy', csp);
      res.setHeader('X-Frame-Options', 'DENY');
      res.setHeader('Referrer-Policy', 'no-referrer');
      if (!res.hasHeader('Cache-Control')) res.setHeader('Cache-Control', 'no-store');
      const url = req.url ?? '/';
      const inner = url.slice(EMBEDDED_SSO_PATH.length) || '/';
      const m = /^\/interaction\/(.+?)(\?.*)?$/.exec(inner);
      if (m) {
        interaction(req, res, m[1] ?? '').catch((e: unknown) => {
          if (!res.headersSent) {
            res.writeHead(400, { 'Content-Type': 'text/html; charset=utf-8', 'Content-Security-Policy': csp });
            res.end(page('Sign-in error', `<p class="error" role="alert">${esc(String((e as Error)?.message ?? e))}</p>`));
          }
        });
        return;
      }
      // oidc-provider routes below its issuer's path: it sees the path without the prefix, as when mounted by express.
      (req as IncomingMessage & { originalUrl?: string }).originalUrl = url;
      req.url = inner;
      void callback(req, res); // Koa answers its own errors
    },
  };
}
