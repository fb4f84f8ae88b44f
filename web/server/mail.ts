import { createTransport, type Transporter } from 'nodemailer';
import type { MailConfig } from './config.ts';

export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
  html: string;
}

const transports = new WeakMap<MailConfig, Transporter>();

/** Sends one message through the configured SMTP server (one pooled transport per config). */
export async function sendMail(config: MailConfig, mail: OutgoingMail): Promise<void> {
  let transport = transports.get(config);
  if (!transport) {
    transport = createTransport(config.transport);
    transports.set(config, transport);
  }
  await transport.sendMail({ from: config.from, ...mail });
}

/** Escapes text for an HTML e-mail body. */
export function escapeHtml(text: string): string {
  return text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );
}
