import { postMetricNames } from '@postwave/shared';
import { type SQL, sql } from 'drizzle-orm';
import type { AppContext } from '#server/context.ts';
import { dateOrNull, rowsOf } from '#server/db/access.ts';
import type { MetricsState } from '#server/db/schema.ts';
import { isUuid } from '#server/http/ids.ts';
import { latestSnapshot } from './latest-figures.ts';
import type { DayRange } from './schema.ts';

/*
 * The analytics reads (docs/analytics.md). The tables are keyed on post targets and accounts;
 * who may read a row follows from its post's or account's workspace, and that condition is written
 * in exactly one place, `owned()`, so scoping by workspace instead changes only that helper.
 * Totals, per-account and per-day sums read `metric_rollups_hourly` and `metric_rollups` (sums per
 * account and hour or quarter hour, kept by collection and publishing); top posts
 * (top-posts-repository.ts) and the export read a range's targets through `target_metrics`' index
 * on posting time, and each one's latest figures from its latest history row (./latest-figures.ts).
 */

/** The ONE owner condition of analytics: a row of `posts` or `accounts` (by alias) of the caller's workspace. */
function owned(alias: 'p' | 'a', owner: string): SQL {
  return sql`${sql.identifier(alias)}.workspace_id = ${owner}`;
}

/** The workspace's timezone (its settings), in which days are counted. */
export async function ownerTimezone(ctx: AppContext, owner: string): Promise<string> {
  const result = await ctx.db.execute(
    sql`SELECT coalesce(settings->>'timezone', 'UTC') AS timezone FROM workspaces WHERE id = ${owner}`,
  );
  return String(rowsOf<{ timezone: string }>(result)[0]?.timezone ?? 'UTC');
}

/** Whether the caller may read this post (another's is 404, like a missing one). */
export async function ownedPostExists(ctx: AppContext, owner: string, postId: string): Promise<boolean> {
  if (!isUuid(postId)) return false;
  const result = await ctx.db.execute(
    sql`SELECT 1 FROM posts p WHERE p.id = ${postId} AND ${owned('p', owner)}`,
  );
  return rowsOf(result).length > 0;
}

export async function ownedAccount(
  ctx: AppContext,
  owner: string,
  accountId: string,
): Promise<{ id: string; platform: string } | undefined> {
  if (!isUuid(accountId)) return undefined;
  const result = await ctx.db.execute(
    sql`SELECT a.id, a.platform FROM accounts a WHERE a.id = ${accountId} AND ${owned('a', owner)}`,
  );
  const row = rowsOf<{ id: string; platform: string }>(result)[0];
  return row ? { id: String(row.id), platform: row.platform } : undefined;
}

/** Which of `accountIds` are accounts of `owner` (a filter naming another's answers 404). */
export async function ownedAccountIds(
  ctx: AppContext,
  owner: string,
  accountIds: readonly string[],
): Promise<Set<string>> {
  const ids = accountIds.filter(isUuid);
  if (ids.length === 0) return new Set();
  const result = await ctx.db.execute(sql`SELECT a.id FROM ${ownedAccounts(owner, ids)}`);
  return new Set(rowsOf<{ id: string }>(result).map((r) => String(r.id)));
}

export interface TargetMetricsRow {
  accountId: string;
  platform: string;
  platformPostId: string | null;
  url: string | null;
  metrics: Record<string, number>;
  engagement: number | null;
  collectedAt: Date | null;
  state: MetricsState | null;
  nextCollectAt: Date | null;
}

