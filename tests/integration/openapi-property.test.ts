// The published document is as strict as the server: for every operation, requests the OpenAPI
// document says are valid (generated from its own JSON Schemas with fast-check) are not refused
// for their shape by the route's input validation (parseInput, what the route runs before its
// handler). Operations whose schemas the document cannot state exactly are listed below with the
// reason; the list is kept short and each entry is checked to still need its place.
import { afterAll, describe, expect, test } from 'vitest';
import fc from 'fast-check';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { ApiError, badTextKind, parseInput, type RouteSpec } from '../../src/server/http/api.js';

type Schema = {
  $ref?: string;
  type?: string | string[];
  anyOf?: Schema[];
  oneOf?: Schema[];
  allOf?: Schema[];
  const?: unknown;
  enum?: unknown[];
  pattern?: string;
  format?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  items?: Schema;
  prefixItems?: Schema[];
  minItems?: number;
  maxItems?: number;
  properties?: Record<string, Schema>;
  required?: string[];
  additionalProperties?: boolean | Schema;
  not?: Schema;
};
type Operation = {
  parameters?: { name: string; in: string; required: boolean; schema: Schema }[];
  requestBody?: { content: Record<string, { schema: Schema }> };
};

/**
 * Operations (METHOD path) whose input the document cannot state exactly, and why. Each entry
 * must still fail without its place here (checked below), so the list shrinks as schemas improve.
 */
const ID_ALIASES =
  'the id may come under either of two names (Id or id, CustomerId or customerId): one of two optional parameters is required, which OpenAPI parameters cannot state';
const DATE_ORDER = 'the closed-date range of the alarm filters: from must not be after to (two fields compared)';
const PASSWORDS_MATCH = 'the new password and its repetition must be equal: JSON Schema cannot compare two fields';
const INEXACT: Record<string, string> = {
  'GET /persons/get-by-id': ID_ALIASES,
  'GET /ps-admin/customers/get-details': ID_ALIASES,
  'GET /ps-admin/customers/get-settings': ID_ALIASES,
  'GET /ps-admin/customers/get-subscriptions': ID_ALIASES,
  'POST /api/v1/change-password': PASSWORDS_MATCH,
  'POST /api/v1/reset-password/confirm': PASSWORDS_MATCH,
  'POST /alarm-report/get-list': DATE_ORDER,
  'POST /alarm-report/export-list': DATE_ORDER,
  'POST /alarm-report/get-response-targets': DATE_ORDER,
  'POST /alarm-report/get-verification-completed-timeframes': DATE_ORDER,
  'POST /alarm-report/get-verification-started-timeframes': DATE_ORDER,
  'POST /alarm-report/get-verification-type-timeframes': DATE_ORDER,
  'POST /alarm-report/schedules': 'weekly needs dayOfWeek, monthly dayOfMonth, and the management report a monthly schedule (rules across fields)',
  'PUT /alarm-report/schedules/:id': 'weekly needs dayOfWeek, monthly dayOfMonth, and the management report a monthly schedule (rules across fields)',
  'POST /alarm-report/import':
    'a report closes after it started and not in the future, and its verification category belongs to its verification type (rules across fields and the clock)',
  'PUT /api/v1/customer/subscriptions/update':
    'each subscription type at most once in its list, and a tracking interval only with tracking on (rules across items and fields)',
  'PUT /api/v1/person/basic-info-update': 'a phone number must be a valid number of its country (libphonenumber), which no pattern states',
  'PUT /api/v1/device/desired-configuration':
    'at least one parameter must change, and a custom call button needs its number (rules across fields); the call buttons are checked against the live codes',
};

const RUNS = Number(process.env.OPENAPI_PROPERTY_RUNS ?? 60);
// At load time, so that each operation is a test of its own (short, and named in the report).
const t: TestApp = await createTestApp();
const doc = (await (await t.request('/api/openapi.json')).json()) as {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, Schema> };
};
afterAll(async () => {
  await t.close();
});

/** Text the server refuses on every route (NUL, lone surrogates, bidirectional controls: docs/api.md), which no generated string carries. */
const cleanText = (s: string) => badTextKind(s) === undefined;

