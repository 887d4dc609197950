// Response headers for every answer: a strict Content-Security-Policy, no sniffing, no
// framing, no referrer, and `Cache-Control: no-store` on everything but the hashed static assets,
// so API answers with personal data never sit in a browser or proxy cache.
import { Hono, type MiddlewareHandler } from 'hono';
import { secureHeaders } from 'hono/secure-headers';
import type { Config } from '../platform/config.js';

/**
 * Scripts only from our origin, never inline or eval'd (the built index.html loads one module
 * file). Styles: our stylesheet plus inline styles — Radix Themes and React set style attributes,
 * and Radix dialogs (react-remove-scroll) inject a <style> element for the scroll lock; inline
 * style cannot run code, and with script-src strict the remaining risk (CSS-based exfiltration
 * after an HTML injection React does not allow) is small. Nothing may frame the app.
 */
export const CONTENT_SECURITY_POLICY = {
  defaultSrc: ["'self'"],
  scriptSrc: ["'self'"],
  styleSrc: ["'self'", "'unsafe-inline'"],
  // Alarm report map tiles (decision "The alarm map is Leaflet with a build-time tile server and a drawn fallback",
  // docs/decisions/alarm-reports.md): the default tile server of VITE_MAP_TILE_URL; another
  // tile server needs its origin here too.
  imgSrc: ["'self'", 'data:', 'https://tile.openstreetmap.org'],
  // Call recordings and voice memos play from object URLs of the fetched (authorised) audio.
  mediaSrc: ["'self'", 'blob:'],
  fontSrc: ["'self'", 'data:'],
  connectSrc: ["'self'"],
  objectSrc: ["'none'"],
  baseUri: ["'none'"],
  formAction: ["'self'"],
  frameAncestors: ["'none'"],
};

/**
 * sso: the browser's OpenID Connect client (oidc-client-ts) reads the identity provider's
 * discovery document and redeems the authorization code at its token endpoint, so the provider's
 * origin joins connect-src (Entra ID: https://login.microsoftonline.com; the embedded provider: its
 * issuer's origin, which may differ from the page's, e.g. localhost vs 127.0.0.1).
 */
export function ssoConnectSources(config: Config): string[] {
  if (!config.sso) return [];
  const origins = new Set([new URL(config.sso.issuer).origin]);
  // Entra ID's discovery document names keys and endpoints on the same host; its token endpoint too.
  return [...origins];
}

/**
 * The policy of one page that needs more than the app's (the API reference's inline start-up
 * script, allowed by its hash): the app's directives with `extra` sources added. A route that
 * sends its own Content-Security-Policy keeps it (securityHeaders does not overwrite it).
 */
export function pageContentSecurityPolicy(extra: Partial<Record<keyof typeof CONTENT_SECURITY_POLICY, string[]>>): string {
  return Object.entries(CONTENT_SECURITY_POLICY)
    .map(([directive, sources]) => {
      const name = directive.replace(/[A-Z]/g, (ch) => `-${ch.toLowerCase()}`);
      return [name, ...sources, ...(extra[directive as keyof typeof CONTENT_SECURITY_POLICY] ?? [])].join(' ');
    })
    .join('; ');
}

/** Paths whose answers may be cached: content-hashed build output. */
const cacheable = (path: string) => path.startsWith('/assets/') || path === '/favicon.svg' || path === '/api/docs/scalar.js';

export function securityHeaders(extraConnectSources: string[] = []): MiddlewareHandler {
  const secure = secureHeaders({
    contentSecurityPolicy: { ...CONTENT_SECURITY_POLICY, connectSrc: [...CONTENT_SECURITY_POLICY.connectSrc, ...extraConnectSources] },
    xFrameOptions: 'DENY',
    referrerPolicy: 'no-referrer',
    strictTransportSecurity: 'max-age=15552000',
    overwrite: false, // a page with its own policy keeps it (pageContentSecurityPolicy)
  });
  // The headers are the same on every answer: read once what secureHeaders sets, then set them
  // before the handler runs, so the answer is built with them. Setting them on the finished answer
  // (secureHeaders' way) rebuilt it through the Fetch API's Headers: ~0.25 ms of CPU a request,
  // a seventh of a hub reconnect (decision "Security headers are set before the handler",
  // docs/decisions/http-and-api.md). A handler may still set its own (a page's
  // policy, an asset's Cache-Control): it replaces ours.
  let pairs: Promise<[string, string][]> | undefined;
  const headersOf = () =>
    (pairs ??= (async () => {
      const probe = new Hono().use(secure).get('/', (c) => c.body(null));
      const out: [string, string][] = [];
      (await probe.request('/')).headers.forEach((v, k) => out.push([k, v]));
      return out;
    })());
  return async (c, next) => {
    const all = await headersOf();
    for (const [k, v] of all) c.header(k, v);
    const noStore = !cacheable(c.req.path);
    if (noStore) c.header('Cache-Control', 'no-store');
    await next();
    // A handler that answered with a Response of its own did not take them: add what it lacks.
    const h = c.res.headers;
    if (h.has(SENTINEL)) return;
    for (const [k, v] of all) if (!h.has(k)) h.set(k, v);
    if (noStore && !h.has('cache-control')) h.set('Cache-Control', 'no-store');
  };
}

/** A header every answer of securityHeaders carries: present means the set was taken. */
const SENTINEL = 'x-content-type-options';