/** A post's posted targets with their latest figures (none yet: not enrolled). */
export async function postTargetMetrics(
  ctx: AppContext,
  owner: string,
  postId: string,
): Promise<TargetMetricsRow[]> {
  const result = await ctx.db.execute(sql`
    SELECT t.account_id, t.platform, t.platform_post_id, t.url, s.metrics, s.engagement, s.collected_at,
      m.state, CASE WHEN m.state = 'collecting' THEN d.due_at END AS next_collect_at
    FROM post_targets t JOIN posts p ON p.id = t.post_id
    LEFT JOIN target_metrics m ON m.post_id = t.post_id AND m.account_id = t.account_id
    LEFT JOIN LATERAL (${latestSnapshot('t')}) AS s ON true
    LEFT JOIN LATERAL (SELECT d.due_at FROM metric_due d
      WHERE d.account_id = t.account_id AND d.post_id = t.post_id ORDER BY d.due_at LIMIT 1) AS d ON true
    WHERE t.post_id = ${postId} AND t.status = 'posted' AND ${owned('p', owner)}
    ORDER BY t.account_id`);
  return rowsOf<Record<string, unknown>>(result).map((r) => ({
    accountId: String(r.account_id),
    platform: String(r.platform),
    platformPostId: (r.platform_post_id as string | null) ?? null,
    url: (r.url as string | null) ?? null,
    metrics: (r.metrics as Record<string, number> | null) ?? {},
    engagement: r.engagement === null || r.engagement === undefined ? null : Number(r.engagement),
    collectedAt: dateOrNull(r.collected_at),
    state: (r.state as MetricsState | null) ?? null,
    nextCollectAt: dateOrNull(r.next_collect_at),
  }));
}

/** Every collection of a post's targets, oldest first. */
export async function postHistory(
  ctx: AppContext,
  owner: string,
  postId: string,
): Promise<{ accountId: string; at: Date; metrics: Record<string, number> }[]> {
  const result = await ctx.db.execute(sql`
    SELECT s.account_id, s.collected_at, s.metrics
    FROM metric_snapshots s JOIN posts p ON p.id = s.post_id
    WHERE s.post_id = ${postId} AND ${owned('p', owner)}
    ORDER BY s.collected_at`);
  return rowsOf<Record<string, unknown>>(result).map((r) => ({
    accountId: String(r.account_id),
    at: dateOrNull(r.collected_at)!,
    metrics: r.metrics as Record<string, number>,
  }));
}

/** `[start, end)` of a day range in `tz`, as SQL timestamps. */
/** The range's first and last instants (SQL), its days in `tz`. */
export const rangeBounds = (range: DayRange, tz: string) => ({
  start: sql`((${range.from})::date::timestamp AT TIME ZONE ${tz})`,
  end: sql`(((${range.to})::date + 1)::timestamp AT TIME ZONE ${tz})`,
});

/** The sum of each metric over rollup rows (null where no target reported it). */
export const metricSums = sql.raw(postMetricNames.map((name) => `sum(r.${name}) AS "${name}"`).join(', '));

export type SumsRow = Record<string, unknown> & { posts: unknown; engagement: unknown };

/** The caller's accounts (all, or `accountIds`) as `a`. */
export function ownedAccounts(owner: string, accountIds?: string[]): SQL {
  const chosen = accountIds?.length
    ? sql`AND a.id::text IN (${sql.join(
        accountIds.map((id) => sql`${id}`),
        sql`, `,
      )})`
    : sql``;
  return sql`accounts a WHERE ${owned('a', owner)} ${chosen}`;
}

/** Targets of the caller's accounts (all, or `accountIds`) posted within the range. */
function rangeTargets(owner: string, range: DayRange, tz: string, accountIds?: string[]): SQL {
  const { start, end } = rangeBounds(range, tz);
  return sql`target_metrics m
    JOIN (SELECT a.id::text AS id FROM ${ownedAccounts(owner, accountIds)}) AS a ON m.account_id = a.id
    WHERE m.posted_at >= ${start} AND m.posted_at < ${end}`;
}

