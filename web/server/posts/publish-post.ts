import type { AppContext } from '#server/context.ts';
import { assertAcceptingWork } from '#server/lifecycle/shutdown.ts';
import { contentOf } from './content.ts';
import { getPost } from './get-post.ts';
import { assertEditable, unpostedAccounts, updateGuarded } from './guards.ts';
import { assertPublishable } from './prepare.ts';
import { publishNow, requestLease } from './publish-now.ts';
import type { PostRow } from './repository.ts';
import type { PostView } from './schema.ts';

/**
 * Publishes a stored post now (`POST /api/v1/posts/{id}` with `postingMode: "now"`): a draft, a
 * scheduled post ahead of its time, or a failed one, which retries only the targets that did not
 * post. Answers the finished post.
 */
export async function publishPost(ctx: AppContext, workspaceId: string, row: PostRow): Promise<PostView> {
  assertEditable(row, 'published again');
  const remaining = await unpostedAccounts(ctx, row);
  assertAcceptingWork();
  const prepared = remaining.length
    ? await assertPublishable(ctx, workspaceId, { ...contentOf(row), accountIds: remaining })
    : undefined;
  const lease = requestLease(ctx);
  const leased = await updateGuarded(ctx, row, {
    status: 'scheduled',
    leaseOwner: lease.owner,
    leaseExpiresAt: lease.until,
    nextAttemptAt: lease.until,
    attempts: row.attempts + 1,
  });
  await publishNow(ctx, leased, lease.owner, prepared);
  return getPost(ctx, workspaceId, row.id);
}
