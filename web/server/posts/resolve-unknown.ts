import { type AuditActor, systemActor } from '#server/audit/actor.ts';
import type { AppContext } from '#server/context.ts';
import { specificProblem } from '#server/http/problems.ts';
import { auditPost } from './audit.ts';
import { getPost } from './get-post.ts';
import { assertEditable, ownedPost, updateGuarded } from './guards.ts';
import { publishPost } from './publish-post.ts';
import type { PostRow } from './repository.ts';
import type { PostAction, PostView } from './schema.ts';
import { postedAccountIds, resolveUnknownTargets, targetsOf } from './targets-repository.ts';
import { loadPostView } from './view.ts';

/**
 * A person's answer to `unknown` targets. `mark_posted`: they checked the account; the post is
 * `posted` once every target is. `post_again`: the targets become failed-retryable and the post
 * is published now, which sends exactly those (and any other target that did not post).
 */
export async function resolveUnknown(
  ctx: AppContext,
  workspaceId: string,
  row: PostRow,
  action: Extract<PostAction, { resolveUnknown: unknown }>,
  actor: AuditActor = systemActor,
): Promise<PostView> {
  assertEditable(row, 'changed');
  const targets = await targetsOf(ctx, row.id);
  const unknown = targets.filter(
    (t) => t.status === 'unknown' && (!action.accountIds || action.accountIds.includes(t.accountId)),
  );
  if (unknown.length === 0) {
    throw specificProblem('invalid_status', 'The post has no target whose outcome is unknown');
  }
  const ids = unknown.map((t) => t.accountId);
  if (action.resolveUnknown === 'post_again') {
    await resolveUnknownTargets(ctx, row.id, ids, 'failed');
    return publishPost(ctx, workspaceId, await ownedPost(ctx, workspaceId, row.id));
  }
  await resolveUnknownTargets(ctx, row.id, ids, 'posted');
  const posted = await postedAccountIds(ctx, row.id);
  if (row.accountIds.every((id) => posted.has(id))) {
    return loadPostView(
      ctx,
      await updateGuarded(
        ctx,
        row,
        { status: 'posted', postedAt: new Date(), nextAttemptAt: null },
        (tx, after) => auditPost(tx, after, actor, 'post.published', { resolved: 'mark_posted' }),
      ),
    );
  }
  return getPost(ctx, workspaceId, row.id);
}
