import type { AuditActor } from '#server/audit/actor.ts';
import type { AppContext } from '#server/context.ts';
import type { ApprovalActor, WorkspaceRole } from '#server/db/schema.ts';
import { auditPost } from '#server/posts/audit.ts';
import { ownedPost } from '#server/posts/guards.ts';
import type { PostPatch, PostView } from '#server/posts/schema.ts';
import { checkEdit, writeEdit } from '#server/posts/update-post.ts';
import { loadPostView } from '#server/posts/view.ts';
import { mailSubmitted } from './mail.ts';
import { approvalApplies, workspaceSettings } from './policy.ts';
import { recordApprovalStep } from './record.ts';
import { approvalOf } from './submit-post.ts';

/**
 * `PATCH /api/v1/posts/{id}` and MCP `update_post` under the approval rules
 * (docs/workspaces.md#approvals). An approved post must not change behind its approval: when
 * someone whose requests need approval edits a `scheduled` post, it goes back to
 * `pending_approval` (requesting a schedule at the post's time after the edit), so the dispatcher
 * never sends content nobody approved. Edits of drafts, failed and pending posts keep their status
 * (a pending post's request follows a new time: `checkEdit`).
 *
 * The edit is checked whole before anything is written, and the resubmission is written in the
 * edit's transaction with its webhook event, timeline and audit entries: a refused edit (404, 409,
 * 422) changes nothing, and the approvers' e-mail goes out only once the change committed.
 */
export async function editPost(
  ctx: AppContext,
  editor: { workspaceId: string; role: WorkspaceRole },
  postId: string,
  patch: PostPatch,
  actors: { audit: AuditActor; approval: ApprovalActor },
): Promise<PostView> {
  const row = await ownedPost(ctx, editor.workspaceId, postId);
  const resubmit =
    row.status === 'scheduled' &&
    approvalApplies(editor.role, (await workspaceSettings(ctx, editor.workspaceId)).approvals);
  const edit = await checkEdit(ctx, editor.workspaceId, row, patch, { whole: resubmit });
  if (!resubmit) return loadPostView(ctx, await writeEdit(ctx, edit, actors.audit));

  const by = actors.approval;
  // `checkEdit` made sure a scheduled post keeps a time in the future.
  const when = edit.set.scheduledAt ?? undefined;
  const updated = await writeEdit(ctx, edit, actors.audit, {
    set: {
      status: 'pending_approval',
      nextAttemptAt: null,
      approval: approvalOf({ postingMode: 'schedule', scheduledAt: when }, by, when, 'approvals'),
    },
    alongside: async (tx, changed) => {
      await recordApprovalStep(ctx, tx, changed, 'submitted', by);
      await auditPost(tx, changed, by, 'post.submitted', { requested: 'schedule' });
    },
  });
  await mailSubmitted(ctx, updated, by.name);
  return loadPostView(ctx, updated);
}
