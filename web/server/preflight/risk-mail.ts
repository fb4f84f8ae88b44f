import type { AppContext } from '#server/context.ts';
import type { PostRisk } from '#server/db/schema.ts';
import { escapeHtml, sendMail } from '#server/mail.ts';
import { findUser } from '#server/users/repository.ts';
import type { PreflightClaim } from './repository.ts';

/**
 * One e-mail to the post's author when a scheduled post becomes at risk, so they can mend it
 * before its time.
 * Without SMTP nothing is sent (the post page and lists show the risk); a failing mail server is
 * logged, never retried.
 */
export async function mailPostAtRisk(ctx: AppContext, post: PreflightClaim, risk: PostRisk): Promise<void> {
  const mail = ctx.config.mail;
  if (!mail || !post.userId) return;
  const user = await findUser(ctx, post.userId);
  if (!user) return;
  const link = `${ctx.config.appUrl}/posts/${post.id}`;
  const subject = 'A scheduled post may fail to publish';
  const text = `${subject}.\n\n${risk.message}\n${risk.hint}\n\nOpen ${link} to mend it before its time.\n`;
  const html = `<p>${escapeHtml(subject)}.</p><p>${escapeHtml(risk.message)}<br>${escapeHtml(risk.hint)}</p><p>Open <a href="${escapeHtml(link)}">the post</a> to mend it before its time.</p>`;
  try {
    await sendMail(mail, { to: user.email, subject, text, html });
  } catch (error) {
    ctx.logger.error(
      { postId: post.id, error: error instanceof Error ? error.message : String(error) },
      'post at risk mail could not be sent',
    );
  }
}
