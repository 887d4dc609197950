// Property tests over every route in the Api route table (so later routes are covered too),
// signed in as a provider admin: random query strings, random and shape-aware JSON bodies, random
// form bodies, malformed JSON. The server must never answer 5xx, and every 4xx must carry the
// spec's error shape with a non-empty Content.Message (the client shows it verbatim).
//
// The route table is split into shards, one test file each (shard-N.test.ts), so the files run in
// parallel: each shard file calls `fuzzRoutes(index, of)` for the routes whose index modulo `of` is `index`.
import { afterAll, describe, expect, test } from 'vitest';
import fc from 'fast-check';
import { randomUUID } from 'node:crypto';
import { createTestApp } from '../../helpers/app.js';
import { signedIn } from '../../helpers/auth.js';
import { at, last } from '../../helpers/lists.js';
import { ROLE_IDS } from '../../../src/shared/permissions.js';
import { BODY_LIMITS, type RouteSpec } from '../../../src/server/http/api.js';
import { CODE } from '../../../src/shared/messages.js';

/** Defines the property tests of every route whose index in the route table modulo `of` is `index`, on an app of its own. */
export async function fuzzRoutes(index: number, of: number) {
  const RUNS = Number(process.env.FUZZ_RUNS ?? 30);

  const t = await createTestApp();
  const me = await signedIn(t.db, t.config, ['SuperAdminRole']);
  afterAll(async () => {
    await t.close();
  });

  const roleIds = Object.values(ROLE_IDS);
  const HUGE = 'x'.repeat(100_000);
  const HUGE_UNICODE = 'é😀'.repeat(20_000);

  /** Leaves that poke at the validators: wrong types, edge strings, ids that exist, huge and odd text. */
  const leaf: fc.Arbitrary<unknown> = fc.oneof(
    fc.string(),
    fc.string({ unit: 'binary' }),
    fc.string({ unit: 'grapheme', maxLength: 50 }),
    fc.integer(),
    fc.double(),
    fc.boolean(),
    fc.constant(null),
    fc.constantFrom<unknown>(
      ...roleIds,
      me.id,
      randomUUID(),
      `{${randomUUID().toUpperCase()}}`,
      '',
      ' ',
      '\u0000',
      'a\u0000b',
      '\ud800',
      'a@b.co',
      me.email,
      'GB',
      '44',
      '+44',
      '07911 123456',
      '020 7946 0018',
      '%',
      '_',
      "'; drop table persons; --",
      HUGE,
      HUGE_UNICODE,
      -1,
      0,
      1,
      2,
      7,
      1e308,
      Number.MAX_SAFE_INTEGER,
      'true',
      'false',
      [],
      {},
    ),
    fc.array(fc.constantFrom(...roleIds), { maxLength: 6 }),
    fc.array(fc.string(), { maxLength: 4 }),
  );

  const knownKeys = [
    'person',
    'personId',
    'etag',
    'firstName',
    'lastName',
    'emailAddress',
    'email',
    'roleIds',
    'phoneNumbers',
    'id',
    'Id',
    'twoFactorAuthentication',
    'type',
    'phoneNumber',
    'countryId',
    'number',
    'oldPassword',
    'newPassword',
    'newPasswordRepeated',
    'captchaResponse',
    'token',
    'password',
    'page',
    'pageSize',
    'serials',
    'devices',
    'customerId',
  ];

  const phoneEntry = fc.record(
    { CountryCode: leaf, Number: leaf, IsPrimary: leaf, Type: leaf, countryCode: leaf, number: leaf, type: leaf },
    { requiredKeys: [] },
  );
  /** Bodies shaped like the person payloads, with any field of any type. */
  const personShaped = fc.record(
    {
      personId: leaf,
      etag: leaf,
      person: fc.oneof(
        leaf,
        fc.record(
          {
            firstName: leaf,
            lastName: leaf,
            emailAddress: leaf,
            roleIds: leaf,
            etag: leaf,
            phoneNumbers: fc.oneof(leaf, fc.array(fc.oneof(phoneEntry, leaf), { maxLength: 6 })),
          },
          { requiredKeys: [] },
        ),
      ),
    },
    { requiredKeys: [] },
  );

  type Path = (string | number)[];
  /** Every node of a sample body (leaves and containers), as key paths. */
  function nodePaths(sample: unknown): Path[] {
    const paths: Path[] = [];
    const walk = (v: unknown, p: Path) => {
      paths.push(p);
      if (v && typeof v === 'object') for (const [k, x] of Array.isArray(v) ? v.map((y, i) => [i, y] as const) : Object.entries(v)) walk(x, [...p, k]);
    };
    walk(sample, []);
    return paths;
  }
  function replaceAt(sample: unknown, p: Path, value: unknown): unknown {
    if (!p.length) return value;
    const copy = structuredClone(sample);
    let o = copy as Record<string | number, unknown>;
    for (const k of p.slice(0, -1)) o = o[k] as Record<string | number, unknown>;
    o[last(p)] = value;
    return copy;
  }

  /** The route's own sample with one node replaced by something hostile. */
  function mutated(sample: unknown): fc.Arbitrary<unknown> {
    const paths = nodePaths(sample);
    return fc.tuple(fc.nat(), leaf).map(([n, value]) => replaceAt(sample, at(paths, n % paths.length), value));
  }

  /** Deterministic sweep values: every one goes into every field of every sample. */
  const HOSTILE: unknown[] = [
    null,
    '',
    ' ',
    '\u0000',
    'a\u0000b',
    '\ud800',
    HUGE,
    HUGE_UNICODE,
    -1,
    0,
    1.5,
    1e308,
    true,
    [],
    {},
    [null],
    ['\u0000'],
    [HUGE],
    { a: 1 },
    '%',
    "'",
    '{' + randomUUID() + '}',
    me.id,
  ];
  const HOSTILE_QUERY = [
    '',
    '\u0000',
    'a\u0000b',
    '\ud800',
    HUGE,
    '%',
    '_',
    '-1',
    '0',
    '1.5',
    '1e3',
    '99999999999999999999',
    'null',
    'true',
    '{' + randomUUID().toUpperCase() + '}',
    '😀',
  ];

  function jsonBodies(route: RouteSpec): fc.Arbitrary<unknown> {
    const base: fc.Arbitrary<unknown>[] = [
      fc.anything({ maxDepth: 3 }),
      fc.object({ key: fc.oneof(fc.constantFrom(...knownKeys), fc.string()), values: [leaf], maxDepth: 3 }),
      personShaped,
    ];
    if (route.sample?.json !== undefined) base.push(mutated(route.sample.json));
    return fc.oneof(...base);
  }

  const queryKeys = ['page', 'pageSize', 'orderBy', 'desc', 'searchValue', 'sortRoleId', 'Id', 'id', 'name', 'q', 'limit', 'CustomerId', 'serial'];
  const queryValue = fc.oneof(
    fc.string(),
    fc.string({ unit: 'binary' }),
    fc.constantFrom(
      '',
      '0',
      '-1',
      '1',
      '10',
      '25',
      '1e3',
      '99999999999999999999',
      'true',
      'TRUE',
      'null',
      ...roleIds,
      me.id,
      'UserName',
      'Email',
      'LastLoginDate',
      'Role',
      '%',
      '_',
      '\u0000',
      HUGE,
    ),
  );
  const queryDict = (route: RouteSpec) =>
    fc.dictionary(fc.oneof(fc.constantFrom(...queryKeys, ...Object.keys(route.sample?.query ?? {})), fc.string()), queryValue, { maxKeys: 6 });

  const formKeys = [
    'grant_type',
    'username',
    'password',
    'client_id',
    'client_secret',
    'refresh_token',
    'id_token',
    'captchaResponse',
    'verificationCode',
    'sso_consent',
    'selected_account',
    'scope',
  ];
  const formDict = (route: RouteSpec) =>
    fc.dictionary(
      fc.oneof(fc.constantFrom(...formKeys, ...Object.keys(route.sample?.form ?? {})), fc.string()),
      fc.oneof(
        fc.string(),
        fc.constantFrom('password', 'refresh_token', 'portal', me.email, '', '\u0000', HUGE, 'urn:ietf:params:oauth:grant-type:token-exchange'),
      ),
      { maxKeys: 8 },
    );

  /** Path params: a random GUID, our own id, or arbitrary text. */
  const pathFor = (route: RouteSpec) => {
    const segs = route.path.split('/');
    const params = segs.filter((s) => s.startsWith(':') || s === '*').length;
    return fc
      .array(fc.oneof(fc.constant(randomUUID()), fc.constant(me.id), fc.string({ minLength: 1 })), { minLength: params, maxLength: params })
      .map((vals) => {
        let i = 0;
        return segs.map((s) => (s.startsWith(':') || s === '*' ? encodeURIComponent(at(vals, i++)) || 'x' : s)).join('/');
      });
  };

  const MALFORMED = [
    '{',
    '{"person":',
    '[1,2',
    'nul',
    '"unterminated',
    '{"a":1}}',
    '\u0000',
    'NaN',
    '{"person":{"firstName":"\\ud800"}}',
    '{"__proto__":{"x":1}}',
    `{"person":{"firstName":"${HUGE}"}}`,
    '[]',
    '0',
    'true',
    '"string"',
  ];

  async function check(res: Response, what: string) {
    const text = await res.text();
    expect(res.status, `${what} → ${res.status} ${text.slice(0, 300)}`).toBeLessThan(500);
    if (res.status >= 400) {
      let body: { Content?: { Message?: unknown } } | undefined;
      try {
        body = JSON.parse(text);
      } catch {
        body = undefined;
      }
      const m = body?.Content?.Message;
      expect(typeof m === 'string' && m.trim().length > 0, `${what} → ${res.status} without Content.Message: ${text.slice(0, 300)}`).toBe(true);
    }
  }

  const describeRoute = (r: RouteSpec) => `${r.method} ${r.path}`;

  const shard = { index, of };
  describe.each(t.routes.filter((_, i) => i % shard.of === shard.index).map((r) => [describeRoute(r), r] as const))('%s', (_name, route) => {
    const hasBody = route.method !== 'GET';

    test('random query strings and path params', async () => {
      await fc.assert(
        fc.asyncProperty(pathFor(route), queryDict(route), async (path, q) => {
          const url = `${path}?${new URLSearchParams(q as Record<string, string>)}`;
          await check(await t.request(url, { method: route.method, token: me.token }), `${route.method} ${url.slice(0, 200)}`);
        }),
        { numRuns: RUNS },
      );
      // raw, possibly broken percent-encoding
      await fc.assert(
        fc.asyncProperty(fc.string({ unit: 'binary-ascii', maxLength: 60 }), async (raw) => {
          const path = `${concrete(route)}?${raw.replace(/[#\s]/g, '')}`;
          await check(await t.request(path, { method: route.method, token: me.token }), `${route.method} ${path}`);
        }),
        { numRuns: Math.ceil(RUNS / 2) },
      );
    });

    test('hostile sweep: every query key and every sample field gets every hostile value', async () => {
      // A route that declares no query schema never reads its query string (api.ts parses only a
      // declared one): one key carries every hostile value there, which shows it is ignored, and
      // the other keys would repeat the same request (on an export route, a whole export each).
      const reads = route.input.query !== undefined || route.sample?.query !== undefined;
      const keys = reads ? [...new Set([...Object.keys(route.sample?.query ?? {}), ...queryKeys])] : [queryKeys[0]!];
      for (const key of keys)
        for (const value of HOSTILE_QUERY) {
          const url = `${concrete(route)}?${new URLSearchParams({ ...(route.sample?.query ?? {}), [key]: value })}`;
          await check(
            await t.request(url, { method: route.method, token: me.token, json: hasBody ? (route.sample?.json ?? {}) : undefined }),
            `${route.method} ${url.slice(0, 200)}`,
          );
        }
      if (hasBody && route.sample?.json !== undefined)
        for (const p of nodePaths(route.sample.json))
          for (const value of HOSTILE) {
            const body = replaceAt(route.sample.json, p, value);
            const res = await t.request(concrete(route), { method: route.method, token: me.token, json: body });
            await check(res, `${route.method} ${route.path} ${p.join('.')}=${JSON.stringify(value)?.slice(0, 40)}`);
          }
      if (hasBody && route.sample?.form)
        for (const key of Object.keys(route.sample.form))
          for (const value of HOSTILE_QUERY) {
            const res = await t.request(concrete(route), { method: route.method, token: me.token, form: { ...route.sample.form, [key]: value } });
            await check(res, `${route.method} ${route.path} form ${key}=${value.slice(0, 40)}`);
          }
    });

    test.runIf(hasBody)('random JSON bodies', async () => {
      await fc.assert(
        fc.asyncProperty(pathFor(route), jsonBodies(route), async (path, body) => {
          const json = JSON.stringify(body);
          const res = await t.request(path, {
            method: route.method,
            token: me.token,
            body: json,
            headers: { 'content-type': 'application/json' },
          });
          await check(res, `${route.method} ${path} ${String(json).slice(0, 200)}`);
        }),
        { numRuns: RUNS },
      );
    });

    test.runIf(hasBody)('random form bodies', async () => {
      await fc.assert(
        fc.asyncProperty(pathFor(route), formDict(route), async (path, form) => {
          const res = await t.request(path, { method: route.method, token: me.token, form: form as Record<string, string> });
          await check(res, `${route.method} ${path} form ${JSON.stringify(form).slice(0, 200)}`);
        }),
        { numRuns: RUNS },
      );
    });

    test.runIf(hasBody)('malformed JSON and wrong content types', async () => {
      const path = concrete(route);
      for (const raw of MALFORMED) {
        const res = await t.request(path, { method: route.method, token: me.token, body: raw, headers: { 'content-type': 'application/json' } });
        await check(res, `${route.method} ${path} ${raw.slice(0, 60)}`);
      }
      for (const type of ['text/plain', 'application/xml', 'multipart/form-data; boundary=x', 'application/x-www-form-urlencoded']) {
        const res = await t.request(path, { method: route.method, token: me.token, body: '{"person":{}}', headers: { 'content-type': type } });
        await check(res, `${route.method} ${path} as ${type}`);
      }
      const none = await t.request(path, { method: route.method, token: me.token });
      await check(none, `${route.method} ${path} without a body`);
    });

    // with the route's sample headers (a gateway key): a caller the route lets in before the body
    test.runIf(hasBody)('oversized bodies: JSON, form and chunked streams without Content-Length are refused with 413', async () => {
      const path = concrete(route);
      const limit = BODY_LIMITS[route.bodyLimit];
      // A caller of its own: the random bodies before may have changed the fuzz user's own sign-in
      // (its login method, its roles), which ends that user's sessions; this test is about the limit.
      const caller = await signedIn(t.db, t.config, ['SuperAdminRole']);
      const over = async (res: Response, what: string) => {
        const text = await res.text();
        expect(res.status, `${what} → ${res.status} ${text.slice(0, 300)}`).toBe(413);
        expect(JSON.parse(text).Content.Code, what).toBe(CODE.tooLarge);
        await check(new Response(text, { status: 413 }), what);
      };
      const bigJson = JSON.stringify({ ...(route.sample?.json as object), padding: 'x'.repeat(limit) });
      await over(
        await t.request(path, {
          method: route.method,
          token: caller.token,
          body: bigJson,
          headers: { ...route.sample?.headers, 'content-type': 'application/json' },
        }),
        'JSON over the limit',
      );
      await over(
        await t.request(path, {
          method: route.method,
          token: caller.token,
          headers: route.sample?.headers,
          form: { ...route.sample?.form, padding: 'x'.repeat(limit) },
        }),
        'form over the limit',
      );
      // A stream that would go on for ten times the limit; the server must stop reading at the limit.
      let pulled = 0;
      const chunk = new TextEncoder().encode('x'.repeat(16 * 1024));
      const stream = new ReadableStream<Uint8Array>({
        pull(controller) {
          if (pulled >= 10 * limit) return controller.close();
          pulled += chunk.length;
          controller.enqueue(chunk);
        },
      });
      const init = {
        method: route.method,
        body: stream,
        duplex: 'half',
        headers: { ...route.sample?.headers, 'content-type': 'application/json', authorization: `Bearer ${caller.token}` },
      };
      await over(await t.app.request(path, init as RequestInit), 'chunked stream over the limit');
      expect(pulled, 'bytes the server pulled from the stream').toBeLessThan(limit + 64 * 1024);
    });
  });

  function concrete(route: RouteSpec) {
    return route.path
      .split('/')
      .map((s) => (s.startsWith(':') || s === '*' ? randomUUID() : s))
      .join('/');
  }
}
