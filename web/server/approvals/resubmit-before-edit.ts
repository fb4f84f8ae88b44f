import type { AppContext } from '#server/context.ts';
import type { ApprovalActor, WorkspaceRole } from '#server/db/schema.ts';
import { ownedPost } from '#server/posts/guards.ts';
import { approvalApplies, workspaceSettings } from './policy.ts';
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
  editor: { workspaceId: string; role: WorkspaceRole },
  postId: string,
  by: ApprovalActor,
): Promise<void> {
  const row = await ownedPost(ctx, editor.workspaceId, postId);
  if (row.status !== 'scheduled') return;
  const { approvals } = await workspaceSettings(ctx, editor.workspaceId);
  if (!approvalApplies(editor.role, approvals)) return;
  await submitStoredPost(
    ctx,
    row,
    { postingMode: 'schedule', scheduledAt: row.scheduledAt ?? undefined },
    by,
  );
}
