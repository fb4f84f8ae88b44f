import { isPlatformError } from '../../errors.ts';
import type { AccountMetricName } from '../manifest.ts';
import type { MetricsTarget, PostMetricsResult } from '../types.ts';
import { verifiedAccount } from './account.ts';
import type { MastodonApi } from './api.ts';

interface StatusCounts {
  favourites_count?: unknown;
  replies_count?: unknown;
  reblogs_count?: unknown;
}

const count = (value: unknown) =>
  typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 ? value : undefined;

/**
 * Contract section H: `GET /api/v1/statuses/{id}` per target (`favourites_count` → likes,
 * `replies_count` → comments, `reblogs_count` → reposts); a status the server no longer has
 * (404, 410) is `gone`. Shared by Mastodon and the servers speaking its API.
 */
export async function statusMetrics(
  api: MastodonApi,
  targets: readonly MetricsTarget[],
): Promise<Map<string, PostMetricsResult>> {
  const results = new Map<string, PostMetricsResult>();
  for (const { platformPostId } of targets) {
    try {
      const { body } = await api.request<StatusCounts>({
        method: 'GET',
        path: `/api/v1/statuses/${encodeURIComponent(platformPostId)}`,
        operation: 'status',
      });
      const likes = count(body.favourites_count);
      const comments = count(body.replies_count);
      const reposts = count(body.reblogs_count);
      results.set(platformPostId, {
        state: 'ok',
        metrics: {
          ...(likes !== undefined ? { likes } : {}),
          ...(comments !== undefined ? { comments } : {}),
          ...(reposts !== undefined ? { reposts } : {}),
        },
      });
    } catch (error) {
      if (isPlatformError(error) && (error.status === 404 || error.status === 410))
        results.set(platformPostId, { state: 'gone' });
      else throw error;
    }
  }
  return results;
}

/** `followers_count` of `verify_credentials`. */
export async function accountFollowers(
  api: MastodonApi,
): Promise<Partial<Record<AccountMetricName, number>>> {
  const followers = count((await verifiedAccount(api)).followers_count);
  return followers === undefined ? {} : { followers };
}
