import type { PostEventView } from '#server/posts/history.ts';
import type { PostView } from '#server/posts/schema.ts';

/**
 * The assistant's request for approval while it is still open: a draft waits for the user to
 * publish or schedule it; a scheduled or failed post that an assistant asked to publish now waits
 * for "Publish now" (shown when the user came through the approval link, `asked`). See docs/mcp.md.
 */
export function openApprovalRequest(
  post: Pick<PostView, 'status'>,
  history: readonly PostEventView[],
  asked: boolean,
): PostEventView | undefined {
  const last = history.findLast((e) => e.action === 'approval_requested');
  if (!last || post.status === 'posted') return undefined;
  if (post.status === 'draft' || post.status === 'pending_approval') return last;
  return asked && last.detail.requestedMode === 'now' ? last : undefined;
}
