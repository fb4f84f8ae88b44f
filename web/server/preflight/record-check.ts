import type { AppContext } from '#server/context.ts';
import { inTransaction } from '#server/db/access.ts';
import type { PostRisk } from '#server/db/schema.ts';
import { getPost } from '#server/posts/get-post.ts';
import { emitWebhookEvent } from '#server/webhooks/events.ts';
import { type PreflightClaim, recordRisk } from './repository.ts';
import { mailPostAtRisk } from './risk-mail.ts';

/**
 * Stores what a check found. A post that becomes at risk gets its `post.at_risk` webhook event in
 * the same transaction (the timeline's `preflight_failed` event is written by the database with
 * it), then one e-mail; a later check that finds nothing wrong clears the risk.
 */
export async function recordCheck(
  ctx: AppContext,
  post: PreflightClaim,
  risk: PostRisk | null,
): Promise<void> {
  const recorded = await inTransaction(ctx, async (tx) => {
    const outcome = await recordRisk(tx, post.id, risk);
    if (outcome?.newlyAtRisk) {
      const view = await getPost({ ...ctx, db: tx.db }, post.workspaceId, post.id);
      await emitWebhookEvent(tx.db, { workspaceId: post.workspaceId, type: 'post.at_risk', data: view });
    }
    return outcome;
  });
  if (recorded?.newlyAtRisk && risk) await mailPostAtRisk(ctx, post, risk);
}
