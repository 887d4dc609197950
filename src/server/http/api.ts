// The HTTP boundary: typed route declarations (every route names its permission), valibot
// validation of query/body/form input, the error shape { Content: { Message, Code } }, and the
// route table tests iterate over to check the permission guard for every role and route.
import { Hono, type Context } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { verifyHs256 } from '../auth/hs256.js';
import * as v from 'valibot';
import { ACCESS_TOKEN_CHECKS } from '../auth/tokens.js';
import { sessionIsCurrent } from '../auth/session-epoch.js';
import { tenantMayUse } from '../auth/tenant-scope.js';
import { randomUUID } from 'node:crypto';
import { CODE, MSG } from '../../shared/messages.js';
import type { Permission } from '../../shared/permissions.js';
import { matchKeyCasing } from './input-casing.js';

export type { AppEnv, AuthUser, Ctx, Deps } from './types.js';
import type { AppEnv, AuthUser, Ctx, Deps } from './types.js';

export class ApiError extends Error {
  constructor(
    readonly status: 400 | 401 | 403 | 404 | 409 | 413 | 415 | 422 | 429 | 500 | 503,
    message: string,
    readonly code: string,
    readonly errors?: Record<string, string>,
    readonly extra?: Record<string, unknown>,
  ) {
    super(message);
  }
}
export const badRequest = (message: string, code: string = CODE.validation, errors?: Record<string, string>) => new ApiError(400, message, code, errors);
export const notFound = (message = 'Not found.') => new ApiError(404, message, CODE.notFound);
export const conflict = (message: string = MSG.staleEtag) => new ApiError(409, message, CODE.conflict);
/** `value`, or the error `missing()` when there is none (a record outside the caller's scope is none too). */
export function found<T>(value: T | null | undefined, missing: () => ApiError): T {
  if (value === null || value === undefined) throw missing();
  return value;
}
export const forbidden = () => new ApiError(403, MSG.forbidden, CODE.forbidden);
export const unauthorized = () => new ApiError(401, MSG.sessionExpired, CODE.unauthorized);

export function errorBody(message: string, code: string, errors?: Record<string, string>) {
  return { Content: { Message: message, Code: code, ...(errors ? { Errors: errors } : {}) } };
}

/** 'public': no token needed. 'signed-in': any valid token. Otherwise the named permission. */
export type Access = 'public' | 'signed-in' | Permission;
type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
type AnySchema = v.GenericSchema<unknown, unknown>;

/**
 * Request-body size classes, in bytes, enforced while the body is read (a declared
 * Content-Length over the limit is refused before reading; a chunked body is cut at the limit):
 * 413 with the error shape. 'small' covers every JSON and form body of the API (the largest real
 * one, a person with phone numbers, is under 2 KB; bulk serial lists of a few thousand serials
 * fit too); 'batch' is for JSON batches of whole documents (closed alarm reports from the ARC
 * platform); 'upload' is for file imports (CSV).
 */
export const BODY_LIMITS = { small: 64 * 1024, batch: 4 * 1024 * 1024, upload: 20 * 1024 * 1024 } as const;
export type BodyLimit = keyof typeof BODY_LIMITS;
const tooLarge = (c: Context) => c.json(errorBody(MSG.bodyTooLarge, CODE.tooLarge), 413);

export type RouteSpec = {
  method: Method;
  path: string;
  access: Access;
  bodyLimit: BodyLimit;
  /** a minimal valid request, for tests that only probe the guard */
  sample?: { query?: Record<string, string>; json?: unknown; form?: Record<string, string>; headers?: Record<string, string> };
  /** the input schemas, for the published contract (src/server/http/openapi.ts) */
  input: { query?: AnySchema; json?: AnySchema; form?: AnySchema };
};

