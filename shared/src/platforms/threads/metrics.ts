import { isPlatformError } from '../../errors.ts';
import type { AccountMetricName } from '../manifest.ts';
import { type InsightsAnswer, insightTotal, insightValues, perPostMetrics } from '../meta-insights.ts';
import type { MetricsTarget, PostMetricsResult } from '../types.ts';
import { threadsCall } from './api.ts';

/** Threads' media insight → our canonical name (contract section H). */
const names = {
  views: 'views',
  likes: 'likes',
  replies: 'comments',
  reposts: 'reposts',
  quotes: 'quotes',
  shares: 'shares',
} as const;

/**
 * `GET /{media}/insights?metric=views,likes,replies,reposts,quotes,shares` per post (needs the
 * `threads_manage_insights` permission); a post Threads no longer has is `gone`.
 */
export function threadsPostMetrics(
  apiUrl: string,
  accessToken: string,
  targets: readonly MetricsTarget[],
  signal: AbortSignal,
): Promise<Map<string, PostMetricsResult>> {
  return perPostMetrics(
    targets,
    async (id) =>
      insightValues(
        await threadsCall<InsightsAnswer>(apiUrl, {
          method: 'GET',
          path: `/${encodeURIComponent(id)}/insights`,
          params: { metric: Object.keys(names).join(',') },
          accessToken,
          what: 'the post insights',
          signal,
        }),
        names,
      ),
    (error) => isPlatformError(error) && error.code === 'target_unreachable',
  );
}

/** `GET /{user}/threads_insights?metric=followers_count`. */
export async function threadsAccountMetrics(
  apiUrl: string,
  accessToken: string,
  userId: string,
  signal: AbortSignal,
): Promise<Partial<Record<AccountMetricName, number>>> {
  const answer = await threadsCall<InsightsAnswer>(apiUrl, {
    method: 'GET',
    path: `/${encodeURIComponent(userId)}/threads_insights`,
    params: { metric: 'followers_count' },
    accessToken,
    what: 'the profile insights',
    signal,
  });
  const followers = insightTotal(answer, 'followers_count');
  return followers === undefined ? {} : { followers };
}
