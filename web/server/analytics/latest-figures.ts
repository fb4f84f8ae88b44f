import { type SQL, sql } from 'drizzle-orm';

/*
 * A target's latest figures are its latest history row (docs/analytics.md, "Append-only
 * collection"): a collection only inserts, so no per-target row holds them. Every reader takes
 * them the same way, by the history's key (post, account, time of collection) read backwards.
 */

/**
 * A subquery (for `LEFT JOIN LATERAL (…) AS s ON true`) of the latest figures (`metrics`,
 * `engagement`, `collected_at`) of the target `alias` names (its `post_id` and `account_id`).
 */
export const latestSnapshot = (alias: string): SQL => {
  const t = sql.raw(alias);
  return sql`SELECT s.metrics, s.engagement, s.collected_at FROM metric_snapshots s
    WHERE s.post_id = ${t}.post_id AND s.account_id = ${t}.account_id
    ORDER BY s.collected_at DESC LIMIT 1`;
};
