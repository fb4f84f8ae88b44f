import type { TargetOutcome } from '@postwave/shared';
import { and, desc, eq, gte, inArray, isNull, lt, or, sql } from 'drizzle-orm';
import { publishedAuditInsert } from '#server/audit/repository.ts';
import type { AppContext } from '#server/context.ts';
import { type Db, rowsOf } from '#server/db/access.ts';
import { type KeysetPosition, keysetBefore } from '#server/db/keyset.ts';
import { type PostStatus, posts, type RecycleSettings } from '#server/db/schema.ts';
import { resultsUpdate, type TargetView, targetViewsJson } from './targets-repository.ts';

/*
 * The only SQL for post rows: each operation is one statement that runs on PGlite and PostgreSQL
 * alike. Target states are in targets-repository.ts; the dispatcher's claims of due posts in
 * dispatch/repository.ts.
 */

export type PostRow = typeof posts.$inferSelect;
export type NewPostRow = typeof posts.$inferInsert;

export interface PostFinalization {
  postId: string;
  owner: string;
  status: PostStatus;
  nextAttemptAt: Date | null;
  /** A target result not yet written: written in the same statement. */
  deferred: TargetOutcome | undefined;
}

/** Posts that nobody is publishing right now and that may still change (an author edits a submission). */
export const editableStatuses: PostStatus[] = ['draft', 'scheduled', 'failed', 'pending_approval'];
const notLeased = () => or(isNull(posts.leaseExpiresAt), lt(posts.leaseExpiresAt, new Date()));

export async function findPost(
  ctx: AppContext,
  workspaceId: string,
  postId: string,
): Promise<PostRow | undefined> {
  const [row] = await ctx.db
    .select()
    .from(posts)
    .where(and(eq(posts.id, postId), eq(posts.workspaceId, workspaceId)));
  return row;
}

export async function insertPost(ctx: Db, values: NewPostRow): Promise<PostRow> {
  const [row] = await ctx.db.insert(posts).values(values).returning();
  return row!;
}

/**
 * Inserts many posts with the caller's database or transaction (an import commits them with its
 * own record, all or nothing). Chunks keep each statement's parameter count well under
 * PostgreSQL's limit.
 */
export async function insertPosts(ctx: Db, rows: readonly NewPostRow[]): Promise<void> {
  for (let i = 0; i < rows.length; i += 200) await ctx.db.insert(posts).values(rows.slice(i, i + 200));
}

/** Newest first, keyset-paginated on (createdAt, id): one backward index range scan per page. */
export async function listPostPage(
  ctx: AppContext,
  workspaceId: string,
  page: { status?: PostStatus | undefined; limit: number; after?: KeysetPosition | undefined },
): Promise<{ post: PostRow; targets: TargetView[] }[]> {
  const { after } = page;
  return ctx.db
    .select({ post: posts, targets: targetViewsJson })
    .from(posts)
    .where(
      and(
        eq(posts.workspaceId, workspaceId),
        page.status ? eq(posts.status, page.status) : undefined,
        after ? keysetBefore(posts.createdAt, posts.id, after) : undefined,
      ),
    )
    .orderBy(desc(posts.createdAt), desc(posts.id))
    .limit(page.limit);
}

/**
 * How far a person got in the first steps (components/notices/getting-started.tsx): whether they
 * wrote any post, and whether any was scheduled or went out. Two indexed existence checks.
 */
export async function postProgress(
  ctx: AppContext,
  workspaceId: string,
): Promise<{ wrote: boolean; scheduled: boolean }> {
  const [row] = await ctx.db
    .select({
      wrote: sql<boolean>`exists (select 1 from ${posts} where ${posts.workspaceId} = ${workspaceId})`,
      scheduled: sql<boolean>`exists (select 1 from ${posts} where ${posts.workspaceId} = ${workspaceId} and ${posts.scheduledAt} is not null)`,
    })
    .from(sql`(select 1) as one`);
  return { wrote: Boolean(row?.wrote), scheduled: Boolean(row?.scheduled) };
}

/** Scheduled, posted, failed and pending posts whose time falls in [from, to), earliest first (at most 1000). */
export async function postsInWindow(ctx: AppContext, workspaceId: string, from: Date, to: Date) {
  return ctx.db
    .select({
      id: posts.id,
      status: posts.status,
      message: posts.message,
      accountIds: posts.accountIds,
      postedAt: posts.postedAt,
      scheduledAt: posts.scheduledAt,
      risk: posts.risk,
    })
    .from(posts)
    .where(
      and(
        eq(posts.workspaceId, workspaceId),
        inArray(posts.status, ['scheduled', 'posted', 'failed', 'pending_approval']),
        or(
          and(gte(posts.scheduledAt, from), lt(posts.scheduledAt, to)),
          and(gte(posts.postedAt, from), lt(posts.postedAt, to)),
        ),
      ),
    )
    .orderBy(sql`coalesce(${posts.postedAt}, ${posts.scheduledAt})`)
    .limit(1000);
}

