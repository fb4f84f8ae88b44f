import type { AppContext } from '#server/context.ts';
import { type Db, inTransaction } from '#server/db/access.ts';
import type { ApprovalActor, StoredApproval } from '#server/db/schema.ts';
import { announceDue } from '#server/dispatch/wakeups.ts';
import { specificProblem } from '#server/http/problems.ts';
import { assertAcceptingWork } from '#server/lifecycle/shutdown.ts';
import { auditPost } from '#server/posts/audit.ts';
import { contentOf } from '#server/posts/content.ts';
import { getPost } from '#server/posts/get-post.ts';
import { assertFuture, ownedPost, unpostedAccounts } from '#server/posts/guards.ts';
import { assertPublishable } from '#server/posts/prepare.ts';
import { publishNow, requestLease } from '#server/posts/publish-now.ts';
import type { NewPostRow, PostRow } from '#server/posts/repository.ts';
import type { PostView } from '#server/posts/schema.ts';
import { scheduleInQueue } from '#server/queue/service.ts';
import { mailDecided } from './mail.ts';
import { assertNotAuthor, assertPending, decidedMeanwhile, recordApprovalStep } from './record.ts';
import { decidePending } from './repository.ts';

export interface ApproveInput {
  comment?: string | undefined;
  /**
   * A new time for a schedule (or the earliest for a queue) instead of the requested one; given
   * for a "now" request, the post is scheduled for then instead of published at once.
   */
  scheduledAt?: Date | undefined;
}

/**
 * Approves a submission and performs the request it carries (docs/workspaces.md#approvals): publish
 * now, schedule at the requested time (409 `scheduled_time_passed` once it is past, unless the
 * approver gives `scheduledAt`), or the next free queue slot. A `scheduledAt` given for a "now"
 * request schedules it for then (the approver chose when it goes out). The decision is one
 * conditional UPDATE on `status = 'pending_approval'`: of two approvers at once one wins and the
 * other gets 409, so the post is published once. Reviewers (review links) come through here as well.
 */
export async function approvePost(
  ctx: AppContext,
  workspaceId: string,
  postId: string,
  by: ApprovalActor,
  input: ApproveInput,
): Promise<PostView> {
  const row = await ownedPost(ctx, workspaceId, postId);
  assertPending(row);
  assertNotAuthor(row, by);
  const requested = row.approval?.requested ?? { postingMode: 'now' as const };
  const remaining = await unpostedAccounts(ctx, row);
  const content = { ...contentOf(row), accountIds: remaining };
  const approval: StoredApproval | null = row.approval && {
    requested: row.approval.requested,
    requestedBy: row.approval.requestedBy,
    requestedAt: row.approval.requestedAt,
    approved: { by, at: new Date().toISOString(), ...(input.comment ? { comment: input.comment } : {}) },
  };
  const decide = async (tx: Db, set: Partial<NewPostRow>) => {
    const updated = await decidePending(tx, row, { ...set, approval });
    if (!updated) throw decidedMeanwhile();
    await recordApprovalStep(ctx, tx, updated, 'approved', by, input.comment);
    await auditPost(tx, updated, by, 'post.approved', input.comment ? { comment: true } : {});
    return updated;
  };

  let decided: PostRow;
  if (requested.postingMode === 'now' && !input.scheduledAt) {
    assertAcceptingWork();
    const prepared = await assertPublishable(ctx, workspaceId, content);
    const lease = requestLease(ctx);
    // Leased as publish now does: a process that dies mid-publish leaves it to dispatch.
    decided = await inTransaction(ctx, (tx) =>
      decide(tx, {
        status: 'scheduled',
        leaseOwner: lease.owner,
        leaseExpiresAt: lease.until,
        nextAttemptAt: lease.until,
        attempts: row.attempts + 1,
      }),
    );
    await mailDecided(ctx, decided, { approved: true, by: by.name, comment: input.comment });
    await publishNow(ctx, decided, lease.owner, prepared);
    return getPost(ctx, workspaceId, row.id);
  }
  if (requested.postingMode === 'queue') {
    await assertPublishable(ctx, workspaceId, content);
    const wanted = input.scheduledAt ?? dateOrUndefined(requested.scheduledAt);
    const notBefore = wanted && wanted.getTime() > Date.now() ? wanted : undefined;
    decided = await scheduleInQueue(ctx, workspaceId, remaining, { notBefore, postId: row.id }, (tx, when) =>
      decide(tx, { status: 'scheduled', scheduledAt: when, nextAttemptAt: when, attempts: 0 }),
    );
  } else {
    const when = input.scheduledAt ? assertFuture(input.scheduledAt) : requestedTime(requested.scheduledAt);
    await assertPublishable(ctx, workspaceId, content);
    decided = await inTransaction(ctx, (tx) =>
      decide(tx, { status: 'scheduled', scheduledAt: when, nextAttemptAt: when, attempts: 0 }),
    );
    await announceDue(ctx, when);
  }
  await mailDecided(ctx, decided, { approved: true, by: by.name, comment: input.comment });
  return getPost(ctx, workspaceId, row.id);
}

const dateOrUndefined = (iso: string | undefined) => (iso ? new Date(iso) : undefined);

/** The submitter's time, unless it passed while the post waited: then the approver picks a new one. */
function requestedTime(iso: string | undefined): Date {
  const when = dateOrUndefined(iso);
  if (!when || when.getTime() <= Date.now()) {
    throw specificProblem(
      'scheduled_time_passed',
      `The requested time ${iso ?? ''} has passed; approve with a new scheduledAt`,
      [{ path: 'scheduledAt', code: 'scheduled_time_passed', message: 'Give a time in the future' }],
    );
  }
  return when;
}
