import type { AppContext } from '#server/context.ts';
import { inTransaction } from '#server/db/access.ts';
import type { ApprovalActor } from '#server/db/schema.ts';
import { auditPost } from '#server/posts/audit.ts';
import { ownedPost } from '#server/posts/guards.ts';
import type { PostView } from '#server/posts/schema.ts';
import { loadPostView } from '#server/posts/view.ts';
import { mailDecided } from './mail.ts';
import { assertNotAuthor, assertPending, decidedMeanwhile, recordApprovalStep } from './record.ts';
import { decidePending } from './repository.ts';

/**
 * Sends a submission back to `draft` with the decider's comment in `approval.rejected`
 * (docs/workspaces.md#approvals); the author edits and submits again.
 */
export async function rejectPost(
  ctx: AppContext,
  workspaceId: string,
  postId: string,
  by: ApprovalActor,
  comment: string,
): Promise<PostView> {
  const row = await ownedPost(ctx, workspaceId, postId);
  assertPending(row);
  assertNotAuthor(row, by);
  const decided = await inTransaction(ctx, async (tx) => {
    const updated = await decidePending(tx, row, {
      status: 'draft',
      nextAttemptAt: null,
      approval: row.approval && {
        requested: row.approval.requested,
        requestedBy: row.approval.requestedBy,
        requestedAt: row.approval.requestedAt,
        rejected: { by, at: new Date().toISOString(), comment },
      },
    });
    if (!updated) throw decidedMeanwhile();
    await recordApprovalStep(ctx, tx, updated, 'rejected', by, comment);
    await auditPost(tx, updated, by, 'post.rejected');
    return updated;
  });
  await mailDecided(ctx, decided, { approved: false, by: by.name, comment });
  return loadPostView(ctx, decided);
}
