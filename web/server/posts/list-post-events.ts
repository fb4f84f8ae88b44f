import type { AppContext } from '#server/context.ts';
import { isUuid } from '#server/http/ids.ts';
import { notFound } from '#server/http/respond.ts';
import { listPostEvents } from './history.ts';
import { findPost } from './repository.ts';
import type { TimelineEvent } from './timeline-schema.ts';

/**
 * `GET /api/v1/posts/{id}/events`: the post's timeline, a deleted post's too (it ends with
 * `deleted`, contract section F). Another workspace's post, or an id never used, answers 404.
 */
export async function listPostTimeline(
  ctx: AppContext,
  workspaceId: string,
  postId: string,
): Promise<{ events: TimelineEvent[] }> {
  if (!isUuid(postId)) throw notFound('post');
  const events = await listPostEvents(ctx, workspaceId, postId);
  // Events carry their post's workspace, so another workspace's post has none here; a post of
  // this one without any (older than the timeline) is still answered, with an empty timeline.
  if (events.length === 0 && !(await findPost(ctx, workspaceId, postId))) throw notFound('post');
  return { events: events.map((e) => e.event) };
}
