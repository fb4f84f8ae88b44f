import { canonicalMetrics } from '@postwave/shared';
import type { AppContext } from '#server/context.ts';
import { notFound } from '#server/http/respond.ts';
import { daysOf, num, todayIn } from './days.ts';
import { ownedAccountIds, ownerTimezone, type SumsRow } from './repository.ts';
import { type AnalyticsSummaryView, parseAccountIds, parseRange } from './schema.ts';
import { dayStarts, summarySums } from './summary-repository.ts';
import { topTargets } from './top-posts-repository.ts';

const topPostsLimit = 10;

/** A row of sums as totals: figures no target reported stay absent. */
function totalsOf(row: SumsRow | undefined) {
  const metrics: Record<string, unknown> = {};
  if (row) for (const [key, value] of Object.entries(row)) if (value !== null) metrics[key] = num(value);
  // No target reported a figure engagement is made of (a platform without post metrics): absent, not 0.
  const engagement = num(row?.engagement);
  return {
    posts: num(row?.posts) ?? 0,
    ...(engagement === undefined ? {} : { engagement }),
    metrics: canonicalMetrics(metrics),
  };
}

/** The columns of a row of sums that say which sums they are. */
const sumKeys = new Set(['account_id', 'platform', 'day', 'per_account']);

/** Adds per-account rows up: the range's totals. */
function addUp(rows: SumsRow[]): SumsRow {
  const total: Record<string, number> = {};
  for (const row of rows)
    for (const [key, value] of Object.entries(row))
      if (value !== null && !sumKeys.has(key)) total[key] = (total[key] ?? 0) + Number(value);
  return total as SumsRow;
}

/**
 * `GET /api/v1/analytics`: the caller's posted targets within a range of days (their timezone),
 * all accounts or `accountIds`: totals, per account, per day (every day listed), and the posts
 * with the most engagement. Figures are each target's latest collection.
 */
export async function getAnalyticsSummary(
  ctx: AppContext,
  owner: string,
  query: URLSearchParams,
): Promise<AnalyticsSummaryView> {
  const timezone = await ownerTimezone(ctx, owner);
  const range = parseRange(query, todayIn(timezone));
  const accountIds = parseAccountIds(query);
  // An account of another workspace answers 404, as a missing one does (contract G), rather than
  // an empty summary that reads as "no posts".
  if (accountIds) {
    const owned = await ownedAccountIds(ctx, owner, accountIds);
    if (accountIds.some((id) => !owned.has(id))) throw notFound('account');
  }
  const [{ perAccount, perDay }, top] = await Promise.all([
    dayStarts(ctx, range, timezone).then((starts) => summarySums(ctx, owner, starts, accountIds)),
    topTargets(ctx, owner, range, timezone, accountIds, topPostsLimit),
  ]);
  const days = daysOf(range.from, range.to);
  const byDate = new Map(perDay.map((row) => [days[Number(row.day) - 1], row]));
  return {
    from: range.from,
    to: range.to,
    timezone,
    totals: totalsOf(addUp(perAccount)),
    perAccount: perAccount
      .map((row) => ({ accountId: String(row.account_id), platform: String(row.platform), ...totalsOf(row) }))
      .sort((a, b) => (b.engagement ?? -1) - (a.engagement ?? -1) || a.accountId.localeCompare(b.accountId)),
    perDay: days.map((date) => ({ date, ...totalsOf(byDate.get(date)) })),
    topPosts: top.map((row) => ({
      postId: String(row.post_id),
      accountId: String(row.account_id),
      platform: String(row.platform),
      url: (row.url as string | null) ?? null,
      message: String(row.message ?? ''),
      postedAt: new Date(row.posted_at as string | Date).toISOString(),
      engagement: Number(row.engagement),
      metrics: canonicalMetrics((row.metrics as Record<string, unknown>) ?? {}),
    })),
  };
}
