import type { TargetOutcome } from '@postwave/shared';
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { AppContext } from '#server/context.ts';
import { rowsOf } from '#server/db/access.ts';
import { arrayLiteral } from '#server/db/array-literal.ts';
import { executePrepared } from '#server/db/prepared.ts';
import { posts, postTargets, type StoredPart, type StoredStep } from '#server/db/schema.ts';

/*
 * The only SQL for a post's targets: the publish intents (claims), each target's result, and a
 * person's answer to an unknown outcome. The statements that run for every published target are
 * written as SQL: drizzle's query builder costs more CPU per statement than the database does to
 * run them.
 */

export type TargetRow = typeof postTargets.$inferSelect;
export type TargetView = Pick<
  TargetRow,
  | 'accountId'
  | 'platform'
  | 'status'
  | 'platformPostId'
  | 'url'
  | 'error'
  | 'parts'
  | 'firstComment'
  | 'details'
>;

/** What a publisher needs to know about a target it may (re)claim. */
export interface ExistingTarget {
  accountId: string;
  platform: string;
  status: TargetRow['status'];
  error: TargetRow['error'];
  claimOwner: string | null;
  dedupeHandle: string | null;
  /** When the row last changed (ms since the epoch): for a `publishing` row, when its intent was recorded. */
  updatedAt: number;
  /** A thread's parts as far as they went; a retry continues after the posted ones. */
  parts: StoredPart[] | null;
  firstComment: StoredStep | null;
}

export interface TargetClaim {
  postId: string;
  accountId: string;
  platform: string;
  owner: string;
  /** The platform's dedupe handle for a first send; a handle stored by an earlier intent wins. */
  dedupeHandle: string | null;
}

/** Undefined: not the caller's to send. Otherwise the intent as stored. */
export type ClaimAnswer = { dedupeHandle: string | null } | undefined;

export interface RecordedResult {
  postId: string;
  owner: string;
  result: TargetOutcome;
}

/** A thread step posted, and the next step's intent, recorded before that step is sent. */
export interface RecordedStep {
  postId: string;
  accountId: string;
  owner: string;
  parts: StoredPart[] | null;
  firstComment: StoredStep | null;
  /** The dedupe handle of the next step (the target's handle always belongs to its first unposted step). */
  dedupeHandle: string | null;
}

/** Each post's target results as JSON, fetched with a page of posts in the same statement. */
export const targetViewsJson = sql<TargetView[]>`(
  SELECT coalesce(json_agg(json_build_object(
    'accountId', t.account_id, 'platform', t.platform, 'status', t.status,
    'platformPostId', t.platform_post_id, 'url', t.url, 'error', t.error,
    'parts', t.parts, 'firstComment', t.first_comment, 'details', t.details)), '[]'::json)
  FROM post_targets t WHERE t.post_id = ${posts.id})`;

export async function targetsOf(ctx: AppContext, postId: string): Promise<TargetRow[]> {
  return ctx.db.select().from(postTargets).where(eq(postTargets.postId, postId));
}

/** Results of targets that were dropped and never posted no longer mean anything. */
export async function deleteDroppedTargets(ctx: AppContext, postId: string, keep: string[]): Promise<void> {
  await ctx.db
    .delete(postTargets)
    .where(
      and(
        eq(postTargets.postId, postId),
        sql`${postTargets.status} <> 'posted'`,
        sql`NOT (${postTargets.accountId} = ANY(${sql.param(keep)}::text[]))`,
      ),
    );
}

export async function postedAccountIds(ctx: AppContext, postId: string): Promise<Set<string>> {
  const rows = await ctx.db
    .select({ accountId: postTargets.accountId })
    .from(postTargets)
    .where(and(eq(postTargets.postId, postId), eq(postTargets.status, 'posted')));
  return new Set(rows.map((r) => r.accountId));
}

export async function targetStates(ctx: AppContext, postId: string): Promise<ExistingTarget[]> {
  const result = await ctx.db.execute(sql`
    SELECT account_id AS "accountId", platform, status, error, claim_owner AS "claimOwner",
      dedupe_handle AS "dedupeHandle", (extract(epoch FROM updated_at) * 1000)::float8 AS "updatedAt",
      parts, first_comment AS "firstComment"
    FROM post_targets WHERE post_id = ${postId}::uuid`);
  return rowsOf<ExistingTarget>(result);
}

