// Every write route records who changed what: walking the server's route table, each route that is
// not a read (GET, or a POST that only reads: lists, exports, look-ups) is called with its sample
// request as a provider admin, and an answer under 300 must have added an audit entry. Routes whose
// sample the server refuses (validation, missing record) changed nothing and need none. The list
// of reads is explicit, so a new write route is checked unless someone declares it a read here.
// SQLite and, with TEST_DB=pg, PostgreSQL.
import { afterAll, beforeAll, expect, test } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { signedIn } from '../helpers/auth.js';

/** POST/PUT routes that change nothing a person did (reads, exports, sessions, device telemetry). */
const READS = [
  /\/get-/,
  /\/export\//,
  /export-list$/,
  /\/download-/,
  /\/query$/,
  /^\/api\/search/,
  /^\/api\/captcha/,
  /^\/api\/v1\/sso\/nonce$/,
  /^\/api\/admin\/negotiate$/,
  /^\/devices\/subscribe-for-monitoring$/,
  /^\/api\/v1\/device-messages\/ingest$/, // device telemetry, not a change by a person
  /^\/connect\/revocation$/, // ends a session; audited when a token is revoked, nothing for an unknown one
  /^\/api\/v1\/import\/devices-to-allocate\//, // reads a serial list; the allocation itself is audited
  /^\/alarm-report\/get-/,
  // Answers 200 for any address so that it tells nobody which accounts exist; for the sample's
  // unknown address nothing happens. A code really sent is audited (verification-code-sent).
  /^\/api\/v1\/two-factor-authentication\/send$/,
];

let t: TestApp;
let token: string;
beforeAll(async () => {
  t = await createTestApp();
  token = (await signedIn(t.db, t.config, ['SuperAdminRole'])).token;
});
afterAll(async () => {
  await t?.close();
});

const auditCount = async () =>
  Number(
    (
      await t.db
        .selectFrom('auditLog')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

test('every write route that succeeds writes an audit entry', async () => {
  const writes = t.routes.filter((r) => r.method !== 'GET' && !READS.some((re) => re.test(r.path)));
  expect(writes.length).toBeGreaterThan(10);
  const missing: string[] = [];
  const checked: string[] = [];
  for (const r of writes) {
    const path = r.path.replace(/:(\w+)/g, '00000000-0000-4000-8000-000000000000');
    const qs = r.sample?.query ? `?${new URLSearchParams(r.sample.query).toString()}` : '';
    const before = await auditCount();
    const res = await t.request(`${path}${qs}`, {
      method: r.method,
      token: r.access === 'public' ? undefined : token,
      json: r.sample?.json ?? (r.sample?.form ? undefined : r.method === 'DELETE' ? undefined : {}),
      form: r.sample?.form,
      headers: r.sample?.headers,
    });
    if (res.status >= 300) continue;
    checked.push(`${r.method} ${r.path}`);
    if ((await auditCount()) === before) missing.push(`${r.method} ${r.path}`);
  }
  expect(missing, `write routes without an audit entry (checked: ${checked.join(', ')})`).toEqual([]);
  expect(checked.length).toBeGreaterThan(0);
});
