import type { AppContext } from '#server/context.ts';
import { escapeHtml, sendMail } from '#server/mail.ts';
import { findUser } from '#server/users/repository.ts';
import { selectRecycleStops } from './history-repository.ts';
import { recycleStopReasons } from './recycle-schema.ts';
import type { PostRow } from './repository.ts';

/**
 * One e-mail to the original's author when a finished post of a recycling chain stopped the chain
 * or left an account out (the reasons are on the original's timeline already, written in the same
 * transaction as the outcome). Without SMTP nothing is sent; a failing mail server is logged.
 */
export async function mailRecycleStops(
  ctx: AppContext,
  post: Pick<PostRow, 'id' | 'recycle' | 'recycledFrom'>,
): Promise<void> {
  const mail = ctx.config.mail;
  if (!mail || (!post.recycle && !post.recycledFrom)) return;
  const rootId = post.recycledFrom ?? post.id;
  const stops = await selectRecycleStops(ctx, rootId, post.id);
  const userId = stops[0]?.userId;
  if (!userId) return;
  const user = await findUser(ctx, userId);
  if (!user) return;
  const lines = stops.map((s) => {
    const reason = String(s.detail.reason ?? '');
    const why = recycleStopReasons[reason] ?? reason;
    if (!s.accountId) return `The chain stopped: ${why}.`;
    return `${s.account ? `The account ${s.account}` : 'One account'}: ${why}.`;
  });
  const link = `${ctx.config.appUrl}/posts/${rootId}`;
  const subject = 'A recycled post changed course';
  const text = `${subject}.\n\n${lines.join('\n')}\n\nOpen ${link} to see the chain.\n`;
  const html = `<p>${escapeHtml(subject)}.</p><ul>${lines.map((l) => `<li>${escapeHtml(l)}</li>`).join('')}</ul><p>Open <a href="${escapeHtml(link)}">the post</a> to see the chain.</p>`;
  try {
    await sendMail(mail, { to: user.email, subject, text, html });
  } catch (error) {
    ctx.logger.error(
      { postId: post.id, error: error instanceof Error ? error.message : String(error) },
      'recycling mail could not be sent',
    );
  }
}
