import { assertOverrideKeys } from '@postwave/shared';
import { assertOwnedAccounts } from '#server/accounts/assert-owned.ts';
import { type AuditActor, systemActor } from '#server/audit/actor.ts';
import type { AppContext } from '#server/context.ts';
import { announceDue } from '#server/dispatch/wakeups.ts';
import { auditPost } from './audit.ts';
import { type Content, resolveContentMedia } from './content.ts';
import { assertEditable, assertFuture, ownedPost, updateGuarded } from './guards.ts';
import { assertPublishable } from './prepare.ts';
import type { NewPostRow } from './repository.ts';
import type { PostPatch, PostView } from './schema.ts';
import { deleteDroppedTargets } from './targets-repository.ts';
import { loadPostView } from './view.ts';

function pick<T>(record: Record<string, T>, keys: readonly string[]): Record<string, T> {
  return Object.fromEntries(Object.entries(record).filter(([key]) => keys.includes(key)));
}

/** `PATCH /api/v1/posts/{id}`: only the fields given change; a scheduled post stays publishable. */
export async function updatePost(
  ctx: AppContext,
  workspaceId: string,
  postId: string,
  patch: PostPatch,
  actor: AuditActor = systemActor,
): Promise<PostView> {
  const row = await ownedPost(ctx, workspaceId, postId);
  assertEditable(row, 'updated');
  const accountIds = patch.accountIds ? [...new Set(patch.accountIds)] : row.accountIds;
  if (patch.overrides) assertOverrideKeys(accountIds, patch.overrides);
  const resolved = await resolveContentMedia(ctx, workspaceId, patch);
  const content: Content = {
    message: patch.message ?? row.message,
    accountIds,
    media: resolved.media ?? row.media,
    accountOptions: patch.accountOptions ?? row.accountOptions,
    // Overrides of accounts the post no longer goes to mean nothing; they go with the account.
    overrides: resolved.overrides ?? pick(row.overrides, accountIds),
    thread: resolved.thread ?? row.thread,
  };
  const scheduledAt = patch.scheduledAt === undefined ? row.scheduledAt : patch.scheduledAt;
  const set: Partial<NewPostRow> = { ...content, scheduledAt };
  if (row.status === 'scheduled') {
    // A scheduled post must stay publishable and in the future.
    const when = assertFuture(scheduledAt ?? undefined);
    await assertPublishable(ctx, workspaceId, content);
    set.nextAttemptAt = when;
  } else {
    await assertOwnedAccounts(ctx, workspaceId, content.accountIds);
  }
  // Which fields changed, by name (never their values): enough to tell edits apart in the log.
  const fields = Object.keys(patch).filter((key) => patch[key as keyof PostPatch] !== undefined);
  const updated = await updateGuarded(ctx, row, set, (tx, after) =>
    auditPost(tx, after, actor, 'post.updated', { fields }),
  );
  if (set.nextAttemptAt) await announceDue(ctx, set.nextAttemptAt);
  if (patch.accountIds) {
    // Results of targets that were dropped and never posted no longer mean anything.
    await deleteDroppedTargets(ctx, row.id, content.accountIds);
  }
  return loadPostView(ctx, updated);
}
