import { and, count, eq, gt, isNull } from 'drizzle-orm';
import type { AppContext } from '../context.ts';
import { emailVerificationTokens, users } from '../db/schema.ts';
import { escapeHtml, sendMail } from '../mail.ts';
import { hashSecret, newSecret } from '../security/tokens.ts';

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
  const [user] = await ctx.db
    .select({ id: users.id, email: users.email, verifiedAt: users.emailVerifiedAt })
    .from(users)
    .where(eq(users.id, userId));
  if (!user || user.verifiedAt) return false;
  const now = Date.now();
  const [recent] = await ctx.db
    .select({ n: count() })
    .from(emailVerificationTokens)
    .where(
      and(
        eq(emailVerificationTokens.userId, user.id),
        gt(emailVerificationTokens.createdAt, new Date(now - limitWindowMs)),
      ),
    );
  if ((recent?.n ?? 0) >= perUserLimit) return false;
  const token = newSecret(tokenPrefix);
  const lifetimeMs = ctx.config.emailVerificationTtlSeconds * 1000;
  await ctx.db.insert(emailVerificationTokens).values({
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
  return ctx.db.transaction(async (tx) => {
    const [row] = await tx
      .update(emailVerificationTokens)
      .set({ usedAt: now })
      .where(
        and(
          eq(emailVerificationTokens.tokenHash, hashSecret(token)),
          isNull(emailVerificationTokens.usedAt),
          gt(emailVerificationTokens.expiresAt, now),
        ),
      )
      .returning({ userId: emailVerificationTokens.userId, email: emailVerificationTokens.email });
    if (!row) return false;
    const updated = await tx
      .update(users)
      .set({ emailVerifiedAt: now, updatedAt: now })
      .where(and(eq(users.id, row.userId), eq(users.email, row.email)))
      .returning({ id: users.id });
    return updated.length > 0;
  });
}
