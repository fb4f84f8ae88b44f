import type { AppContext } from '#server/context.ts';
import { escapeHtml, sendMail } from '#server/mail.ts';
import { managerEmails } from '#server/workspaces/repository.ts';
import type { AccountRow } from './repository.ts';

/**
 * Tells the workspace's owners and admins (who may reconnect accounts) that an account needs them (needs_reconnect or expiring). Called once per change
 * of health, never per check. Without SMTP the change is only logged (the account page shows it).
 * A mail server that fails is logged, not retried: the badge on the account stays.
 */
export async function notifyAccountHealth(ctx: AppContext, row: AccountRow): Promise<void> {
  const mail = ctx.config.mail;
  if (!mail) return;
  const to = await managerEmails(ctx, row.workspaceId);
  if (to.length === 0) return;
  const platform = ctx.publishers.get(row.platform)?.displayName ?? row.platform;
  const name = row.label ?? (row.username ? `@${row.username}` : row.platformAccountId);
  const link = `${ctx.config.appUrl}/accounts`;
  const what =
    row.health === 'expiring'
      ? `Your ${platform} connection "${name}" expires soon`
      : `Reconnect your ${platform} account "${name}"`;
  const reason = row.healthReason ?? '';
  const text = `${what}.\n\n${reason}\n\nScheduled posts for this account will fail until it is reconnected. Open ${link} and choose "Reconnect".\n`;
  const html = `<p>${escapeHtml(what)}.</p><p>${escapeHtml(reason)}</p><p>Scheduled posts for this account will fail until it is reconnected. Open <a href="${escapeHtml(link)}">your accounts</a> and choose “Reconnect”.</p>`;
  try {
    // One message each: members do not see each other's addresses.
    for (const address of to) await sendMail(mail, { to: address, subject: what, text, html });
    ctx.logger.info({ workspaceId: row.workspaceId, accountId: row.id }, 'account health mail sent');
  } catch (error) {
    ctx.logger.error(
      {
        workspaceId: row.workspaceId,
        accountId: row.id,
        error: error instanceof Error ? error.message : String(error),
      },
      'account health mail could not be sent',
    );
  }
}
