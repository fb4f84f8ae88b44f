import { postEventType } from '@postwave/shared';
import type { AppContext } from '#server/context.ts';
import { getPost } from '#server/posts/get-post.ts';
import { emitWebhookEvent } from './events.ts';
import { hasSubscriber } from './repository.ts';

export const postEvents = ['post.published', 'post.partially_published', 'post.failed', 'post.unknown'];

/**
 * Records the post event of a finished publish (`post.published`, `post.partially_published`,
 * `post.failed` or `post.unknown`, carrying the Post). Called right after the statement that
 * finalizes the post, which dispatch shares between posts, so it is not in that transaction: a
 * crash in the moment between loses the event. Never throws: a publish never fails over its
 * webhook. `subscribed`: whether the workspace takes post events, when the caller already knows
 * (the finalizing statement answers it for every post it finishes); asked here otherwise.
 */
export async function emitPostOutcome(
  ctx: AppContext,
  workspaceId: string,
  postId: string,
  subscribed?: boolean,
): Promise<void> {
  try {
    if (!(subscribed ?? (await hasSubscriber(ctx, workspaceId, postEvents)))) return;
    const post = await getPost(ctx, workspaceId, postId);
    if (post.status !== 'posted' && post.status !== 'failed') return;
    await emitWebhookEvent(ctx.db, { workspaceId, type: postEventType(post.results), data: post });
  } catch (error) {
    ctx.logger.warn({ err: error, postId }, 'could not record the webhook event of a publish');
  }
}
