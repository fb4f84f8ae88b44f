import type { AppContext } from '#server/context.ts';
import { escapeHtml, sendMail } from '#server/mail.ts';
import type { PostRow } from '#server/posts/repository.ts';
import { approverEmails, userContact } from './repository.ts';

/*
 * Approval e-mails through the configured SMTP server (docs/workspaces.md#approvals): approvers
 * hear of a submission, the author of the decision. Sent after the change commits; without SMTP
 * nothing is sent, and a failing mail server is logged without failing the request (the post page
 * and the approvals page show the same thing).
 */

const excerpt = (message: string) => (message.length > 140 ? `${message.slice(0, 139)}…` : message);

async function send(ctx: AppContext, to: string[], subject: string, lines: string[], url: string) {
  const mail = ctx.config.mail;
  if (!mail || to.length === 0) return;
  const text = `${lines.join('\n\n')}\n\nOpen ${url}\n`;
  const html = `${lines.map((l) => `<p>${escapeHtml(l)}</p>`).join('')}<p><a href="${escapeHtml(url)}">Open the post</a></p>`;
  for (const address of to) {
    try {
      await sendMail(mail, { to: address, subject, text, html });
    } catch (error) {
      ctx.logger.error(
        { error: error instanceof Error ? error.message : String(error) },
        'approval mail could not be sent',
      );
    }
  }
}

const postUrl = (ctx: AppContext, row: PostRow) => `${ctx.config.appUrl}/posts/${row.id}`;

export async function mailSubmitted(ctx: AppContext, row: PostRow, by: string): Promise<void> {
  const to = await approverEmails(ctx, row.workspaceId, row.userId);
  await send(
    ctx,
    to,
    `${by} submitted a post for approval`,
    [`${by} submitted a post for your approval:`, `“${excerpt(row.message)}”`],
    `${ctx.config.appUrl}/approvals`,
  );
}

export async function mailDecided(
  ctx: AppContext,
  row: PostRow,
  decision: { approved: boolean; by: string; comment?: string | undefined },
): Promise<void> {
  const author = row.userId ? await userContact(ctx, row.userId) : undefined;
  if (!author) return;
  const verb = decision.approved ? 'approved' : 'sent back';
  await send(
    ctx,
    [author.email],
    `${decision.by} ${verb} your post`,
    [
      `${decision.by} ${decision.approved ? 'approved your post; it goes out as you asked' : 'sent your post back to drafts'}:`,
      `“${excerpt(row.message)}”`,
      ...(decision.comment ? [`Comment: ${decision.comment}`] : []),
    ],
    postUrl(ctx, row),
  );
}
