// Single sign-on in the browser: the OpenID Connect authorization-code flow with PKCE
// through oidc-client-ts, against whatever issuer the server names (Microsoft Entra ID in
// production, the embedded provider with demo data). The provider returns to /login with the code
// in the URL fragment (spec start-up: "the URL hash begins with a code fragment"); oidc-client-ts
// redeems it at the provider and hands over the ID token, which the token exchange turns into our
// session. 'IsSSOLoading' in localStorage marks a redirect under way (it survives the round trip).
import type { UserManager } from 'oidc-client-ts';
import type { SsoConfiguration } from '../../../shared/schemas/auth';
import { requestSsoNonce, ssoConfigurationQuery } from '../../api/auth';
import { queryClient } from '../../api/query-client';
import { getHref } from '../../paths';
import { SSO_LOADING_KEY } from '../../state/session';

type EnabledConfig = Extract<SsoConfiguration, { enabled: true }>;

/** oidc-client-ts keeps its request state and user in this tab's sessionStorage under this prefix (the provider cache). */
const STORE_PREFIX = 'sso.';

/** Single sign-on started at an address the provider does not return to; `publicUrl` is the one it does. */
export class SsoWrongAddressError extends Error {
  constructor(readonly publicUrl: string) {
    super('sso_wrong_address');
    this.name = 'SsoWrongAddressError';
  }
}

export class SsoUnavailableError extends Error {
  constructor() {
    super('sso_unavailable');
    this.name = 'SsoUnavailableError';
  }
}

const redirectUri = () => `${window.location.origin}${getHref('login')}`;

/** The OpenID Connect client, loaded only when single sign-on is used (about 18 kB of script compressed). */
async function manager(cfg: EnabledConfig): Promise<UserManager> {
  const { UserManager, WebStorageStateStore } = await import('oidc-client-ts');
  const store = new WebStorageStateStore({ store: window.sessionStorage, prefix: STORE_PREFIX });
  return new UserManager({
    authority: cfg.authority,
    client_id: cfg.clientId,
    redirect_uri: redirectUri(),
    response_type: 'code',
    response_mode: 'fragment',
    scope: cfg.scope,
    loadUserInfo: false,
    automaticSilentRenew: false,
    monitorSession: false,
    userStore: store,
    stateStore: store,
  });
}

async function enabledConfig(): Promise<EnabledConfig> {
  const cfg = await queryClient.fetchQuery(ssoConfigurationQuery());
  if (!cfg.enabled) throw new SsoUnavailableError();
  // The provider would refuse to come back here: say which address works instead of "not recognised".
  if (cfg.appOrigins.length && !cfg.appOrigins.includes(window.location.origin)) throw new SsoWrongAddressError(cfg.appOrigins[0]!);
  return cfg;
}

/** Whether the page was opened by the provider's redirect back (code or error in the fragment). */
export function isProviderReturn(hash: string = window.location.hash): boolean {
  const p = new URLSearchParams(hash.replace(/^#/, ''));
  return p.has('state') && (p.has('code') || p.has('error'));
}

/** Sends the browser to the provider. Rejects with SsoUnavailableError when the server has none. */
export async function startSsoRedirect(): Promise<void> {
  const cfg = await enabledConfig();
  const { nonce } = await requestSsoNonce();
  localStorage.setItem(SSO_LOADING_KEY, 'true');
  try {
    await (await manager(cfg)).signinRedirect({ nonce, prompt: cfg.prompt });
  } catch (err) {
    localStorage.setItem(SSO_LOADING_KEY, 'false');
    throw err;
  }
}

/** Back from the provider: redeems the code (PKCE) and answers the ID token; the fragment is removed from the address. */
export async function completeSsoRedirect(): Promise<string> {
  const url = window.location.href;
  window.history.replaceState(window.history.state, '', `${window.location.pathname}${window.location.search}`);
  const cfg = await enabledConfig();
  const user = await (await manager(cfg)).signinRedirectCallback(url);
  if (!user.id_token) throw new Error('no id_token');
  return user.id_token;
}

/** Spec §4 "Back clears the context and the provider cache": the stored user and any request state. */
export async function clearSsoCache(): Promise<void> {
  for (const key of Object.keys(window.sessionStorage)) if (key.startsWith(STORE_PREFIX)) window.sessionStorage.removeItem(key);
}
