// The HTTP boundary: typed route declarations (every route names its permission), valibot
// validation of query/body/form input, the error shape { Content: { Message, Code } }, and the
// route table tests iterate over to check the permission guard for every role and route.
import { Hono, type Context } from 'hono';
import * as v from 'valibot';
import { jwtVerify } from 'jose';
import { ACCESS_TOKEN_CHECKS } from './auth/tokens.js';
import { sessionIsCurrent } from './auth/session-epoch.js';
import type { DB } from './db/index.js';
import type { Config } from './config.js';
import { CODE, MSG } from '../shared/messages.js';
import type { Permission } from '../shared/permissions.js';
import type { Outbox } from './outbox.js';
import type { Redis } from 'ioredis';
import type { Bus } from './redis.js';

export type AuthUser = {
  id: string;
  tenantId: string;
  email: string;
  role: string[];
  permissions: Permission[];
};

export type Deps = {
  db: DB;
  config: Config;
  outbox: Outbox;
  log: (entry: Record<string, unknown>) => void;
  /** Set when REDIS_URL is: sign-in rate limits shared by every node. Commands only: never subscribe on it. */
  redis?: Redis;
  /** Pub/sub (the hub's backplane): over Redis on its own subscriber connection when REDIS_URL is set, else in process. */
  bus?: Bus;
};

export type AppEnv = { Variables: { deps: Deps; user: AuthUser | undefined; requestId: string } };
export type Ctx = Context<AppEnv>;

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
export const badRequest = (message: string, code: string = CODE.validation, errors?: Record<string, string>) =>
  new ApiError(400, message, code, errors);
export const notFound = (message = 'Not found.') => new ApiError(404, message, CODE.notFound);
export const conflict = (message: string = MSG.staleEtag) => new ApiError(409, message, CODE.conflict);
export const forbidden = () => new ApiError(403, MSG.forbidden, CODE.forbidden);
export const unauthorized = () => new ApiError(401, MSG.sessionExpired, CODE.unauthorized);

export function errorBody(message: string, code: string, errors?: Record<string, string>) {
  return { Content: { Message: message, Code: code, ...(errors ? { Errors: errors } : {}) } };
}

/** 'public': no token needed. 'signed-in': any valid token. Otherwise the named permission. */
export type Access = 'public' | 'signed-in' | Permission;
type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
type AnySchema = v.GenericSchema<unknown, unknown>;

export type RouteSpec = {
  method: Method;
  path: string;
  access: Access;
  /** a minimal valid request, for tests that only probe the guard */
  sample?: { query?: Record<string, string>; json?: unknown; form?: Record<string, string> };
};

type Opts<Q extends AnySchema | undefined, B extends AnySchema | undefined, F extends AnySchema | undefined> = {
  access: Access;
  query?: Q;
  json?: B;
  form?: F;
  sample?: RouteSpec['sample'];
};
type Out<S> = S extends AnySchema ? v.InferOutput<S> : undefined;
type Input<Q, B, F> = { query: Out<Q>; body: Out<B>; form: Out<F>; user: AuthUser };

/** Converts valibot issues into the spec's field messages: { field: message }. */
export function issuesToErrors(issues: v.BaseIssue<unknown>[]): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const issue of issues) {
    const key = issue.path?.map((p) => String(p.key)).join('.') || '_';
    errors[key] ??= issue.message;
  }
  return errors;
}

/** NUL never belongs in text input, and PostgreSQL refuses it in text columns: reject it here, for every route. */
function hasNul(value: unknown, depth = 0): boolean {
  if (typeof value === 'string') return value.includes('\u0000');
  if (depth > 20 || value === null || typeof value !== 'object') return false;
  if (Array.isArray(value)) return value.some((x) => hasNul(x, depth + 1));
  return Object.entries(value).some(([k, x]) => k.includes('\u0000') || hasNul(x, depth + 1));
}

function parse<S extends AnySchema>(schema: S, value: unknown): v.InferOutput<S> {
  if (hasNul(value)) throw badRequest('Text must not contain NUL characters.', CODE.validation);
  const r = v.safeParse(schema, value);
  if (r.success) return r.output;
  const errors = issuesToErrors(r.issues);
  const first = Object.values(errors)[0] ?? MSG.default;
  throw badRequest(first, CODE.validation, errors);
}

/** Verifies an HS256 access token; the user it names, or undefined when it is not valid now. */
/** Verifies an access token: signature, exp, issuer, audience, and the person's session epoch (database, cached). */
export async function verifyAccessToken(d: Deps, token: string): Promise<AuthUser | undefined> {
  try {
    const { payload } = await jwtVerify(token, d.config.jwtSecret, { algorithms: ['HS256'], ...ACCESS_TOKEN_CHECKS, currentDate: d.config.now() });
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
  } catch {
    return undefined;
  }
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

export class Api {
  readonly routes: RouteSpec[] = [];
  constructor(readonly app: Hono<AppEnv>) {}

  private add<Q extends AnySchema | undefined, B extends AnySchema | undefined, F extends AnySchema | undefined>(
    method: Method,
    path: string,
    opts: Opts<Q, B, F>,
    handler: (c: Ctx, input: Input<Q, B, F>) => Response | Promise<Response>,
  ) {
    this.routes.push({ method, path, access: opts.access, sample: opts.sample });
    this.app.on(method, path, async (c) => {
      let user = await authenticate(c);
      if (opts.access !== 'public') {
        if (!user) throw unauthorized();
        if (opts.access !== 'signed-in' && !user.permissions.includes(opts.access)) throw forbidden();
      }
      c.set('user', user);
      const query = opts.query ? parse(opts.query, c.req.query()) : undefined;
      let body: unknown;
      if (opts.json) {
        let raw: unknown;
        try {
          raw = await c.req.json();
        } catch {
          throw badRequest('The request body must be valid JSON.', CODE.validation);
        }
        body = parse(opts.json, raw);
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
        form = parse(opts.form, raw);
      }
      user ??= { id: '', tenantId: '', email: '', role: [], permissions: [] };
      return handler(c, { query, body, form, user } as Input<Q, B, F>);
    });
  }

  get<Q extends AnySchema | undefined = undefined>(path: string, opts: Opts<Q, undefined, undefined>, h: (c: Ctx, i: Input<Q, undefined, undefined>) => Response | Promise<Response>) {
    this.add('GET', path, opts, h);
  }
  post<Q extends AnySchema | undefined = undefined, B extends AnySchema | undefined = undefined, F extends AnySchema | undefined = undefined>(path: string, opts: Opts<Q, B, F>, h: (c: Ctx, i: Input<Q, B, F>) => Response | Promise<Response>) {
    this.add('POST', path, opts, h);
  }
  put<Q extends AnySchema | undefined = undefined, B extends AnySchema | undefined = undefined, F extends AnySchema | undefined = undefined>(path: string, opts: Opts<Q, B, F>, h: (c: Ctx, i: Input<Q, B, F>) => Response | Promise<Response>) {
    this.add('PUT', path, opts, h);
  }
  delete<Q extends AnySchema | undefined = undefined>(path: string, opts: Opts<Q, undefined, undefined>, h: (c: Ctx, i: Input<Q, undefined, undefined>) => Response | Promise<Response>) {
    this.add('DELETE', path, opts, h);
  }
}

export const deps = (c: Ctx) => c.get('deps');
