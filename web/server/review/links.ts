import type { Caller } from '#server/auth/caller.ts';
import type { AppContext } from '#server/context.ts';
import { isUuid } from '#server/http/ids.ts';
import { notFound } from '#server/http/respond.ts';
import { ownedPost } from '#server/posts/guards.ts';
import { hashSecret, newSecret } from '#server/security/tokens.ts';
import { insertReviewLink, type ReviewLinkRow, reviewLinksOf, revokeReviewLink } from './repository.ts';

export const reviewTokenPrefix = 'pwr_';
const defaultHours = 168;

export function reviewUrl(ctx: AppContext, token: string): string {
  return `${ctx.config.appUrl}/review/${encodeURIComponent(token)}`;
}

/**
 * `POST /api/v1/posts/{id}/review-links`: a link for a client without an account. The token is
 * 256 random bits, in the answer once and stored only as its SHA-256.
 */
export async function createReviewLink(
  ctx: AppContext,
  caller: Pick<Caller, 'workspaceId' | 'userId'>,
  postId: string,
  input: { expiresInHours?: number | undefined; allowDecision?: boolean | undefined },
) {
  const post = await ownedPost(ctx, caller.workspaceId, postId);
  const token = newSecret(reviewTokenPrefix);
  const now = new Date();
  const row = await insertReviewLink(ctx, {
    id: crypto.randomUUID(),
    workspaceId: caller.workspaceId,
    postId: post.id,
    tokenHash: hashSecret(token),
    allowDecision: input.allowDecision ?? true,
    createdBy: caller.userId,
    expiresAt: new Date(now.getTime() + (input.expiresInHours ?? defaultHours) * 3_600_000),
    createdAt: now,
  });
  return { id: row.id, url: reviewUrl(ctx, token), expiresAt: row.expiresAt.toISOString() };
}

function toView(row: ReviewLinkRow, now: Date) {
  return {
    id: row.id,
    allowDecision: row.allowDecision,
    expiresAt: row.expiresAt.toISOString(),
    revokedAt: row.revokedAt?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
    state: row.revokedAt
      ? ('revoked' as const)
      : row.expiresAt <= now
        ? ('expired' as const)
        : ('active' as const),
  };
}

/** `GET /api/v1/posts/{id}/review-links`: never the token. */
export async function listReviewLinks(ctx: AppContext, workspaceId: string, postId: string) {
  const post = await ownedPost(ctx, workspaceId, postId);
  const now = new Date();
  return { links: (await reviewLinksOf(ctx, workspaceId, post.id)).map((r) => toView(r, now)) };
}

/** `DELETE …/review-links/{linkId}`: the link stops working at once (404 for it from then on). */
export async function revokeLink(ctx: AppContext, workspaceId: string, postId: string, linkId: string) {
  const post = await ownedPost(ctx, workspaceId, postId);
  const revoked =
    isUuid(linkId) && (await revokeReviewLink(ctx, { workspaceId, postId: post.id, linkId }, new Date()));
  if (!revoked) throw notFound('review link');
}
