import { readJson } from '../../http/fetch.ts';
import type { GoogleAccessToken } from '../google-oauth.ts';
import type { AccountMetricName } from '../manifest.ts';
import type { MetricsTarget, MetricValues, PostMetricsResult } from '../types.ts';
import type { YouTubeConfig } from './config.ts';
import { failure, googleFetch } from './google-fetch.ts';

/** videos.list takes up to 50 ids per call. */
export const youTubeMetricsBatchSize = 50;

interface VideoList {
  items?: {
    id?: string;
    statistics?: { viewCount?: unknown; likeCount?: unknown; commentCount?: unknown };
  }[];
}

/** YouTube sends counts as decimal strings; a hidden count (likes turned off) is absent. */
const count = (value: unknown) => {
  const n = typeof value === 'string' && /^\d{1,15}$/.test(value) ? Number(value) : value;
  return typeof n === 'number' && Number.isSafeInteger(n) && n >= 0 ? n : undefined;
};

/**
 * `videos.list?part=statistics&id=…` (50 ids a call): `viewCount` → views, `likeCount` → likes,
 * `commentCount` → comments (contract section H). YouTube leaves a deleted (or no longer
 * visible) video out of its answer: that video is `gone`.
 */
export async function youTubePostMetrics(
  config: YouTubeConfig,
  token: GoogleAccessToken,
  targets: readonly MetricsTarget[],
  signal: AbortSignal,
): Promise<Map<string, PostMetricsResult>> {
  const results = new Map<string, PostMetricsResult>();
  for (let i = 0; i < targets.length; i += youTubeMetricsBatchSize) {
    const ids = targets.slice(i, i + youTubeMetricsBatchSize).map((t) => t.platformPostId);
    const url = new URL(`${config.apiUrl}/videos`);
    url.searchParams.set('part', 'statistics');
    url.searchParams.set('id', ids.join(','));
    const response = await googleFetch(token, url, { signal }, 'the video statistics');
    if (!response.ok) throw await failure(response, 'the video statistics');
    for (const item of ((await readJson(response)) as VideoList | undefined)?.items ?? []) {
      if (!item.id) continue;
      const metrics: MetricValues = {};
      const views = count(item.statistics?.viewCount);
      const likes = count(item.statistics?.likeCount);
      const comments = count(item.statistics?.commentCount);
      if (views !== undefined) metrics.views = views;
      if (likes !== undefined) metrics.likes = likes;
      if (comments !== undefined) metrics.comments = comments;
      results.set(item.id, { state: 'ok', metrics });
    }
    for (const id of ids) if (!results.has(id)) results.set(id, { state: 'gone' });
  }
  return results;
}

/** `channels.list?part=statistics&mine=true`: `subscriberCount`, unless the channel hides it. */
export async function youTubeAccountMetrics(
  config: YouTubeConfig,
  token: GoogleAccessToken,
  signal: AbortSignal,
): Promise<Partial<Record<AccountMetricName, number>>> {
  const url = new URL(`${config.apiUrl}/channels`);
  url.searchParams.set('part', 'statistics');
  url.searchParams.set('mine', 'true');
  const response = await googleFetch(token, url, { signal }, 'the channel statistics');
  if (!response.ok) throw await failure(response, 'the channel statistics');
  const statistics = (
    (await readJson(response)) as
      | { items?: { statistics?: { subscriberCount?: unknown; hiddenSubscriberCount?: unknown } }[] }
      | undefined
  )?.items?.[0]?.statistics;
  const followers =
    statistics?.hiddenSubscriberCount === true ? undefined : count(statistics?.subscriberCount);
  return followers === undefined ? {} : { followers };
}
