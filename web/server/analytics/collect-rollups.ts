import { type SQL, sql } from 'drizzle-orm';
import type { AppContext } from '#server/context.ts';

/*
 * The rollups' SQL (`metric_rollups`, docs/analytics.md#storage-and-performance): sums of the
 * targets' latest figures per account and quarter hour of posting, recounted for enrollment and
 * kept by collection's outcome write (web/server/analytics/collect-repository.ts) by difference.
 */

const metricColumns = [
  'impressions',
  'reach',
  'views',
  'likes',
  'comments',
  'reposts',
  'quotes',
  'shares',
  'saves',
  'clicks',
] as const;
export const bucketOf = (column: string) =>
  sql.raw(`to_timestamp(floor(extract(epoch FROM ${column}) / 900) * 900)`);

/**
 * Recomputes the rollups (`metric_rollups`, docs/analytics.md#storage-and-performance) of the
 * `buckets` (a query of `account_id, bucket`) from their targets' latest figures.
 */
export async function refreshRollups(ctx: AppContext, buckets: SQL): Promise<void> {
  const sums = sql.raw(metricColumns.map((m) => `sum((m.metrics->>'${m}')::bigint)`).join(', '));
  const names = sql.raw(metricColumns.join(', '));
  const updates = sql.raw(metricColumns.map((m) => `${m} = excluded.${m}`).join(', '));
  await ctx.db.execute(sql`
    WITH k AS (${buckets})
    INSERT INTO metric_rollups (account_id, bucket, posts, engagement, ${names})
    SELECT k.account_id, k.bucket, count(*), sum(m.engagement), ${sums}
    FROM k JOIN target_metrics m ON m.account_id = k.account_id
      AND m.posted_at >= k.bucket AND m.posted_at < k.bucket + interval '15 minutes'
    GROUP BY k.account_id, k.bucket
    ON CONFLICT (account_id, bucket) DO UPDATE
    SET posts = excluded.posts, engagement = excluded.engagement, ${updates}`);
}

/** The buckets of these targets (`post_id, account_id` as JSON), for `refreshRollups`. */
export const bucketsOfTargets = (keysJson: string): SQL => sql`
  SELECT DISTINCT m.account_id, ${bucketOf('m.posted_at')} AS bucket
  FROM jsonb_to_recordset(${keysJson}::jsonb) AS x(post_id uuid, account_id text)
  JOIN target_metrics m ON m.post_id = x.post_id AND m.account_id = x.account_id`;

/*
 * A collection changes its targets' rollups by the difference it made: per touched bucket, the
 * sums of the changed targets' new figures less their old ones, in the statement that writes the
 * outcomes, instead of summing every target of the bucket again (a bucket holds every post of an
 * account's quarter hour: a recount read all of them per round). A sum stays null until a target
 * reports that metric, so a bucket where a figure went missing (an old value and no new one: the
 * bucket may have no other) or whose row is missing or disagrees (a null sum with an old value) is
 * recomputed instead.
 */
const rollupColumns = ['engagement', ...metricColumns] as const;
const newValue = (column: string) =>
  column === 'engagement' ? 'c.engagement' : `(c.metrics->>'${column}')::bigint`;
const oldValue = (column: string) =>
  column === 'engagement' ? 'c.old_engagement' : `(c.old_metrics->>'${column}')::bigint`;
/** Per bucket of the changed targets `c` (`kept` of the outcome write): the sums before and after, and `lost`. */
export const rollupChangesPerBucket = sql.raw(
  [
    ...rollupColumns.map((m) => `sum(${newValue(m)}) AS ${m}_new, sum(${oldValue(m)}) AS ${m}_old`),
    `bool_or(${rollupColumns.map((m) => `(${oldValue(m)} IS NOT NULL AND ${newValue(m)} IS NULL)`).join(' OR ')}) AS lost`,
  ].join(', '),
);
/** The rollup row `r` plus the bucket's changes `c`. */
export const rollupChanges = sql.raw(
  rollupColumns
    .map(
      (m) =>
        `${m} = CASE WHEN c.${m}_new IS NULL AND c.${m}_old IS NULL THEN r.${m} ELSE coalesce(r.${m}, 0) - coalesce(c.${m}_old, 0) + c.${m}_new END`,
    )
    .join(', '),
);
/** The rollup row `r` can take the changes `c` (no null sum the changed targets had a value in). */
export const rollupAgrees = sql.raw(
  rollupColumns.map((m) => `NOT (r.${m} IS NULL AND c.${m}_old IS NOT NULL)`).join(' AND '),
);

/** Recounts the buckets the outcome write could not keep by difference (`account_id`, epoch seconds). */
export async function recountRollups(
  ctx: AppContext,
  buckets: readonly { account_id: string; bucket: number | string }[],
): Promise<void> {
  if (buckets.length === 0) return;
  const json = JSON.stringify(buckets.map((b) => ({ account_id: b.account_id, bucket: Number(b.bucket) })));
  await refreshRollups(
    ctx,
    sql`SELECT account_id, to_timestamp(bucket) AS bucket
      FROM jsonb_to_recordset(${json}::jsonb) AS x(account_id text, bucket float8)`,
  );
}