/** Marks `unknown` the intents another lease holder left `publishing` (they never reported back). */
export async function markTargetsUnknown(
  ctx: AppContext,
  postId: string,
  accountIds: string[],
  owner: string,
  error: NonNullable<TargetRow['error']>,
): Promise<void> {
  await ctx.db
    .update(postTargets)
    .set({ status: 'unknown', error, claimOwner: owner, updatedAt: new Date() })
    .where(
      and(
        eq(postTargets.postId, postId),
        inArray(postTargets.accountId, accountIds),
        eq(postTargets.status, 'publishing'),
        sql`${postTargets.claimOwner} <> ${owner}`,
      ),
    );
}

/**
 * Records publish intents, of one post or many, in one statement: a `publishing` row holding the
 * claimer and the platform's dedupe handle, written before the platform is called. New targets
 * and failed ones may be claimed, never posted or in-flight ones (a guarded upsert). A handle
 * already stored is kept, so every send of a target carries the same one. Answers, per claim,
 * the stored intent, or undefined when the target is not the caller's to send.
 */
export async function claimTargets(ctx: AppContext, claims: readonly TargetClaim[]): Promise<ClaimAnswer[]> {
  const at = new Date().toISOString();
  // Arrays per column (one statement text whatever the batch's size), as resultsUpdate.
  const column = (pick: (c: TargetClaim) => string | null | undefined) => arrayLiteral(claims.map(pick));
  const result = await executePrepared(
    ctx.db,
    sql`
    INSERT INTO post_targets (post_id, account_id, platform, status, claim_owner, dedupe_handle, attempts, updated_at)
    SELECT c.post_id, c.account_id, c.platform, 'publishing', c.owner, c.dedupe_handle, 1, ${at}::timestamptz
    FROM unnest(${column((c) => c.postId)}::uuid[], ${column((c) => c.accountId)}::text[],
      ${column((c) => c.platform)}::text[], ${column((c) => c.owner)}::text[], ${column((c) => c.dedupeHandle)}::text[])
      AS c(post_id, account_id, platform, owner, dedupe_handle)
    ON CONFLICT (post_id, account_id) DO UPDATE
      SET status = 'publishing', claim_owner = excluded.claim_owner, error = NULL,
        dedupe_handle = coalesce(post_targets.dedupe_handle, excluded.dedupe_handle),
        attempts = post_targets.attempts + 1, updated_at = excluded.updated_at
      WHERE post_targets.status = 'failed'
    RETURNING post_id::text AS "postId", account_id AS "accountId", dedupe_handle AS "dedupeHandle"`,
  );
  const won = new Map(
    rowsOf<{ postId: string; accountId: string; dedupeHandle: string | null }>(result).map((r) => [
      `${r.postId}|${r.accountId}`,
      { dedupeHandle: r.dedupeHandle },
    ]),
  );
  return claims.map((c) => won.get(`${c.postId}|${c.accountId}`));
}

/**
 * Takes over intents that `previousOwner` left `publishing` (it died or lost its lease), to resume
 * them where the platform makes a resend safe. Only the holder of the post's lease may, and only
 * from the owner it saw: a live claimer that raced in since keeps its intent. Answers the stored
 * dedupe handle per account taken over.
 */
export async function resumeTargets(
  ctx: AppContext,
  postId: string,
  targets: readonly { accountId: string; previousOwner: string }[],
  owner: string,
): Promise<Map<string, string | null>> {
  if (targets.length === 0) return new Map();
  const values = sql.join(
    targets.map((t) => sql`(${t.accountId}::text, ${t.previousOwner}::text)`),
    sql`, `,
  );
  const result = await ctx.db.execute(sql`
    UPDATE post_targets AS t
    SET claim_owner = ${owner}, attempts = t.attempts + 1
    FROM (VALUES ${values}) AS v(account_id, previous_owner)
    WHERE t.post_id = ${postId}::uuid AND t.account_id = v.account_id AND t.status = 'publishing'
      AND t.claim_owner = v.previous_owner
      AND EXISTS (SELECT 1 FROM posts p WHERE p.id = t.post_id AND p.lease_owner = ${owner})
    RETURNING t.account_id AS "accountId", t.dedupe_handle AS "dedupeHandle"`);
  return new Map(
    rowsOf<{ accountId: string; dedupeHandle: string | null }>(result).map((r) => [
      r.accountId,
      r.dedupeHandle,
    ]),
  );
}

