import type { AccountMetricName } from '../manifest.ts';
import type { MetricsTarget, MetricValues, PostMetricsResult } from '../types.ts';
import { xFetch } from './api.ts';
import type { XConfig } from './config.ts';
import type { XAccessToken } from './token.ts';

/** X's posts lookup takes up to 100 ids per call. */
export const xMetricsBatchSize = 100;

interface PublicMetrics {
  impression_count?: unknown;
  like_count?: unknown;
  reply_count?: unknown;
  retweet_count?: unknown;
  quote_count?: unknown;
  bookmark_count?: unknown;
}
interface LookupAnswer {
  data?: { id?: string; public_metrics?: PublicMetrics }[];
  errors?: { resource_id?: string; type?: string }[];
}

const count = (value: unknown) =>
  typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 ? value : undefined;

/** X's field → our canonical name (contract section H). */
const names: [keyof PublicMetrics, keyof MetricValues][] = [
  ['impression_count', 'impressions'],
  ['like_count', 'likes'],
  ['reply_count', 'comments'],
  ['retweet_count', 'reposts'],
  ['quote_count', 'quotes'],
  ['bookmark_count', 'saves'],
];

/**
 * `GET /2/tweets?ids=…&tweet.fields=public_metrics`: one call per 100 posts. A post X reports
 * under `errors` as `resource-not-found` was deleted (collection stops); any other error entry
 * (a suspended author, a protected post) is left out of the answer and tried again next time.
 */
export async function xPostMetrics(
  config: XConfig,
  token: XAccessToken,
  targets: readonly MetricsTarget[],
  signal: AbortSignal,
): Promise<Map<string, PostMetricsResult>> {
  const results = new Map<string, PostMetricsResult>();
  for (let i = 0; i < targets.length; i += xMetricsBatchSize) {
    const ids = targets.slice(i, i + xMetricsBatchSize).map((t) => t.platformPostId);
    const url = new URL(`${config.apiUrl}/2/tweets`);
    url.searchParams.set('ids', ids.join(','));
    url.searchParams.set('tweet.fields', 'public_metrics');
    const { data } = await xFetch<LookupAnswer>(
      token,
      url,
      { method: 'GET', signal, what: 'the posts lookup' },
      config.maxRateLimitWaitMs,
    );
    for (const post of data.data ?? []) {
      if (!post.id) continue;
      const metrics: MetricValues = {};
      for (const [field, name] of names) {
        const value = count(post.public_metrics?.[field]);
        if (value !== undefined) metrics[name] = value;
      }
      results.set(post.id, { state: 'ok', metrics });
    }
    for (const error of data.errors ?? []) {
      if (error.resource_id && error.type?.endsWith('/resource-not-found') && !results.has(error.resource_id))
        results.set(error.resource_id, { state: 'gone' });
    }
  }
  return results;
}

/** `followers_count` of `GET /2/users/me?user.fields=public_metrics`. */
export async function xAccountMetrics(
  config: XConfig,
  token: XAccessToken,
  signal: AbortSignal,
): Promise<Partial<Record<AccountMetricName, number>>> {
  const { data } = await xFetch<{ data?: { public_metrics?: { followers_count?: unknown } } }>(
    token,
    `${config.apiUrl}/2/users/me?user.fields=public_metrics`,
    { method: 'GET', signal, what: 'the account lookup' },
    config.maxRateLimitWaitMs,
  );
  const followers = count(data.data?.public_metrics?.followers_count);
  return followers === undefined ? {} : { followers };
}
