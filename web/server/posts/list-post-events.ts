import type { AppContext } from '#server/context.ts';
import { ownedPost } from './guards.ts';
import { listPostEvents } from './history.ts';
import type { TimelineEvent } from './timeline-schema.ts';

/** `GET /api/v1/posts/{id}/events`: the post's timeline (another workspace's post answers 404). */
export async function listPostTimeline(
  ctx: AppContext,
  workspaceId: string,
  postId: string,
): Promise<{ events: TimelineEvent[] }> {
  const post = await ownedPost(ctx, workspaceId, postId);
  return { events: (await listPostEvents(ctx, workspaceId, post.id)).map((e) => e.event) };
}
