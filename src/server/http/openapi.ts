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
import { ENDPOINTS, type Endpoint } from '../../shared/schemas/endpoints.js';
import { errorBodySchema } from '../../shared/schemas/common.js';
import { SETTINGS_CHANGED_EVENT, settingsChangedEventSchema } from '../../shared/schemas/admin.js';
import { RECORD_CHANGED_EVENT, RECORD_PRESENCE_EVENT, recordChangedEventSchema, recordPresenceEventSchema } from '../../shared/schemas/record-live.js';
import { FLEET_HEALTH_CHANGED_EVENT, fleetHealthChangedEventSchema } from '../../shared/schemas/fleet.js';
import { GATEWAY_KEY_HEADER, HUB_EVENT_SCHEMAS, HUB_EVENTS, HUB_METHODS, HUB_PATH, ingestMessageSchema } from '../../shared/schemas/live.js';
import type { AppEnv, RouteSpec } from './api.js';
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

/**
 * valibot's conversion stops an input's pipe at its first transform and cannot state custom
 * checks; the schemas say what such an input accepts with `inputJson` (src/shared/schemas/common.ts):
 * an `x-input` schema that replaces the converted one, and `x-required` for a key that defaults
 * and then must not be empty. Output schemas drop the hints.
 */
function applyInputHints(node: unknown, typeMode: 'input' | 'output'): unknown {
  if (Array.isArray(node)) return node.map((n) => applyInputHints(n, typeMode));
  if (!node || typeof node !== 'object') return node;
  const { 'x-input': input, 'x-required': _required, 'x-trimmed': _trimmed, 'x-not-null': notNull, ...rest } = node as Json;
  if (typeMode === 'input' && input && typeof input === 'object') return applyInputHints(input, typeMode);
  if (typeMode === 'input' && notNull && Array.isArray(rest.anyOf)) {
    const left = (rest.anyOf as Json[]).filter((a) => a.type !== 'null');
    const { anyOf: _anyOf, ...others } = rest;
    return applyInputHints(left.length === 1 ? { ...others, ...left[0] } : { ...others, anyOf: left }, typeMode);
  }
  const out: Json = {};
  for (const [k, x] of Object.entries(rest)) out[k] = k === 'enum' || k === 'const' || k === 'default' || k === 'examples' ? x : applyInputHints(x, typeMode);
  const props = (rest as { properties?: Record<string, Json> }).properties;
  if (typeMode === 'input' && props) {
    const required = new Set((rest.required as string[] | undefined) ?? []);
    for (const [k, p] of Object.entries(props)) if (p && p['x-required'] === true) required.add(k);
    if (required.size) out.required = [...required];
  }
  return out;
}

/**
 * Actions the input side passes over: they normalise a value, or check what JSON Schema cannot say
 * (the hints say it). A trimmed string that must then be non-empty must have something besides
 * spaces: pattern \S.
 */
const overrideAction: ConversionConfig['overrideAction'] = ({ valibotAction, jsonSchema }) => {
  const type = valibotAction.type;
  if (type === 'trim' || type === 'trim_start' || type === 'trim_end') return { ...jsonSchema, 'x-trimmed': true };
  // valibot's own e-mail rule, stricter than JSON Schema's format 'email' (RFC 5321)
  if (type === 'email') return { ...jsonSchema, pattern: (valibotAction as unknown as { requirement: RegExp }).requirement.source };
  // a trimmed, non-empty string's own pattern replaces the \S that stood for "not blank"
  if (type === 'regex' && (jsonSchema as Json)['x-trimmed'] && jsonSchema.pattern === '\\S')
    return { ...jsonSchema, pattern: (valibotAction as unknown as { requirement: RegExp }).requirement.source };
  if (
    (type === 'min_length' || type === 'non_empty') &&
    (jsonSchema as Json)['x-trimmed'] &&
    jsonSchema.type === 'string' &&
    !jsonSchema.pattern &&
    (jsonSchema.minLength ?? 0) > 0
  )
    return { ...jsonSchema, pattern: '\\S' };
  return ['to_lower_case', 'to_upper_case', 'check', 'raw_check', 'forward', 'partial_check', 'normalize'].includes(type) ? jsonSchema : undefined;
};

