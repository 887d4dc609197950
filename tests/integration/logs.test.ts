// Logs: every line is JSON with a level; every line written while a request runs carries its
// request id (the client's X-Request-Id when it is sane); passwords, tokens, second-factor codes,
// keys and secrets never reach the output.
import { Writable } from 'node:stream';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { createApp } from '../../src/server/app.js';
import { testConfig } from '../../src/server/platform/config.js';
import { createOutbox } from '../../src/server/mail/outbox.js';
import { createLogger, logFunction, logLevel } from '../../src/server/platform/logger.js';
import { createTestDb, type TestDb } from '../helpers/db.js';
import { insertPerson } from '../helpers/auth.js';
import { hashPassword } from '../../src/server/auth/password.js';

const lines: string[] = [];
const sink = new Writable({
  write(chunk, _enc, done) {
    lines.push(...String(chunk).split('\n').filter(Boolean));
    done();
  },
});
const PASSWORD = 'Correct-Horse-9!';
const SECRET = 'client-secret-value-42';
let tdb: TestDb;
let app: ReturnType<typeof createApp>['app'];
let outbox: ReturnType<typeof createOutbox>;
const parsed = () => lines.map((l) => JSON.parse(l) as Record<string, unknown>);

beforeAll(async () => {
  tdb = await createTestDb();
  const config = testConfig({ logRequests: true, clientSecrets: { integration: SECRET } });
  const log = logFunction(createLogger({ level: 'debug', destination: sink }));
  outbox = createOutbox({ smtpUrl: undefined, log, now: () => new Date() });
  ({ app } = createApp({ db: tdb.db, config, outbox, log }));
  await insertPerson(tdb.db, { email: 'logs@staff.test', passwordHash: await hashPassword(PASSWORD), roles: ['SuperAdminRole'] });
  // a handler that logs inside the request, as any module does through deps.log
  app.get('/test/log-inside', (c) => {
    c.get('deps').log({
      msg: 'inside the handler',
      password: PASSWORD,
      nested: { token: 'eyJ.secret.token', client_secret: SECRET },
      body: { code: '123456' },
    });
    c.get('deps').log({ msg: 'something failed', error: 'boom' });
    return c.text('ok');
  });
});
afterAll(async () => {
  await outbox.close();
  await tdb.close();
});

test('lines written during a request carry its request id, with levels; the request line too', async () => {
  lines.length = 0;
  const res = await app.request('/test/log-inside', { headers: { 'x-request-id': 'req-abc-123', 'x-forwarded-for': '203.0.113.9' } });
  expect(res.status).toBe(200);
  const entries = parsed();
  expect(entries.map((e) => [e.msg, e.level, e.requestId])).toEqual([
    ['inside the handler', 'info', 'req-abc-123'],
    ['something failed', 'error', 'req-abc-123'],
    ['request', 'info', 'req-abc-123'],
  ]);
  for (const e of entries) expect(typeof e.time).toBe('string');
  // redacted by key, nested too; the text appears nowhere
  expect(entries[0]).toMatchObject({ password: '[Redacted]', nested: { token: '[Redacted]', client_secret: '[Redacted]' }, body: { code: '[Redacted]' } });
  const all = lines.join('\n');
  for (const secret of [PASSWORD, 'eyJ.secret.token', SECRET, '123456']) expect(all).not.toContain(secret);
});

test('a sign-in logs no password, client secret or token, and every line has the request id', async () => {
  lines.length = 0;
  const res = await app.request('/connect/token', {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-forwarded-for': '203.0.113.10' },
    body: new URLSearchParams({
      grant_type: 'password',
      client_id: 'integration',
      client_secret: SECRET,
      username: 'logs@staff.test',
      password: PASSWORD,
    }).toString(),
  });
  expect(res.status).toBe(200);
  const { access_token, refresh_token } = (await res.json()) as { access_token: string; refresh_token: string };
  const entries = parsed();
  expect(entries.length).toBeGreaterThan(0);
  const ids = new Set(entries.map((e) => e.requestId));
  expect(ids.size).toBe(1);
  expect([...ids][0]).toMatch(/^[0-9a-f-]{36}$/); // made by the server: the client sent none
  const all = lines.join('\n');
  for (const secret of [PASSWORD, SECRET, access_token, refresh_token]) expect(all).not.toContain(secret);
});

test('LOG_LEVEL filters, and a wrong value is refused with the allowed ones', () => {
  const out: string[] = [];
  const w = new Writable({
    write(chunk, _e, done) {
      out.push(String(chunk));
      done();
    },
  });
  const log = logFunction(createLogger({ level: 'warn', destination: w }));
  log({ msg: 'not shown' });
  log({ msg: 'shown', level: 'warn' });
  expect(out.join('')).not.toContain('not shown');
  expect(JSON.parse(out.join(''))).toMatchObject({ level: 'warn', msg: 'shown' });
  expect(() => logLevel('loud')).toThrow('LOG_LEVEL must be one of trace, debug, info, warn, error, fatal, silent, not "loud"');
});
