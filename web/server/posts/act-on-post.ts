import { type AuditActor, systemActor } from '#server/audit/actor.ts';
import type { AppContext } from '#server/context.ts';
import { announceDue } from '#server/dispatch/wakeups.ts';
import { scheduleInQueue } from '#server/queue/service.ts';
import { auditPost } from './audit.ts';
import { contentOf } from './content.ts';
import {
  assertEditable,
  assertFuture,
  assertNotAwaitingApproval,
  changedMeanwhile,
  ownedPost,
  unpostedAccounts,
  updateGuarded,
} from './guards.ts';
import { assertPublishable } from './prepare.ts';
import { publishPost } from './publish-post.ts';
import { updatePostIfUnchanged } from './repository.ts';
import { resolveUnknown } from './resolve-unknown.ts';
import type { PostAction, PostView } from './schema.ts';
import { loadPostView } from './view.ts';

/**
 * `POST /api/v1/posts/{id}`: publish now, schedule, queue, move back to draft, or resolve targets
 * whose outcome is unknown. Scheduling and queueing validate the targets that did not post yet.
 */
export async function actOnPost(
  ctx: AppContext,
  workspaceId: string,
  postId: string,
  action: PostAction,
  actor: AuditActor = systemActor,
): Promise<PostView> {
  const row = await ownedPost(ctx, workspaceId, postId);
  if ('resolveUnknown' in action) return resolveUnknown(ctx, workspaceId, row, action, actor);
  if (action.postingMode !== 'draft') assertNotAwaitingApproval(row);
  if (action.postingMode === 'now') return publishPost(ctx, workspaceId, row);
  assertEditable(row, 'changed');
  // Scheduling, queueing and moving back to draft are edits of the post (`post.updated`).
  const audited = (change: string) => (tx: Parameters<typeof auditPost>[0], after: typeof row) =>
    auditPost(tx, after, actor, 'post.updated', { change });

  if (action.postingMode === 'draft') {
    return loadPostView(
      ctx,
      await updateGuarded(
        ctx,
        row,
        {
          status: 'draft',
          nextAttemptAt: null,
          ...(action.scheduledAt ? { scheduledAt: action.scheduledAt } : {}),
        },
        audited('moved_to_draft'),
      ),
    );
  }
  const remaining = await unpostedAccounts(ctx, row);
  const content = { ...contentOf(row), accountIds: remaining };

  if (action.postingMode === 'queue') {
    await assertPublishable(ctx, workspaceId, content);
    const queued = await scheduleInQueue(
      ctx,
      workspaceId,
      remaining,
      { notBefore: action.scheduledAt, postId: row.id },
      async (tx, when) => {
        const set = { status: 'scheduled' as const, scheduledAt: when, nextAttemptAt: when, attempts: 0 };
        const updated = await updatePostIfUnchanged(tx, row, set);
        if (!updated) throw changedMeanwhile();
        await audited('queued')(tx, updated);
        return updated;
      },
    );
    return loadPostView(ctx, queued);
  }
  const when = assertFuture(action.scheduledAt ?? row.scheduledAt ?? undefined);
  await assertPublishable(ctx, workspaceId, content);
  const scheduled = await updateGuarded(
    ctx,
    row,
    {
      status: 'scheduled',
      scheduledAt: when,
      nextAttemptAt: when,
      attempts: 0,
    },
    audited('scheduled'),
  );
  await announceDue(ctx, when);
  return loadPostView(ctx, scheduled);
}
