// Input hygiene at the boundary: unpaired surrogates and bidirectional
// override/isolate controls are refused in every text field (JSON, forms, query strings), like NUL;
// a client's x-request-id reaches the log only when it is short printable ASCII.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { signedIn, tokenFor } from '../helpers/auth.js';
import { TEXT_MESSAGES } from '../../src/server/http/api.js';
import { CODE } from '../../src/shared/messages.js';
import { ROLE_IDS } from '../../src/shared/permissions.js';

let t: TestApp;
let admin: string;
beforeAll(async () => {
  t = await createTestApp({ logRequests: true });
  admin = await tokenFor(t.config, ['SuperAdminRole']);
});
afterAll(async () => {
  await t.close();
});

const stored = (email: string) => t.db.selectFrom('persons').select(['firstName', 'lastName']).where('email', '=', email).executeTakeFirst();
const create = (email: string, firstName: string, lastName = 'Person') =>
  t.request('/api/v1/person', { token: admin, json: { person: { firstName, lastName, emailAddress: email, roleIds: [ROLE_IDS.ArcManagerRole] } } });
/** A raw JSON body, so escapes like \\ud800 reach the server as written. */
const rawJson = (path: string, method: string, body: string, token: string) =>
  t.request(path, { method, token, body, headers: { 'content-type': 'application/json' } });

describe('names and free text', () => {
  test.each([
    ['right-to-left override U+202E', 'Eve\u202Egnp.exe', 'bidi'],
    ['left-to-right embedding U+202A', '\u202AMallory', 'bidi'],
    ['pop directional formatting U+202C', 'Mall\u202Cory', 'bidi'],
    ['first strong isolate U+2068', 'Mal\u2068lory', 'bidi'],
    ['pop directional isolate U+2069', 'Mallory\u2069', 'bidi'],
  ] as const)('a new person named with %s is refused, field named, nothing stored', async (_what, firstName, kind) => {
    const email = `bidi-${firstName.codePointAt(3)}@hygiene.test`;
    const res = await create(email, firstName);
    expect(res.status).toBe(400);
    const body = await res.json();
    expect(body.Content).toEqual({ Message: TEXT_MESSAGES[kind], Code: CODE.validation, Errors: { 'person.firstName': TEXT_MESSAGES[kind] } });
    expect(await stored(email)).toBeUndefined();
  });

  test('unpaired surrogates (high alone, low alone, reversed pair) are refused in a JSON body', async () => {
    for (const [i, escaped] of ['\\ud800', 'a\\udc00', '\\udc00\\ud800'].entries()) {
      const email = `surrogate-${i}@hygiene.test`;
      const res = await rawJson(
        '/api/v1/person',
        'POST',
        `{"person":{"firstName":"Sam","lastName":"${escaped}","emailAddress":"${email}","roleIds":["${ROLE_IDS.ArcManagerRole}"]}}`,
        admin,
      );
      expect(res.status, escaped).toBe(400);
      expect((await res.json()).Content.Errors).toEqual({ 'person.lastName': TEXT_MESSAGES.surrogate });
      expect(await stored(email)).toBeUndefined();
    }
  });

  test('own profile: a bidi control in the last name is refused and the stored name stays', async () => {
    const me = await signedIn(t.db, t.config, ['ArcControllerRole']);
    const etag = (await t.db.selectFrom('persons').select('etag').where('id', '=', me.id).executeTakeFirstOrThrow()).etag;
    const res = await t.request('/api/v1/person/basic-info-update', {
      method: 'PUT',
      token: me.token,
      json: { etag, person: { firstName: 'Ok', lastName: 'Bad\u202Dname', phoneNumbers: [] } },
    });
    expect(res.status).toBe(400);
    expect((await res.json()).Content.Errors).toEqual({ 'person.lastName': TEXT_MESSAGES.bidi });
    expect(await stored(me.email)).toEqual({ firstName: 'Test', lastName: 'Person' });
  });

  test('forms and query strings are checked too', async () => {
    const form = await t.request('/connect/token', {
      form: { grant_type: 'password', client_id: 'portal', username: 'admin\u202E@hygiene.test', password: 'x' },
    });
    expect(form.status).toBe(400);
    expect((await form.json()).Content.Message).toBe(TEXT_MESSAGES.bidi);
    const query = await t.request(`/ps-admin/persons/get-list?${new URLSearchParams({ page: '1', pageSize: '10', searchValue: 'a\u2066b' })}`, {
      token: admin,
    });
    expect(query.status).toBe(400);
    expect((await query.json()).Content.Errors).toEqual({ searchValue: TEXT_MESSAGES.bidi });
  });

  test('real-world names still pass: accents, emoji (paired surrogates), Arabic and Hebrew, the plain RLM mark', async () => {
    for (const [i, [first, last]] of (
      [
        ['Zoë', 'Ångström'],
        ['Sam 😀', 'Smith'],
        ['مريم', 'حداد'],
        ['דוד', 'כהן'],
        ['Ali\u200F', 'Khan'],
      ] as const
    ).entries()) {
      const email = `fine-${i}@hygiene.test`;
      const res = await create(email, first, last);
      expect(res.status, `${first} ${last}`).toBe(201);
      expect(await stored(email)).toEqual({ firstName: first, lastName: last });
    }
  });
});

describe('x-request-id', () => {
  const loggedId = async (id: string | undefined) => {
    const headers: Record<string, string> = id === undefined ? {} : { 'x-request-id': id };
    const before = t.logs.length;
    await t.request('/health', { headers });
    const line = t.logs.slice(before).find((e) => e.msg === 'request' && e.path === '/health');
    return String(line?.requestId);
  };
  const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

  test('a sane client id is kept in the log; one that is long, spaced or not printable ASCII is replaced by ours', async () => {
    expect(await loggedId('req-1234_abc:XYZ')).toBe('req-1234_abc:XYZ');
    expect(await loggedId('x'.repeat(128))).toBe('x'.repeat(128));
    expect(await loggedId(undefined)).toMatch(UUID);
    for (const bad of ['x'.repeat(129), 'x'.repeat(100_000), 'has space', 'tab\there', 'é-accent', '"},"admin":true,"x":"', 'back\\slash', '']) {
      const id = await loggedId(bad);
      expect(id, JSON.stringify(bad.slice(0, 40))).toMatch(UUID);
    }
  });
});
