import { isPlatformError } from '../../errors.ts';
import type { MetricsTarget, MetricValues, PostMetricsResult } from '../types.ts';
import { type LinkedInApi, urnPath } from './api.ts';

interface SocialActions {
  likesSummary?: { totalLikes?: unknown };
  commentsSummary?: { aggregatedTotalComments?: unknown; totalFirstLevelComments?: unknown };
}

const count = (value: unknown) =>
  typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 ? value : undefined;

/**
 * `GET /rest/socialActions/{urn}` per post (contract section H): `likesSummary.totalLikes` and
 * `commentsSummary.aggregatedTotalComments`. Reading them needs `r_member_social` (a member) or
 * `r_organization_social` (a page), which LinkedIn grants only to approved apps: a 403 here means
 * the app lacks it, not that the account must reconnect, so that post is simply not reported
 * (docs/platforms/linkedin.md). A post LinkedIn no longer has (404) is `gone`.
 */
export async function linkedInPostMetrics(
  api: LinkedInApi,
  targets: readonly MetricsTarget[],
): Promise<Map<string, PostMetricsResult>> {
  const results = new Map<string, PostMetricsResult>();
  for (const { platformPostId } of targets) {
    try {
      const answer = await api.json<SocialActions>(
        `/rest/socialActions/${urnPath(platformPostId)}`,
        { method: 'GET' },
        'the post social actions',
      );
      const metrics: MetricValues = {};
      const likes = count(answer.likesSummary?.totalLikes);
      const comments = count(answer.commentsSummary?.aggregatedTotalComments);
      if (likes !== undefined) metrics.likes = likes;
      if (comments !== undefined) metrics.comments = comments;
      results.set(platformPostId, { state: 'ok', metrics });
    } catch (error) {
      if (isPlatformError(error) && error.status === 404) results.set(platformPostId, { state: 'gone' });
      else if (isPlatformError(error) && error.status === 403) return results;
      else throw error;
    }
  }
  return results;
}
