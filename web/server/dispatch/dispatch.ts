import { recordDispatchLateness } from '@postwave/shared';
import { sql } from 'drizzle-orm';
import type { AppContext } from '../context.ts';
import { isShuttingDown } from '../lifecycle/shutdown.ts';
import { type ExistingTarget, type PostRow, publishLeasedPost } from '../services/publishing.ts';
import { finalizationBatcher, targetClaimBatcher } from './batches.ts';

export interface DispatchSummary {
  claimed: number;
  posted: number;
  failed: number;
  /** Went back to `scheduled` after a transient failure, to be retried later. */
  rescheduled: number;
  /** Claimed but not started before the time budget ran out; handed back at once. */
  released: number;
}

export interface DispatchOptions {
  batchSize: number;
  concurrency: number;
  timeBudgetMs: number;
  leaseMs: number;
  maxAttempts: number;
  retryBaseMs: number;
  /** Identifies this dispatcher in lease columns (logs, debugging). */
  owner?: string;
}

export function dispatchOptions(ctx: AppContext): DispatchOptions {
  return { ...ctx.config.dispatcher };
}

export type ClaimedPost = PostRow & { targets: ExistingTarget[] };

const toDate = (value: unknown): Date | null =>
  value === null || value === undefined ? null : value instanceof Date ? value : new Date(String(value));

/** A raw `posts` row (snake_case, as `execute()` returns it) as the drizzle row type. */
function claimedPostFromRow(row: Record<string, unknown>): ClaimedPost {
  return {
    id: String(row.id),
    userId: String(row.user_id),
    status: row.status as PostRow['status'],
    message: String(row.message),
    accountIds: row.account_ids as string[],
    media: row.media as PostRow['media'],
    accountOptions: row.account_options as PostRow['accountOptions'],
    scheduledAt: toDate(row.scheduled_at),
    postedAt: toDate(row.posted_at),
    createdAt: toDate(row.created_at)!,
    updatedAt: toDate(row.updated_at)!,
    nextAttemptAt: toDate(row.next_attempt_at),
    leaseOwner: (row.lease_owner as string | null) ?? null,
    leaseExpiresAt: toDate(row.lease_expires_at),
    attempts: Number(row.attempts),
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
        'accountId', t.account_id, 'status', t.status, 'error', t.error, 'claimOwner', t.claim_owner)), '[]'::json)
      FROM post_targets t WHERE t.post_id = p.id
    ) AS targets`);
  return (result as unknown as { rows: Record<string, unknown>[] }).rows.map(claimedPostFromRow);
}

/** Gives a claimed but untouched post back so the next dispatcher takes it without waiting for the lease. */
async function release(ctx: AppContext, post: PostRow, owner: string): Promise<void> {
  await ctx.db.execute(sql`
    UPDATE posts SET lease_owner = NULL, lease_expires_at = NULL, next_attempt_at = ${new Date().toISOString()}::timestamptz,
      attempts = attempts - 1
    WHERE id = ${post.id} AND lease_owner = ${owner}`);
}

/**
 * One dispatch run: claim due posts batch by batch and publish them with bounded concurrency,
 * until nothing is due or the time budget is spent. Posts claimed but not started by then are
 * released; posts in flight finish (their publish deadline is the budget's end).
 */
export async function dispatchDuePosts(ctx: AppContext, options: DispatchOptions): Promise<DispatchSummary> {
  const owner = options.owner ?? `dispatch:${crypto.randomUUID()}`;
  const started = Date.now();
  const budgetEnd = started + options.timeBudgetMs;
  const summary: DispatchSummary = { claimed: 0, posted: 0, failed: 0, rescheduled: 0, released: 0 };
  const queue: ClaimedPost[] = [];
  let exhausted = false;
  let claiming: Promise<void> | undefined;
  const run = {
    accounts: new Map(),
    batches: { claims: targetClaimBatcher(ctx), finalizations: finalizationBatcher(ctx) },
  };

  const refill = async () => {
    if (exhausted || Date.now() >= budgetEnd || isShuttingDown()) {
      exhausted = true;
      return;
    }
    const batch = await claimDuePosts(ctx, owner, options.batchSize, options.leaseMs);
    summary.claimed += batch.length;
    queue.push(...batch);
    if (batch.length < options.batchSize) exhausted = true;
  };

  const worker = async () => {
    for (;;) {
      if (queue.length === 0) {
        if (exhausted) return;
        claiming ??= refill().finally(() => {
          claiming = undefined;
        });
        await claiming;
        continue;
      }
      const post = queue.shift()!;
      // Out of time, or shutting down: a claim not started goes back at once, for another instance.
      if (Date.now() >= budgetEnd || isShuttingDown()) {
        await release(ctx, post, owner);
        summary.released++;
        continue;
      }
      if (post.attempts === 1) recordDispatchLateness(post.scheduledAt);
      try {
        const outcome = await publishLeasedPost(
          ctx,
          post,
          owner,
          {
            kind: 'dispatch',
            maxAttempts: options.maxAttempts,
            retryBaseMs: options.retryBaseMs,
            deadline: Math.max(budgetEnd, Date.now() + 10_000),
          },
          undefined,
          run,
        );
        if (outcome.status === 'posted') summary.posted++;
        else if (outcome.status === 'failed') summary.failed++;
        else if (outcome.status === 'scheduled') summary.rescheduled++;
      } catch (error) {
        // The lease stays: the post becomes due again when it expires, and the next run retries it.
        ctx.logger.error({ err: error, postId: post.id }, 'dispatching a post failed unexpectedly');
      }
    }
  };

  await Promise.all(Array.from({ length: Math.max(1, options.concurrency) }, worker));
  // An idle run every 15 s is not news: log runs that did something at info, the rest at debug.
  const level = summary.claimed > 0 ? 'info' : 'debug';
  ctx.logger[level]({ ...summary, ms: Date.now() - started }, 'dispatch run finished');
  return summary;
}