function jsonSchema(schema: AnySchema, typeMode: 'input' | 'output'): Json {
  const converted = toJsonSchema(schema, { target: 'draft-2020-12', typeMode, errorMode: 'ignore', overrideSchema, overrideAction }) as Json;
  const { $schema: _ignored, ...rest } = applyInputHints(converted, typeMode) as Json;
  return rest;
}

/** The media type of a file answer, from what the endpoint serves. */
function fileType(path: string): string {
  if (path.includes('csv')) return 'text/csv';
  if (path.includes('record-file') || path.includes('voice-memo')) return 'audio/wav';
  return XLSX;
}

const TAGS: [RegExp, string, string][] = [
  [
    /alarm-report|alarm-line|second-line|voice-memo/,
    'Alarm reports',
    'Closed alarms: the list, details, notes, statistics, the management report, scheduled reports and the import from the ARC platform.',
  ],
  [
    /negotiate|subscribe-for-monitoring|device-messages|\/devices\/|device-configuration|desired-configuration|ps-admin\/devices/,
    'Live devices',
    "Live updates (the hub), device messages, configuration and firmware, and the gateways' ingestion endpoint.",
  ],
  [
    /get-types|get-last-config|get-sim-types|get-asset-statuses|get-tier-types|get-statuses|dictionaries|features|global-settings/,
    'Reference data',
    'Code tables, dictionaries, features and global settings.',
  ],
  [/customer|salesforce|emails|allocate/, 'Customers', 'Customer accounts, their subscriptions, settings, devices and administrators.'],
  [/device/, 'Device stock', 'Devices in stock: lists, details, bulk changes, imports and exports.'],
  [/person|unlock/, 'Persons', 'Users and their roles, profiles and login methods.'],
  [/api\/search/, 'Search', "The command palette's search across records."],
  [/./, 'Sign-in and account', 'Tokens, single sign-on, captcha, passwords, second factor, provider settings and the audit trail.'],
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
  if (!Object.keys(responses).some((code) => code.startsWith('4'))) responses['4XX'] = errorAnswer('A client error (429: too many requests).');
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
    return (JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as { version?: string }).version ?? '0.0.0';
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
    // sent to every connection: Fleet Health's counts changed
    [`Hub${FLEET_HEALTH_CHANGED_EVENT}Event`]: jsonSchema(fleetHealthChangedEventSchema, 'output'),
    // sent to the connections that opened the record (openRecord) and may read it
    [`Hub${RECORD_CHANGED_EVENT}Event`]: jsonSchema(recordChangedEventSchema, 'output'),
    [`Hub${RECORD_PRESENCE_EVENT}Event`]: jsonSchema(recordPresenceEventSchema, 'output'),
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
        'Every text field refuses NUL characters, unpaired surrogates and bidirectional override characters; a path asked with a method it does not take answers 405 with Allow.',
      ].join(' '),
      license: { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' },
    },
    servers: [{ url: '/', description: 'This server (the API is served from the origin the document is read from).' }],
    tags: TAGS.map(([, name, description]) => ({ name, description })),
    paths,
    // The hub's events are not HTTP requests: the server sends them over the SignalR connection of
    // POST /api/admin/negotiate. They are listed here, as messages the API initiates, for their payloads.
    webhooks: Object.fromEntries(
      Object.keys(hubEvents).map((name) => [
        name.replace(/^Hub|Event$/g, ''),
        {
          post: {
            summary: `Hub event ${name.replace(/^Hub|Event$/g, '')} (a SignalR invocation on the hub connection, not an HTTP request)`,
            requestBody: { content: { 'application/json': { schema: { $ref: `#/components/schemas/${name}` } } } },
            responses: { '200': { description: 'Not answered: the client receives the event.' } },
          },
        },
      ]),
    ),
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
