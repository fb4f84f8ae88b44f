import { ProblemError, problem } from '@postwave/shared';
import type { AppContext } from '#server/context.ts';
import type { Db } from '#server/db/access.ts';
import type { ApprovalActor, PostEventActor } from '#server/db/schema.ts';
import { invalidStatus } from '#server/http/problems.ts';
import { recordPostEvent } from '#server/posts/history.ts';
import type { PostRow } from '#server/posts/repository.ts';
import { loadPostView } from '#server/posts/view.ts';
import { emitWebhookEvent } from '#server/webhooks/events.ts';

export type ApprovalStep = 'submitted' | 'approved' | 'rejected';

const eventActor: Record<ApprovalActor['type'], PostEventActor> = {
  member: 'user',
  assistant: 'assistant',
  reviewer: 'reviewer',
};

/**
 * The webhook event (`post.submitted`, `post.approved`, `post.rejected`) and the timeline event of
 * one approval step, written in the transaction `tx` that made the change: both commit with it or
 * not at all.
 */
export async function recordApprovalStep(
  ctx: AppContext,
  tx: Db,
  row: PostRow,
  step: ApprovalStep,
  by: ApprovalActor,
  comment?: string,
): Promise<void> {
  const inTx = { ...ctx, db: tx.db };
  await emitWebhookEvent(tx.db, {
    workspaceId: row.workspaceId,
    type: `post.${step}`,
    data: await loadPostView(inTx, row),
  });
  await recordPostEvent(inTx, {
    postId: row.id,
    userId: by.id ?? null,
    actor: eventActor[by.type],
    actorName: by.name,
    action: step,
    detail: comment ? { comment } : {},
  });
}

/** 403 `self_approval`: an author never approves (or rejects) their own post. */
export function assertNotAuthor(row: PostRow, by: ApprovalActor): void {
  // An assistant's post held for its member (`assistants`) is theirs to confirm, never an assistant's.
  const held = row.approval?.reason === 'assistants';
  if (
    held ? by.type === 'assistant' : by.type !== 'reviewer' && by.id !== undefined && row.userId === by.id
  ) {
    throw new ProblemError(
      problem('self_approval', 'You wrote this post: another member (or a client) approves it'),
    );
  }
}

/** Only a post waiting for approval is approved or rejected (409 otherwise). */
export function assertPending(row: PostRow): void {
  if (row.status !== 'pending_approval') throw invalidStatus('The post is not waiting for approval');
}

/** Someone else decided (or the author edited the post) since this request read it. */
export function decidedMeanwhile(): ProblemError {
  return invalidStatus('The post was decided or changed while this request ran; fetch it and try again');
}
