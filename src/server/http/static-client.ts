// The built client over HTTP: files of the client folder (dist/client), each in the encoding the
// browser takes best among those the build made beside it (`name.br`, `name.gz`: brotli, then
// gzip, then the file itself), with the cache policy of what it is: a content-hashed file of
// assets/ never changes under its name (cached for a year, `immutable`); anything else, and
// index.html, is revalidated on every use (`no-cache` with an ETag, so a revisit costs a 304).
import { createReadStream, existsSync, readFileSync, statSync, type Stats } from 'node:fs';
import { join, normalize, sep } from 'node:path';
import { Readable } from 'node:stream';
import type { Context, MiddlewareHandler } from 'hono';
import { getMimeType } from 'hono/utils/mime';

export type Encoding = 'br' | 'gzip' | 'identity';

/** The precompressed files the build writes beside each asset, best first. */
const VARIANTS: { encoding: Exclude<Encoding, 'identity'>; suffix: string }[] = [
  { encoding: 'br', suffix: '.br' },
  { encoding: 'gzip', suffix: '.gz' },
];

export const IMMUTABLE = 'public, max-age=31536000, immutable';
export const REVALIDATE = 'no-cache';

/** A file Vite named by its content: `assets/<name>-<8-character hash>.<ext>`. */
export const isHashedAsset = (path: string) => /^\/assets\/(?:[^/]+\/)*[^/]+-[\w-]{8}\.[a-z0-9]+$/i.test(path);

/**
 * The encodings of an `Accept-Encoding` header with their weights (`br;q=0.8` → 0.8; no q → 1).
 * `*` stands for any encoding not named; `identity` is acceptable unless refused by name or by `*;q=0`.
 */
export function acceptedEncodings(header: string | undefined): (encoding: Encoding) => number {
  const weights = new Map<string, number>();
  for (const part of (header ?? '').split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    if (!name) continue;
    let q = 1;
    for (const p of params) {
      const m = /^\s*q\s*=\s*([0-9.]+)\s*$/.exec(p);
      if (m) q = Number(m[1]);
    }
    weights.set(name === 'x-gzip' ? 'gzip' : name, Number.isFinite(q) ? Math.min(1, Math.max(0, q)) : 0);
  }
  return (encoding) => weights.get(encoding) ?? weights.get('*') ?? (encoding === 'identity' ? 1 : 0);
}

/**
 * Which of the available encodings to send: brotli or gzip when the request accepts it (q > 0),
 * the higher weight first and brotli on equal weights; otherwise the file itself (which a server may
 * always send rather than answer 406, and which a browser weights implicitly).
 */
export function pickEncoding(header: string | undefined, available: readonly Encoding[]): Encoding {
  const q = acceptedEncodings(header);
  let best: Encoding = 'identity';
  let bestQ = 0;
  for (const encoding of ['br', 'gzip'] as const) {
    if (!available.includes(encoding)) continue;
    const w = q(encoding);
    if (w > bestQ) {
      best = encoding;
      bestQ = w;
    }
  }
  return best;
}

const etagOf = (stats: Stats, encoding: Encoding) =>
  `"${stats.size.toString(36)}-${Math.floor(stats.mtimeMs).toString(36)}${encoding === 'identity' ? '' : `-${encoding}`}"`;

