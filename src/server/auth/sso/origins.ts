// The addresses single sign-on sends the browser back to. Apart from embedded.ts so that the sign-on
// routes can name them without loading oidc-provider (which warns on stderr when it is loaded on
// Node 20; it is loaded only when the embedded provider starts).
import type { Config } from '../../platform/config.js';

/** The origins the browser app may run at (redirect URIs, CORS, form-action). */
export function appOrigins(config: Config): string[] {
  const port = config.port || 8080;
  const list = [process.env.PUBLIC_URL?.trim(), `http://localhost:${port}`, `http://127.0.0.1:${port}`].filter((x): x is string => !!x);
  return [...new Set(list.map((u) => new URL(u).origin))];
}

/** The origins the configured provider returns to: the embedded one's own list; an external one's PUBLIC_URL (none known without it). */
export function ssoReturnOrigins(config: Config): string[] {
  if (config.sso?.mode === 'embedded') return appOrigins(config);
  const url = process.env.PUBLIC_URL?.trim();
  return url ? [new URL(url).origin] : [];
}
