// E-mail pausing (spec §2 settings "pause email delivery", §4 settings toggles, §7 backlog count).
// While a customer's IsAutomaticEmailsPaused is on, the outbox records e-mails to the persons of
// its tenant with heldTenantId set (src/server/mail/outbox.ts) and the relay leaves them; the backlog
// count is those rows; turning the pause off clears heldTenantId (and restarts their age, so the
// relay's one-hour limit counts from the release) and flushes the relay, which sends them.
import type { DB } from '../../db/index.js';
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
