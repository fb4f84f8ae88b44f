import { listAccounts } from '#server/accounts/list-accounts.ts';
import type { AppContext } from '#server/context.ts';
import { ownedPost } from '#server/posts/guards.ts';
import type { PostRow } from '#server/posts/repository.ts';
import { type CommentRow, commentsOf, type ReviewLinkRow } from './repository.ts';

export function toCommentView(row: CommentRow) {
  return {
    id: row.id,
    author: {
      type: row.authorType,
      ...(row.authorType === 'member' && row.authorUserId ? { id: row.authorUserId } : {}),
      name: row.authorName,
    },
    body: row.body,
    createdAt: row.createdAt.toISOString(),
  };
}

/** Each account's version as the composer previews it: its override, else the post. */
async function versionsOf(ctx: AppContext, row: PostRow) {
  const accounts = new Map((await listAccounts(ctx, row.workspaceId)).map((a) => [a.id, a]));
  return row.accountIds.flatMap((id) => {
    const account = accounts.get(id);
    if (!account) return [];
    const override = row.overrides[id];
    const media = override?.media ?? row.media;
    return [
      {
        account: {
          id,
          platform: account.platform,
          name: account.label ?? account.username ?? account.platform,
          ...(account.username ? { username: account.username } : {}),
        },
        message: override?.message ?? row.message,
        media: media.map((m) => ({
          url: m.url,
          contentType: m.contentType,
          ...(m.altText ? { altText: m.altText } : {}),
        })),
        thread: row.thread.map((p) => ({ message: p.message })),
      },
    ];
  });
}

/** `GET /api/v1/review/{token}`: the post's content per account and its comments; nothing else. */
export async function reviewPage(ctx: AppContext, link: ReviewLinkRow) {
  const row = await ownedPost(ctx, link.workspaceId, link.postId);
  const [versions, comments] = await Promise.all([
    versionsOf(ctx, row),
    commentsOf(ctx, row.workspaceId, row.id),
  ]);
  return {
    post: {
      id: row.id,
      status: row.status,
      scheduledAt: row.scheduledAt?.toISOString() ?? null,
      requested: row.approval?.requested ?? null,
      versions,
    },
    comments: comments.map(toCommentView),
    allowDecision: link.allowDecision,
    canDecide: link.allowDecision && row.status === 'pending_approval',
    expiresAt: link.expiresAt.toISOString(),
  };
}
