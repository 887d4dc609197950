// Held e-mails of the demo: customers whose e-mail delivery is paused have a few
// automatic e-mails to their administrators waiting in the outbox (outbox.heldTenantId), so the
// backlog count and the release confirmation ('all N paused emails will be sent') have something
// to show. Own rng stream ('email-backlog'), written after everything else: nothing else shifts.
import type { DB } from '../db/index.js';
import { ROLE_IDS } from '../../shared/permissions.js';
import { Rng } from './rng.js';
import { BatchInserter } from './insert.js';

const DAY = 86_400_000;
const SUBJECTS = [
  ['Weekly activity summary', 'Your weekly summary of alarms, check-ins and device status is ready in the portal.'],
  ['Device battery report', 'Some devices in your account reported a low battery this week. Open the portal to see which.'],
  ['New alarm report available', 'A closed alarm report is available for review in the portal.'],
  ['Subscription renewal reminder', 'Your subscription renews next month. Contact your account manager with any changes.'],
] as const;

export async function seedHeldEmails(db: DB, seed: number, now: Date): Promise<number> {
  const r = new Rng(seed, 'email-backlog');
  const admins = await db
    .selectFrom('customers as c')
    .innerJoin('persons as p', 'p.tenantId', 'c.tenantId')
    .innerJoin('personRoles as pr', 'pr.personId', 'p.id')
    .select(['c.tenantId', 'c.name', 'p.email', 'p.firstName'])
    .where('c.isAutomaticEmailsPaused', '=', 1)
    .where('pr.roleId', '=', ROLE_IDS.AdminRole)
    .orderBy('c.id')
    .orderBy('p.email')
    .execute();
  const ins = new BatchInserter(db, 'outbox', ['channel', 'recipient', 'subject', 'body', 'createdAt', 'sentAt', 'error', 'heldTenantId']);
  for (const a of admins) {
    const n = r.int(0, 3);
    for (let k = 0; k < n; k++) {
      const [subject, text] = r.pick(SUBJECTS);
      await ins.add({
        channel: 'email',
        recipient: a.email,
        subject,
        body: `Hello ${a.firstName},\n\n${text}\n\n${a.name}`,
        createdAt: new Date(now.getTime() - r.int(1, 20) * DAY - r.int(0, DAY)).toISOString(),
        sentAt: null,
        error: null,
        heldTenantId: a.tenantId,
      });
    }
  }
  await ins.flush();
  return ins.total;
}
