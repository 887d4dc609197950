// The e-mail a new customer administrator gets, whether the customer's page or the persons' page
// created the account.
import type { DB } from '../db/index.js';
import type { Outbox } from './outbox.js';
import type { Config } from '../platform/config.js';
import { publicBaseUrl } from '../auth/reset.js';

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
