import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface CapturedMail {
  from: string;
  to: string[];
  /** The raw message (headers and body) as the client sent it. */
  raw: string;
}

export interface MailCapture {
  /** `smtp://127.0.0.1:<port>`: the app's SMTP_URL. */
  url: string;
  messages: CapturedMail[];
  /** Messages to this address whose raw text contains `text` (the subject, say). */
  to(address: string, text?: string): CapturedMail[];
  close(): Promise<void>;
}

/** A real SMTP server on a free loopback port that keeps every message it receives. */
export async function startMailCapture(): Promise<MailCapture> {
  const messages: CapturedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        messages.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks).toString('utf8'),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    messages,
    to: (address, text) =>
      messages.filter((m) => m.to.includes(address) && (text === undefined || m.raw.includes(text))),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
