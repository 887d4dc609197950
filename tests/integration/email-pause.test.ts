// E-mail pausing is real (spec §2 settings, §4 "Settings toggles", §7 backlog count),
// against a real SMTP server: while a customer's 'pause email delivery' is on, e-mails to the
// persons of its tenant wait in the outbox (the relay does not send them) and the backlog count is
// what waits; codes and reset links (urgent) still go; other customers' mail is not held; turning
// the pause off sends what waited. SQLite and, with TEST_DB=pg, PostgreSQL.
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { tokenFor } from '../helpers/auth.js';
import { insertCustomer, ok } from '../helpers/customers.js';
import { ROLE_IDS } from '../../src/shared/permissions.js';
import type { CustomerSettings, EmailBacklog } from '../../src/shared/schemas/customers.js';
import type { CustomerTable } from '../../src/server/db/schema.js';

let t: TestApp;
let admin: string;
let smtp: SMTPServer;
const received: string[] = [];
let paused: CustomerTable;
let open: CustomerTable;

beforeAll(async () => {
  smtp = new SMTPServer({
    logger: false,
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    onData(stream, session, cb) {
      stream.on('data', () => {});
      stream.on('end', () => {
        received.push(...session.envelope.rcptTo.map((r) => r.address));
        cb();
      });
    },
  });
  await new Promise<void>((r) => smtp.listen(0, '127.0.0.1', () => r()));
  t = await createTestApp({ smtpUrl: `smtp://127.0.0.1:${(smtp.server.address() as AddressInfo).port}?from=no-reply@workspace.test` });
  admin = await tokenFor(t.config, ['SuperAdminRole']);
  paused = await insertCustomer(t.db, { name: 'Quiet Ltd' });
  open = await insertCustomer(t.db, { name: 'Chatty Ltd' });
});
afterAll(async () => {
  await t?.close();
  await new Promise<void>((r) => smtp.close(() => r()));
});

const settings = async (c: CustomerTable) => ok<CustomerSettings>(await t.request(`/ps-admin/customers/get-settings?CustomerId=${c.id}`, { token: admin }));
const setPaused = async (c: CustomerTable, on: boolean) => {
  const s = await settings(c);
  return ok<CustomerSettings>(
    await t.request(`/api/v1/customer/settings/update?customerId=${c.id}`, {
      method: 'PUT',
      token: admin,
      json: { customerEtag: s.CustomerEtag, settings: { ...s.Settings, IsAutomaticEmailsPaused: on } },
    }),
  );
};
const backlog = async (c: CustomerTable) =>
  (await ok<EmailBacklog>(await t.request(`/ps-admin/emails/get-backlog-count?TenantId=${c.tenantId}`, { token: admin }))).count;
const addAdmin = async (c: CustomerTable, email: string) =>
  ok(
    await t.request('/api/v1/person', {
      method: 'POST',
      token: admin,
      headers: { 'tenant-id': c.tenantId },
      json: { person: { firstName: 'Pat', lastName: 'Admin', emailAddress: email, roleIds: [ROLE_IDS.AdminRole, ROLE_IDS.PortalUserRole] } },
    }),
    201,
  );
async function settle() {
  await t.deps.outbox.idle();
  await new Promise((r) => setTimeout(r, 50));
  await t.deps.outbox.idle();
}

test('paused: mail waits and is counted; urgent mail and other customers still go; release sends it', async () => {
  expect((await setPaused(paused, true)).Settings.IsAutomaticEmailsPaused).toBe(true);
  await addAdmin(paused, 'pat@quiet.test');
  await addAdmin(paused, 'sam@quiet.test');
  await addAdmin(open, 'pat@chatty.test');
  // A verification code to a paused customer's person: asked for to sign in, so never held.
  await t.deps.outbox.enqueue(t.db, { channel: 'email', recipient: 'sam@quiet.test', subject: 'Your verification code', body: 'Code 123456', urgent: true });
  t.deps.outbox.flush(t.db);
  await settle();
  expect(received.sort()).toEqual(['pat@chatty.test', 'sam@quiet.test']);
  expect(await backlog(paused)).toBe(2);
  expect(await backlog(open)).toBe(0);
  const held = await t.db.selectFrom('outbox').selectAll().where('heldTenantId', '=', paused.tenantId).execute();
  expect(held.map((m) => [m.recipient, m.sentAt, m.attempts])).toEqual([
    ['pat@quiet.test', null, 0],
    ['sam@quiet.test', null, 0],
  ]);

  // Turning the pause off sends what waited.
  received.length = 0;
  expect((await setPaused(paused, false)).Settings.IsAutomaticEmailsPaused).toBe(false);
  await settle();
  expect(received.sort()).toEqual(['pat@quiet.test', 'sam@quiet.test']);
  expect(await backlog(paused)).toBe(0);
  const sent = await t.db
    .selectFrom('outbox')
    .selectAll()
    .where('recipient', 'in', ['pat@quiet.test', 'sam@quiet.test'])
    .where('subject', '=', 'Set your password')
    .execute();
  for (const m of sent) expect(m).toMatchObject({ heldTenantId: null, error: null, sentAt: expect.any(String) });

  // Not paused any more: new mail goes at once.
  received.length = 0;
  await addAdmin(paused, 'lee@quiet.test');
  await settle();
  expect(received).toEqual(['lee@quiet.test']);
});
