import { postMetricNames } from '@postwave/shared';
import { type SQL, sql } from 'drizzle-orm';
import type { AppContext } from '#server/context.ts';
import { runAgainOnDeadlock } from '#server/db/errors.ts';
import { latestSnapshot } from './latest-figures.ts';

/*
 * The rollups' SQL (`metric_rollups` per quarter hour and `metric_rollups_hourly` per hour,
 * docs/analytics.md#storage-and-performance): sums of the targets' latest figures (their latest
 * history rows) per account and bucket of posting, recounted for enrollment and kept by collection's outcome write
 * (web/server/analytics/collect-repository.ts) by difference. Publishing counts posts into both
 * (web/server/posts/repository.ts, with `bucketOf`).
 */

/** The start of `column`'s bucket of `seconds`, aligned on UTC (900: quarter hours, 3600: hours). */
const bucketText = (column: string, seconds: number) =>
  `to_timestamp(floor(extract(epoch FROM ${column}) / ${seconds}) * ${seconds})`;
export const bucketOf = (column: string, seconds: number) => sql.raw(bucketText(column, seconds));

const quarter = { table: 'metric_rollups', seconds: 900 } as const;
const hour = { table: 'metric_rollups_hourly', seconds: 3600 } as const;
type Rollup = typeof quarter | typeof hour;

/**
 * Recomputes `rollup`'s buckets among `k` (`account_id, bucket, seconds`), from their targets'
 * latest figures; rows in key order, as publishing's finalizations count posts into them.
 */
function rollupUpsert({ table, seconds }: Rollup): SQL {
  const sums = sql.raw(postMetricNames.map((m) => `sum((m.metrics->>'${m}')::bigint)`).join(', '));
  const names = sql.raw(postMetricNames.join(', '));
  const updates = sql.raw(postMetricNames.map((m) => `${m} = excluded.${m}`).join(', '));
  // An hour also keeps its highest engagement, exact when recounted (top posts find hours by it).
  const top = table === hour.table;
  return sql`INSERT INTO ${sql.identifier(table)} (account_id, bucket, posts, engagement, ${names}${sql.raw(top ? ', top_engagement' : '')})
    SELECT b.account_id, b.bucket, count(*), sum(m.engagement), ${sums}${sql.raw(top ? ', max(m.engagement)' : '')}
    FROM (SELECT DISTINCT k.account_id, k.bucket FROM k WHERE k.seconds = ${sql.raw(String(seconds))}) AS b
    JOIN target_metrics t ON t.account_id = b.account_id
      AND t.posted_at >= b.bucket AND t.posted_at < b.bucket + ${sql.raw(`interval '${seconds} seconds'`)}
    LEFT JOIN LATERAL (${latestSnapshot('t')}) AS m ON true
    GROUP BY b.account_id, b.bucket ORDER BY b.account_id, b.bucket
    ON CONFLICT (account_id, bucket) DO UPDATE
    SET posts = excluded.posts, engagement = excluded.engagement, ${updates}${sql.raw(top ? ', top_engagement = excluded.top_engagement' : '')}`;
}

/**
 * Recomputes the rollups of the `buckets` (a query of `account_id, bucket, seconds`: 900 a quarter
 * hour of `metric_rollups`, 3600 an hour of `metric_rollups_hourly`) from their targets' latest
 * figures, both tables in one statement.
 */
export async function refreshRollups(ctx: AppContext, buckets: SQL): Promise<void> {
  await runAgainOnDeadlock(() =>
    ctx.db.execute(sql`
    WITH k AS (${buckets}),
    hourly AS (${rollupUpsert(hour)})
    ${rollupUpsert(quarter)}`),
  );
}

/** The quarter hours and hours of these targets (`post_id, account_id` as JSON), for `refreshRollups`. */
export const bucketsOfTargets = (keysJson: string): SQL => sql`
  SELECT DISTINCT m.account_id, b.bucket, b.seconds
  FROM jsonb_to_recordset(${keysJson}::jsonb) AS x(post_id uuid, account_id text)
  JOIN target_metrics m ON m.post_id = x.post_id AND m.account_id = x.account_id
  CROSS JOIN LATERAL (VALUES (${bucketOf('m.posted_at', quarter.seconds)}, ${sql.raw(String(quarter.seconds))}),
    (${bucketOf('m.posted_at', hour.seconds)}, ${sql.raw(String(hour.seconds))})) AS b(bucket, seconds)`;

/*
 * A collection changes its targets' rollups by the difference it made: per touched bucket, the
 * sums of the changed targets' new figures less their old ones, in the statement that writes the
 * outcomes, instead of summing every target of the bucket again (a bucket holds every post of an
 * account's quarter hour or hour: a recount read all of them per round). A sum stays null until a
 * target reports that metric, so a bucket where a figure went missing (an old value and no new
 * one: the bucket may have no other) or whose row is missing or disagrees (a null sum with an old
 * value) is recomputed instead; so is an hour one of whose quarter hours is. An hour's highest
 * engagement (`top_engagement`) is only ever raised here: a figure that fell leaves it above the
 * hour's true highest, which top posts allow for (it is a bound), and a recount makes it exact.
 */
