import { inArray, type SQL, sql } from 'drizzle-orm';
import type { AccountRow } from '#server/accounts/repository.ts';
import type { AppContext } from '#server/context.ts';
import { dateOrNull, rowsOf } from '#server/db/access.ts';
import { executePrepared } from '#server/db/prepared.ts';
import { accounts, type MetricsState } from '#server/db/schema.ts';
import { isUuid } from '#server/http/ids.ts';
import { heldBy, queueAccountsOf } from './collect-queue.ts';
import {
  bucketsOfTargets,
  type RollupBucket,
  recountRollups,
  refreshRollups,
  rollupsByDifference,
} from './collect-rollups.ts';

/*
 * The collectors' SQL (docs/analytics.md): enrolling posted targets and accounts, writing what a
 * collection found, and the followers' schedule. Targets are claimed by account, through the
 * queue (./collect-queue.ts): a target's outcome is written only while its collector holds its
 * account. Nothing here is scoped to an owner: collection serves all.
 */

/** One target's outcome, as the collector writes it: its schedule, and its figures when they came back. */
export type TargetOutcome = ScheduleOutcome | FiguresOutcome;

/** The platform did not report this target this time (or it is gone): no figures. */
interface ScheduleOutcome {
  postId: string;
  accountId: string;
  state: MetricsState;
  step: number;
  nextCollectAt: Date | null;
  metrics?: undefined;
}

interface FiguresOutcome extends Omit<ScheduleOutcome, 'metrics'> {
  metrics: Record<string, number>;
  engagement: number | null;
  impressions: number | null;
  /**
   * The figures the target had when claimed, which the rollups' difference is taken from (only the
   * holder of its account writes them, so they are still the row's).
   */
  old: { metrics: Record<string, number>; engagement: number | null };
}

const list = (values: readonly string[]): SQL =>
  sql.join(
    values.map((v) => sql`${v}`),
    sql`, `,
  );

/**
 * Gives every posted target without a metrics row one: `collecting` with its first collection
 * `firstOffsetMs` after it posted when its platform reports post metrics, else `unsupported` (its
 * post still counts in summaries). Answers how many rows it added.
 */
export async function enrollPostedTargets(
  ctx: AppContext,
  collecting: readonly string[],
  firstOffsetMs: number,
): Promise<number> {
  // A target with short links is collected for their clicks whatever its platform reports.
  const shortLinks = sql`EXISTS (SELECT 1 FROM target_links l WHERE l.post_id = t.post_id AND l.account_id = t.account_id AND l.ref IS NOT NULL)`;
  const supported =
    collecting.length > 0 ? sql`(t.platform IN (${list(collecting)}) OR ${shortLinks})` : shortLinks;
  const result = await ctx.db.execute(sql`
    WITH added AS (
    INSERT INTO target_metrics (post_id, account_id, platform, platform_post_id, url, posted_at, state, step, next_collect_at)
    SELECT t.post_id, t.account_id, t.platform, t.platform_post_id, t.url, coalesce(p.posted_at, t.updated_at),
      CASE WHEN ${supported} THEN 'collecting' ELSE 'unsupported' END, 0,
      CASE WHEN ${supported}
        THEN coalesce(p.posted_at, t.updated_at) + ${firstOffsetMs} * interval '1 millisecond' END
    FROM post_targets t JOIN posts p ON p.id = t.post_id
    WHERE t.status = 'posted' AND t.platform_post_id IS NOT NULL
      AND NOT EXISTS (SELECT 1 FROM target_metrics m WHERE m.post_id = t.post_id AND m.account_id = t.account_id)
    ON CONFLICT DO NOTHING
    RETURNING post_id, account_id, next_collect_at
    ), queued AS (${queueAccountsOf(sql`SELECT account_id, next_collect_at FROM added`)})
    SELECT post_id, account_id FROM added`);
  const added = rowsOf<{ post_id: string; account_id: string }>(result);
  if (added.length > 0) await refreshRollups(ctx, bucketsOfTargets(JSON.stringify(added)));
  return added.length;
}

/** The accounts of a round of claimed targets, in one query (ids that are not accounts are left out). */
export async function accountRowsById(ctx: AppContext, ids: readonly string[]): Promise<AccountRow[]> {
  const uuids = ids.filter(isUuid);
  if (uuids.length === 0) return [];
  return ctx.db.select().from(accounts).where(inArray(accounts.id, uuids));
}

