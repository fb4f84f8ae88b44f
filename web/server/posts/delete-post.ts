import { type AuditActor, systemActor } from '#server/audit/actor.ts';
import type { AppContext } from '#server/context.ts';
import { inTransaction } from '#server/db/access.ts';
import { invalidStatus } from '#server/http/problems.ts';
import { discardPlatforms, discardSoon } from '#server/staging/discard.ts';
import { deletePostQueueingDiscards } from '#server/staging/discard-repository.ts';
import { auditPost, nameTimelineEvents } from './audit.ts';
import { assertEditable, ownedPost } from './guards.ts';
import { editableStatuses } from './repository.ts';

/** `DELETE /api/v1/posts/{id}`: a draft, scheduled or failed post, for good. */
export async function deletePost(
  ctx: AppContext,
  workspaceId: string,
  postId: string,
  actor: AuditActor = systemActor,
): Promise<void> {
  const row = await ownedPost(ctx, workspaceId, postId);
  assertEditable(row, 'deleted');
  // Its staged uploads the platform would keep are queued for discarding in the same statement.
  // The `post.deleted` entry commits with the deletion (the entry outlives the post), and so does
  // the `deleted` event that ends its timeline (and those of its pending recycled copies, which go
  // with it), named after the actor.
  const { deleted, discards } = await inTransaction(ctx, async (tx) => {
    const outcome = await deletePostQueueingDiscards(
      { ...ctx, db: tx.db },
      row.id,
      editableStatuses,
      discardPlatforms(ctx),
    );
    if (outcome.deleted) {
      await auditPost(tx, row, actor, 'post.deleted');
      if (outcome.copies.length) await nameTimelineEvents(tx, row.workspaceId, outcome.copies, actor);
    }
    return outcome;
  });
  if (!deleted) throw invalidStatus('The post is being published and cannot be deleted');
  discardSoon(ctx, discards);
}
