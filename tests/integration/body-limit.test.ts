// Request-body limits: every route reads at most its class's limit — a declared
// Content-Length over it is refused before reading, a chunked body without Content-Length is cut
// at the limit — and answers 413 with the error shape. Over a real socket, as `npm start` serves.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { Hono } from 'hono';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { signedIn } from '../helpers/auth.js';
import { announce, listen, postStream } from '../helpers/server.js';
import { Api, BODY_LIMITS, type AppEnv } from '../../src/server/http/api.js';
import { CODE, MSG } from '../../src/shared/messages.js';
import { ROLE_IDS } from '../../src/shared/permissions.js';

let t: TestApp;
let server: Awaited<ReturnType<typeof listen>>;
let admin: { token: string };
beforeAll(async () => {
  t = await createTestApp();
  admin = await signedIn(t.db, t.config, ['SuperAdminRole']);
  server = await listen(t);
});
afterAll(async () => {
  await server.close();
  await t.close();
});

const TOO_LARGE = { Content: { Message: MSG.bodyTooLarge, Code: CODE.tooLarge } };
const FORM = { 'content-type': 'application/x-www-form-urlencoded' };
const tokenForm = (password: string) => `grant_type=password&client_id=portal&username=nobody%40limits.test&captchaResponse=&password=${password}`;

describe('small class (JSON and forms): 64 KB', () => {
  test('a 600 MB form post to the public token endpoint is refused from its Content-Length, nothing read', async () => {
    const res = await announce(server.port, '/connect/token', 600 * 1024 * 1024, FORM);
    expect(res.status).toBe(413);
    expect(JSON.parse(res.body)).toEqual(TOO_LARGE);
  });

  test('a chunked form post without Content-Length is cut at the limit: 413 long before the client has sent it all', async () => {
    const total = 64 * 1024 * 1024;
    const res = await postStream(server.port, '/connect/token', { total, headers: FORM, prefix: 'grant_type=password&password=' });
    expect(res.status).toBe(413);
    expect(JSON.parse(res.body)).toEqual(TOO_LARGE);
    // The server answered after reading about 64 KB; what the client got out by then is socket buffers.
    expect(res.sent).toBeLessThan(total / 4);
  });

  test('a chunked JSON body to a signed-in route: 413 with the error shape; the person was not created', async () => {
    const big = JSON.stringify({
      person: { firstName: 'x'.repeat(BODY_LIMITS.small), lastName: 'L', emailAddress: 'big@limits.test', roleIds: [ROLE_IDS.ArcManagerRole] },
    });
    const res = await postStream(server.port, '/api/v1/person', {
      total: 0,
      prefix: big,
      headers: { 'content-type': 'application/json', authorization: `Bearer ${admin.token}` },
    });
    expect(res.status).toBe(413);
    expect(JSON.parse(res.body)).toEqual(TOO_LARGE);
    expect(await t.db.selectFrom('persons').select('id').where('email', '=', 'big@limits.test').execute()).toEqual([]);
  });

  test('just under the limit is read and answered by the route itself', async () => {
    const password = 'p'.repeat(BODY_LIMITS.small - tokenForm('').length);
    const body = tokenForm(password);
    expect(body.length).toBe(BODY_LIMITS.small);
    const res = await fetch(`${server.url}/connect/token`, { method: 'POST', headers: FORM, body });
    expect(res.status).toBe(400); // the route's own answer: unknown account
    expect((await res.json()).Content.Code).not.toBe(CODE.tooLarge);
    const over = await fetch(`${server.url}/connect/token`, { method: 'POST', headers: FORM, body: body + 'p' });
    expect(over.status).toBe(413);
    expect(await over.json()).toEqual(TOO_LARGE);
  });

  test('without a token a guarded route answers 401 and reads nothing', async () => {
    const res = await announce(server.port, '/api/v1/person', 1024, { 'content-type': 'application/json' });
    expect(res.status).toBe(401);
  });

  test('paths outside the route table refuse an announced body over the largest class', async () => {
    const res = await announce(server.port, '/health', BODY_LIMITS.upload + 1);
    expect(res.status).toBe(413);
    expect(JSON.parse(res.body)).toEqual(TOO_LARGE);
  });
});

describe("upload class (bodyLimit: 'upload'): 20 MB", () => {
  test('a route declaring the upload class reads up to 20 MB and cuts a chunked body beyond it', async () => {
    const app = new Hono<AppEnv>();
    app.use('*', async (c, next) => {
      c.set('deps', t.deps);
      await next();
    });
    const api = new Api(app);
    api.post('/upload', { access: 'public', bodyLimit: 'upload' }, async (c) => c.json({ bytes: (await c.req.arrayBuffer()).byteLength }));
    api.post('/small', { access: 'public' }, async (c) => c.json({ bytes: (await c.req.arrayBuffer()).byteLength }));
    expect(api.routes.map((r) => r.bodyLimit)).toEqual(['upload', 'small']);
    const s = await listen({ app } as never);
    try {
      const ok = await postStream(s.port, '/upload', { total: BODY_LIMITS.upload, headers: { 'content-type': 'text/csv' } });
      expect(ok.status).toBe(200);
      expect(JSON.parse(ok.body)).toEqual({ bytes: BODY_LIMITS.upload });
      const over = await postStream(s.port, '/upload', { total: 200 * 1024 * 1024, headers: { 'content-type': 'text/csv' } });
      expect(over.status).toBe(413);
      expect(JSON.parse(over.body)).toEqual(TOO_LARGE);
      expect(over.sent).toBeLessThan(100 * 1024 * 1024);
      const small = await postStream(s.port, '/small', { total: 1024 * 1024, headers: { 'content-type': 'text/csv' } });
      expect(small.status).toBe(413);
    } finally {
      await s.close();
    }
  });
});
