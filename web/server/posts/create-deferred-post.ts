import type { NormalizedPost } from '@postwave/shared';
import { assertOwnedAccounts } from '#server/accounts/assert-owned.ts';
import { type AuditActor, systemActor } from '#server/audit/actor.ts';
import type { AppContext } from '#server/context.ts';
import { type Db, inTransaction } from '#server/db/access.ts';
import { announceDue } from '#server/dispatch/wakeups.ts';
import { scheduleInQueue } from '#server/queue/service.ts';
import { auditPost } from './audit.ts';
import { newPostContent } from './content.ts';
import { assertPublishable } from './prepare.ts';
import { insertPost, type NewPostRow, type PostRow } from './repository.ts';

/** How `createDeferredPost` times a post: it never publishes in the caller's request. */
export type DeferredMode = 'draft' | 'queue' | 'due';

/**
 * Creates a post and runs `alongside(tx, row)` in the same transaction, so what the caller records
 * about the post (a feed item marked seen) commits with it or not at all. `draft` checks the
 * accounts only; `queue` takes the next free common slot under the queue lock; `due` stores a
 * post scheduled for now that the dispatcher publishes (a crash after the commit loses nothing,
 * and the dispatcher never publishes a target twice). Validation as `POST /api/v1/posts`.
 */
export async function createDeferredPost(
  ctx: AppContext,
  workspaceId: string,
  input: Omit<NormalizedPost, 'postingMode' | 'scheduledAt'>,
  mode: DeferredMode,
  alongside: (tx: Db, row: PostRow) => Promise<void>,
  actor: AuditActor = systemActor,
): Promise<PostRow> {
  const { content, base, now } = await newPostContent(ctx, workspaceId, input);
  const store = async (tx: Db, values: NewPostRow) => {
    const row = await insertPost(tx, values);
    await auditPost(tx, row, actor, 'post.created', { postingMode: mode === 'due' ? 'now' : mode });
    await alongside(tx, row);
    return row;
  };
  if (mode === 'draft') {
    await assertOwnedAccounts(ctx, workspaceId, content.accountIds);
    return inTransaction(ctx, (tx) => store(tx, { ...base, status: 'draft' }));
  }
  await assertPublishable(ctx, workspaceId, content);
  if (mode === 'queue') {
    return scheduleInQueue(ctx, workspaceId, content.accountIds, {}, (tx, when) =>
      store(tx, { ...base, status: 'scheduled', scheduledAt: when, nextAttemptAt: when }),
    );
  }
  const row = await inTransaction(ctx, (tx) =>
    store(tx, { ...base, status: 'scheduled', scheduledAt: now, nextAttemptAt: now }),
  );
  await announceDue(ctx, now);
  return row;
}
