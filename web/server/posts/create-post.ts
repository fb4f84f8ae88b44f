import type { NormalizedPost } from '@postwave/shared';
import { assertOwnedAccounts } from '#server/accounts/assert-owned.ts';
import { type AuditActor, systemActor } from '#server/audit/actor.ts';
import type { AppContext } from '#server/context.ts';
import { type Db, inTransaction } from '#server/db/access.ts';
import type { RecycleSettings } from '#server/db/schema.ts';
import { announceDue } from '#server/dispatch/wakeups.ts';
import { assertAcceptingWork } from '#server/lifecycle/shutdown.ts';
import { scheduleInQueue } from '#server/queue/service.ts';
import { auditPost } from './audit.ts';
import { newPostContent } from './content.ts';
import { getPost } from './get-post.ts';
import { assertFuture } from './guards.ts';
import { assertPublishable } from './prepare.ts';
import { publishNow, requestLease } from './publish-now.ts';
import { insertPost, type NewPostRow } from './repository.ts';
import type { PostView } from './schema.ts';
import { toPostView } from './view.ts';

/** `POST /api/v1/posts`: save a draft, schedule, queue, or publish now. */
export async function createPost(
  ctx: AppContext,
  workspaceId: string,
  input: NormalizedPost,
  authorId: string | null = null,
  actor: AuditActor = systemActor,
  /** Evergreen recycling (docs/recycling.md), stored with the post. */
  recycle: RecycleSettings | null = null,
): Promise<PostView> {
  const made = await newPostContent(ctx, workspaceId, input, authorId);
  const { content } = made;
  const base = { ...made.base, recycle };
  // The row and its `post.created` audit entry commit together.
  const store = async (tx: Db, values: NewPostRow) => {
    const row = await insertPost(tx, values);
    await auditPost(tx, row, actor, 'post.created', { postingMode: input.postingMode });
    return row;
  };
  const insertAudited = (values: NewPostRow) => inTransaction(ctx, (tx) => store(tx, values));

  if (input.postingMode === 'draft') {
    await assertOwnedAccounts(ctx, workspaceId, content.accountIds);
    const row = await insertAudited({ ...base, status: 'draft', scheduledAt: input.scheduledAt ?? null });
    return toPostView(row, []);
  }
  if (input.postingMode === 'queue') {
    // The next free slot of every target's queue (`scheduledAt`, if given, is the earliest time wanted).
    await assertPublishable(ctx, workspaceId, content);
    const row = await scheduleInQueue(
      ctx,
      workspaceId,
      content.accountIds,
      { notBefore: input.scheduledAt },
      (tx, when) => store(tx, { ...base, status: 'scheduled', scheduledAt: when, nextAttemptAt: when }),
    );
    return toPostView(row, []);
  }
  if (input.postingMode === 'schedule') {
    const when = assertFuture(input.scheduledAt);
    await assertPublishable(ctx, workspaceId, content);
    const row = await insertAudited({
      ...base,
      status: 'scheduled',
      scheduledAt: when,
      nextAttemptAt: when,
    });
    await announceDue(ctx, when);
    return toPostView(row, []);
  }
  assertAcceptingWork();
  const prepared = await assertPublishable(ctx, workspaceId, content);
  const lease = requestLease(ctx);
  // Stored as a leased `scheduled` post: if this process dies mid-publish, dispatch finishes it. It
  // was never scheduled: being leased, its timeline (migration 0041) and audit entry say `publishing`.
  const row = await insertAudited({
    ...base,
    status: 'scheduled',
    nextAttemptAt: lease.until,
    leaseOwner: lease.owner,
    leaseExpiresAt: lease.until,
    attempts: 1,
  });
  await publishNow(ctx, row, lease.owner, prepared);
  return getPost(ctx, workspaceId, row.id);
}
