import { sql } from 'drizzle-orm';
import type { AppContext } from '#server/context.ts';
import { dateOrNull, rowsOf } from '#server/db/access.ts';

/*
 * The only SQL of discarding staged uploads (`staged_discards`): forgetting a post's stagings
 * after an edit or a delete with the uploads to remove queued in the same statement, and the
 * sweep's claims, retries and wake-up time (discard.ts).
 */

/**
 * Which of the rows `alias` (of `post_stagings`) are uploads to remove from the platform: staged,
 * on a platform that can discard, and never sent (a target with a publish intent or result may
 * have been published with its staged upload, which must then stay).
 */
function discardable(alias: string, discardPlatforms: readonly string[]) {
  const s = sql.raw(alias);
  return sql`${s}.status = 'staged' AND ${s}.handle IS NOT NULL
    AND ${s}.platform = ANY(${sql.param([...discardPlatforms])}::text[])
    AND NOT EXISTS (SELECT 1 FROM post_targets t WHERE t.post_id = ${s}.post_id AND t.account_id = ${s}.account_id)`;
}

/** Queues the discardable rows of `source` (post_id, account_id, platform, status, handle, workspace_id). */
function queueDiscards(source: string, discardPlatforms: readonly string[], at: string) {
  return sql`INSERT INTO staged_discards (id, workspace_id, account_id, platform, handle, post_id, attempts, next_attempt_at, created_at)
    SELECT gen_random_uuid(), g.workspace_id, g.account_id, g.platform, g.handle, g.post_id, 0, ${at}::timestamptz, ${at}::timestamptz
    FROM ${sql.raw(source)} g WHERE ${discardable('g', discardPlatforms)}
    RETURNING id::text AS id`;
}

/**
 * Forgets a post's staging after an edit: everything (content, accounts, or a move back to draft),
 * or with `expiringBy` only handles the platform forgets before then (a reschedule), so a post
 * moved later than its handle lives is staged again when it comes within the lead. Uploads the
 * platform would keep are queued for discarding in the same statement; answers their ids.
 */
export async function clearStagings(
  ctx: AppContext,
  postId: string,
  discardPlatforms: readonly string[],
  expiringBy?: Date,
): Promise<string[]> {
  const at = new Date().toISOString();
  const result = await ctx.db.execute(sql`
    WITH gone AS (
      DELETE FROM post_stagings WHERE post_id = ${postId}::uuid
        ${expiringBy ? sql`AND (expires_at IS NULL OR expires_at <= ${expiringBy.toISOString()}::timestamptz)` : sql``}
      RETURNING post_id, account_id, platform, status, handle
    ),
    owned AS (SELECT gone.*, p.workspace_id FROM gone JOIN posts p ON p.id = gone.post_id)
    ${queueDiscards('owned', discardPlatforms, at)}`);
  return rowsOf<{ id: string }>(result).map((r) => r.id);
}

/**
 * Deletes an editable post nobody is publishing, and queues its staged uploads for discarding, in
 * one statement (the post row is locked, so no dispatcher claims it in between); false when the
 * post could not be deleted. Its `post_stagings` rows go with it (cascade). Answers the pending
 * recycled copies deleted with it too.
 */
