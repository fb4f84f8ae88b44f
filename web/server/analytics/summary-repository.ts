import { postMetricNames } from '@postwave/shared';
import { sql } from 'drizzle-orm';
import type { AppContext } from '#server/context.ts';
import { rowsOf } from '#server/db/access.ts';
import { arrayLiteral } from '#server/db/array-literal.ts';
import { rollupSpans } from './days.ts';
import { metricSums, ownedAccounts, type SumsRow } from './repository.ts';
import type { DayRange } from './schema.ts';

/*
 * The summary's sums (docs/analytics.md#storage-and-performance): the days of a range in the
 * workspace's timezone, and totals per account and per day from the hourly and quarter-hour
 * rollups, scoped through `ownedAccounts` (repository.ts, where the owner condition lives).
 */

/**
 * When each day of the range starts in `tz`, and when its last one ends (range days + 1 instants,
 * ms since the epoch), as PostgreSQL's timezone data has them (DST days are 23 or 25 hours long).
 */
export async function dayStarts(ctx: AppContext, range: DayRange, tz: string): Promise<number[]> {
  const result = await ctx.db.execute(sql`
    SELECT (extract(epoch FROM ((${range.from})::date + i)::timestamp AT TIME ZONE ${tz}) * 1000)::float8 AS at
    FROM generate_series(0, (${range.to})::date + 1 - (${range.from})::date) AS i ORDER BY i`);
  return rowsOf<{ at: unknown }>(result).map((r) => Number(r.at));
}

/** Instants (ms) as a PostgreSQL `timestamptz[]` literal. */
const timestamps = (list: readonly number[]) => arrayLiteral(list.map((at) => new Date(at).toISOString()));

/** The columns a rollup row is summed from. */
const rollupColumns = sql.raw(['account_id', 'bucket', 'posts', 'engagement', ...postMetricNames].join(', '));

/**
 * Totals per account and per day over the days that start at `starts` (ms, `dayStarts`), from the
 * rollups, in one statement: the range's hours from `metric_rollups_hourly`, and for an hour a day
 * starts within (a :30 or :45 offset) its quarter hours from `metric_rollups` instead
 * (`rollupSpans`). Each row goes to its day by a binary search of the day starts (`width_bucket`:
 * no timezone arithmetic per row); the rows are summed per account and day, then those few sums
 * per account and per day (`GROUPING SETS`). `perDay` rows carry `day`, the day's 1-based position.
 */
export async function summarySums(
  ctx: AppContext,
  owner: string,
  starts: number[],
  accountIds?: string[],
): Promise<{ perAccount: SumsRow[]; perDay: SumsRow[] }> {
  const spans = rollupSpans(starts);
  const mine = sql`ANY(ARRAY(SELECT a.id::text FROM ${ownedAccounts(owner, accountIds)}))`;
  const resum = sql.raw(
    ['posts', 'engagement', ...postMetricNames].map((name) => `sum(d.${name}) AS "${name}"`).join(', '),
  );
  const result = await ctx.db.execute(sql`
    WITH d AS (
      SELECT r.account_id, width_bucket(r.bucket, ${timestamps(starts)}::timestamptz[]) AS day,
        sum(r.posts) AS posts, sum(r.engagement) AS engagement, ${metricSums}
      FROM (
        SELECT ${rollupColumns} FROM metric_rollups_hourly h
        WHERE h.account_id = ${mine}
          AND h.bucket >= ${new Date(spans.hoursFrom).toISOString()}::timestamptz
          AND h.bucket < ${new Date(spans.hoursTo).toISOString()}::timestamptz
          AND h.bucket <> ALL(${timestamps(spans.splitHours)}::timestamptz[])
        UNION ALL
        SELECT ${rollupColumns} FROM metric_rollups q
        WHERE q.account_id = ${mine} AND q.bucket = ANY(${timestamps(spans.quarters)}::timestamptz[])
      ) AS r
      GROUP BY 1, 2)
    SELECT grouping(d.day) = 1 AS per_account, d.account_id, a.platform, d.day, ${resum}
    FROM d JOIN accounts a ON a.id::text = d.account_id
    GROUP BY GROUPING SETS ((d.account_id, a.platform), (d.day))`);
  const rows = rowsOf<SumsRow & { per_account: unknown }>(result);
  return {
    perAccount: rows.filter((r) => r.per_account === true),
    perDay: rows.filter((r) => r.per_account !== true),
  };
}
