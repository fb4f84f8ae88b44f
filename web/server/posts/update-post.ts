import { assertOverrideKeys } from '@postwave/shared';
import { assertOwnedAccounts } from '#server/accounts/assert-owned.ts';
import { type AuditActor, systemActor } from '#server/audit/actor.ts';
import type { AppContext } from '#server/context.ts';
import { type Db, inTransaction } from '#server/db/access.ts';
import type { StoredApproval } from '#server/db/schema.ts';
import { announceDue } from '#server/dispatch/wakeups.ts';
import { validationFailed } from '#server/http/problems.ts';
import { auditPost } from './audit.ts';
import { type Content, resolveContentMedia } from './content.ts';
import { assertEditable, assertFuture, changedMeanwhile, ownedPost, updateGuarded } from './guards.ts';
import { assertPublishable } from './prepare.ts';
import { type NewPostRow, type PostRow, updateRecycle } from './repository.ts';
import type { PostPatch, PostView } from './schema.ts';
import { deleteDroppedTargets } from './targets-repository.ts';
import { loadPostView } from './view.ts';

function pick<T>(record: Record<string, T>, keys: readonly string[]): Record<string, T> {
  return Object.fromEntries(Object.entries(record).filter(([key]) => keys.includes(key)));
}

/** An edit checked against the post as read, nothing written yet: what to set and what the log names. */
export interface CheckedEdit {
  row: PostRow;
  set: Partial<NewPostRow>;
  /** Which fields the request changed, by name (never their values): enough to tell edits apart in the log. */
  fields: string[];
  /** Only the recycling changes: written alone, whatever the status (a posted original's chain runs on). */
  recycleOnly: boolean;
  /** The request replaced `accountIds`: results of dropped targets go once it is written. */
  accountsReplaced: boolean;
}

/**
 * Checks `patch` on `row` (the refusals: 404, 409, 422) and works out what to write, so a caller
 * that changes more in the same write (a resubmission for approval) refuses before anything
 * changes. `whole` checks a recycling-only edit as any other (a post going back for approval).
 */
export async function checkEdit(
  ctx: AppContext,
  workspaceId: string,
  row: PostRow,
  patch: PostPatch,
  options: { whole?: boolean } = {},
): Promise<CheckedEdit> {
  if (patch.recycle && row.recycledFrom) {
    throw validationFailed('A recycled copy is not recycled itself: change the original’s recycling', [
      { path: 'recycle', code: 'recycled_copy', message: 'Set recycling on the original post' },
    ]);
  }
  const { recycle, ...rest } = patch;
  const fields = Object.keys(patch).filter((key) => patch[key as keyof PostPatch] !== undefined);
  if (recycle !== undefined && !options.whole && Object.values(rest).every((v) => v === undefined)) {
    return { row, set: { recycle }, fields, recycleOnly: true, accountsReplaced: false };
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
  if (row.status === 'pending_approval' && row.approval && patch.scheduledAt !== undefined) {
    set.approval = {
      ...row.approval,
      requested: requestAfterEdit(row.approval.requested, patch.scheduledAt),
    };
  }
  return { row, set, fields, recycleOnly: false, accountsReplaced: patch.accountIds !== undefined };
}

/**
 * What a pending post's approval will do once its time is edited (contract G: approving performs
 * the request, and an author's edit keeps the post pending): the request follows the post, or
 * approving would schedule it at the time it had before the edit. A schedule needs its new time
 * in the future (422, as when submitted); a queue takes it as the earliest slot (none: the next
 * free one). "now" publishes on approval whatever the post's time: asking for a schedule instead
 * is a new request (`POST /api/v1/posts/{id}`).
 */
function requestAfterEdit(
  requested: StoredApproval['requested'],
  scheduledAt: Date | null,
): StoredApproval['requested'] {
  if (requested.postingMode === 'schedule') {
    return { postingMode: 'schedule', scheduledAt: assertFuture(scheduledAt ?? undefined).toISOString() };
  }
  if (requested.postingMode === 'queue') {
    return { postingMode: 'queue', ...(scheduledAt ? { scheduledAt: scheduledAt.toISOString() } : {}) };
  }
  return requested;
}

/** What a caller writes with a checked edit, in its transaction (a resubmission's status and events). */
export interface EditExtras {
  set?: Partial<NewPostRow>;
  alongside?: (tx: Db, updated: PostRow) => Promise<void>;
}

/**
 * Writes a checked edit in one transaction with its audit entry (and `extras`): the row changes
 * only if nobody changed it since `checkEdit` read it (409 otherwise).
 */
export async function writeEdit(
  ctx: AppContext,
  edit: CheckedEdit,
  actor: AuditActor,
  extras: EditExtras = {},
): Promise<PostRow> {
  if (edit.recycleOnly) {
    // A change to the recycling is an edit like any other in the audit log (`post.updated`,
    // `fields: ["recycle"]`), committed with it: turning it off deletes the pending copies.
    return inTransaction(ctx, async (tx) => {
      const updated = await updateRecycle(tx, edit.row.id, edit.set.recycle ?? null);
      if (!updated) throw changedMeanwhile();
      await auditPost(tx, updated, actor, 'post.updated', { fields: edit.fields });
      return updated;
    });
  }
  const set = { ...edit.set, ...extras.set };
  const updated = await updateGuarded(ctx, edit.row, set, async (tx, after) => {
    await extras.alongside?.(tx, after);
    await auditPost(tx, after, actor, 'post.updated', { fields: edit.fields });
  });
  if (set.nextAttemptAt) await announceDue(ctx, set.nextAttemptAt);
  if (edit.accountsReplaced) {
    // Results of targets that were dropped and never posted no longer mean anything.
    await deleteDroppedTargets(ctx, updated.id, updated.accountIds);
  }
  return updated;
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
  const edit = await checkEdit(ctx, workspaceId, row, patch);
  return loadPostView(ctx, await writeEdit(ctx, edit, actor));
}
