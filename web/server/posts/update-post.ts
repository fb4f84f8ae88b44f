import { assertOverrideKeys } from '@postwave/shared';
import { assertOwnedAccounts } from '#server/accounts/assert-owned.ts';
import { type AuditActor, systemActor } from '#server/audit/actor.ts';
import type { AppContext } from '#server/context.ts';
import { announceDue } from '#server/dispatch/wakeups.ts';
import { validationFailed } from '#server/http/problems.ts';
import { auditPost } from './audit.ts';
import { type Content, resolveContentMedia } from './content.ts';
import { assertEditable, assertFuture, changedMeanwhile, ownedPost, updateGuarded } from './guards.ts';
import { assertPublishable } from './prepare.ts';
import { type NewPostRow, updateRecycle } from './repository.ts';
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
  if (patch.recycle && row.recycledFrom) {
    throw validationFailed('A recycled copy is not recycled itself: change the original’s recycling', [
      { path: 'recycle', code: 'recycled_copy', message: 'Set recycling on the original post' },
    ]);
  }
  const { recycle, ...rest } = patch;
  if (recycle !== undefined && Object.values(rest).every((v) => v === undefined)) {
    // Only the recycling changes: allowed on a posted original too (its chain runs after it posted).
    const updated = await updateRecycle(ctx, row.id, recycle);
    if (!updated) throw changedMeanwhile();
    return loadPostView(ctx, updated);
  }
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
  const set: Partial<NewPostRow> = { ...content, scheduledAt, ...(recycle !== undefined ? { recycle } : {}) };
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
