import type { TargetOutcome } from '@postwave/shared';
import { and, desc, eq, inArray, isNull, lt, or, sql } from 'drizzle-orm';
import { firstEntries } from '#server/analytics/collect-repository.ts';
import { bucketOf } from '#server/analytics/collect-rollups.ts';
import { publishedAuditInsert } from '#server/audit/repository.ts';
import type { AppContext } from '#server/context.ts';
import { type Db, inSomeTransaction, rowsOf } from '#server/db/access.ts';
import { arrayLiteral } from '#server/db/array-literal.ts';
import { runAgainOnDeadlock } from '#server/db/errors.ts';
import { type KeysetPosition, keysetBefore } from '#server/db/keyset.ts';
import { executePrepared } from '#server/db/prepared.ts';
import { type PostStatus, posts, type RecycleSettings } from '#server/db/schema.ts';
import { holdPostMedia } from './held-media.ts';
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
  return inSomeTransaction(ctx, async (tx) => {
    await holdPostMedia(tx, [values]);
    const [row] = await tx.db.insert(posts).values(values).returning();
    return row!;
  });
}

/**
 * Inserts many posts with the caller's database or transaction (an import commits them with its
 * own record, all or nothing). Chunks keep each statement's parameter count well under
 * PostgreSQL's limit.
 */
