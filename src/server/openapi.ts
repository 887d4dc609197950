// The published contract: an OpenAPI 3.1 document generated from the valibot schemas the server
// validates with (the route table's input schemas) and answers with (ENDPOINTS), served at
// /api/openapi.json, and an interactive reference (Scalar) at /api/docs. One source of truth: a
// route or schema change shows in the document without anyone editing it. The hub (live updates)
// is described on the negotiate call and in docs/hub.md.
import { readFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { Scalar } from '@scalar/hono-api-reference';
import { toJsonSchema, type ConversionConfig } from '@valibot/to-json-schema';
import type { Hono } from 'hono';
import * as v from 'valibot';
import { ENDPOINTS, type Endpoint } from '../shared/schemas/endpoints.js';
import { errorBodySchema } from '../shared/schemas/common.js';
import { SETTINGS_CHANGED_EVENT, settingsChangedEventSchema } from '../shared/schemas/admin.js';
import { GATEWAY_KEY_HEADER, HUB_EVENT_SCHEMAS, HUB_EVENTS, HUB_METHODS, HUB_PATH, ingestMessageSchema } from '../shared/schemas/live.js';
import type { AppEnv, RouteSpec } from './http.js';
import { pageContentSecurityPolicy } from './security-headers.js';

export const OPENAPI_PATH = '/api/openapi.json';
export const API_DOCS_PATH = '/api/docs';
/** The reference page's script (the standalone build of @scalar/api-reference), served from our origin. */
export const API_DOCS_SCRIPT_PATH = '/api/docs/scalar.js';

type Json = Record<string, unknown>;
type AnySchema = v.GenericSchema<unknown, unknown>;

const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
const BINARY = { type: 'string', format: 'binary' } as const;

/** A Uint8Array answer (a file) is a binary string; anything JSON Schema cannot say (transforms, custom checks) is left out. */
const overrideSchema: ConversionConfig['overrideSchema'] = ({ valibotSchema }) => (valibotSchema.type === 'instance' ? { ...BINARY } : undefined);

function jsonSchema(schema: AnySchema, typeMode: 'input' | 'output'): Json {
  const { $schema: _ignored, ...rest } = toJsonSchema(schema, { target: 'draft-2020-12', typeMode, errorMode: 'ignore', overrideSchema }) as Json;
  return rest;
}

/** The media type of a file answer, from what the endpoint serves. */
function fileType(path: string): string {
  if (path.includes('csv')) return 'text/csv';
  if (path.includes('record-file') || path.includes('voice-memo')) return 'audio/wav';
  return XLSX;
}

const TAGS: [RegExp, string][] = [
  [/alarm-report|alarm-line|second-line|voice-memo/, 'Alarm reports'],
  [/negotiate|subscribe-for-monitoring|device-messages|\/devices\/|device-configuration|desired-configuration|ps-admin\/devices/, 'Live devices'],
  [/get-types|get-last-config|get-sim-types|get-asset-statuses|get-tier-types|get-statuses|dictionaries|features|global-settings/, 'Reference data'],
  [/customer|salesforce|emails|allocate/, 'Customers'],
  [/device/, 'Device stock'],
  [/person|unlock/, 'Persons'],
  [/api\/search/, 'Search'],
  [/./, 'Sign-in and account'],
];
const tagOf = (path: string) => TAGS.find(([re]) => re.test(path))![1];

const ERROR = { $ref: '#/components/schemas/ErrorBody' };
const errorAnswer = (description: string) => ({ description, content: { 'application/json': { schema: ERROR } } });

function accessText(access: RouteSpec['access']): string {
  if (access === 'public') return 'Public: no token needed.';
  if (access === 'signed-in') return 'Any signed-in user (Authorization: Bearer <access_token>).';
  return `Needs the permission \`${access}\` (carried in the access token).`;
}

/** Request bodies the route reads itself (files, gateway batches), described by hand. */
function ownBody(route: RouteSpec): Json | undefined {
  if (route.path === '/api/v1/device-messages/ingest') {
    return { required: true, content: { 'application/json': { schema: { type: 'array', items: jsonSchema(ingestMessageSchema, 'input') } } } };
  }
  if (route.bodyLimit === 'upload' && !route.input.json && !route.input.form)
    return {
      required: true,
      content: { 'multipart/form-data': { schema: { type: 'object', required: ['File'], properties: { File: { ...BINARY, description: 'A CSV file.' } } } } },
    };
  return undefined;
}

const HUB_DESCRIPTION = [
  `Real-time connection set-up. The answer's \`Url\` is the hub (ASP.NET Core SignalR protocol, JSON, WebSockets) at \`${HUB_PATH}\`;`,
  "connect to it with `AccessToken` as the access token (the official @microsoft/signalr client's accessTokenFactory).",
  `Subscribe devices with the hub method \`${HUB_METHODS.joinGroup}(identities)\` (or \`${HUB_METHODS.subscribe}\`; \`${HUB_METHODS.leaveGroup}\` to stop),`,
  'or with `POST /devices/subscribe-for-monitoring { connectionId, deviceIdentities }` where connectionId is the SignalR connection id.',
  `Events (one argument each): ${HUB_EVENTS.map((e) => `\`${e}\``).join(', ')}; their payloads are the components named Hub…Event.`,
  "Every event carries the spec's live-update names serial, date, message, battery, signal and partitionKey. See docs/hub.md.",
].join(' ');

function operation(route: RouteSpec): Json {
  const key = `${route.method} ${route.path}` as Endpoint;
  const answer = ENDPOINTS[key] as AnySchema | undefined;
  const params: Json[] = [];
  for (const name of route.path.match(/:(\w+)/g) ?? []) params.push({ name: name.slice(1), in: 'path', required: true, schema: { type: 'string' } });
  if (route.input.query) {
    const q = jsonSchema(route.input.query, 'input') as { properties?: Record<string, Json>; required?: string[] };
    for (const [name, schema] of Object.entries(q.properties ?? {})) params.push({ name, in: 'query', required: q.required?.includes(name) ?? false, schema });
  }
  if (route.path === '/api/v1/device-messages/ingest') params.push({ name: GATEWAY_KEY_HEADER, in: 'header', required: true, schema: { type: 'string' } });

  let requestBody: Json | undefined = ownBody(route);
  if (route.input.json) requestBody = { required: true, content: { 'application/json': { schema: jsonSchema(route.input.json, 'input') } } };
  if (route.input.form) requestBody = { required: true, content: { 'application/x-www-form-urlencoded': { schema: jsonSchema(route.input.form, 'input') } } };

  const responses: Json = {};
  if (!answer) responses['200'] = { description: 'OK' };
  else if (answer.type === 'instance') responses['200'] = { description: 'A file.', content: { [fileType(route.path)]: { schema: BINARY } } };
  else if (answer.type === 'literal') responses['200'] = { description: 'OK, with an empty body.' };
  else responses['200'] = { description: 'OK', content: { 'application/json': { schema: jsonSchema(answer, 'output') } } };
  if (params.length || requestBody)
    responses['400'] = errorAnswer('Validation failed: Content.Message names the first problem, Content.Errors maps each field path to its message.');
  if (route.access !== 'public') responses['401'] = errorAnswer('No token, or an expired or revoked one.');
  if (route.access !== 'public' && route.access !== 'signed-in') responses['403'] = errorAnswer('The token lacks the permission.');
  if (requestBody) responses['413'] = errorAnswer('The body is larger than the route accepts.');
  responses.default = errorAnswer('Any other error (404 not found, 409 stale etag, 422 refused by a rule, 429 too many attempts, 503 unavailable).');

  const permission = route.access === 'public' || route.access === 'signed-in' ? undefined : route.access;
  return {
    operationId: `${route.method.toLowerCase()}${route.path.replace(/[^A-Za-z0-9]+(.)?/g, (_, c: string | undefined) => (c ?? '').toUpperCase())}`,
    tags: [tagOf(route.path)],
    summary: route.path,
    description: [accessText(route.access), route.path === '/api/admin/negotiate' ? HUB_DESCRIPTION : ''].filter(Boolean).join('\n\n'),
    ...(permission ? { 'x-permission': permission } : {}),
    security: route.access === 'public' ? [] : [{ bearer: [] }],
    ...(params.length ? { parameters: params } : {}),
    ...(requestBody ? { requestBody } : {}),
    responses,
  };
}

function version(): string {
  try {
    return (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version?: string }).version ?? '0.0.0';
  } catch {
    return '0.0.0';
  }
}

/** The OpenAPI 3.1 document of every route in the table. */
export function openApiDocument(routes: readonly RouteSpec[]): Json {
  const paths: Record<string, Json> = {};
  for (const route of routes) {
    const path = route.path.replace(/:(\w+)/g, '{$1}');
    (paths[path] ??= {})[route.method.toLowerCase()] = operation(route);
  }
  const hubEvents = {
    ...Object.fromEntries(HUB_EVENTS.map((e) => [`Hub${e}Event`, jsonSchema(HUB_EVENT_SCHEMAS[e], 'output')])),
    // sent to every connection, not a device group: a provider setting changed
    [`Hub${SETTINGS_CHANGED_EVENT}Event`]: jsonSchema(settingsChangedEventSchema, 'output'),
  };
  return {
    openapi: '3.1.0',
    info: {
      title: 'Safety workspace API',
      version: version(),
      description: [
        "The back-office API (the provider's API, spec documents 1–3 §7). Errors answer `{ Content: { Message, Code, Errors? } }`.",
        'Query and JSON keys bind without regard to case (`CustomerId` and `customerId` are the same key).',
        "Deliberate differences from the provider's API are listed in docs/compatibility.md; the hub in docs/hub.md.",
      ].join(' '),
    },
    tags: [...new Set(TAGS.map(([, t]) => t))].map((name) => ({ name })),
    paths,
    components: {
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: 'The access_token of POST /connect/token.' } },
      schemas: { ErrorBody: jsonSchema(errorBodySchema, 'output'), ...hubEvents },
    },
  };
}

/**
 * GET /api/openapi.json (built once, on first request) and GET /api/docs, the Scalar reference,
 * with its script from our origin: the page's one inline start-up script is allowed by its hash
 * for that page only (pageContentSecurityPolicy), everything else keeps the app's policy.
 */
export function openApiRoutes(app: Hono<AppEnv>, routes: readonly RouteSpec[]) {
  let doc: string | undefined;
  app.get(OPENAPI_PATH, (c) => {
    doc ??= JSON.stringify(openApiDocument(routes));
    return c.body(doc, 200, { 'Content-Type': 'application/json; charset=utf-8' });
  });

  const reference = Scalar({
    url: OPENAPI_PATH,
    cdn: API_DOCS_SCRIPT_PATH,
    pageTitle: 'Safety workspace API',
    // nothing from other origins: no web fonts, no telemetry, no AI agent (it fetches a registry from scalar.com)
    withDefaultFonts: false,
    telemetry: false,
    agent: { disabled: true },
    // its Share and Deploy upload the document to scalar.com (an option of the bundled reference newer than this adapter's types)
    ...({ showToolbar: 'never' } as object),
    hideClientButton: true,
  });
  let page: { html: string; csp: string } | undefined;
  app.get(API_DOCS_PATH, async (c) => {
    if (!page) {
      const rendered = (await reference(c as unknown as Parameters<typeof reference>[0], async () => {})) as Response;
      const html = await rendered.text();
      const hashes = [...html.matchAll(/<script(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/g)].map(
        (m) =>
          `'sha256-${createHash('sha256')
            .update(m[1] ?? '')
            .digest('base64')}'`,
      );
      page = { html, csp: pageContentSecurityPolicy({ scriptSrc: hashes }) };
    }
    return c.html(page.html, 200, { 'Content-Security-Policy': page.csp });
  });

  let script: Buffer | undefined;
  app.get(API_DOCS_SCRIPT_PATH, (c) => {
    script ??= readFileSync(new URL(import.meta.resolve('@scalar/api-reference/browser/standalone.js')));
    return c.body(new Uint8Array(script), 200, { 'Content-Type': 'text/javascript; charset=utf-8', 'Cache-Control': 'public, max-age=3600' });
  });
}
