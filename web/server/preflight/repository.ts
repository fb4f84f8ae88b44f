import { sql } from 'drizzle-orm';
import type { AppContext } from '#server/context.ts';
import { type Db, dateOrNull, rowsOf } from '#server/db/access.ts';
import type { PostRisk, StoredMedia } from '#server/db/schema.ts';

/*
 * The only SQL of the pre-flight check (docs/dispatch.md#pre-flight): claiming scheduled posts
 * due within the lead that were not checked since they last changed (or that are at risk and due
 * for another look), and recording what the check found.
 */

export interface PreflightClaim {
  id: string;
  workspaceId: string;
  /** The post's author, told by e-mail when it becomes at risk (null: a feed made it, or the author left). */
  userId: string | null;
  accountIds: string[];
  media: StoredMedia[];
  risk: PostRisk | null;
}

/** Scheduled, not being published, due within the lead and not yet due, and not checked since its last change. */
function needsCheck(leadMs: number, recheckMs: number, now: string) {
  return sql`p.status = 'scheduled' AND p.lease_owner IS NULL AND p.attempts = 0
    AND p.next_attempt_at > ${now}::timestamptz
    AND p.next_attempt_at <= ${now}::timestamptz + ${leadMs} * interval '1 millisecond'
    AND (p.preflight_checked_at IS NULL OR p.preflight_checked_at < p.updated_at
      OR (p.risk IS NOT NULL AND p.preflight_checked_at < ${now}::timestamptz - ${recheckMs} * interval '1 millisecond'))`;
}

/**
 * Marks up to `limit` posts as checked now and answers them: the mark is the claim (SKIP LOCKED
 * keeps concurrent instances apart, and a claimed post is not picked again until it changes or,
 * at risk, until the recheck interval has passed).
 */
export async function claimPreflights(
  ctx: AppContext,
  options: { leadMs: number; recheckMs: number; limit: number },
): Promise<PreflightClaim[]> {
  const now = new Date().toISOString();
  const result = await ctx.db.execute(sql`
    UPDATE posts SET preflight_checked_at = ${now}::timestamptz
    WHERE id IN (
      SELECT p.id FROM posts p
      WHERE ${needsCheck(options.leadMs, options.recheckMs, now)}
      ORDER BY p.next_attempt_at
      LIMIT ${options.limit}
      FOR UPDATE SKIP LOCKED)
    RETURNING id::text AS id, workspace_id::text AS "workspaceId", user_id::text AS "userId", account_ids AS "accountIds", media, risk`);
  return rowsOf<PreflightClaim>(result);
}

/** When the next check is due: a post entering the lead, or an at-risk post's next look. */
export async function earliestPreflightAt(
  ctx: AppContext,
  options: { leadMs: number; recheckMs: number },
): Promise<Date | null> {
  const result = await ctx.db.execute(sql`
    SELECT min(CASE
        WHEN p.preflight_checked_at IS NULL OR p.preflight_checked_at < p.updated_at
          THEN p.next_attempt_at - ${options.leadMs} * interval '1 millisecond'
        ELSE p.preflight_checked_at + ${options.recheckMs} * interval '1 millisecond'
      END) AS at
    FROM posts p
    WHERE p.status = 'scheduled' AND p.lease_owner IS NULL AND p.attempts = 0
      AND (p.preflight_checked_at IS NULL OR p.preflight_checked_at < p.updated_at OR p.risk IS NOT NULL)`);
  return dateOrNull(rowsOf<{ at: unknown }>(result)[0]?.at);
}

/**
 * Records what a check found on a post that is still scheduled and unclaimed by dispatch; answers
 * whether the post became at risk with this check (it was not before), or null when the post has
 * moved on (published, edited into a draft, deleted). `updated_at` is left alone: a check is not
 * an edit.
 */
export async function recordRisk(
  ctx: Db,
  postId: string,
  risk: PostRisk | null,
): Promise<{ newlyAtRisk: boolean } | null> {
  const result = await ctx.db.execute(sql`
    WITH before AS (SELECT id, risk FROM posts WHERE id = ${postId}::uuid AND status = 'scheduled' FOR UPDATE)
    UPDATE posts p SET risk = ${risk ? JSON.stringify(risk) : null}::jsonb
    FROM before
    WHERE p.id = before.id
    RETURNING (before.risk IS NULL) AS "wasFine"`);
  const row = rowsOf<{ wasFine: boolean }>(result)[0];
  return row ? { newlyAtRisk: risk !== null && row.wasFine } : null;
}