export async function insertPosts(ctx: Db, rows: readonly NewPostRow[]): Promise<void> {
  await inSomeTransaction(ctx, async (tx) => {
    await holdPostMedia(tx, rows);
    for (let i = 0; i < rows.length; i += 200) await tx.db.insert(posts).values(rows.slice(i, i + 200));
  });
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

/**
 * A post's time on the calendar: when it posted, else when it is (or was) due, else when it last
 * changed: a post published now that failed, or a request to publish now waiting for approval, has
 * neither of the first two, and shows on the day it was attempted or submitted.
 */
const calendarTime = sql<Date>`coalesce(${posts.postedAt}, ${posts.scheduledAt}, ${posts.updatedAt})`;

/**
 * Scheduled, posted, failed and pending posts whose calendar time falls in [from, to), earliest
 * first (at most 1000). A `scheduled` post without a time is being published now: it shows once done.
 */
export async function postsInWindow(ctx: AppContext, workspaceId: string, from: Date, to: Date) {
  return ctx.db
    .select({
      id: posts.id,
      status: posts.status,
      message: posts.message,
      accountIds: posts.accountIds,
      at: calendarTime.mapWith(posts.updatedAt),
      risk: posts.risk,
    })
    .from(posts)
    .where(
      and(
        eq(posts.workspaceId, workspaceId),
        inArray(posts.status, ['scheduled', 'posted', 'failed', 'pending_approval']),
        or(sql`${posts.status} <> 'scheduled'`, sql`${posts.scheduledAt} IS NOT NULL`),
        sql`${calendarTime} >= ${from.toISOString()}::timestamptz`,
        sql`${calendarTime} < ${to.toISOString()}::timestamptz`,
      ),
    )
    .orderBy(calendarTime)
    .limit(1000);
}

/**
 * Updates the row only if nobody published or edited it since it was read (optimistic lock). The
 * media it names stay held until the update commits, as for `insertPost`.
 */
export async function updatePostIfUnchanged(
  ctx: Db,
  row: PostRow,
  set: Partial<NewPostRow>,
): Promise<PostRow | undefined> {
  return inSomeTransaction(ctx, async (tx) => {
    await holdPostMedia(tx, [{ ...set, workspaceId: row.workspaceId }]);
    const [updated] = await tx.db
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
  });
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
  ctx: Db,
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

export interface FinalizeOptions {
  /**
   * Gives each posted target of the finished posts its analytics schedule in the same statement
   * (docs/analytics.md#collection): `collecting`, first collection `firstOffsetMs` after posting,
   * on these platforms; `unsupported` on the others. The collector's enrollment stays a safety net.
   */
  analytics?: { collecting: readonly string[]; firstOffsetMs: number };
  /** Answers per post whether its workspace has an enabled webhook endpoint taking one of these events. */
  subscriberEvents?: readonly string[];
}

/** A finished post: its status, and whether its workspace takes its webhook events (when asked). */
export interface FinalizedPost {
  status: PostStatus;
  subscribed: boolean | undefined;
}

/**
 * Writes posts' final status and gives up their leases, together with each post's last target
 * result, in one statement; answers each post's status, or null where the lease was lost. A
 * data-modifying CTE always runs: the deferred result is written whatever the lease says. Each
 * post that reached `posted` gets its `post.published` audit entry (actor `system`: the publisher
 * finishing) in the same statement, so in the same transaction, without a second round trip. The
 * timeline's events come from the tables' statement triggers (one INSERT per statement); the
 * analytics schedule and the posts counted in `metric_rollups` (and `metric_rollups_hourly`) from `options.analytics`.
 */
export async function finalizePosts(
  ctx: AppContext,
  items: readonly PostFinalization[],
  options: FinalizeOptions = {},
): Promise<(FinalizedPost | null)[]> {
  const now = new Date().toISOString();
  const deferred = items.flatMap((i) =>
    i.deferred ? [{ postId: i.postId, owner: i.owner, result: i.deferred }] : [],
  );
  const recorded = deferred.length
    ? sql`recorded AS (${resultsUpdate(deferred, now)}
        RETURNING t.post_id, t.account_id, t.status, t.platform_post_id, t.url, t.updated_at), `
    : sql``;
  // Arrays per column rather than a VALUES row per post: one statement text whatever the batch's size.
  const column = (pick: (i: PostFinalization) => string | null | undefined) => arrayLiteral(items.map(pick));
  const values = sql`SELECT * FROM unnest(${column((i) => i.postId)}::uuid[], ${column((i) => i.owner)}::text[],
    ${column((i) => i.status)}::text[], ${column((i) => i.nextAttemptAt?.toISOString() ?? null)}::timestamptz[],
    ${column((i) => (i.status === 'posted' ? now : null))}::timestamptz[])`;
  const subscribed = options.subscriberEvents?.length
    ? sql`EXISTS (SELECT 1 FROM webhook_endpoints w
        WHERE w.workspace_id = d.workspace_id AND w.disabled_at IS NULL AND (${sql.join(
          options.subscriberEvents.map((t) => sql`w.events @> ${JSON.stringify([t])}::jsonb`),
          sql` OR `,
        )}))`
    : sql`NULL::boolean`;
  // Batches finishing at once on several instances count into the same rollup rows: rows are
  // taken in key order, but a batch the database still picks as a deadlock's victim runs again.
  const statement = sql`
    WITH ${recorded}v(id, owner, status, next_attempt_at, posted_at) AS (${values}),
    done AS (
      UPDATE posts AS p
      SET status = v.status, next_attempt_at = v.next_attempt_at, lease_owner = NULL, lease_expires_at = NULL,
        updated_at = ${now}::timestamptz, posted_at = coalesce(v.posted_at, p.posted_at)
      FROM v
      WHERE p.id = v.id AND p.lease_owner = v.owner
      RETURNING p.id, p.status, p.posted_at, p.workspace_id, p.account_ids
    ),
    audited AS (${publishedAuditInsert(sql`done`, now)})
    ${options.analytics ? analyticsSchedule(options.analytics, deferred.length > 0) : sql``}
    SELECT d.id::text AS id, d.status, ${subscribed} AS subscribed FROM done d`;
  const result = await runAgainOnDeadlock(() => executePrepared(ctx.db, statement));
  const finished = new Map(
    rowsOf<{ id: string; status: PostStatus; subscribed: boolean | null }>(result).map((r) => [
      r.id,
      { status: r.status, subscribed: r.subscribed ?? undefined },
    ]),
  );
  return items.map((i) => finished.get(i.postId) ?? null);
}

/**
 * The finished posts' posted targets (the one just `recorded` in this statement is not in its
 * snapshot yet: its new row comes from that CTE) enrolled for analytics, and counted in their
 * quarter hour's and hour's rollups. A target enrolled already (by the collector) is left alone and not
 * counted twice.
 */
function analyticsSchedule(analytics: NonNullable<FinalizeOptions['analytics']>, hasRecorded: boolean) {
  // A target with short links is collected for their clicks whatever its platform reports.
  const shortLinks = sql`EXISTS (SELECT 1 FROM target_links l WHERE l.post_id = t.post_id AND l.account_id = t.account_id AND l.ref IS NOT NULL)`;
  const supported = analytics.collecting.length
    ? sql`(t.platform IN (${sql.join(
        analytics.collecting.map((p) => sql`${p}`),
        sql`, `,
      )}) OR ${shortLinks})`
    : shortLinks;
  const r = (column: string, fallback: string) =>
    sql.raw(hasRecorded ? `coalesce(r.${column}, t.${fallback})` : `t.${fallback}`);
  const postedAt = sql`coalesce(d.posted_at, ${r('updated_at', 'updated_at')})`;
  return sql`, enrolled AS (
      INSERT INTO target_metrics (post_id, account_id, platform, platform_post_id, url, posted_at, state)
      SELECT t.post_id, t.account_id, t.platform, ${r('platform_post_id', 'platform_post_id')}, ${r('url', 'url')}, ${postedAt},
        CASE WHEN ${supported} THEN 'collecting' ELSE 'unsupported' END
      FROM done d JOIN post_targets t ON t.post_id = d.id
      ${hasRecorded ? sql`LEFT JOIN recorded r ON r.post_id = t.post_id AND r.account_id = t.account_id` : sql``}
      WHERE ${r('status', 'status')} = 'posted' AND ${r('platform_post_id', 'platform_post_id')} IS NOT NULL
      ON CONFLICT DO NOTHING
      RETURNING post_id, account_id, posted_at, state),
    ${firstEntries(sql`SELECT post_id, account_id, posted_at FROM enrolled WHERE state = 'collecting'`, analytics.firstOffsetMs)},
    counted AS (
      INSERT INTO metric_rollups (account_id, bucket, posts)
      SELECT account_id, ${bucketOf('posted_at', 900)}, count(*)::int FROM enrolled GROUP BY 1, 2 ORDER BY 1, 2
      ON CONFLICT (account_id, bucket) DO UPDATE SET posts = metric_rollups.posts + excluded.posts),
    counted_hourly AS (
      INSERT INTO metric_rollups_hourly (account_id, bucket, posts)
      SELECT account_id, ${bucketOf('posted_at', 3600)}, count(*)::int FROM enrolled GROUP BY 1, 2 ORDER BY 1, 2
      ON CONFLICT (account_id, bucket) DO UPDATE SET posts = metric_rollups_hourly.posts + excluded.posts)`;
}
