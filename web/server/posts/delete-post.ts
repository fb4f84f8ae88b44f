import type { AppContext } from '#server/context.ts';
import { invalidStatus } from '#server/http/problems.ts';
import { discardPlatforms, discardSoon } from '#server/staging/discard.ts';
import { deletePostQueueingDiscards } from '#server/staging/discard-repository.ts';
import { assertEditable, ownedPost } from './guards.ts';
import { editableStatuses } from './repository.ts';

/** `DELETE /api/v1/posts/{id}`: a draft, scheduled or failed post, for good. */
export async function deletePost(ctx: AppContext, workspaceId: string, postId: string): Promise<void> {
  const row = await ownedPost(ctx, workspaceId, postId);
  assertEditable(row, 'deleted');
  // Its staged uploads the platform would keep are queued for discarding in the same statement.
  const { deleted, discards } = await deletePostQueueingDiscards(
    ctx,
    row.id,
    editableStatuses,
    discardPlatforms(ctx),
  );
  if (!deleted) throw invalidStatus('The post is being published and cannot be deleted');
  discardSoon(ctx, discards);
}
