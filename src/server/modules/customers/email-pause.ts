// E-mail pausing (spec §2 settings "pause email delivery", §4 settings toggles, §7 backlog count).
// While a customer's IsAutomaticEmailsPaused is on, the outbox records e-mails to the persons of
// its tenant with heldTenantId set (src/server/mail/outbox.ts) and the relay leaves them; the backlog
// count is those rows; turning the pause off clears heldTenantId (and restarts their age, so the
// relay's one-hour limit counts from the release) and flushes the relay, which sends them.
import type { DB } from '../../db/index.js';
import type { Outbox } from '../../mail/outbox.js';
import type { Config } from '../../platform/config.js';
import { publicBaseUrl } from '../../auth/reset.js';
import { byTenant, type TenantScope } from '../../auth/tenant-scope.js';

/** E-mails waiting for the customer of this tenant (none for a tenant outside the scope). */
export async function backlogCount(db: DB, scope: TenantScope, tenantId: string): Promise<number> {
  const r = await byTenant(db.selectFrom('outbox'), scope, 'outbox.heldTenantId')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('heldTenantId', '=', tenantId)
    .where('sentAt', 'is', null)
    .executeTakeFirstOrThrow();
  return Number(r.n);
}

/** Releases the held e-mails of a tenant (call in the transaction that turns the pause off; flush after the commit). Returns how many. */
export async function releaseHeld(db: DB, tenantId: string, at: Date): Promise<number> {
  const r = await db
    .updateTable('outbox')
    .set({ heldTenantId: null, createdAt: at.toISOString() })
    .where('heldTenantId', '=', tenantId)
    .where('sentAt', 'is', null)
    .executeTakeFirst();
  return Number(r.numUpdatedRows);
}

/**
 * The set-password e-mail of a new customer administrator (no secret in it: it points at the
 * reset flow, so it stays valid however long a pause holds it).
 */
export async function queueAdministratorWelcome(
  db: DB,
  outbox: Outbox,
  config: Config,
  p: { email: string; firstName: string; customerName: string },
): Promise<void> {
  const link = `${publicBaseUrl(config)}/forgot-password`;
  await outbox.enqueue(db, {
    channel: 'email',
    recipient: p.email,
    subject: 'Set your password',
    body:
      `Hello ${p.firstName},\n\nAn administrator account has been created for you at ${p.customerName}. ` +
      `To set your password, open this page and enter this e-mail address:\n\n${link}\n\nIf you did not expect this e-mail, you can ignore it.`,
  });
}
