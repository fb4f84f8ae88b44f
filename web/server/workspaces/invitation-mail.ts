import type { AppContext } from '#server/context.ts';
import { escapeHtml, sendMail } from '#server/mail.ts';

/**
 * E-mails an invitation link through the configured SMTP server (docs/configuration.md); without
 * SMTP nothing is sent and the inviter shares the url shown once. A failing mail server is logged,
 * never the link: the invitation stands and can be shared by hand or revoked.
 */
export async function mailInvitation(
  ctx: AppContext,
  m: { to: string; url: string; workspaceName: string; inviter: string; role: string },
): Promise<void> {
  const mail = ctx.config.mail;
  if (!mail) return;
  const subject = `${m.inviter} invited you to ${m.workspaceName} on Postwave`;
  const text = `${m.inviter} invited you to join "${m.workspaceName}" on Postwave as ${m.role}.\n\nOpen ${m.url} to accept. The link works once and expires in 7 days.\n`;
  const html = `<p>${escapeHtml(m.inviter)} invited you to join “${escapeHtml(m.workspaceName)}” on Postwave as ${escapeHtml(m.role)}.</p><p><a href="${escapeHtml(m.url)}">Accept the invitation</a>. The link works once and expires in 7 days.</p>`;
  try {
    await sendMail(mail, { to: m.to, subject, text, html });
  } catch (error) {
    ctx.logger.error(
      { error: error instanceof Error ? error.message : String(error) },
      'invitation mail could not be sent',
    );
  }
}
