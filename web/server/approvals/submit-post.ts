import type { NormalizedPost } from '@postwave/shared';
import { justAfter } from '#server/audit/record-audit.ts';
import type { AppContext } from '#server/context.ts';
import { inTransaction } from '#server/db/access.ts';
import type { ApprovalActor, RecycleSettings, StoredApproval } from '#server/db/schema.ts';
import { auditPost } from '#server/posts/audit.ts';
import { contentOf, newPostContent } from '#server/posts/content.ts';
import {
  assertEditable,
  assertFuture,
  assertNotAwaitingApproval,
  changedMeanwhile,
  unpostedAccounts,
} from '#server/posts/guards.ts';
import { assertPublishable } from '#server/posts/prepare.ts';
import { insertPost, type PostRow, updatePostIfUnchanged } from '#server/posts/repository.ts';
import type { PostView } from '#server/posts/schema.ts';
import { loadPostView, toPostView } from '#server/posts/view.ts';
import { forgetStaging } from '#server/staging/forget.ts';
import { mailSubmitted } from './mail.ts';
import { recordApprovalStep } from './record.ts';

/** The publish, schedule or queue request a submission carries until someone decides. */
export interface RequestedAction {
  postingMode: 'now' | 'schedule' | 'queue';
  scheduledAt?: Date | undefined;
}

/** What a submission stores about itself: the requested action, by whom, when and why. */
export function approvalOf(
  action: RequestedAction,
  by: ApprovalActor,
  when: Date | undefined,
  reason: StoredApproval['reason'],
): StoredApproval {
  return {
    requested: { postingMode: action.postingMode, ...(when ? { scheduledAt: when.toISOString() } : {}) },
    requestedBy: by,
    requestedAt: new Date().toISOString(),
    reason,
  };
}

/**
 * `POST /api/v1/posts` by someone whose request needs approval: stored `pending_approval` (202).
 * Validated as the request itself would be (a schedule needs a future time, every target must be
 * publishable), so an approver approves something that can go out.
 */
export async function submitNewPost(
  ctx: AppContext,
  workspaceId: string,
  input: NormalizedPost & { postingMode: RequestedAction['postingMode'] },
  by: ApprovalActor,
  reason: StoredApproval['reason'] = 'approvals',
  /** Evergreen recycling (docs/recycling.md), stored with the post. */
  recycle: RecycleSettings | null = null,
): Promise<PostView> {
  const made = await newPostContent(ctx, workspaceId, input, by.id ?? null);
  const { content } = made;
  const base = { ...made.base, recycle };
  const when = input.postingMode === 'schedule' ? assertFuture(input.scheduledAt) : input.scheduledAt;
  await assertPublishable(ctx, workspaceId, content);
  const row = await inTransaction(ctx, async (tx) => {
    const inserted = await insertPost(tx, {
      ...base,
      status: 'pending_approval',
      scheduledAt: when ?? null,
      approval: approvalOf(input, by, when, reason),
    });
    await recordApprovalStep(ctx, tx, inserted, 'submitted', by);
    // Stored, then submitted: both in the audit log, as for a draft submitted later.
    const stored = new Date();
    await auditPost(tx, inserted, by, 'post.created', { postingMode: input.postingMode }, stored);
    await auditPost(tx, inserted, by, 'post.submitted', { requested: input.postingMode }, justAfter(stored));
    return inserted;
  });
  await mailSubmitted(ctx, row, by.name);
  return toPostView(row, []);
}

/** `POST /api/v1/posts/{id}` to publish, schedule or queue a stored post, by someone who needs approval. */
export async function submitStoredPost(
  ctx: AppContext,
  row: PostRow,
  action: RequestedAction,
  by: ApprovalActor,
  reason: StoredApproval['reason'] = 'approvals',
): Promise<PostView> {
  assertEditable(row, 'submitted');
  // Already waiting: a second request would replace the one awaiting a decision (and mail the
  // approvers again). It is 409 as for a publisher; the author edits it or withdraws it instead.
  assertNotAwaitingApproval(row);
  const remaining = await unpostedAccounts(ctx, row);
  const when =
    action.postingMode === 'schedule'
      ? assertFuture(action.scheduledAt ?? row.scheduledAt ?? undefined)
      : action.scheduledAt;
  await assertPublishable(ctx, row.workspaceId, { ...contentOf(row), accountIds: remaining });
  const updated = await inTransaction(ctx, async (tx) => {
    const changed = await updatePostIfUnchanged(tx, row, {
      status: 'pending_approval',
      nextAttemptAt: null,
      scheduledAt: when ?? row.scheduledAt,
      approval: approvalOf(action, by, when, reason),
    });
    if (!changed) throw changedMeanwhile();
    await recordApprovalStep(ctx, tx, changed, 'submitted', by);
    await auditPost(tx, changed, by, 'post.submitted', { requested: action.postingMode });
    return changed;
  });
  // A scheduled post taken back for approval no longer needs what was staged for its time.
  await forgetStaging(ctx, row, updated);
  await mailSubmitted(ctx, updated, by.name);
  return loadPostView(ctx, updated);
}
