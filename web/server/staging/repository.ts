import { sql } from 'drizzle-orm';
import type { AppContext } from '#server/context.ts';
import { rowsOf, dateOrNull as toDate } from '#server/db/access.ts';
import type { StagingStatus } from '#server/db/schema.ts';
import type { PostRow } from '#server/posts/repository.ts';

/*
 * The only SQL of staging (`post_stagings`): claiming posts due within the lead whose video
 * targets are not staged yet, recording what staging did, renewing its leases, and what the
 * due-time publish and the API read back. Every statement runs on PGlite and PostgreSQL alike.
 * Forgetting stagings and discarding uploads (`staged_discards`) are in discard-repository.ts.
 */

export interface StagingClaim {
  post: Pick<PostRow, 'id' | 'workspaceId' | 'message' | 'accountIds' | 'media' | 'accountOptions'> & {
    scheduledAt: Date | null;
  };
  /** The targets this claim holds (`staging`, leased to the claimer). */
  targets: { accountId: string; platform: string }[];
}

export interface StagingResult {
  postId: string;
  accountId: string;
  platform: string;
  status: Extract<StagingStatus, 'staged' | 'stage_failed'>;
  handle: string | null;
  expiresAt: Date | null;
  contentKey: string;
  error: { code: string; message: string; retryable: boolean } | null;
}

export interface StagingView {
  accountId: string;
  platform: string;
  status: StagingStatus;
  expiresAt: Date | null;
  error: { code: string; message: string; retryable: boolean } | null;
}

/**
 * A target may be staged when its post is scheduled, not yet due, due within the lead, was never
 * tried (a retry round publishes as usual), has video, and the target has no staging row or only
 * one whose stager's lease ran out (it died mid-upload).
 */
function stageableTargets(platforms: readonly string[], now: string) {
  return sql`SELECT aid.value AS account_id, a.platform
    FROM jsonb_array_elements_text(p.account_ids) AS aid(value)
    JOIN accounts a ON a.id::text = aid.value AND a.workspace_id = p.workspace_id
    WHERE a.platform = ANY(${sql.param([...platforms])}::text[])
      AND NOT EXISTS (
        SELECT 1 FROM post_stagings s
        WHERE s.post_id = p.id AND s.account_id = aid.value
          AND NOT (s.status = 'staging' AND s.lease_expires_at < ${now}::timestamptz))`;
}

const hasVideo = sql`EXISTS (SELECT 1 FROM jsonb_array_elements(p.media) m WHERE m->>'contentType' LIKE 'video/%')`;

/**
 * Claims up to `limit` posts for staging in one statement: the posts are locked with SKIP LOCKED
 * (concurrent stagers and dispatchers take disjoint sets), and each stageable target gets a
 * `staging` row leased to `owner` (an upsert that takes over only expired leases).
 */
