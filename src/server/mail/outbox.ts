// E-mail and SMS go through the outbox table (the transactional-outbox pattern): a request
// records its message in the same transaction as the change it belongs to (a verification code,
// a reset link) and, after the commit, asks the relay to deliver; the request never waits for
// SMTP. The relay claims each row before sending it (one sender per row, also across nodes),
// marks it sent or records the error, and retries a few times. Rows a crash left behind go out
// with the next flush (if not older than an hour). Tests and the e2e suite read codes back from the table.
//
// E-mail pausing: an e-mail to a person of a customer whose e-mail delivery is paused
// (customers.isAutomaticEmailsPaused) is recorded with heldTenantId set and waits; the relay skips
// it until the pause is turned off (modules/customers/email-pause.ts clears the column and flushes).
// Messages the person asked for to sign in (verification codes, reset links: `urgent`) never wait.
// A message may name the tenant to hold it for itself (`holdFor`: a scheduled report of a
// customer that pauses e-mail waits whoever receives it).
//
// Attachments (scheduled reports): the file is stored once in outboxAttachments and the e-mails
// that carry it point at it. A message with a `ref` (what it belongs to, e.g. 'scheduleRun:12')
// is a report, not a code: the one-hour age limit does not apply to it, only the attempts.
//
// Message bodies hold secrets (verification codes, reset links): they are written to the log
// only when no SMTP_URL is configured (development), and start-up says so.
import nodemailer, { type Transporter } from 'nodemailer';
import type { DB } from '../db/types.js';
import { errorEvents } from '../platform/metrics.js';
import { OUTBOX_MAX_ATTEMPTS } from './limits.js';

export { OUTBOX_MAX_ATTEMPTS };

export type OutboxMessage = {
  channel: 'email' | 'sms';
  recipient: string;
  subject: string;
  body: string;
  /** Sent even while the recipient's customer pauses e-mail delivery (codes and links the person asked for). */
  urgent?: boolean;
  /** Held while this tenant's customer pauses e-mail delivery (set by the caller when it knows the customer is paused). */
  holdFor?: string | null;
  /** outboxAttachments.id of a file sent with the e-mail (see addAttachment). */
  attachmentId?: number | null;
  /** What the message belongs to ('scheduleRun:12'); such messages are not dropped for age. */
  ref?: string | null;
};
export type OutboxFile = { fileName: string; contentType: string; content: Uint8Array };

/** Stores a file for e-mails to carry (in the caller's transaction); returns its id for `attachmentId`. */
export async function addAttachment(db: DB, file: OutboxFile, at: Date): Promise<number> {
  const row = await db
    .insertInto('outboxAttachments')
    .values({ fileName: file.fileName, contentType: file.contentType, content: file.content, createdAt: at.toISOString() })
    .returning('id')
    .executeTakeFirstOrThrow();
  return Number(row.id);
}
export type Outbox = {
  /** Records the message in `db` (the caller's transaction); nothing is sent yet. */
  enqueue: (db: DB, msg: OutboxMessage) => Promise<void>;
  /** After the commit: delivers pending messages in the background. Never throws, never waits. */
  flush: (db: DB) => void;
  /** Resolves when the relay has nothing under way (tests, shutdown). */
  idle: () => Promise<void>;
  /** Waits for the relay and closes the SMTP connection. */
  close: () => Promise<void>;
};

/** A claim older than this (the sender died) may be taken over. */
const STALE_CLAIM_MS = 10 * 60_000;
const RETRY_DELAY_MS = 30_000;
const MAX_AGE_MS = 60 * 60_000;
const BATCH = 50;

type Log = (e: Record<string, unknown>) => void;

/**
 * SMTP_URL → nodemailer options: smtp://[user:pass@]host[:port] (port 25; STARTTLS when the
 * server offers it, required with ?requireTLS=true) or smtps://[user:pass@]host[:port] (TLS from
 * the start, port 465). ?from=address sets the sender; ?tls.rejectUnauthorized=false accepts a
 * self-signed certificate (test relays only).
 */
