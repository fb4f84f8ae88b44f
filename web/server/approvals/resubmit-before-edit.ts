import type { AppContext } from '#server/context.ts';
import type { ApprovalActor, WorkspaceRole } from '#server/db/schema.ts';
import { ownedPost } from '#server/posts/guards.ts';
import { decidePosting } from './policy.ts';
import { submitStoredPost } from './submit-post.ts';

/**
 * An approved post must not change behind its approval: when someone whose requests need approval
 * (docs/workspaces.md#approvals) edits a post that is `scheduled`, it goes back to
 * `pending_approval` (requesting the same time) before the edit is applied, so the dispatcher
 * never sends content nobody approved. Edits of drafts, failed and pending posts change nothing
 * here (a pending post stays pending).
 */
export async function resubmitBeforeEdit(
  ctx: AppContext,
  editor: { workspaceId: string; role: WorkspaceRole; assistant?: boolean },
  postId: string,
  by: ApprovalActor,
): Promise<void> {
  const row = await ownedPost(ctx, editor.workspaceId, postId);
  if (row.status !== 'scheduled') return;
  const decision = await decidePosting(ctx, editor, { assistant: editor.assistant ?? false }).catch(
    () => 'publish' as const, // a role that may not publish is refused by the edit's own check
  );
  if (decision !== 'submit') return;
  await submitStoredPost(
    ctx,
    row,
    { postingMode: 'schedule', scheduledAt: row.scheduledAt ?? undefined },
    by,
  );
}