/** Rollup rows of the caller's accounts within the range (quarter hours: whole days in any timezone). */
function rangeRollups(owner: string, range: DayRange, tz: string, accountIds?: string[]): SQL {
  const { start, end } = rangeBounds(range, tz);
  return sql`metric_rollups r
    JOIN (SELECT a.id::text AS id, a.platform FROM ${ownedAccounts(owner, accountIds)}) AS a ON r.account_id = a.id
    WHERE r.bucket >= ${start} AND r.bucket < ${end}`;
}

/** One account's posts, engagement and impressions per day, and its followers per day. */
export async function accountDays(
  ctx: AppContext,
  owner: string,
  accountId: string,
  range: DayRange,
  tz: string,
): Promise<{ posts: Record<string, unknown>[]; followers: Record<string, unknown>[] }> {
  const { start, end } = rangeBounds(range, tz);
  const [posts, followers] = await Promise.all([
    ctx.db.execute(sql`
      SELECT to_char(r.bucket AT TIME ZONE ${tz}, 'YYYY-MM-DD') AS date, sum(r.posts) AS posts,
        sum(r.engagement) AS engagement, sum(r.impressions) AS impressions
      FROM ${rangeRollups(owner, range, tz, [accountId])}
      GROUP BY 1`),
    ctx.db.execute(sql`
      SELECT DISTINCT ON (1) to_char(f.collected_at AT TIME ZONE ${tz}, 'YYYY-MM-DD') AS date, f.followers
      FROM account_metrics f JOIN accounts a ON a.id = f.account_id AND ${owned('a', owner)}
      WHERE f.account_id = ${accountId} AND f.collected_at >= ${start} AND f.collected_at < ${end}
      ORDER BY 1, f.collected_at DESC`),
  ]);
  return { posts: rowsOf(posts), followers: rowsOf(followers) };
}

/** Engagement of every posted target of the account with figures, by weekday and hour in `tz`. */
export async function engagementByHour(
  ctx: AppContext,
  owner: string,
  accountId: string,
  tz: string,
): Promise<{ weekday: number; hour: number; engagement: number }[]> {
  const result = await ctx.db.execute(sql`
    SELECT extract(isodow FROM m.posted_at AT TIME ZONE ${tz})::int AS weekday,
      extract(hour FROM m.posted_at AT TIME ZONE ${tz})::int AS hour, s.engagement
    FROM target_metrics m JOIN accounts a ON m.account_id = a.id::text AND ${owned('a', owner)}
    CROSS JOIN LATERAL (${latestSnapshot('m')}) AS s
    WHERE m.account_id = ${accountId} AND s.engagement IS NOT NULL`);
  return rowsOf<Record<string, unknown>>(result).map((r) => ({
    weekday: Number(r.weekday),
    hour: Number(r.hour),
    engagement: Number(r.engagement),
  }));
}

/** One page of the export: targets posted within the range, after `after` in (posted_at, post, account) order. */
export async function exportPage(
  ctx: AppContext,
  owner: string,
  range: DayRange,
  tz: string,
  after: { postedAt: string; postId: string; accountId: string } | undefined,
  limit: number,
): Promise<Record<string, unknown>[]> {
  const keyset = after
    ? sql`AND (m.posted_at, m.post_id, m.account_id) > (${after.postedAt}::timestamptz, ${after.postId}::uuid, ${after.accountId})`
    : sql``;
  const result = await ctx.db.execute(sql`
    SELECT m.post_id, m.account_id, m.platform, m.posted_at, m.state, s.collected_at, s.engagement,
      coalesce(s.metrics, '{}'::jsonb) AS metrics, (extract(epoch FROM m.posted_at) * 1000)::float8 AS posted_ms
    FROM (SELECT m.* FROM ${rangeTargets(owner, range, tz)} ${keyset}
      ORDER BY m.posted_at, m.post_id, m.account_id
      LIMIT ${limit}) AS m
    LEFT JOIN LATERAL (${latestSnapshot('m')}) AS s ON true
    ORDER BY m.posted_at, m.post_id, m.account_id`);
  return rowsOf(result);
}
