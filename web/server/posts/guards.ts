import type { ProblemIssue } from '@postwave/shared';
import type { AppContext } from '#server/context.ts';
import { type Db, inTransaction } from '#server/db/access.ts';
import { isUuid } from '#server/http/ids.ts';
import { invalidStatus, validationFailed } from '#server/http/problems.ts';
import { notFound } from '#server/http/respond.ts';
import { forgetStaging } from '#server/staging/forget.ts';
import { findPost, type NewPostRow, type PostRow, updatePostIfUnchanged } from './repository.ts';
import { postedAccountIds } from './targets-repository.ts';

/*
 * The refusals every operation on a post shares: another user's post is 404, a posted or
 * in-flight post does not change, a scheduled time is in the future, an edit never overwrites a
 * change made since it was read.
 */

/** The user's post, or 404 (another user's id answers exactly as a missing one). */
export async function ownedPost(ctx: AppContext, workspaceId: string, postId: string): Promise<PostRow> {
  const row = isUuid(postId) ? await findPost(ctx, workspaceId, postId) : undefined;
  if (!row) throw notFound('post');
  return row;
}

/** A post that is being published right now cannot change under the publisher's feet. */
export function assertEditable(row: PostRow, action: string): void {
  if (row.status === 'posted') throw invalidStatus(`A posted post cannot be ${action}`);
  if (row.leaseExpiresAt && row.leaseExpiresAt.getTime() > Date.now()) {
    throw invalidStatus(`The post is being published right now and cannot be ${action}`);
  }
}

/**
 * A post waiting for approval goes out only through a decision (`…/approve`, which records who
 * approved): publishing, scheduling or queueing it directly is 409, whatever the caller's role.
 * Moving it back to draft (withdrawing it) stays possible.
 */
export function assertNotAwaitingApproval(row: PostRow): void {
  if (row.status === 'pending_approval') {
    throw invalidStatus(
      'The post is waiting for approval: approve it (POST /api/v1/posts/{id}/approve, or the approve_post tool over MCP) or move it back to draft first',
    );
  }
}

/** A schedule needs a time, and one in the future (422 otherwise). */
export function assertFuture(when: Date | undefined): Date {
  if (!when) {
    throw validationFailed('scheduledAt is required to schedule a post', [
      { path: 'scheduledAt', code: 'required', message: 'Give an ISO 8601 date-time with an offset' },
    ]);
  }
  const past = pastTimeIssue(when);
  if (past) {
    throw validationFailed(`scheduledAt ${when.toISOString()} is in the past; choose a time in the future`, [
      past,
    ]);
  }
  return when;
}

/** Why `when` cannot be a schedule's time (it is not in the future), or undefined when it can. */
export function pastTimeIssue(when: Date): ProblemIssue | undefined {
  return when.getTime() <= Date.now()
    ? { path: 'scheduledAt', code: 'scheduled_in_past', message: 'Must be in the future' }
    : undefined;
}

/** The optimistic lock lost: someone published or edited the post since this request read it. */
export function changedMeanwhile() {
  return invalidStatus('The post changed while this request ran; fetch it and try again');
}

/**
 * Updates the row only if nobody published or edited it since it was read, keeping its staging in
 * step. `alongside(tx, updated)` runs in the same transaction (the change's audit entry).
 */
export async function updateGuarded(
  ctx: AppContext,
  row: PostRow,
  set: Partial<NewPostRow>,
  alongside?: (tx: Db, updated: PostRow) => Promise<void>,
): Promise<PostRow> {
  const updated = await inTransaction(ctx, async (tx) => {
    const changed = await updatePostIfUnchanged(tx, row, set);
    if (!changed) throw changedMeanwhile();
    await alongside?.(tx, changed);
    return changed;
  });
  await forgetStaging(ctx, row, updated);
  return updated;
}

/**
 * The accounts a schedule or publish of a stored post still has to reach: those that did not post
 * yet (a target is never posted twice). A post without accounts cannot be scheduled or published.
 */
export async function unpostedAccounts(ctx: AppContext, row: PostRow): Promise<string[]> {
  if (row.accountIds.length === 0) {
    throw validationFailed('The post has no accounts', [
      { path: 'accountIds', code: 'required', message: 'Add at least one account' },
    ]);
  }
  const posted = await postedAccountIds(ctx, row.id);
  return row.accountIds.filter((id) => !posted.has(id));
}
