import { approvePost } from '#server/approvals/approve-post.ts';
import { rejectPost } from '#server/approvals/reject-post.ts';
import { requiredComment } from '#server/approvals/schema.ts';
import type { AppContext } from '#server/context.ts';
import { invalidStatus } from '#server/http/problems.ts';
import { insertComment, type ReviewLinkRow } from './repository.ts';
import { toCommentView } from './view.ts';

/** `POST /api/v1/review/{token}/comments`: a comment under the name the client typed. */
export async function addReviewComment(
  ctx: AppContext,
  link: ReviewLinkRow,
  input: { name: string; body: string },
) {
  const row = await insertComment(ctx, {
    id: crypto.randomUUID(),
    workspaceId: link.workspaceId,
    postId: link.postId,
    authorType: 'reviewer',
    authorUserId: null,
    authorName: input.name,
    body: input.body,
    createdAt: new Date(),
  });
  return toCommentView(row);
}

/**
 * `POST /api/v1/review/{token}/decision`: approve (performs the requested action, exactly as the
 * approve route: same race rule, same 409s) or request changes (reject; needs a comment), under
 * the client's typed name. Only links that allow decisions, only for a `pending_approval` post.
 */
export async function reviewDecision(
  ctx: AppContext,
  link: ReviewLinkRow,
  input: { name: string; decision: 'approve' | 'reject'; comment?: string | undefined },
) {
  if (!link.allowDecision) throw invalidStatus('This review link is for comments only');
  const by = { type: 'reviewer' as const, name: input.name };
  const post =
    input.decision === 'approve'
      ? await approvePost(ctx, link.workspaceId, link.postId, by, { comment: input.comment || undefined })
      : await rejectPost(ctx, link.workspaceId, link.postId, by, requiredComment({ comment: input.comment }));
  return { status: post.status };
}
