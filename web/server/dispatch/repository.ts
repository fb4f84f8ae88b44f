import { sql } from 'drizzle-orm';
import type { AppContext } from '#server/context.ts';
import { rowsOf, dateOrNull as toDate } from '#server/db/access.ts';
import type { PostRow } from '#server/posts/repository.ts';
import type { ExistingTarget } from '#server/posts/targets-repository.ts';

/*
 * The only SQL of the dispatcher's own: claiming due posts under a lease (and handing an untouched
 * claim back), the earliest due time, and the PostgreSQL notification that tells other instances
 * a post became due earlier than they may think.
 */

/** A due post this dispatcher holds the lease of, with its targets' states. */
export type ClaimedPost = PostRow & { targets: ExistingTarget[] };

/** The channel every instance LISTENs on; the payload is the due time in ms since the epoch. */
export const dueChannel = 'postwave_due';

/** A raw `posts` row (snake_case, as `execute()` returns it) as the drizzle row type. */
function claimedPostFromRow(row: Record<string, unknown>): ClaimedPost {
  return {
    id: String(row.id),
    workspaceId: String(row.workspace_id),
    userId: row.user_id === null || row.user_id === undefined ? null : String(row.user_id),
    status: row.status as PostRow['status'],
    message: String(row.message),
    accountIds: row.account_ids as string[],
    media: row.media as PostRow['media'],
    accountOptions: row.account_options as PostRow['accountOptions'],
    overrides: (row.overrides as PostRow['overrides'] | null) ?? {},
    thread: (row.thread as PostRow['thread'] | null) ?? [],
    scheduledAt: toDate(row.scheduled_at),
    postedAt: toDate(row.posted_at),
    createdAt: toDate(row.created_at)!,
    updatedAt: toDate(row.updated_at)!,
    nextAttemptAt: toDate(row.next_attempt_at),
    leaseOwner: (row.lease_owner as string | null) ?? null,
    leaseExpiresAt: toDate(row.lease_expires_at),
    attempts: Number(row.attempts),
    risk: (row.risk as PostRow['risk']) ?? null,
    preflightCheckedAt: toDate(row.preflight_checked_at),
    recycle: (row.recycle as PostRow['recycle']) ?? null,
    recycledFrom:
      row.recycled_from === null || row.recycled_from === undefined ? null : String(row.recycled_from),
    recycleIndex:
      row.recycle_index === null || row.recycle_index === undefined ? null : Number(row.recycle_index),
    approval: (row.approval as PostRow['approval']) ?? null,
    targets: (row.targets as ExistingTarget[] | null) ?? [],
  };
}

/**
 * Claims due posts with a lease and marks them taken in one statement, returning each post with
 * its targets' states. SKIP LOCKED lets concurrent dispatchers claim disjoint sets; pushing
 * `next_attempt_at` to the lease expiry means a post whose dispatcher died becomes due again
 * exactly when its lease runs out.
 */
export async function claimDuePosts(
  ctx: AppContext,
  owner: string,
  limit: number,
  leaseMs: number,
): Promise<ClaimedPost[]> {
  const now = new Date();
  const leaseUntil = new Date(now.getTime() + leaseMs).toISOString();
  const result = await ctx.db.execute(sql`
    WITH due AS (
      SELECT id FROM posts
      WHERE status = 'scheduled' AND next_attempt_at <= ${now.toISOString()}::timestamptz
      ORDER BY next_attempt_at
      LIMIT ${limit}
      FOR UPDATE SKIP LOCKED
    )
    UPDATE posts AS p
    SET lease_owner = ${owner}, lease_expires_at = ${leaseUntil}::timestamptz,
      next_attempt_at = ${leaseUntil}::timestamptz, attempts = p.attempts + 1
    FROM due
    WHERE p.id = due.id
    RETURNING p.*, (
      SELECT coalesce(json_agg(json_build_object(
        'accountId', t.account_id, 'platform', t.platform, 'status', t.status, 'error', t.error,
        'claimOwner', t.claim_owner, 'dedupeHandle', t.dedupe_handle,
        'updatedAt', (extract(epoch FROM t.updated_at) * 1000)::float8,
        'parts', t.parts, 'firstComment', t.first_comment)), '[]'::json)
      FROM post_targets t WHERE t.post_id = p.id
    ) AS targets`);
  return rowsOf<Record<string, unknown>>(result).map(claimedPostFromRow);
}

/** Gives a claimed but untouched post back so the next dispatcher takes it without waiting for the lease. */
export async function releasePost(ctx: AppContext, postId: string, owner: string): Promise<void> {
  await ctx.db.execute(sql`
    UPDATE posts SET lease_owner = NULL, lease_expires_at = NULL, next_attempt_at = ${new Date().toISOString()}::timestamptz,
      attempts = attempts - 1
    WHERE id = ${postId} AND lease_owner = ${owner}`);
}

/** When the earliest scheduled post becomes due (the `posts_due` index answers it), or null. */
export async function earliestDueAt(ctx: AppContext): Promise<Date | null> {
  const result = await ctx.db.execute(sql`
    SELECT (extract(epoch FROM min(next_attempt_at)) * 1000)::float8 AS at
    FROM posts WHERE status = 'scheduled'`);
  const at = rowsOf<{ at: number | string | null }>(result)[0]?.at;
  return at === null || at === undefined ? null : new Date(Number(at));
}

/** Tells every instance listening on PostgreSQL that a post is due at `at`. */
export async function notifyDue(ctx: AppContext, at: Date): Promise<void> {
  await ctx.db.execute(sql`SELECT pg_notify(${dueChannel}, ${String(at.getTime())})`);
}