/**
 * Writes outcomes of targets `owner` holds, their figures to the history and the difference they
 * make to the rollups, in one statement however many there are (a bucket to recompute takes one
 * more). A target whose account another collector took over meanwhile is left alone.
 */
export async function recordTargetOutcomes(
  ctx: AppContext,
  owner: string,
  outcomes: readonly TargetOutcome[],
  collectedAt: Date,
): Promise<void> {
  if (outcomes.length === 0) return;
  const at = collectedAt.toISOString();
  const rows = JSON.stringify(
    outcomes.map((o) => ({
      post_id: o.postId,
      account_id: o.accountId,
      metrics: o.metrics ?? null,
      engagement: o.metrics ? o.engagement : null,
      impressions: o.metrics ? o.impressions : null,
      state: o.state,
      step: o.step,
      next_collect_at: o.nextCollectAt?.toISOString() ?? null,
      ...(o.metrics ? { old_metrics: o.old.metrics, old_engagement: o.old.engagement } : {}),
    })),
  );
  // Each row carries the figures its target had when claimed (`old_*`, for the rollups' difference):
  // reading them again here took a second lookup of every target.
  const result = await executePrepared(
    ctx.db,
    sql`
    WITH x AS (
      SELECT * FROM jsonb_to_recordset(${rows}::jsonb) AS x(post_id uuid, account_id text, metrics jsonb,
        engagement int, impressions int, state text, step int, next_collect_at timestamptz,
        old_metrics jsonb, old_engagement int)
    ), kept AS (
      UPDATE target_metrics AS m
      SET state = x.state, step = x.step, next_collect_at = x.next_collect_at,
        metrics = coalesce(x.metrics, m.metrics),
        engagement = CASE WHEN x.metrics IS NULL THEN m.engagement ELSE x.engagement END,
        impressions = CASE WHEN x.metrics IS NULL THEN m.impressions ELSE x.impressions END,
        collected_at = CASE WHEN x.metrics IS NULL THEN m.collected_at ELSE ${at}::timestamptz END
      FROM x
      WHERE m.post_id = x.post_id AND m.account_id = x.account_id AND ${heldBy(owner, 'x.account_id')}
      RETURNING m.post_id, m.account_id, m.posted_at, x.metrics, x.engagement,
        coalesce(x.old_metrics, '{}'::jsonb) AS old_metrics, x.old_engagement
    ), history AS (
      INSERT INTO metric_snapshots (post_id, account_id, collected_at, metrics)
      SELECT post_id, account_id, ${at}::timestamptz, metrics FROM kept WHERE metrics IS NOT NULL
      ON CONFLICT DO NOTHING
    ),
    ${rollupsByDifference}`,
  );
  await recountRollups(ctx, rowsOf<RollupBucket>(result));
}

/**
 * Hands claimed targets back to be tried at `retryAt` (the same step: nothing was collected); their
 * account's next due time follows when it is given back (`releaseAccounts`).
 */
export async function postponeTargets(
  ctx: AppContext,
  owner: string,
  targets: readonly { postId: string; accountId: string }[],
  retryAt: Date,
): Promise<void> {
  if (targets.length === 0) return;
  const keys = JSON.stringify(targets.map((t) => ({ post_id: t.postId, account_id: t.accountId })));
  await ctx.db.execute(sql`
    UPDATE target_metrics AS m
    SET next_collect_at = ${retryAt.toISOString()}::timestamptz
    FROM jsonb_to_recordset(${keys}::jsonb) AS x(post_id uuid, account_id text)
    WHERE m.post_id = x.post_id AND m.account_id = x.account_id AND ${heldBy(owner, 'x.account_id')}`);
}

/**
 * Makes a post's targets due now, and their accounts (a refresh): those collecting, and those done
 * with their schedule (+30 d), which a person may still ask about; a done target collected this
 * way is done again after it (its schedule has no step left). Answers false when one was refreshed
 * since `since`. A target in a round being collected is written by that round.
 */