/** True when If-None-Match names this ETag (or `*`), weak or strong. */
function notModified(c: Context, etag: string) {
  const inm = c.req.header('if-none-match');
  if (!inm) return false;
  return inm.split(',').some((t) => {
    const tag = t.trim().replace(/^W\//, '');
    return tag === '*' || tag === etag;
  });
}

type Found = { path: string; stats: Stats; encoding: Encoding; vary: boolean };

function statFile(path: string): Stats | undefined {
  try {
    const s = statSync(path);
    return s.isFile() ? s : undefined;
  } catch {
    return undefined;
  }
}

/** The file for a request path, in the best encoding the request accepts; undefined when there is none. */
function find(root: string, urlPath: string, acceptEncoding: string | undefined): Found | undefined {
  let decoded: string;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    return undefined;
  }
  if (decoded.includes('\0') || /(?:^|[/\\])\.{1,2}(?:[/\\]|$)/.test(decoded)) return undefined;
  const path = normalize(join(root, decoded));
  if (!path.startsWith(root.endsWith(sep) ? root : root + sep)) return undefined;
  // The compressed files themselves are not addressable: only what the build put there by name.
  if (VARIANTS.some((v) => path.endsWith(v.suffix))) return undefined;
  const stats = statFile(path);
  if (!stats) return undefined;
  const variants = new Map(VARIANTS.map((v) => [v.encoding, statFile(path + v.suffix)] as const));
  const available: Encoding[] = ['identity', ...VARIANTS.filter((v) => variants.get(v.encoding)).map((v) => v.encoding)];
  const encoding = pickEncoding(acceptEncoding, available);
  const vary = available.length > 1;
  if (encoding === 'identity') return { path, stats, encoding, vary };
  const suffix = VARIANTS.find((v) => v.encoding === encoding)!.suffix;
  return { path: path + suffix, stats: variants.get(encoding as 'br' | 'gzip')!, encoding, vary };
}

function headersFor(c: Context, found: Found, contentType: string, cacheControl: string) {
  c.header('Content-Type', contentType);
  c.header('Cache-Control', cacheControl);
  c.header('ETag', etagOf(found.stats, found.encoding));
  c.header('Last-Modified', found.stats.mtime.toUTCString());
  if (found.vary) c.header('Vary', 'Accept-Encoding');
  if (found.encoding !== 'identity') c.header('Content-Encoding', found.encoding);
}

/**
 * Serves the files of `root` (GET and HEAD): `/assets/*` and the few files at the top of the
 * folder (the favicon). A request for a file that is not there goes on to the next handler.
 */
export function serveClientFiles(root: string): MiddlewareHandler {
  return async (c, next) => {
    if (c.req.method !== 'GET' && c.req.method !== 'HEAD') return next();
    const found = find(root, c.req.path, c.req.header('accept-encoding'));
    if (!found) return next();
    const type = getMimeType(found.encoding === 'identity' ? found.path : found.path.slice(0, found.path.lastIndexOf('.')));
    headersFor(c, found, type ?? 'application/octet-stream', isHashedAsset(c.req.path) ? IMMUTABLE : REVALIDATE);
    if (notModified(c, etagOf(found.stats, found.encoding))) return c.body(null, 304);
    c.header('Content-Length', String(found.stats.size));
    if (c.req.method === 'HEAD') return c.body(null, 200);
    return c.body(Readable.toWeb(createReadStream(found.path)) as ReadableStream, 200);
  };
}

/**
 * index.html for client routes, read once with its precompressed variants: in the encoding the
 * request accepts, `no-cache` with an ETag (a new build's page is seen at once, an unchanged one
 * costs a 304).
 */
export function clientPage(root: string) {
  const path = join(root, 'index.html');
  const stats = statSync(path);
  const bodies = new Map<Encoding, Buffer>([['identity', readFileSync(path)]]);
  for (const v of VARIANTS) if (existsSync(path + v.suffix)) bodies.set(v.encoding, readFileSync(path + v.suffix));
  const available = [...bodies.keys()];
  return (c: Context) => {
    const encoding = pickEncoding(c.req.header('accept-encoding'), available);
    const body = bodies.get(encoding)!;
    const found: Found = { path, stats, encoding, vary: available.length > 1 };
    headersFor(c, found, 'text/html; charset=utf-8', REVALIDATE);
    if (notModified(c, etagOf(stats, encoding))) return c.body(null, 304);
    c.header('Content-Length', String(body.length));
    if (c.req.method === 'HEAD') return c.body(null, 200);
    return c.body(new Uint8Array(body), 200);
  };
}