/** A fast-check arbitrary of the values a JSON Schema (the subset the document uses) accepts. */
function arb(s: Schema | undefined, depth = 0): fc.Arbitrary<unknown> {
  if (!s || depth > 8) return fc.constant(null);
  if (s.$ref) return arb(doc.components.schemas[s.$ref.split('/').at(-1)!], depth + 1);
  if (s.const !== undefined) return fc.constant(s.const);
  if (s.enum) return fc.constantFrom(...s.enum);
  const alternatives = s.anyOf ?? s.oneOf;
  if (alternatives) return fc.oneof(...alternatives.map((a) => arb(a, depth + 1)));
  if (s.allOf) return arb(Object.assign({}, ...s.allOf) as Schema, depth + 1);
  const type = Array.isArray(s.type) ? s.type : s.type ? [s.type] : [];
  if (type.length > 1) return fc.oneof(...type.map((ty) => arb({ ...s, type: ty }, depth + 1)));
  switch (type[0]) {
    case 'null':
      return fc.constant(null);
    case 'boolean':
      return fc.boolean();
    case 'integer':
      return fc
        .integer({ min: Math.ceil(s.minimum ?? s.exclusiveMinimum ?? -1e6), max: Math.floor(s.maximum ?? s.exclusiveMaximum ?? 1e6) })
        .filter((n) => (s.exclusiveMinimum === undefined || n > s.exclusiveMinimum) && (s.exclusiveMaximum === undefined || n < s.exclusiveMaximum));
    case 'number':
      return fc.double({ min: s.minimum ?? -1e6, max: s.maximum ?? 1e6, noNaN: true, noDefaultInfinity: true });
    case 'string': {
      const len = (x: string) => x.length >= (s.minLength ?? 0) && x.length <= (s.maxLength ?? Infinity);
      if (s.pattern) {
        // fast-check draws from the pattern without its lookaheads; the whole pattern filters
        const whole = new RegExp(s.pattern, 'u');
        return fc.stringMatching(new RegExp(s.pattern.replace(/\(\?=[^)]*\)/g, ''), 'u')).filter((x) => len(x) && cleanText(x) && whole.test(x));
      }
      if (s.format === 'email') return fc.emailAddress().filter(len);
      if (s.format === 'uuid') return fc.uuid();
      if (s.format === 'date-time')
        return fc.date({ noInvalidDate: true, min: new Date('2000-01-01'), max: new Date('2099-12-31') }).map((d) => d.toISOString());
      if (s.format === 'binary') return fc.constant('');
      return fc.string({ minLength: s.minLength ?? 0, maxLength: Math.min(s.maxLength ?? 40, (s.minLength ?? 0) + 40) }).filter(cleanText);
    }
    case 'array': {
      const minLength = s.minItems ?? 0;
      const maxLength = Math.min(s.maxItems ?? 4, minLength + 4);
      if (s.prefixItems) return fc.tuple(...s.prefixItems.map((p) => arb(p, depth + 1)));
      return fc.array(arb(s.items, depth + 1), { minLength, maxLength });
    }
    case 'object': {
      const props = s.properties ?? {};
      if (!Object.keys(props).length) return fc.constant({});
      return fc.record(Object.fromEntries(Object.entries(props).map(([k, p]) => [k, arb(p, depth + 1)])), { requiredKeys: s.required ?? [] });
    }
    default:
      return fc.anything({ maxDepth: 1 }).filter((x) => typeof x !== 'string' || cleanText(x));
  }
}

/** What a query string or form carries: text (an array of values is out of the document's reach here). */
const asText = (x: unknown) => (x === null || x === undefined ? '' : typeof x === 'object' ? JSON.stringify(x) : String(x));

/** The first doc-valid request the route's validation refuses, or undefined. */
function refusal(route: RouteSpec, runs = RUNS): string | undefined {
  const o = doc.paths[route.path.replace(/:(\w+)/g, '{$1}')]?.[route.method.toLowerCase()];
  if (!o) return 'not in the document';
  const checks: [string, fc.Arbitrary<unknown>, (x: unknown) => unknown][] = [];
  const query = (o.parameters ?? []).filter((p) => p.in === 'query');
  if (route.input.query) {
    const shape = Object.fromEntries(query.map((p) => [p.name, arb(p.schema)]));
    const required = query.filter((p) => p.required).map((p) => p.name);
    const qa = fc.record(shape, { requiredKeys: required }).map((q) => Object.fromEntries(Object.entries(q).map(([k, x]) => [k, asText(x)])));
    checks.push(['query', qa, (q) => parseInput(route.input.query!, q)]);
  }
  const json = o.requestBody?.content['application/json']?.schema;
  if (route.input.json && json) checks.push(['json', arb(json), (b) => parseInput(route.input.json!, b)]);
  const form = o.requestBody?.content['application/x-www-form-urlencoded']?.schema;
  if (route.input.form && form)
    checks.push([
      'form',
      arb(form).map((f) => Object.fromEntries(Object.entries((f ?? {}) as Record<string, unknown>).map(([k, x]) => [k, asText(x)]))),
      (f) => parseInput(route.input.form!, f),
    ]);
  for (const [part, a, check] of checks) {
    const r = fc.check(
      fc.property(a, (input) => {
        try {
          check(input);
          return true;
        } catch (e) {
          if (e instanceof ApiError && e.status === 400) return false;
          throw e;
        }
      }),
      { numRuns: runs, seed: 1 },
    );
    if (r.failed) {
      let why = '';
      try {
        check(r.counterexample![0]);
      } catch (e) {
        why = JSON.stringify((e as ApiError).errors ?? (e as Error).message);
      }
      return `${part} ${JSON.stringify(r.counterexample![0]).slice(0, 300)} → ${why}`;
    }
  }
  return undefined;
}

describe('the document is as strict as the server', () => {
  const exact = t.routes.filter((r) => !(`${r.method} ${r.path}` in INEXACT));
  test.for(exact.map((r) => [`${r.method} ${r.path}`, r] as const))(
    '%s: a request the document says is valid is not refused for its shape',
    { timeout: 30_000 },
    ([, route]) => {
      expect(refusal(route)).toBeUndefined();
    },
  );

  test('each operation listed as inexact is still inexact', () => {
    const nowExact = Object.keys(INEXACT).filter((key) => {
      const route = t.routes.find((r) => `${r.method} ${r.path}` === key);
      return !route || !refusal(route, 1000); // a counterexample may take longer to find than the main test looks
    });
    expect(nowExact).toEqual([]);
  }, 60_000);
});