export function smtpOptions(url: string) {
  const u = new URL(url);
  if (u.protocol !== 'smtp:' && u.protocol !== 'smtps:') throw new Error('SMTP_URL must start with smtp:// or smtps://');
  const secure = u.protocol === 'smtps:';
  const q = u.searchParams;
  return {
    from: q.get('from') || 'no-reply@localhost',
    transport: {
      host: u.hostname,
      port: Number(u.port || (secure ? 465 : 25)),
      secure,
      requireTLS: q.get('requireTLS') === 'true',
      auth: u.username ? { user: decodeURIComponent(u.username), pass: decodeURIComponent(u.password) } : undefined,
      tls: q.get('tls.rejectUnauthorized') === 'false' ? { rejectUnauthorized: false } : undefined,
      connectionTimeout: 10_000,
      greetingTimeout: 10_000,
      socketTimeout: 20_000,
    },
  };
}

/** SMTP_URL without its password, for the log. */
const safeUrl = (url: string) => {
  try {
    const u = new URL(url);
    return `${u.protocol}//${u.username ? `${decodeURIComponent(u.username)}@` : ''}${u.host}`;
  } catch {
    return '(invalid SMTP_URL)';
  }
};

/** The tenant of the customer whose person has this e-mail address, when that customer pauses e-mail delivery. */
async function pausedTenantOf(db: DB, email: string): Promise<string | null> {
  const row = await db
    .selectFrom('persons as p')
    .innerJoin('customers as c', 'c.tenantId', 'p.tenantId')
    .select('c.tenantId')
    .where('p.email', '=', email.trim().toLowerCase())
    .where('c.isAutomaticEmailsPaused', '=', 1)
    .executeTakeFirst();
  return row?.tenantId ?? null;
}

