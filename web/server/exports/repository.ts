import { and, asc, eq, gte, lt, sql } from 'drizzle-orm';
import type { AppContext } from '#server/context.ts';
import { type KeysetPosition, keysetAfter } from '#server/db/keyset.ts';
import { type PostStatus, posts } from '#server/db/schema.ts';
import type { PostRow } from '#server/posts/repository.ts';
import { type TargetView, targetViewsJson } from '#server/posts/targets-repository.ts';

/**
 * The export's only SQL: one keyset page of posts with their target results. The results are read
 * with the posts list's own fragment, so an exported result carries every field the list shows.
 */

/** A post's time for the from/to filter: when it posted, else when it is scheduled, else created. */
const postTime = sql`coalesce(${posts.postedAt}, ${posts.scheduledAt}, ${posts.createdAt})`;

export interface ExportFilter {
  status?: PostStatus | undefined;
  from?: Date | undefined;
  to?: Date | undefined;
}

/** Oldest first on (createdAt, id), `limit` posts after `after`: the user's index serves each page. */
export async function exportPage(
  ctx: AppContext,
  workspaceId: string,
  filter: ExportFilter,
  limit: number,
  after: KeysetPosition | undefined,
): Promise<{ post: PostRow; targets: TargetView[] }[]> {
  return ctx.db
    .select({ post: posts, targets: targetViewsJson })
    .from(posts)
    .where(
      and(
        eq(posts.workspaceId, workspaceId),
        filter.status ? eq(posts.status, filter.status) : undefined,
        filter.from ? gte(postTime, filter.from) : undefined,
        filter.to ? lt(postTime, filter.to) : undefined,
        after ? keysetAfter(posts.createdAt, posts.id, after) : undefined,
      ),
    )
    .orderBy(asc(posts.createdAt), asc(posts.id))
    .limit(limit);
}