export async function claimStagings(
  ctx: AppContext,
  owner: string,
  options: { limit: number; leaseMs: number; leadMs: number; platforms: readonly string[] },
): Promise<StagingClaim[]> {
  if (options.platforms.length === 0 || options.limit <= 0) return [];
  const now = new Date();
  const nowIso = now.toISOString();
  const horizon = new Date(now.getTime() + options.leadMs).toISOString();
  const leaseUntil = new Date(now.getTime() + options.leaseMs).toISOString();
  const result = await ctx.db.execute(sql`
    WITH candidates AS (
      SELECT p.id FROM posts p
      WHERE p.status = 'scheduled' AND p.attempts = 0 AND p.lease_owner IS NULL
        AND p.next_attempt_at > ${nowIso}::timestamptz AND p.next_attempt_at <= ${horizon}::timestamptz
        AND ${hasVideo}
        AND EXISTS (${stageableTargets(options.platforms, nowIso)})
      ORDER BY p.next_attempt_at
      LIMIT ${options.limit}
      FOR UPDATE OF p SKIP LOCKED
    ),
    wanted AS (
      SELECT p.id AS post_id, t.account_id, t.platform
      FROM candidates c JOIN posts p ON p.id = c.id
      CROSS JOIN LATERAL (${stageableTargets(options.platforms, nowIso)}) AS t
    ),
    claimed AS (
      INSERT INTO post_stagings (post_id, account_id, platform, status, content_key, lease_owner, lease_expires_at, updated_at)
      SELECT post_id, account_id, platform, 'staging', '', ${owner}, ${leaseUntil}::timestamptz, ${nowIso}::timestamptz
      FROM wanted
      ON CONFLICT (post_id, account_id) DO UPDATE
        SET status = 'staging', handle = NULL, expires_at = NULL, error = NULL,
          lease_owner = excluded.lease_owner, lease_expires_at = excluded.lease_expires_at,
          updated_at = excluded.updated_at
        WHERE post_stagings.status = 'staging' AND post_stagings.lease_expires_at < ${nowIso}::timestamptz
      RETURNING post_id, account_id, platform
    )
    SELECT p.id::text AS id, p.workspace_id::text AS "workspaceId", p.message, p.account_ids AS "accountIds",
      p.media, p.account_options AS "accountOptions", p.scheduled_at AS "scheduledAt",
      json_agg(json_build_object('accountId', c.account_id, 'platform', c.platform)) AS targets
    FROM claimed c JOIN posts p ON p.id = c.post_id
    GROUP BY p.id`);
  return rowsOf<Record<string, unknown>>(result).map((row) => ({
    post: {
      id: String(row.id),
      workspaceId: String(row.workspaceId),
      message: String(row.message),
      accountIds: row.accountIds as string[],
      media: row.media as PostRow['media'],
      accountOptions: row.accountOptions as PostRow['accountOptions'],
      scheduledAt: toDate(row.scheduledAt),
    },
    targets: row.targets as StagingClaim['targets'],
  }));
}

/**
 * When the stager should next look: the earliest moment a post with video enters the lead, or a
 * dead stager's lease runs out. Null: nothing to stage.
 */
export async function earliestStageAt(
  ctx: AppContext,
  leadMs: number,
  platforms: readonly string[],
): Promise<Date | null> {
  if (platforms.length === 0) return null;
  const nowIso = new Date().toISOString();
  const result = await ctx.db.execute(sql`
    SELECT (extract(epoch FROM least(
      (SELECT p.next_attempt_at - make_interval(secs => ${leadMs / 1000}::float8) FROM posts p
        WHERE p.status = 'scheduled' AND p.attempts = 0 AND p.lease_owner IS NULL
          AND p.next_attempt_at > ${nowIso}::timestamptz AND ${hasVideo}
          AND EXISTS (${stageableTargets(platforms, nowIso)})
        ORDER BY p.next_attempt_at LIMIT 1),
      (SELECT min(s.lease_expires_at) FROM post_stagings s JOIN posts p ON p.id = s.post_id
        WHERE s.status = 'staging' AND p.status = 'scheduled' AND p.attempts = 0 AND p.lease_owner IS NULL
          AND p.next_attempt_at > ${nowIso}::timestamptz)
    )) * 1000)::float8 AS at`);
  const at = rowsOf<{ at: number | string | null }>(result)[0]?.at;
  return at === null || at === undefined ? null : new Date(Number(at));
}

/**
 * Writes what staging did, only where `owner` still holds the row. A staged upload whose row is
 * gone (the post was edited, deleted, or another stager took over) is queued for discarding on
 * platforms in `discardPlatforms`, in the same statement. Answers the queued discards' ids.
 */