const rollupColumns = ['engagement', ...postMetricNames] as const;
const newValue = (column: string) => (column === 'engagement' ? 'c.engagement' : `n.${column}`);
const oldValue = (column: string) => (column === 'engagement' ? 'c.old_engagement' : `o.${column}`);
/** A target's figures (`c.<column>`, a jsonb object) as one typed column per metric, read in one pass. */
const metricsOf = (column: string, alias: string) =>
  `jsonb_to_record(c.${column}) AS ${alias}(${postMetricNames.map((m) => `${m} bigint`).join(', ')})`;
/** Per quarter hour of the changed targets `c` (`kept` of the outcome write): the sums before and after, and `lost`. */
const quarterChanges = sql.raw(
  [
    `SELECT c.account_id, ${bucketText('c.posted_at', quarter.seconds)} AS bucket`,
    ...rollupColumns.map((m) => `sum(${newValue(m)}) AS ${m}_new, sum(${oldValue(m)}) AS ${m}_old`),
    `bool_or(${rollupColumns.map((m) => `(${oldValue(m)} IS NOT NULL AND ${newValue(m)} IS NULL)`).join(' OR ')}) AS lost`,
    'max(c.engagement) AS engagement_top',
  ].join(', ') +
    ` FROM kept c CROSS JOIN LATERAL ${metricsOf('metrics', 'n')} CROSS JOIN LATERAL ${metricsOf('old_metrics', 'o')}` +
    ' WHERE c.metrics IS NOT NULL GROUP BY 1, 2',
);
/**
 * The same per hour, from the quarter hours' sums (sums of sums: a sum stays null only where every
 * quarter hour's is), not from the targets again: reading each target's figures was most of the
 * rollups' share of the outcome write.
 */
const hourChanges = sql.raw(
  [
    `SELECT c.account_id, ${bucketText('c.bucket', hour.seconds)} AS bucket`,
    ...rollupColumns.map((m) => `sum(c.${m}_new) AS ${m}_new, sum(c.${m}_old) AS ${m}_old`),
    'bool_or(c.lost) AS lost',
    'max(c.engagement_top) AS engagement_top',
  ].join(', ') + ' FROM changes c GROUP BY 1, 2',
);
/** The rollup row `r` plus the bucket's changes `c`. */
const rollupChanges = sql.raw(
  rollupColumns
    .map(
      (m) =>
        `${m} = CASE WHEN c.${m}_new IS NULL AND c.${m}_old IS NULL THEN r.${m} ELSE coalesce(r.${m}, 0) - coalesce(c.${m}_old, 0) + c.${m}_new END`,
    )
    .join(', '),
);
/** The rollup row `r` is the bucket `c`'s and can take its changes (no null sum the changed targets had a value in). */
const rollupTakes = sql.raw(
  [
    'r.account_id = c.account_id AND r.bucket = c.bucket AND NOT c.lost',
    ...rollupColumns.map((m) => `NOT (r.${m} IS NULL AND c.${m}_old IS NOT NULL)`),
  ].join(' AND '),
);
const notIn = (cte: string) =>
  sql.raw(`NOT EXISTS (SELECT 1 FROM ${cte} r WHERE r.account_id = c.account_id AND r.bucket = c.bucket)`);

/**
 * The outcome write's rollup CTEs, after its `kept` (the changed rows: `account_id, posted_at`, the
 * new `metrics, engagement` and the `old_metrics, old_engagement`), and its final query: the
 * buckets to recount (`recountRollups`), those of either table not kept by difference.
 */
export const rollupsByDifference = sql`
  changes AS (${quarterChanges}),
  changes_hourly AS (${hourChanges}),
  rolled AS (
    UPDATE metric_rollups AS r SET ${rollupChanges} FROM changes c WHERE ${rollupTakes}
    RETURNING r.account_id, r.bucket
  ), recount AS (
    SELECT c.account_id, c.bucket FROM changes c WHERE ${notIn('rolled')}
  ), rolled_hourly AS (
    UPDATE metric_rollups_hourly AS r
    SET ${rollupChanges}, top_engagement = greatest(r.top_engagement, c.engagement_top)
    FROM changes_hourly c WHERE ${rollupTakes}
      AND NOT EXISTS (SELECT 1 FROM recount q
        WHERE q.account_id = c.account_id AND ${bucketOf('q.bucket', hour.seconds)} = c.bucket)
    RETURNING r.account_id, r.bucket
  )
  SELECT c.account_id, extract(epoch FROM c.bucket)::float8 AS bucket, ${sql.raw(String(quarter.seconds))} AS seconds
  FROM recount c
  UNION ALL
  SELECT c.account_id, extract(epoch FROM c.bucket)::float8, ${sql.raw(String(hour.seconds))}
  FROM changes_hourly c WHERE ${notIn('rolled_hourly')}`;

/** A bucket to recount: its account, its start in epoch seconds and its width (900 or 3600). */
export interface RollupBucket {
  account_id: string;
  bucket: number | string;
  seconds: number | string;
}

/** Recounts the buckets the outcome write could not keep by difference, in either table. */
export async function recountRollups(ctx: AppContext, buckets: readonly RollupBucket[]): Promise<void> {
  if (buckets.length === 0) return;
  const json = JSON.stringify(
    buckets.map((b) => ({ account_id: b.account_id, bucket: Number(b.bucket), seconds: Number(b.seconds) })),
  );
  await refreshRollups(
    ctx,
    sql`SELECT account_id, to_timestamp(bucket) AS bucket, seconds
      FROM jsonb_to_recordset(${json}::jsonb) AS x(account_id text, bucket float8, seconds int)`,
  );
}