type Opts<Q extends AnySchema | undefined, B extends AnySchema | undefined, F extends AnySchema | undefined> = {
  access: Access;
  /** Body size class; 'small' unless the route takes file uploads. */
  bodyLimit?: BodyLimit;
  query?: Q;
  json?: B;
  form?: F;
  sample?: RouteSpec['sample'];
  /**
   * Checked from the request line and headers after the access guard and before any byte of the
   * body is read (a gateway key, a rate limit): a Response (or a thrown ApiError) refuses the
   * request without reading its body.
   */
  gate?: (c: Ctx) => Response | undefined | Promise<Response | undefined>;
};
type Out<S> = S extends AnySchema ? v.InferOutput<S> : undefined;
type Input<Q, B, F> = { query: Out<Q>; body: Out<B>; form: Out<F>; user: AuthUser };

/** A key in words, for messages: 'customerId' → 'customer id', 'DeviceIdentities' → 'device identities'. */
export const fieldWords = (key: string) =>
  key
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/[_.]+/g, ' ')
    .trim()
    .toLowerCase();

/**
 * The message of one issue. A required key that is missing names the field (spec document 1 §5:
 * 'Please enter {field name}'), whatever message its object carries; valibot's own wording
 * ('Invalid type: Expected …'), used where a schema names no message, becomes 'Please enter a
 * valid {field name}'.
 */
function issueMessage(issue: v.BaseIssue<unknown>): string {
  const last = issue.path?.at(-1);
  const field = last && typeof last.key === 'string' ? fieldWords(last.key) : undefined;
  if (field && last?.origin === 'key' && issue.input === undefined) return MSG.pleaseEnter(field);
  if (field && /^Invalid [a-z ]+: (Expected|Received) /.test(issue.message)) return MSG.pleaseEnterValid(field);
  return issue.message;
}

/** Converts valibot issues into the spec's field messages: { field: message }. */
export function issuesToErrors(issues: v.BaseIssue<unknown>[]): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const issue of issues) {
    const key = issue.path?.map((p) => String(p.key)).join('.') || '_';
    errors[key] ??= issueMessage(issue);
  }
  return errors;
}

/**
 * Text no field should carry, refused at the boundary for every route: NUL (PostgreSQL refuses it
 * in text columns), unpaired UTF-16 surrogates (not encodable as UTF-8: stored or logged they turn
 * into U+FFFD or break the JSON of the next reader), and the bidirectional embedding/override/
 * isolate controls U+202A–U+202E, U+2066–U+2069, which make a name or note display as something
 * other than what it is (spoofed e-mail addresses, reversed text in lists and logs).
 */
const BIDI_CONTROLS = /[\u202A-\u202E\u2066-\u2069]/;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
export const TEXT_MESSAGES = {
  nul: 'Text must not contain NUL characters.',
  surrogate: 'Text must not contain unpaired surrogate characters.',
  bidi: 'Text must not contain bidirectional override characters.',
} as const;
export function badTextKind(s: string): keyof typeof TEXT_MESSAGES | undefined {
  if (s.includes('\u0000')) return 'nul';
  if (LONE_SURROGATE.test(s)) return 'surrogate';
  if (BIDI_CONTROLS.test(s)) return 'bidi';
  return undefined;
}

/** The first string (or key) in the value that is bad text: its path and what is wrong. */
function findBadText(value: unknown, path: string[] = []): { path: string[]; kind: keyof typeof TEXT_MESSAGES } | undefined {
  if (typeof value === 'string') {
    const kind = badTextKind(value);
    return kind && { path, kind };
  }
  if (path.length > 20 || value === null || typeof value !== 'object') return undefined;
  for (const [k, x] of Object.entries(value)) {
    const kind = badTextKind(k);
    if (kind) return { path: [...path, k], kind };
    const found = findBadText(x, [...path, k]);
    if (found) return found;
  }
  return undefined;
}

const OBJECT_TYPES = new Set(['object', 'loose_object', 'strict_object', 'object_with_rest']);
const WRAPPER_TYPES = new Set(['optional', 'nullable', 'nullish', 'exact_optional', 'undefinedable', 'non_optional', 'non_nullable', 'non_nullish']);
type SchemaNode = { type?: string; wrapped?: SchemaNode; entries?: Record<string, SchemaNode>; item?: SchemaNode };

/**
 * The path of the first array sent where the schema expects an object. valibot's object schemas
 * take an array as an object without fields (every field then takes its default), so a list sent
 * in place of an object would be read as empty: the boundary refuses it instead, at any depth.
 */
