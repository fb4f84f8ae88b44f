import { isPlatformError } from '../../errors.ts';
import type { AccountMetricName } from '../manifest.ts';
import { perPostMetrics } from '../meta-insights.ts';
import type { MetricsTarget, MetricValues, PostMetricsResult } from '../types.ts';
import type { GraphClient } from './graph.ts';

interface PostCounts {
  shares?: { count?: unknown };
  reactions?: { summary?: { total_count?: unknown } };
  comments?: { summary?: { total_count?: unknown } };
}

const count = (value: unknown) =>
  typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 ? value : undefined;

const summaries = 'reactions.summary(total_count).limit(0),comments.summary(total_count).limit(0)';

/**
 * `GET /{post}?fields=shares,reactions.summary(total_count).limit(0),comments.summary(total_count).limit(0)`
 * per post (contract section H): reactions are `likes`, a share on Facebook is a `repost`. A video
 * (an id without the page prefix) has no `shares` field, so only its reactions and comments are
 * asked. A post Graph no longer has is `gone`.
 */
export function facebookPostMetrics(
  client: GraphClient,
  targets: readonly MetricsTarget[],
): Promise<Map<string, PostMetricsResult>> {
  return perPostMetrics(
    targets,
    async (id) => {
      const isVideo = !id.includes('_');
      const answer = await client.get<PostCounts>(
        `/${encodeURIComponent(id)}`,
        { fields: isVideo ? summaries : `shares,${summaries}` },
        'the post figures',
      );
      const metrics: MetricValues = {};
      const likes = count(answer.reactions?.summary?.total_count);
      const comments = count(answer.comments?.summary?.total_count);
      // Graph leaves `shares` out of a post nobody shared yet.
      const reposts = isVideo ? undefined : (count(answer.shares?.count) ?? 0);
      if (likes !== undefined) metrics.likes = likes;
      if (comments !== undefined) metrics.comments = comments;
      if (reposts !== undefined) metrics.reposts = reposts;
      return metrics;
    },
    (error) => isPlatformError(error) && error.code === 'target_unreachable',
  );
}

/** `GET /{page}?fields=followers_count`. */
export async function facebookAccountMetrics(
  client: GraphClient,
  pageId: string,
): Promise<Partial<Record<AccountMetricName, number>>> {
  const answer = await client.get<{ followers_count?: unknown }>(
    `/${encodeURIComponent(pageId)}`,
    { fields: 'followers_count' },
    'the page lookup',
  );
  const followers = count(answer.followers_count);
  return followers === undefined ? {} : { followers };
}
