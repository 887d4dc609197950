// An SMTP server on a free local port that keeps every message it receives (recipients and the raw
// message), for tests of what the product e-mails. `smtpUrl(from)` is the SMTP_URL to give the app.
import { SMTPServer } from 'smtp-server';
import type { AddressInfo } from 'node:net';

export type Mail = { to: string[]; raw: string };
export type Mailbox = { mails: Mail[]; smtpUrl: (from: string) => string; close: () => Promise<void> };

export async function startMailbox(): Promise<Mailbox> {
  const mails: Mail[] = [];
  const server = new SMTPServer({
    logger: false,
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    onData(stream, session, cb) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        mails.push({ to: session.envelope.rcptTo.map((r) => r.address), raw: Buffer.concat(chunks).toString('utf8') });
        cb();
      });
    },
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const port = (server.server.address() as AddressInfo).port;
  return {
    mails,
    smtpUrl: (from) => `smtp://127.0.0.1:${port}?from=${from}`,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}
