import type { AppContext } from '#server/context.ts';
import { escapeHtml, sendMail } from '#server/mail.ts';
import { hashSecret, newSecret } from '#server/security/tokens.ts';
import * as repo from './repository.ts';

const tokenPrefix = 'pwv_';
/** At most this many verification links per user in 15 minutes (resend button, sign-up). */
const perUserLimit = 3;
const limitWindowMs = 15 * 60 * 1000;

/**
 * Sends (or, without SMTP, logs) a single-use link that proves the user reads mail sent to their
 * address. Stored hashed; bound to the address it was sent to. False when the user is verified
 * already or asked too often.
 */
export async function sendVerificationLink(ctx: AppContext, userId: string): Promise<boolean> {
  const user = await repo.findUser(ctx, userId);
  if (!user || user.emailVerifiedAt) return false;
  const now = Date.now();
  if ((await repo.countVerificationLinksSince(ctx, user.id, new Date(now - limitWindowMs))) >= perUserLimit)
    return false;
  const token = newSecret(tokenPrefix);
  const lifetimeMs = ctx.config.emailVerificationTtlSeconds * 1000;
  await repo.insertVerificationLink(ctx, {
    tokenHash: hashSecret(token),
    userId: user.id,
    email: user.email,
    expiresAt: new Date(now + lifetimeMs),
    createdAt: new Date(now),
  });
  const link = `${ctx.config.appUrl}/verify-email?${new URLSearchParams({ token })}`;
  const mail = ctx.config.mail;
  if (!mail) {
    ctx.logger.info(
      { userId: user.id, verifyLink: link },
      'e-mail verification link; SMTP is not configured, so it is logged instead of e-mailed',
    );
    return true;
  }
  const hours = Math.max(1, Math.round(lifetimeMs / 3_600_000));
  sendMail(mail, {
    to: user.email,
    subject: 'Confirm your e-mail address for Postwave',
    text:
      `Confirm that this address belongs to your Postwave account within ${hours} hours:\n${link}\n\n` +
      `If you did not sign up for Postwave, ignore this e-mail.\n`,
    html:
      `<p><a href="${escapeHtml(link)}">Confirm that this address belongs to your Postwave account</a> ` +
      `within ${hours} hours.</p><p>If you did not sign up for Postwave, ignore this e-mail.</p>`,
  }).then(
    () => ctx.logger.info({ userId: user.id }, 'e-mail verification link sent'),
    (error: unknown) =>
      ctx.logger.error(
        { userId: user.id, error: error instanceof Error ? error.message : String(error) },
        'e-mail verification link could not be sent',
      ),
  );
  return true;
}

/** Uses a verification link: true when it was live and the account still has the address it was sent to. */
export async function verifyEmail(ctx: AppContext, token: string): Promise<boolean> {
  if (!token.startsWith(tokenPrefix) || token.length > 200) return false;
  const now = new Date();
  return repo.consumeVerificationLink(ctx, hashSecret(token), now);
}