function arrayForObject(schema: SchemaNode | undefined, value: unknown, path: string[] = []): string[] | undefined {
  let s = schema;
  while (s?.type && WRAPPER_TYPES.has(s.type)) s = s.wrapped;
  if (!s?.type || value === null || typeof value !== 'object' || path.length > 20) return undefined;
  if (OBJECT_TYPES.has(s.type)) {
    if (Array.isArray(value)) return path;
    for (const [key, entry] of Object.entries(s.entries ?? {})) {
      const found = arrayForObject(entry, (value as Record<string, unknown>)[key], [...path, key]);
      if (found) return found;
    }
    return undefined;
  }
  if (s.type === 'array' && Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = arrayForObject(s.item, value[i], [...path, String(i)]);
      if (found) return found;
    }
  }
  return undefined;
}

/** Validates one input of a route (query, JSON body or form) as the route does: 400 `validation_error` with the field messages, else the parsed value. */
export function parseInput<S extends AnySchema>(schema: S, value: unknown): v.InferOutput<S> {
  const bad = findBadText(value);
  if (bad) {
    const message = TEXT_MESSAGES[bad.kind];
    throw badRequest(message, CODE.validation, { [bad.path.join('.') || '_']: message });
  }
  const input = matchKeyCasing(schema, value);
  const listed = arrayForObject(schema as SchemaNode, input);
  if (listed) {
    const message = MSG.pleaseEnterValid(fieldWords(listed.filter((k) => !/^\d+$/.test(k)).at(-1) ?? 'body'));
    throw badRequest(message, CODE.validation, { [listed.join('.') || '_']: message });
  }
  const r = v.safeParse(schema, input);
  if (r.success) return r.output;
  const errors = issuesToErrors(r.issues);
  const first = Object.values(errors)[0] ?? MSG.default;
  throw badRequest(first, CODE.validation, errors);
}

/**
 * A client's x-request-id is logged only when it is 1–128 printable ASCII characters without
 * space, quote or backslash (nothing a log reader could mistake for structure); otherwise we make one.
 */
export function requestIdOf(header: string | undefined): string {
  return header && /^[\x21\x23-\x5b\x5d-\x7e]{1,128}$/.test(header) ? header : randomUUID();
}

/**
 * Verifies an access token: signature, exp, issuer, audience, and the person's session epoch
 * (database, cached). A token that fails is undefined (401); a database that cannot be asked
 * throws (503 through faults.ts), so an outage never reads as a signed-out session.
 */
export async function verifyAccessToken(d: Deps, token: string): Promise<AuthUser | undefined> {
  let payload: ReturnType<typeof verifyHs256>;
  try {
    // node:crypto HMAC (auth/hs256.ts): every request verifies one, so it stays off jose's WebCrypto path
    payload = verifyHs256(token, d.config.jwtSecret, { ...ACCESS_TOKEN_CHECKS, currentDate: d.config.now() });
  } catch {
    return undefined;
  }
  if (!payload) return undefined;
  if (!(await sessionIsCurrent(d, payload))) return undefined; // password, roles or lock changed since issued
  const perms = payload.permissions;
  const role = payload.role;
  return {
    id: String(payload.sub),
    tenantId: String(payload.tenantId ?? ''),
    email: String(payload.email ?? ''),
    permissions: (Array.isArray(perms) ? perms : typeof perms === 'string' ? [perms] : []) as Permission[],
    role: Array.isArray(role) ? (role as string[]) : typeof role === 'string' ? [role] : [],
  };
}

/** A request as either side sees it: a fetch Request (Hono) or a Node IncomingMessage (upgrades). */
export type AnyRequest = Request | { url?: string; headers: Record<string, string | string[] | undefined> };
function headerOf(req: AnyRequest, name: string): string | undefined {
  if (typeof req.headers.get === 'function') return (req as Request).headers.get(name) ?? undefined;
  const v = (req.headers as Record<string, string | string[] | undefined>)[name];
  return Array.isArray(v) ? v.join(', ') : v;
}

