import { ProblemError, problem } from '@postwave/shared';
import { z } from 'zod';
import type { AppContext } from '#server/context.ts';
import { escapeHtml } from '#server/mail.ts';
import { AttemptLimiter, processWide } from '#server/security/attempt-limiter.ts';
import { hashPassword } from '#server/security/passwords.ts';
import { hashSecret, newSecret } from '#server/security/tokens.ts';
import { deliverLink } from './link-mail.ts';
import * as repo from './repository.ts';
import { minPasswordLength, normalizeEmail } from './sign-up.ts';

/**
 * At most this many links per (account, client address) per window; further requests are
 * answered the same but send nothing. Keyed on the pair so that a stranger asking for links
 * cannot use up the allowance of the account's owner.
 */
const perUserAndAddressLimit = 3;
/** At most this many links per account per hour from all addresses together: a brake on mail bombing. */
const perUserHourlyLimit = 10;
/** At most this many requests per client address per window (answered 429). */
const perAddressLimit = 10;
const limitWindowMs = 15 * 60 * 1000;
const tokenPrefix = 'pwr_';

export const PasswordResetRequest = z.object({ email: z.string().max(320) });
export const PasswordResetConfirm = z.object({
  token: z.string().max(200),
  password: z.string().max(1024),
});

/** Requests per client address, in this process: a modest brake on scripted requests. */
const requestsByAddress = processWide(
  'password-reset:address',
  () => new AttemptLimiter(perAddressLimit, limitWindowMs),
);
const linksByUserAndAddress = processWide(
  'password-reset:account+address',
  () => new AttemptLimiter(perUserAndAddressLimit, limitWindowMs),
);

/**
 * Starts a password reset. The answer never depends on whether the email belongs to an account:
 * for a known account a single-use link is created and delivered in the background (by e-mail
 * when SMTP is configured, otherwise written to the server log), for an unknown one nothing
 * happens. Throws 429 only for too many requests from one address.
 */
export async function requestPasswordReset(ctx: AppContext, email: string, address: string): Promise<void> {
  const now = Date.now();
  if (!requestsByAddress.tryAttempt(address, now)) {
    throw new ProblemError(
      problem('rate_limited', 'Too many password reset requests. Wait a few minutes and try again.'),
      { 'retry-after': String(limitWindowMs / 1000) },
    );
  }
  const user = await repo.findUserByEmail(ctx, normalizeEmail(email));
  if (!user) return;
  if (
    (await repo.countLinksSince(ctx, 'reset', user.id, new Date(now - 3_600_000))) >= perUserHourlyLimit ||
    !linksByUserAndAddress.tryAttempt(`${user.id}\n${address}`, now)
  ) {
    ctx.logger.info(
      { userId: user.id },
      'password reset not sent: too many recent requests for this account',
    );
    return;
  }
  const lifetimeMs = ctx.config.passwordResetTtlSeconds * 1000;
  const token = newSecret(tokenPrefix);
  await repo.insertResetLink(ctx, {
    tokenHash: hashSecret(token),
    userId: user.id,
    expiresAt: new Date(now + lifetimeMs),
    createdAt: new Date(now),
  });
  const link = `${ctx.config.appUrl}/reset-password?${new URLSearchParams({ token })}`;
  const minutes = Math.max(1, Math.round(lifetimeMs / 60_000));
  // Delivered in the background: the answer must not take longer for a known email than for an unknown one.
  deliverLink(ctx, {
    userId: user.id,
    to: user.email,
    link,
    logField: 'resetLink',
    unconfiguredMessage:
      'password reset requested; SMTP is not configured, so the reset link is logged instead of e-mailed',
    what: 'password reset e-mail',
    message: {
      subject: 'Reset your Postwave password',
      text:
        `Someone (hopefully you) asked to reset the password of your Postwave account.\n\n` +
        `Choose a new password here within ${minutes} minutes:\n${link}\n\n` +
        `Resetting signs you out everywhere and ends every API and CLI token and every connected AI assistant (MCP); ` +
        `you will create or connect them again.\n\n` +
        `If you did not ask for this, ignore this e-mail: your password stays the same.\n`,
      html:
        `<p>Someone (hopefully you) asked to reset the password of your Postwave account.</p>` +
        `<p><a href="${escapeHtml(link)}">Choose a new password</a> within ${minutes} minutes.</p>` +
        `<p>Resetting signs you out everywhere and ends every API and CLI token and every connected AI assistant (MCP); ` +
        `you will create or connect them again.</p>` +
        `<p>If you did not ask for this, ignore this e-mail: your password stays the same.</p>`,
    },
  });
}

function invalidLink(): ProblemError {
  return new ProblemError(
    problem('validation_failed', 'This reset link is invalid, expired or already used', {
      errors: [{ path: 'token', code: 'invalid_reset_token', message: 'Ask for a new password reset link.' }],
    }),
  );
}

/** Whether a reset link can still be used (for the reset page; the reset itself re-checks). */
/** "30 minutes": how long reset links work, for the pages that mention it. */
export function resetLinkLifetime(ctx: AppContext): string {
  const minutes = Math.max(1, Math.round(ctx.config.passwordResetTtlSeconds / 60));
  return minutes % 60 === 0 && minutes >= 120
    ? `${minutes / 60} hours`
    : `${minutes} minute${minutes === 1 ? '' : 's'}`;
}

export async function resetTokenIsUsable(ctx: AppContext, token: string): Promise<boolean> {
  if (!token.startsWith(tokenPrefix) || token.length > 200) return false;
  return repo.resetLinkIsLive(ctx, hashSecret(token), new Date());
}

/**
 * Sets a new password with a reset link. The link is used up, every other outstanding link of
 * the account is too, and everything that could act as the user ends: browser sessions that began
 * before now, every API and CLI token, every MCP grant (access and refresh tokens) and pending
 * authorization codes. Following the link proves the user reads the account's mail, so the
 * address counts as verified.
 */
export async function resetPassword(ctx: AppContext, token: string, password: string): Promise<void> {
  if (password.length < minPasswordLength) {
    throw new ProblemError(
      problem('validation_failed', 'The new password is too short', {
        errors: [
          {
            path: 'password',
            code: 'weak_password',
            message: `Use at least ${minPasswordLength} characters`,
          },
        ],
      }),
    );
  }
  if (!token.startsWith(tokenPrefix) || token.length > 200) throw invalidLink();
  const passwordHash = await hashPassword(password);
  const now = new Date();
  if (!(await repo.resetPasswordWithLink(ctx, hashSecret(token), passwordHash, now))) throw invalidLink();
  ctx.logger.info('password reset completed');
}
