import type { AppContext } from '#server/context.ts';
import { type OutgoingMail, sendMail } from '#server/mail.ts';

/** A single-use link for a user: e-mailed when SMTP is configured, otherwise logged for the operator. */
export interface LinkMail {
  userId: string;
  to: string;
  link: string;
  /** The log field that carries the link when there is no SMTP. */
  logField: string;
  /** The log line when there is no SMTP. */
  unconfiguredMessage: string;
  /** What the delivery log lines call the message: "<what> sent", "<what> could not be sent". */
  what: string;
  message: Omit<OutgoingMail, 'to'>;
}

/**
 * Delivers the link in the background: never awaited, so the answer does not take longer (or
 * fail) because of the mail server. Deliberately the one secret the log carries, and only
 * without SMTP: the operator passes it on.
 */
export function deliverLink(ctx: AppContext, m: LinkMail): void {
  const mail = ctx.config.mail;
  if (!mail) {
    ctx.logger.info({ userId: m.userId, [m.logField]: m.link }, m.unconfiguredMessage);
    return;
  }
  sendMail(mail, { to: m.to, ...m.message }).then(
    () => ctx.logger.info({ userId: m.userId }, `${m.what} sent`),
    (error: unknown) =>
      ctx.logger.error(
        { userId: m.userId, error: error instanceof Error ? error.message : String(error) },
        `${m.what} could not be sent`,
      ),
  );
}