export async function recordStagings(
  ctx: AppContext,
  owner: string,
  workspaceId: string,
  results: readonly StagingResult[],
  discardPlatforms: readonly string[],
): Promise<string[]> {
  if (results.length === 0) return [];
  const at = new Date().toISOString();
  const values = sql.join(
    results.map(
      (r) => sql`(${r.postId}::uuid, ${r.accountId}::text, ${r.platform}::text, ${r.status}::text,
        ${r.handle}::text, ${r.expiresAt?.toISOString() ?? null}::timestamptz, ${r.contentKey}::text,
        ${r.error ? JSON.stringify(r.error) : null}::jsonb)`,
    ),
    sql`, `,
  );
  const result = await ctx.db.execute(sql`
    WITH v(post_id, account_id, platform, status, handle, expires_at, content_key, error) AS (VALUES ${values}),
    updated AS (
      UPDATE post_stagings AS s
      SET status = v.status, handle = v.handle, expires_at = v.expires_at, content_key = v.content_key,
        error = v.error, lease_owner = NULL, lease_expires_at = NULL, updated_at = ${at}::timestamptz
      FROM v
      WHERE s.post_id = v.post_id AND s.account_id = v.account_id AND s.status = 'staging'
        AND s.lease_owner = ${owner}
      RETURNING s.post_id, s.account_id
    )
    INSERT INTO staged_discards (id, workspace_id, account_id, platform, handle, post_id, attempts, next_attempt_at, created_at)
    SELECT gen_random_uuid(), u.id, v.account_id, v.platform, v.handle, v.post_id, 0, ${at}::timestamptz, ${at}::timestamptz
    FROM v JOIN workspaces u ON u.id = ${workspaceId}::uuid
    WHERE v.status = 'staged' AND v.handle IS NOT NULL
      AND v.platform = ANY(${sql.param([...discardPlatforms])}::text[])
      AND NOT EXISTS (SELECT 1 FROM updated WHERE updated.post_id = v.post_id AND updated.account_id = v.account_id)
    RETURNING id::text AS id`);
  return rowsOf<{ id: string }>(result).map((r) => r.id);
}

/** Hands back `owner`'s unfinished claims of a post (an upload cut off): another pass stages it again. */
export async function releaseStagings(ctx: AppContext, owner: string, postId: string): Promise<void> {
  await ctx.db.execute(sql`
    DELETE FROM post_stagings
    WHERE post_id = ${postId}::uuid AND status = 'staging' AND lease_owner = ${owner}`);
}

/** Keeps `owner`'s staging leases alive while its uploads run (one statement for all of them). */
export async function renewStagingLeases(
  ctx: AppContext,
  owner: string,
  postIds: readonly string[],
  leaseMs: number,
): Promise<void> {
  if (postIds.length === 0) return;
  const until = new Date(Date.now() + leaseMs).toISOString();
  await ctx.db.execute(sql`
    UPDATE post_stagings SET lease_expires_at = ${until}::timestamptz
    WHERE lease_owner = ${owner} AND status = 'staging'
      AND post_id = ANY(${sql.param([...postIds])}::uuid[])`);
}

/** The staged handles a due-time publish may use: staged, not expired, of this content. */
export async function stagedHandles(
  ctx: AppContext,
  postId: string,
): Promise<{ accountId: string; handle: string; contentKey: string }[]> {
  const result = await ctx.db.execute(sql`
    SELECT account_id AS "accountId", handle, content_key AS "contentKey" FROM post_stagings
    WHERE post_id = ${postId}::uuid AND status = 'staged' AND handle IS NOT NULL
      AND expires_at > ${new Date().toISOString()}::timestamptz`);
  return rowsOf(result);
}

/** The staging state of some posts, for the API. */
export async function stagingsOf(
  ctx: AppContext,
  postIds: readonly string[],
): Promise<Map<string, StagingView[]>> {
  const byPost = new Map<string, StagingView[]>();
  if (postIds.length === 0) return byPost;
  const result = await ctx.db.execute(sql`
    SELECT post_id::text AS "postId", account_id AS "accountId", platform, status, expires_at AS "expiresAt", error
    FROM post_stagings WHERE post_id = ANY(${sql.param([...postIds])}::uuid[])
    ORDER BY account_id`);
  for (const row of rowsOf<Record<string, unknown>>(result)) {
    const list = byPost.get(String(row.postId)) ?? [];
    list.push({
      accountId: String(row.accountId),
      platform: String(row.platform),
      status: row.status as StagingStatus,
      expiresAt: toDate(row.expiresAt),
      error: (row.error as StagingView['error']) ?? null,
    });
    byPost.set(String(row.postId), list);
  }
  return byPost;
}
