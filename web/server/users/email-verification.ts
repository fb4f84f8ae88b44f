import { returnPath } from '#server/auth/return-path.ts';
import type { AppContext } from '#server/context.ts';
import { escapeHtml } from '#server/mail.ts';
import { hashSecret, newSecret } from '#server/security/tokens.ts';
import { deliverLink } from './link-mail.ts';
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
export async function sendVerificationLink(
  ctx: AppContext,
  userId: string,
  /** Where the confirmed page continues to (a path here, e.g. the invitation being accepted). */
  next?: string,
): Promise<boolean> {
  const user = await repo.findUser(ctx, userId);
  if (!user || user.emailVerifiedAt) return false;
  const now = Date.now();
  if (
    (await repo.countLinksSince(ctx, 'verification', user.id, new Date(now - limitWindowMs))) >= perUserLimit
  )
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
  const back = returnPath(next, ctx.config.appUrl);
  const link = `${ctx.config.appUrl}/verify-email?${new URLSearchParams({ token, ...(back ? { next: back } : {}) })}`;
  const hours = Math.max(1, Math.round(lifetimeMs / 3_600_000));
  deliverLink(ctx, {
    userId: user.id,
    to: user.email,
    link,
    logField: 'verifyLink',
    unconfiguredMessage:
      'e-mail verification link; SMTP is not configured, so it is logged instead of e-mailed',
    what: 'e-mail verification link',
    message: {
      subject: 'Confirm your e-mail address for Postwave',
      text:
        `Confirm that this address belongs to your Postwave account within ${hours} hours:\n${link}\n\n` +
        `If you did not sign up for Postwave, ignore this e-mail.\n`,
      html:
        `<p><a href="${escapeHtml(link)}">Confirm that this address belongs to your Postwave account</a> ` +
        `within ${hours} hours.</p><p>If you did not sign up for Postwave, ignore this e-mail.</p>`,
    },
  });
  return true;
}

/** Uses a verification link: true when it was live and the account still has the address it was sent to. */
export async function verifyEmail(ctx: AppContext, token: string): Promise<boolean> {
  if (!token.startsWith(tokenPrefix) || token.length > 200) return false;
  const now = new Date();
  return repo.consumeVerificationLink(ctx, hashSecret(token), now);
}
