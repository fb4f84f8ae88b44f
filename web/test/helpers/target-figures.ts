import { sql } from 'drizzle-orm';
import type { AppContext } from '#server/context.ts';
import { dateOrNull, rowsOf } from '#server/db/access.ts';
import type { MetricsState } from '#server/db/schema.ts';

/**
 * A target as the analytics tests look at it: its `target_metrics` row, its latest figures (its
 * latest history row) and its next collection (its `metric_due` entry), the three places the
 * append-only collection keeps them (docs/analytics.md).
 */
export interface TargetFigures {
  postId: string;
  accountId: string;
  platform: string;
  postedAt: Date;
  platformPostId: string | null;
  url: string | null;
  state: MetricsState;
  metrics: Record<string, number>;
  engagement: number | null;
  collectedAt: Date | null;
  step: number | null;
  nextCollectAt: Date | null;
}

/** SQL of every target with its figures and next collection, as `TargetFigures` columns (for tests' own sums). */
export const targetFiguresSql = sql`
  SELECT m.post_id, m.account_id, m.platform, m.posted_at, m.platform_post_id, m.url, m.state,
    coalesce(s.metrics, '{}'::jsonb) AS metrics, s.engagement, s.collected_at, d.step, d.due_at AS next_collect_at
  FROM target_metrics m
  LEFT JOIN LATERAL (SELECT s.metrics, s.engagement, s.collected_at FROM metric_snapshots s
    WHERE s.post_id = m.post_id AND s.account_id = m.account_id ORDER BY s.collected_at DESC LIMIT 1) AS s ON true
  LEFT JOIN LATERAL (SELECT d.step, d.due_at FROM metric_due d
    WHERE d.account_id = m.account_id AND d.post_id = m.post_id ORDER BY d.due_at LIMIT 1) AS d ON true`;

const figuresOf = (r: Record<string, unknown>): TargetFigures => ({
  postId: String(r.post_id),
  accountId: String(r.account_id),
  platform: String(r.platform),
  postedAt: dateOrNull(r.posted_at)!,
  platformPostId: (r.platform_post_id as string | null) ?? null,
  url: (r.url as string | null) ?? null,
  state: r.state as MetricsState,
  metrics: r.metrics as Record<string, number>,
  engagement: r.engagement === null ? null : Number(r.engagement),
  collectedAt: dateOrNull(r.collected_at),
  step: r.step === null ? null : Number(r.step),
  nextCollectAt: dateOrNull(r.next_collect_at),
});

/** One target's figures, or undefined when it has no `target_metrics` row. */
export async function targetFigures(
  ctx: AppContext,
  postId: string,
  accountId: string,
): Promise<TargetFigures | undefined> {
  const result = await ctx.db.execute(
    sql`SELECT * FROM (${targetFiguresSql}) AS t WHERE t.post_id = ${postId}::uuid AND t.account_id = ${accountId}`,
  );
  const row = rowsOf<Record<string, unknown>>(result)[0];
  return row ? figuresOf(row) : undefined;
}

/** Every target's figures (optionally only those in `state`). */
export async function allTargetFigures(ctx: AppContext, state?: MetricsState): Promise<TargetFigures[]> {
  const result = await ctx.db.execute(
    sql`SELECT * FROM (${targetFiguresSql}) AS t ${state ? sql`WHERE t.state = ${state}` : sql``}`,
  );
  return rowsOf<Record<string, unknown>>(result).map(figuresOf);
}
