import { errorHint } from '@postwave/shared/error-hints';
import { checkAccount } from '#server/accounts/health.ts';
import { findAccountById } from '#server/accounts/repository.ts';
import type { AppContext } from '#server/context.ts';
import type { PostRisk } from '#server/db/schema.ts';
import type { PreflightClaim } from './repository.ts';

/**
 * The pre-flight check of one scheduled post (docs/dispatch.md#pre-flight): each target's account
 * is still connected and its platform accepts the stored credentials (the account health check,
 * which also renews a token due for it), and each media file reads back from storage. The first
 * problem found is the post's risk; none is null. Publishes nothing.
 */
export async function checkPost(ctx: AppContext, post: PreflightClaim): Promise<PostRisk | null> {
  const checkedAt = new Date().toISOString();
  const risk = (code: string, message: string, accountId?: string): PostRisk => ({
    code,
    message,
    hint: errorHint(code),
    ...(accountId ? { accountId } : {}),
    checkedAt,
  });
  for (const accountId of post.accountIds) {
    const row = await findAccountById(ctx, accountId);
    if (!row || row.workspaceId !== post.workspaceId) {
      return risk('account_not_found', 'An account of this post was disconnected.', accountId);
    }
    if (row.status === 'needs_reconnect') {
      return risk('needs_reconnect', 'The platform no longer accepts this account’s sign-in.', accountId);
    }
    const finding = await checkAccount(ctx, row);
    if (finding?.health === 'needs_reconnect') {
      return risk('needs_reconnect', finding.reason ?? 'Reconnect the account.', accountId);
    }
    if (finding?.health === 'unreachable') {
      return risk('target_unreachable', finding.reason ?? 'The account could not be reached.', accountId);
    }
  }
  for (const file of post.media) {
    const stored = await ctx.storage.head(file.key).catch(() => null);
    if (!stored)
      return risk('media_unavailable', `The file "${file.filename}" could not be read back from storage.`);
  }
  return null;
}