/**
 * Requests that may carry the access token in the query string (`access_token`): WebSocket
 * upgrades and server-sent-event streams, because browsers cannot set an Authorization header
 * on them. Every other request needs the header, so a token in a link or a log line does not
 * open the API.
 */
export function mayUseQueryToken(req: AnyRequest): boolean {
  if ((headerOf(req, 'upgrade') ?? '').toLowerCase() === 'websocket') return true;
  return (headerOf(req, 'accept') ?? '').toLowerCase().includes('text/event-stream');
}

/** The access token of a request: 'Authorization: Bearer …', else `?access_token=` where mayUseQueryToken allows it. */
export function requestToken(req: AnyRequest): string | undefined {
  const h = headerOf(req, 'authorization');
  if (h) return /^Bearer\s+(.+)$/i.exec(h)?.[1];
  if (!mayUseQueryToken(req)) return undefined;
  const url = new URL(req.url ?? '/', 'http://localhost');
  return url.searchParams.get('access_token') || undefined;
}

/** The signed-in user of a request (Hono's or a Node upgrade request), or undefined. */
export async function authenticateRequest(req: AnyRequest, d: Deps): Promise<AuthUser | undefined> {
  const token = requestToken(req);
  return token ? verifyAccessToken(d, token) : undefined;
}

export async function authenticate(c: Ctx): Promise<AuthUser | undefined> {
  return authenticateRequest(c.req.raw, c.get('deps'));
}

/**
 * The client stopped sending the request body (connection reset, upload cancelled): not the
 * server's fault and not the database's. app.ts logs it as an aborted request.
 */
export class RequestAborted extends Error {
  constructor(readonly reason: unknown) {
    super(`request aborted while its body was read: ${String((reason as Error)?.message ?? reason)}`);
  }
}

/** The JSON body: 400 when it is not JSON, RequestAborted when it could not be read to its end. */
export async function readJson(c: Ctx): Promise<unknown> {
  try {
    return await c.req.json();
  } catch (e) {
    if (e instanceof SyntaxError && !c.req.raw.signal?.aborted) throw badRequest('The request body must be valid JSON.', CODE.validation);
    throw new RequestAborted(e);
  }
}

export class Api {
  readonly routes: RouteSpec[] = [];
  private readonly limiters = {
    small: bodyLimit({ maxSize: BODY_LIMITS.small, onError: tooLarge }),
    batch: bodyLimit({ maxSize: BODY_LIMITS.batch, onError: tooLarge }),
    upload: bodyLimit({ maxSize: BODY_LIMITS.upload, onError: tooLarge }),
  };
  constructor(readonly app: Hono<AppEnv>) {
    // Paths outside the route table never read the body; an announced body over the largest class is refused anyway.
    app.use('*', async (c, next) => {
      if (Number(c.req.header('content-length') ?? 0) > BODY_LIMITS.upload) return tooLarge(c);
      await next();
    });
  }