/** Updates the row only if nobody published or edited it since it was read (optimistic lock). */
export async function updatePostIfUnchanged(
  ctx: Db,
  row: PostRow,
  set: Partial<NewPostRow>,
): Promise<PostRow | undefined> {
  const [updated] = await ctx.db
    .update(posts)
    .set({ ...set, updatedAt: new Date() })
    .where(
      and(
        eq(posts.id, row.id),
        eq(posts.updatedAt, row.updatedAt),
        inArray(posts.status, editableStatuses),
        notLeased(),
      ),
    )
    .returning();
  return updated;
}

/** An original's recycled copies, first copy first (the post page's chain). */
export async function selectRecycledCopies(ctx: AppContext, workspaceId: string, originalId: string) {
  return ctx.db
    .select({
      id: posts.id,
      status: posts.status,
      recycleIndex: posts.recycleIndex,
      scheduledAt: posts.scheduledAt,
      postedAt: posts.postedAt,
    })
    .from(posts)
    .where(and(eq(posts.workspaceId, workspaceId), eq(posts.recycledFrom, originalId)))
    .orderBy(posts.recycleIndex);
}

/**
 * Sets a post's recycling alone, whatever its status (a posted original's chain is still running).
 * The migration's trigger removes, in the same statement, the pending copies the new settings no
 * longer allow and notes a turn-off on the timeline.
 */
export async function updateRecycle(
  ctx: AppContext,
  postId: string,
  recycle: RecycleSettings | null,
): Promise<PostRow | undefined> {
  const [updated] = await ctx.db
    .update(posts)
    .set({ recycle, updatedAt: new Date() })
    .where(eq(posts.id, postId))
    .returning();
  return updated;
}

/**
 * Extends the leases `owner` still holds (one statement for a whole batch), keeping `next_attempt_at`
 * at the lease's end as the claim does, so a live publisher never loses a post to another while
 * its publishing runs long; a dead one stops renewing and its posts become due when the lease ends.
 */
export async function renewPostLeases(
  ctx: AppContext,
  owner: string,
  postIds: readonly string[],
  leaseMs: number,
): Promise<void> {
  if (postIds.length === 0) return;
  const until = new Date(Date.now() + leaseMs).toISOString();
  await ctx.db.execute(sql`
    UPDATE posts SET lease_expires_at = ${until}::timestamptz, next_attempt_at = ${until}::timestamptz
    WHERE lease_owner = ${owner} AND id = ANY(${sql.param([...postIds])}::uuid[])`);
}

/**
 * Writes posts' final status and gives up their leases, together with each post's last target
 * result, in one statement; answers each post's status, or null where the lease was lost. A
 * data-modifying CTE always runs: the deferred result is written whatever the lease says. Each
 * post that reached `posted` gets its `post.published` audit entry (actor `system`: the publisher
 * finishing) in the same statement, so in the same transaction, without a second round trip.
 */
export async function finalizePosts(
  ctx: AppContext,
  items: readonly PostFinalization[],
): Promise<(PostStatus | null)[]> {
  const now = new Date().toISOString();
  const deferred = items.flatMap((i) =>
    i.deferred ? [{ postId: i.postId, owner: i.owner, result: i.deferred }] : [],
  );
  const recorded = deferred.length ? sql`recorded AS (${resultsUpdate(deferred, now)}), ` : sql``;
  const values = sql.join(
    items.map(
      (i) => sql`(${i.postId}::uuid, ${i.owner}::text, ${i.status}::text,
        ${i.nextAttemptAt?.toISOString() ?? null}::timestamptz,
        ${i.status === 'posted' ? now : null}::timestamptz)`,
    ),
    sql`, `,
  );
  const result = await ctx.db.execute(sql`
    WITH ${recorded}v(id, owner, status, next_attempt_at, posted_at) AS (VALUES ${values}),
    done AS (
      UPDATE posts AS p
      SET status = v.status, next_attempt_at = v.next_attempt_at, lease_owner = NULL, lease_expires_at = NULL,
        updated_at = ${now}::timestamptz, posted_at = coalesce(v.posted_at, p.posted_at)
      FROM v
      WHERE p.id = v.id AND p.lease_owner = v.owner
      RETURNING p.id, p.status, p.workspace_id, p.account_ids
    ),
    audited AS (${publishedAuditInsert(sql`done`, now)})
    SELECT id::text AS id, status FROM done`);
  const finalized = rowsOf<{ id: string; status: PostStatus }>(result);
  const statuses = new Map(finalized.map((r) => [r.id, r.status]));
  return items.map((i) => statuses.get(i.postId) ?? null);
}