export async function deletePostQueueingDiscards(
  ctx: AppContext,
  postId: string,
  editableStatuses: readonly string[],
  discardPlatforms: readonly string[],
): Promise<{ deleted: boolean; copies: string[]; discards: string[] }> {
  const at = new Date().toISOString();
  const result = await ctx.db.execute(sql`
    WITH original AS (
      SELECT id, workspace_id FROM posts
      WHERE id = ${postId}::uuid AND status = ANY(${sql.param([...editableStatuses])}::text[])
        AND (lease_expires_at IS NULL OR lease_expires_at < ${at}::timestamptz)
      FOR UPDATE
    ),
    -- Its recycled copies not yet published go with it (docs/recycling.md); posted ones stay.
    copies AS (
      SELECT c.id, c.workspace_id FROM posts c JOIN original o ON c.recycled_from = o.id
      WHERE c.status = ANY(${sql.param([...editableStatuses])}::text[])
        AND (c.lease_expires_at IS NULL OR c.lease_expires_at < ${at}::timestamptz)
        AND NOT EXISTS (SELECT 1 FROM post_targets t WHERE t.post_id = c.id AND t.status <> 'failed')
      FOR UPDATE OF c
    ),
    doomed AS (SELECT * FROM original UNION ALL SELECT * FROM copies),
    staged AS (
      SELECT s.post_id, s.account_id, s.platform, s.status, s.handle, d.workspace_id
      FROM post_stagings s JOIN doomed d ON d.id = s.post_id
    ),
    queued AS (${queueDiscards('staged', discardPlatforms, at)}),
    deleted AS (DELETE FROM posts p USING doomed d WHERE p.id = d.id RETURNING p.id)
    SELECT (SELECT count(*) FROM deleted WHERE id = ${postId}::uuid)::int AS deleted,
      coalesce((SELECT json_agg(id) FROM deleted WHERE id <> ${postId}::uuid), '[]'::json) AS copies,
      coalesce((SELECT json_agg(id) FROM queued), '[]'::json) AS discards`);
  const row = rowsOf<{ deleted: number; copies: string[]; discards: string[] }>(result)[0];
  return { deleted: Number(row?.deleted ?? 0) > 0, copies: row?.copies ?? [], discards: row?.discards ?? [] };
}

export interface StagedDiscard {
  id: string;
  workspaceId: string;
  accountId: string;
  platform: string;
  handle: string;
  postId: string;
  /** Attempts so far, this one included. */
  attempts: number;
}

/**
 * Claims due discards (all due ones, or only `ids`): SKIP LOCKED, and `next_attempt_at` moved a
 * lease ahead so no other sweep takes them while this one runs; a sweep that dies leaves them due
 * again after the lease.
 */
export async function claimStagedDiscards(
  ctx: AppContext,
  options: { limit: number; leaseMs: number; ids?: readonly string[] | undefined },
): Promise<StagedDiscard[]> {
  if (options.limit <= 0 || options.ids?.length === 0) return [];
  const now = new Date();
  const until = new Date(now.getTime() + options.leaseMs).toISOString();
  const result = await ctx.db.execute(sql`
    WITH due AS (
      SELECT id FROM staged_discards
      WHERE next_attempt_at <= ${now.toISOString()}::timestamptz
        ${options.ids ? sql`AND id = ANY(${sql.param([...options.ids])}::uuid[])` : sql``}
      ORDER BY next_attempt_at LIMIT ${options.limit}
      FOR UPDATE SKIP LOCKED
    )
    UPDATE staged_discards d SET next_attempt_at = ${until}::timestamptz, attempts = d.attempts + 1
    FROM due WHERE d.id = due.id
    RETURNING d.id::text AS id, d.workspace_id::text AS "workspaceId", d.account_id AS "accountId", d.platform,
      d.handle, d.post_id::text AS "postId", d.attempts`);
  return rowsOf<StagedDiscard>(result).map((r) => ({ ...r, attempts: Number(r.attempts) }));
}

/** A discard done (or given up): the row goes. */
export async function removeStagedDiscard(ctx: AppContext, id: string): Promise<void> {
  await ctx.db.execute(sql`DELETE FROM staged_discards WHERE id = ${id}::uuid`);
}

/** A discard that failed: tried again at `retryAt`. */
export async function retryStagedDiscard(
  ctx: AppContext,
  id: string,
  retryAt: Date,
  error: { code: string; message: string; retryable: boolean },
): Promise<void> {
  await ctx.db.execute(sql`
    UPDATE staged_discards SET next_attempt_at = ${retryAt.toISOString()}::timestamptz,
      last_error = ${JSON.stringify(error)}::jsonb
    WHERE id = ${id}::uuid`);
}

/** When the next discard is due; null: none queued. */
export async function earliestDiscardAt(ctx: AppContext): Promise<Date | null> {
  const result = await ctx.db.execute(sql`SELECT min(next_attempt_at) AS at FROM staged_discards`);
  return dateOrNull(rowsOf<{ at: unknown }>(result)[0]?.at);
}