export function createOutbox(opts: { smtpUrl?: string; log: Log; now: () => Date }): Outbox {
  const { log, now } = opts;
  let mailer: { transporter: Transporter; from: string } | undefined;
  if (opts.smtpUrl) {
    const o = smtpOptions(opts.smtpUrl);
    mailer = { transporter: nodemailer.createTransport(o.transport), from: o.from };
    // A send that fails rejects its own promise (recorded on its row); anything the transport emits
    // outside a send is logged, never left to end the process.
    mailer.transporter.on('error', (e: Error) => {
      errorEvents.inc({ source: 'smtp' });
      log({ msg: 'smtp transport error', level: 'error', smtp: safeUrl(opts.smtpUrl!), error: e.message });
    });
    log({ msg: `outbox: e-mail is sent through ${safeUrl(opts.smtpUrl)}; message bodies are not logged` });
  } else {
    log({ msg: 'outbox: SMTP_URL is not set, so e-mail is not sent; message bodies (verification codes, reset links) are written to this log instead' });
  }

  let running: Promise<void> | null = null;
  let again = false;
  let retry: NodeJS.Timeout | undefined;
  let closed = false;

  async function deliver(db: DB, row: { id: number } & OutboxMessage): Promise<'sent' | 'not-sent' | 'failed'> {
    const meta = { id: row.id, channel: row.channel, to: row.recipient, subject: row.subject };
    const finalError = row.channel === 'sms' ? 'not sent: no SMS gateway is configured' : !mailer ? 'not sent: SMTP_URL is not set' : null;
    if (finalError) {
      log({ msg: 'outbox', ...meta, status: 'not sent', ...(mailer ? {} : { body: row.body }) });
      await db.updateTable('outbox').set({ error: finalError, attempts: OUTBOX_MAX_ATTEMPTS }).where('id', '=', row.id).execute();
      return 'not-sent';
    }
    try {
      const file = row.attachmentId
        ? await db.selectFrom('outboxAttachments').select(['fileName', 'contentType', 'content']).where('id', '=', row.attachmentId).executeTakeFirst()
        : undefined;
      await mailer!.transporter.sendMail({
        from: mailer!.from,
        to: row.recipient,
        subject: row.subject,
        text: row.body,
        ...(file ? { attachments: [{ filename: file.fileName, contentType: file.contentType, content: Buffer.from(file.content) }] } : {}),
      });
      await db.updateTable('outbox').set({ sentAt: now().toISOString(), error: null }).where('id', '=', row.id).execute();
      log({ msg: 'outbox', ...meta, status: 'sent' });
      return 'sent';
    } catch (e) {
      const error = String((e as Error)?.message ?? e).slice(0, 500);
      await db.updateTable('outbox').set({ error, claimedAt: null }).where('id', '=', row.id).execute();
      log({ msg: 'outbox', ...meta, status: 'failed', error });
      return 'failed';
    }
  }

  async function drain(db: DB) {
    let failed = false;
    // Codes and reset links expire within the hour: older messages are not worth sending late.
    await db
      .updateTable('outbox')
      .set({ attempts: OUTBOX_MAX_ATTEMPTS, error: 'not sent: older than an hour' })
      .where('sentAt', 'is', null)
      .where('heldTenantId', 'is', null)
      .where('attempts', '<', OUTBOX_MAX_ATTEMPTS)
      .where('ref', 'is', null)
      .where('createdAt', '<', new Date(now().getTime() - MAX_AGE_MS).toISOString())
      .execute();
    for (;;) {
      const stale = new Date(now().getTime() - STALE_CLAIM_MS).toISOString();
      const rows = await db
        .selectFrom('outbox')
        .select(['id', 'channel', 'recipient', 'subject', 'body', 'attachmentId'])
        .where('sentAt', 'is', null)
        .where('heldTenantId', 'is', null)
        .where('attempts', '<', OUTBOX_MAX_ATTEMPTS)
        .where((eb) => eb.or([eb('claimedAt', 'is', null), eb('claimedAt', '<', stale)]))
        .orderBy('id')
        .limit(BATCH)
        .execute();
      if (!rows.length) break;
      let claimedAny = false;
      for (const row of rows) {
        // Claim: only one relay (of this node or another) sends a row.
        const claim = await db
          .updateTable('outbox')
          .set((eb) => ({ claimedAt: now().toISOString(), attempts: eb('attempts', '+', 1) }))
          .where('id', '=', row.id)
          .where('sentAt', 'is', null)
          .where('heldTenantId', 'is', null)
          .where((eb) => eb.or([eb('claimedAt', 'is', null), eb('claimedAt', '<', stale)]))
          .executeTakeFirst();
        if (Number(claim.numUpdatedRows) !== 1) continue;
        claimedAny = true;
        if ((await deliver(db, row as { id: number } & OutboxMessage)) === 'failed') failed = true;
      }
      if (!claimedAny || rows.length < BATCH) break;
    }
    if (failed && !closed && !retry) {
      retry = setTimeout(() => {
        retry = undefined;
        flush(db);
      }, RETRY_DELAY_MS);
      retry.unref();
    }
  }

  function flush(db: DB) {
    if (closed) return;
    if (running) {
      again = true;
      return;
    }
    running = (async () => {
      do {
        again = false;
        try {
          await drain(db);
        } catch (e) {
          log({ msg: 'outbox relay error', error: String((e as Error)?.message ?? e) });
        }
      } while (again && !closed);
    })().finally(() => {
      running = null;
    });
  }

  return {
    async enqueue(db, { urgent, holdFor, attachmentId, ref, ...msg }) {
      const heldTenantId = msg.channel !== 'email' || urgent ? null : (holdFor ?? (await pausedTenantOf(db, msg.recipient)));
      await db
        .insertInto('outbox')
        .values({ ...msg, createdAt: now().toISOString(), sentAt: null, error: null, heldTenantId, attachmentId: attachmentId ?? null, ref: ref ?? null })
        .execute();
    },
    flush,
    idle: async () => {
      while (running) await running;
    },
    async close() {
      closed = true;
      clearTimeout(retry);
      while (running) await running;
      mailer?.transporter.close();
    },
  };
}