/**
 * A person's answer to `unknown` targets: `posted` (they checked the account) or `failed` (to be
 * sent again). Only `unknown` targets change; answers the account ids that changed.
 */
export async function resolveUnknownTargets(
  ctx: AppContext,
  postId: string,
  accountIds: readonly string[] | undefined,
  status: 'posted' | 'failed',
): Promise<string[]> {
  const error =
    status === 'failed'
      ? JSON.stringify({
          code: 'outcome_unknown',
          message: 'The outcome of an interrupted send was unknown; sent again on request',
          retryable: true,
        })
      : null;
  const result = await ctx.db.execute(sql`
    UPDATE post_targets SET status = ${status}, error = ${error}::jsonb, updated_at = ${new Date().toISOString()}::timestamptz
    WHERE post_id = ${postId}::uuid AND status = 'unknown'
      ${accountIds ? sql`AND account_id = ANY(${sql.param([...accountIds])}::text[])` : sql``}
    RETURNING account_id AS "accountId"`);
  return rowsOf<{ accountId: string }>(result).map((r) => r.accountId);
}

/** The UPDATE that writes target results (only where the writer still holds the claim). */
export function resultsUpdate(results: readonly RecordedResult[], at: string) {
  // One array per column, not a VALUES row per result: the statement's text and its parameters
  // stay the same size however many results it carries (less to build here, less to parse there).
  const json = (value: unknown) => (value ? JSON.stringify(value) : null);
  const column = (pick: (r: RecordedResult) => string | null | undefined) => arrayLiteral(results.map(pick));
  return sql`UPDATE post_targets AS t
    SET status = r.status, platform_post_id = r.platform_post_id, url = r.url, error = r.error::jsonb,
      updated_at = ${at}::timestamptz, parts = coalesce(r.parts::jsonb, t.parts),
      first_comment = coalesce(r.first_comment::jsonb, t.first_comment),
      details = coalesce(r.details::jsonb, t.details)
    FROM unnest(${column((r) => r.postId)}::uuid[], ${column((r) => r.result.accountId)}::text[],
      ${column((r) => r.owner)}::text[], ${column((r) => r.result.status)}::text[],
      ${column((r) => r.result.platformPostId ?? null)}::text[], ${column((r) => r.result.url ?? null)}::text[],
      ${column((r) => json(r.result.error))}::text[], ${column((r) => json(r.result.parts))}::text[],
      ${column((r) => json(r.result.firstComment))}::text[], ${column((r) => json(r.result.details))}::text[])
      AS r(post_id, account_id, owner, status, platform_post_id, url, error, parts, first_comment, details)
    WHERE t.post_id = r.post_id AND t.account_id = r.account_id AND t.claim_owner = r.owner`;
}

/**
 * Records a posted thread step together with the next step's intent (its dedupe handle), before
 * that step is sent; only while the writer still holds the target's claim. False when it does not.
 */
export async function recordStep(ctx: AppContext, step: RecordedStep): Promise<boolean> {
  const result = await ctx.db.execute(sql`
    UPDATE post_targets
    SET parts = ${step.parts ? JSON.stringify(step.parts) : null}::jsonb,
      first_comment = ${step.firstComment ? JSON.stringify(step.firstComment) : null}::jsonb,
      dedupe_handle = ${step.dedupeHandle}::text, updated_at = ${new Date().toISOString()}::timestamptz
    WHERE post_id = ${step.postId}::uuid AND account_id = ${step.accountId} AND claim_owner = ${step.owner}
      AND status = 'publishing'
    RETURNING account_id`);
  return rowsOf(result).length > 0;
}

export async function recordResults(ctx: AppContext, results: readonly RecordedResult[]): Promise<void> {
  if (results.length) await ctx.db.execute(resultsUpdate(results, new Date().toISOString()));
}

/** A post that no longer validates fails per target, saying why; only missing or failed targets change. */
export async function recordFailedTargets(
  ctx: AppContext,
  rows: (typeof postTargets.$inferInsert)[],
  owner: string,
): Promise<void> {
  if (rows.length === 0) return;
  const now = new Date();
  await ctx.db
    .insert(postTargets)
    .values(rows)
    .onConflictDoUpdate({
      target: [postTargets.postId, postTargets.accountId],
      set: { status: 'failed', error: sql`excluded.error`, claimOwner: owner, updatedAt: now },
      setWhere: sql`${postTargets.status} = 'failed'`,
    });
}