  private add<Q extends AnySchema | undefined, B extends AnySchema | undefined, F extends AnySchema | undefined>(
    method: Method,
    path: string,
    opts: Opts<Q, B, F>,
    handler: (c: Ctx, input: Input<Q, B, F>) => Response | Promise<Response>,
  ) {
    const limit = opts.bodyLimit ?? 'small';
    this.routes.push({
      method,
      path,
      access: opts.access,
      bodyLimit: limit,
      sample: opts.sample,
      input: { query: opts.query, json: opts.json, form: opts.form },
    });
    this.app.on(method, path, async (c) => {
      let user = await authenticate(c);
      if (opts.access !== 'public') {
        if (!user) throw unauthorized();
        if (opts.access !== 'signed-in' && !user.permissions.includes(opts.access)) throw forbidden();
        // Tenant data is provider staff's: a caller of a customer tenant is refused whatever its token claims.
        if (opts.access !== 'signed-in' && !tenantMayUse(user, opts.access)) throw forbidden();
      }
      c.set('user', user);
      const gated = opts.gate && (await opts.gate(c));
      if (gated) return gated;
      // After the guard, so only callers allowed here make the server read (at most the limit of) a body.
      let refused: Response | void;
      try {
        refused = await this.limiters[limit](c, async () => {});
      } catch (e) {
        throw new RequestAborted(e);
      }
      if (refused) return refused;
      const query = opts.query ? parseInput(opts.query, c.req.query()) : undefined;
      let body: unknown;
      if (opts.json) {
        const raw = await readJson(c);
        // Every JSON body of the API is an object (some accept null): an array is refused, not read as an object without fields.
        if ((typeof raw !== 'object' || Array.isArray(raw)) && raw !== null) throw badRequest(MSG.bodyNotObject, CODE.validation);
        body = parseInput(opts.json, raw);
      }
      let form: unknown;
      if (opts.form) {
        let raw: Record<string, unknown> = {};
        try {
          const fd = await c.req.parseBody();
          raw = Object.fromEntries(Object.entries(fd).filter(([, val]) => typeof val === 'string'));
        } catch {
          throw badRequest('The request body must be form-encoded.', CODE.validation);
        }
        form = parseInput(opts.form, raw);
      }
      user ??= { id: '', tenantId: '', email: '', role: [], permissions: [] };
      return handler(c, { query, body, form, user } as Input<Q, B, F>);
    });
  }

  get<Q extends AnySchema | undefined = undefined>(
    path: string,
    opts: Opts<Q, undefined, undefined>,
    h: (c: Ctx, i: Input<Q, undefined, undefined>) => Response | Promise<Response>,
  ) {
    this.add('GET', path, opts, h);
  }
  post<Q extends AnySchema | undefined = undefined, B extends AnySchema | undefined = undefined, F extends AnySchema | undefined = undefined>(
    path: string,
    opts: Opts<Q, B, F>,
    h: (c: Ctx, i: Input<Q, B, F>) => Response | Promise<Response>,
  ) {
    this.add('POST', path, opts, h);
  }
  put<Q extends AnySchema | undefined = undefined, B extends AnySchema | undefined = undefined, F extends AnySchema | undefined = undefined>(
    path: string,
    opts: Opts<Q, B, F>,
    h: (c: Ctx, i: Input<Q, B, F>) => Response | Promise<Response>,
  ) {
    this.add('PUT', path, opts, h);
  }
  delete<Q extends AnySchema | undefined = undefined>(
    path: string,
    opts: Opts<Q, undefined, undefined>,
    h: (c: Ctx, i: Input<Q, undefined, undefined>) => Response | Promise<Response>,
  ) {
    this.add('DELETE', path, opts, h);
  }
}

export const deps = (c: Ctx) => c.get('deps');

/** A route pattern ('/api/v1/person/:id', ':id{[0-9]+}', a trailing '*') as a regular expression of whole paths. */
const patternCache = new Map<string, RegExp>();
function patternRegex(pattern: string): RegExp {
  const cached = patternCache.get(pattern);
  if (cached) return cached;
  const parts = pattern.split('/').map((seg) => {
    if (seg === '*') return '.*';
    const param = /^:[A-Za-z0-9_]+(\{(.+)\})?(\?)?$/.exec(seg);
    if (!param) return seg.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    return `(?:${param[2] ?? '[^/]+'})${param[3] ? '?' : ''}`;
  });
  const re = new RegExp(`^${parts.join('/')}$`);
  patternCache.set(pattern, re);
  return re;
}

/**
 * The methods a path is served with, for 405 answers and their `Allow` header: every method of a
 * declared route whose pattern matches the path (HEAD wherever GET is: Hono answers HEAD with the
 * GET handler). Catch-all patterns ('*', '/*': middleware, the client's index.html) do not count.
 * Empty: the path is unknown (404).
 */
export function allowedMethods(routes: readonly { method: string; path: string }[], path: string): string[] {
  const found = new Set<string>();
  for (const r of routes) {
    if (r.method === 'ALL' || r.path === '*' || r.path === '/*') continue;
    if (patternRegex(r.path).test(path)) found.add(r.method);
  }
  if (found.has('GET')) found.add('HEAD');
  return ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'].filter((m) => found.has(m));
}
