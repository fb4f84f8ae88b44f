import { sql } from 'drizzle-orm';
import type { AppContext } from '#server/context.ts';
import { dateOrNull, rowsOf } from '#server/db/access.ts';
import { latestSnapshot } from './latest-figures.ts';
import { ownedAccounts, rangeBounds } from './repository.ts';
import type { DayRange } from './schema.ts';

/*
 * Top posts (docs/analytics.md, "Top posts from the hours"): the range's targets with the most
 * engagement, latest first among equals, found without an index on `engagement` (every collection
 * changes it, so such an index cost every collection an entry). Each hour's rollup keeps at least
 * its targets' highest engagement (`metric_rollups_hourly.top_engagement`); the hours are read in
 * that order, latest first among equals, and reading stops once the last of the posts found
 * outranks the best any unread hour can hold. An hour's bound and its end together bound its
 * targets, so hours that tie on the bound (figures in a narrow range) are settled in time order
 * instead of all being read. Each of the workspace's accounts is read through its own part of
 * `metric_rollups_hourly_top` (account first), so other workspaces' hours are never walked.
 */

/** Hours read by the first pass per post asked for; each further pass reads four times as many. */
const hoursPerPost = 2;

interface Ranked {
  engagement: number;
  postedAt: number;
}

/** Whether `found` (the last post kept) outranks every target of an hour whose bound is `top`, starting `bucket`. */
const outranks = (found: Ranked, top: number, bucket: number) =>
  found.engagement > top || (found.engagement === top && found.postedAt >= bucket + 3_600_000);

export async function topTargets(
  ctx: AppContext,
  owner: string,
  range: DayRange,
  tz: string,
  accountIds: string[] | undefined,
  limit: number,
): Promise<Record<string, unknown>[]> {
  const { start, end } = rangeBounds(range, tz);
  for (let hours = Math.max(1, limit * hoursPerPost); ; hours *= 4) {
    const result = await ctx.db.execute(sql`
      WITH hours AS (
        SELECT h.* FROM (SELECT a.id::text AS id FROM ${ownedAccounts(owner, accountIds)}) AS a
        CROSS JOIN LATERAL (
          -- In the index's own order (its NULLS LAST included: DESC alone means NULLS FIRST, which
          -- the index cannot give, and the hours of the range were sorted instead).
          SELECT h.account_id, h.bucket, h.top_engagement FROM metric_rollups_hourly h
          WHERE h.account_id = a.id AND h.top_engagement IS NOT NULL
            AND h.bucket > ${start} - interval '1 hour' AND h.bucket < ${end}
          ORDER BY h.top_engagement DESC NULLS LAST, h.bucket DESC NULLS LAST
          LIMIT ${hours + 1}) AS h
        ORDER BY h.top_engagement DESC, h.bucket DESC
        LIMIT ${hours + 1}
      ), ranked AS (
        SELECT h.*, row_number() OVER (ORDER BY h.top_engagement DESC, h.bucket DESC) AS n FROM hours h
      ), found AS (
        SELECT m.post_id, m.account_id, m.platform, m.posted_at, s.engagement, s.metrics
        FROM ranked h
        -- Each hour's targets through the (account, time of posting) index. As a join the planner
        -- could not tell an hour from a wider range and hashed every target of the accounts;
        -- OFFSET 0 keeps this subquery from being flattened into such a join.
        CROSS JOIN LATERAL (SELECT m.post_id, m.account_id, m.platform, m.posted_at FROM target_metrics m
          WHERE m.account_id = h.account_id
            AND m.posted_at >= greatest(h.bucket, ${start}) AND m.posted_at < least(h.bucket + interval '1 hour', ${end})
          OFFSET 0) AS m
        CROSS JOIN LATERAL (${latestSnapshot('m')}) AS s
        WHERE h.n <= ${hours} AND s.engagement IS NOT NULL
        ORDER BY s.engagement DESC, m.posted_at DESC
        LIMIT ${limit}
      )
      SELECT 'post' AS kind, f.*, NULL::bigint AS top_engagement, NULL::timestamptz AS bucket FROM found f
      UNION ALL
      SELECT 'next', NULL, NULL, NULL, NULL, NULL, NULL, r.top_engagement, r.bucket
      FROM ranked r WHERE r.n = ${hours + 1}`);
    const rows = rowsOf<Record<string, unknown>>(result);
    const posts = rows.filter((r) => r.kind === 'post');
    const next = rows.find((r) => r.kind === 'next');
    const last = posts.at(-1);
    const done =
      !next ||
      (posts.length === limit &&
        last !== undefined &&
        outranks(
          { engagement: Number(last.engagement), postedAt: dateOrNull(last.posted_at)!.getTime() },
          Number(next.top_engagement),
          dateOrNull(next.bucket)!.getTime(),
        ));
    if (done) return withMessages(ctx, posts);
  }
}

/** The few top rows with their post's message and the target's URL. */
async function withMessages(
  ctx: AppContext,
  rows: Record<string, unknown>[],
): Promise<Record<string, unknown>[]> {
  if (rows.length === 0) return rows;
  const keys = JSON.stringify(rows.map((r) => ({ post_id: r.post_id, account_id: r.account_id })));
  const extra = rowsOf<Record<string, unknown>>(
    await ctx.db.execute(sql`
      SELECT x.post_id, x.account_id, t.url, left(p.message, 140) AS message
      FROM jsonb_to_recordset(${keys}::jsonb) AS x(post_id uuid, account_id text)
      JOIN posts p ON p.id = x.post_id
      JOIN post_targets t ON t.post_id = x.post_id AND t.account_id = x.account_id`),
  );
  const byKey = new Map(extra.map((e) => [`${e.post_id}/${e.account_id}`, e]));
  return rows.map((r) => ({ ...r, ...byKey.get(`${r.post_id}/${r.account_id}`) }));
}