export async function markRefreshed(ctx: AppContext, postId: string, since: Date): Promise<boolean> {
  const now = new Date().toISOString();
  const result = await ctx.db.execute(sql`
    WITH refreshed AS (
      UPDATE target_metrics
      SET refreshed_at = ${now}::timestamptz,
        state = CASE WHEN state = 'done' THEN 'collecting' ELSE state END,
        next_collect_at = CASE WHEN state IN ('collecting', 'done') THEN ${now}::timestamptz ELSE next_collect_at END
      WHERE post_id = ${postId}
        AND NOT EXISTS (SELECT 1 FROM target_metrics r WHERE r.post_id = ${postId}
          AND r.refreshed_at > ${since.toISOString()}::timestamptz)
      RETURNING account_id, state, next_collect_at
    ), queued AS (${queueAccountsOf(sql`SELECT account_id, next_collect_at FROM refreshed WHERE state = 'collecting'`)})
    SELECT 1 FROM refreshed`);
  return rowsOf(result).length > 0;
}

/** Whether a post has a target due now (a refresh waits while another collector holds its account). */
export async function hasDueTargets(ctx: AppContext, postId: string): Promise<boolean> {
  const result = await ctx.db.execute(sql`
    SELECT 1 FROM target_metrics
    WHERE post_id = ${postId} AND state = 'collecting' AND next_collect_at <= now() LIMIT 1`);
  return rowsOf(result).length > 0;
}

/** The latest refresh of a post's targets, for `Retry-After`. */
export async function lastRefreshOf(ctx: AppContext, postId: string): Promise<Date | null> {
  const result = await ctx.db.execute(sql`
    SELECT max(refreshed_at) AS at FROM target_metrics WHERE post_id = ${postId}`);
  return dateOrNull(rowsOf<{ at: unknown }>(result)[0]?.at);
}

/** Gives each active account of a platform with account metrics a followers schedule, due now. */
export async function enrollAccounts(ctx: AppContext, platforms: readonly string[]): Promise<void> {
  if (platforms.length === 0) return;
  await ctx.db.execute(sql`
    INSERT INTO account_metric_schedule (account_id, next_collect_at)
    SELECT a.id, now() FROM accounts a
    WHERE a.platform IN (${list(platforms)})
      AND NOT EXISTS (SELECT 1 FROM account_metric_schedule s WHERE s.account_id = a.id)
    ON CONFLICT DO NOTHING`);
}

/** Claims up to `limit` active accounts whose followers are due. */
export async function claimDueAccounts(
  ctx: AppContext,
  owner: string,
  options: { limit: number; leaseMs: number },
): Promise<string[]> {
  const now = new Date();
  const until = new Date(now.getTime() + options.leaseMs).toISOString();
  const result = await ctx.db.execute(sql`
    WITH due AS (
      SELECT s.account_id FROM account_metric_schedule s JOIN accounts a ON a.id = s.account_id
      WHERE s.next_collect_at <= ${now.toISOString()}::timestamptz AND a.status = 'active'
      ORDER BY s.next_collect_at
      LIMIT ${options.limit}
      FOR UPDATE OF s SKIP LOCKED
    )
    UPDATE account_metric_schedule AS s
    SET lease_owner = ${owner}, lease_expires_at = ${until}::timestamptz, next_collect_at = ${until}::timestamptz
    FROM due WHERE s.account_id = due.account_id
    RETURNING s.account_id`);
  return rowsOf<{ account_id: string }>(result).map((r) => String(r.account_id));
}

/** Writes an account's followers for today (UTC; a later collection the same day replaces it). */
export async function recordFollowers(
  ctx: AppContext,
  accountId: string,
  followers: number | null,
  at: Date,
): Promise<void> {
  await ctx.db.execute(sql`
    INSERT INTO account_metrics (account_id, day, followers, collected_at)
    VALUES (${accountId}, ${at.toISOString().slice(0, 10)}, ${followers}, ${at.toISOString()}::timestamptz)
    ON CONFLICT (account_id, day) DO UPDATE SET followers = excluded.followers, collected_at = excluded.collected_at`);
}

/** Sets when an account `owner` holds is next collected, and gives its lease back. */
export async function rescheduleAccount(
  ctx: AppContext,
  owner: string,
  accountId: string,
  next: Date,
): Promise<void> {
  await ctx.db.execute(sql`
    UPDATE account_metric_schedule
    SET next_collect_at = ${next.toISOString()}::timestamptz, lease_owner = NULL, lease_expires_at = NULL
    WHERE account_id = ${accountId} AND lease_owner = ${owner}`);
}
