import type { AppContext } from '#server/context.ts';
import type { PostStatus } from '#server/db/schema.ts';
import { decodeCursor, keysetPage } from '#server/http/cursor.ts';
import { linksOfPosts } from '#server/links/repository.ts';
import { stagingByPost } from '#server/staging/view.ts';
import { listPostPage } from './repository.ts';
import type { PostView } from './schema.ts';
import { toPostView } from './view.ts';

export interface ListOptions {
  status?: PostStatus | undefined;
  limit: number;
  cursor?: string | undefined;
}

/** `GET /api/v1/posts`: newest first, a page at a time; `nextCursor` continues after the page's last post. */
export async function listPosts(
  ctx: AppContext,
  workspaceId: string,
  options: ListOptions,
): Promise<{ posts: PostView[]; nextCursor: string | null }> {
  const after = options.cursor ? decodeCursor(options.cursor) : undefined;
  const rows = await listPostPage(ctx, workspaceId, {
    status: options.status,
    limit: options.limit + 1,
    after,
  });
  const { page, nextCursor } = keysetPage(rows, options.limit, (row) => row.post);
  const ids = page.map((row) => row.post.id);
  const [staging, links] = await Promise.all([stagingByPost(ctx, ids), linksOfPosts(ctx, ids)]);
  return {
    posts: page.map((row) =>
      toPostView(
        row.post,
        row.targets,
        staging.get(row.post.id),
        links.filter((l) => l.postId === row.post.id),
      ),
    ),
    nextCursor,
  };
}
