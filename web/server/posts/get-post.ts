import type { AppContext } from '#server/context.ts';
import { ownedPost } from './guards.ts';
import type { PostView } from './schema.ts';
import { loadPostView } from './view.ts';

/** `GET /api/v1/posts/{id}`: one post with its per-target results and staging. */
export async function getPost(ctx: AppContext, workspaceId: string, postId: string): Promise<PostView> {
  return loadPostView(ctx, await ownedPost(ctx, workspaceId, postId));
}
