import { isPlatformError } from '../../errors.ts';
import type { GraphClient } from '../facebook/graph.ts';
import type { AccountMetricName } from '../manifest.ts';
import { type InsightsAnswer, insightValues, perPostMetrics } from '../meta-insights.ts';
import type { MetricsTarget, PostMetricsResult } from '../types.ts';

/** Instagram's media insight → our canonical name (contract section H). */
const names = {
  views: 'views',
  reach: 'reach',
  likes: 'likes',
  comments: 'comments',
  shares: 'shares',
  saved: 'saves',
} as const;

const count = (value: unknown) =>
  typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 ? value : undefined;

/**
 * `GET /{media}/insights?metric=views,reach,likes,comments,shares,saved` per post (needs the
 * insights permission); a media Instagram no longer has (code 100 / subcode 33) is `gone`.
 */
export function instagramPostMetrics(
  client: GraphClient,
  targets: readonly MetricsTarget[],
): Promise<Map<string, PostMetricsResult>> {
  return perPostMetrics(
    targets,
    async (id) =>
      insightValues(
        await client.get<InsightsAnswer>(
          `/${encodeURIComponent(id)}/insights`,
          { metric: Object.keys(names).join(',') },
          'the media insights',
        ),
        names,
      ),
    (error) => isPlatformError(error) && error.code === 'target_unreachable',
  );
}

/** `GET /{ig-user}?fields=followers_count`. */
export async function instagramAccountMetrics(
  client: GraphClient,
  userId: string,
): Promise<Partial<Record<AccountMetricName, number>>> {
  const answer = await client.get<{ followers_count?: unknown }>(
    `/${encodeURIComponent(userId)}`,
    { fields: 'followers_count' },
    'the account lookup',
  );
  const followers = count(answer.followers_count);
  return followers === undefined ? {} : { followers };
}
