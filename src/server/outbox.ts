// E-mail and SMS go through the outbox table: always recorded (and logged), and sent by SMTP
// when SMTP_URL is configured. Tests and the e2e suite read codes back from the table.
import type { DB } from './db/index.js';
import { createConnection } from 'node:net';

export type OutboxMessage = { channel: 'email' | 'sms'; recipient: string; subject: string; body: string };
export type Outbox = { send: (db: DB, msg: OutboxMessage) => Promise<void> };

export function createOutbox(opts: { smtpUrl?: string; log: (e: Record<string, unknown>) => void; now: () => Date }): Outbox {
  return {
    async send(db, msg) {
      const row = await db
        .insertInto('outbox')
        .values({ ...msg, createdAt: opts.now().toISOString(), sentAt: null, error: null })
        .returning('id')
        .executeTakeFirstOrThrow();
      opts.log({ msg: 'outbox', id: row.id, channel: msg.channel, to: msg.recipient, subject: msg.subject, body: msg.body });
      if (opts.smtpUrl && msg.channel === 'email') {
        try {
          await smtpSend(opts.smtpUrl, msg.recipient, msg.subject, msg.body);
          await db.updateTable('outbox').set({ sentAt: opts.now().toISOString() }).where('id', '=', row.id).execute();
        } catch (e) {
          await db.updateTable('outbox').set({ error: String((e as Error).message) }).where('id', '=', row.id).execute();
        }
      }
    },
  };
}

/** Minimal plain SMTP (no auth, no TLS) for a local relay: smtp://host:port?from=addr */
async function smtpSend(url: string, to: string, subject: string, body: string) {
  const u = new URL(url);
  const from = u.searchParams.get('from') ?? 'no-reply@localhost';
  const sock = createConnection({ host: u.hostname, port: Number(u.port || 25) });
  sock.setEncoding('utf8');
  const lines: string[] = [];
  let waiter: ((s: string) => void) | null = null;
  sock.on('data', (d: string) => {
    lines.push(d);
    if (waiter) { const w = waiter; waiter = null; w(lines.splice(0).join('')); }
  });
  const read = () => new Promise<string>((res, rej) => {
    if (lines.length) return res(lines.splice(0).join(''));
    waiter = res;
    sock.once('error', rej);
    setTimeout(() => rej(new Error('SMTP timeout')), 10_000);
  });
  const cmd = async (s: string, ok: string) => { sock.write(s + '\r\n'); const r = await read(); if (!r.startsWith(ok)) throw new Error(`SMTP: ${r.trim()}`); };
  try {
    const greet = await read();
    if (!greet.startsWith('220')) throw new Error(`SMTP: ${greet.trim()}`);
    await cmd('HELO localhost', '250');
    await cmd(`MAIL FROM:<${from}>`, '250');
    await cmd(`RCPT TO:<${to}>`, '250');
    await cmd('DATA', '354');
    await cmd(`From: ${from}\r\nTo: ${to}\r\nSubject: ${subject}\r\n\r\n${body.replace(/^\./gm, '..')}\r\n.`, '250');
    sock.write('QUIT\r\n');
  } finally {
    sock.end();
  }
}
