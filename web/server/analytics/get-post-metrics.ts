import { canonicalMetrics } from '@postwave/shared';
import type { AppContext } from '#server/context.ts';
import { notFound } from '#server/http/respond.ts';
import { linksOfPosts } from '#server/links/repository.ts';
import { ownedPostExists, postHistory, postTargetMetrics } from './repository.ts';
import type { PostMetricsView } from './schema.ts';

/**
 * `GET /api/v1/posts/{id}/metrics`: each posted target's latest figures, what its platform
 * reports, where its collection stands, and with `history` every collection.
 */
export async function getPostMetrics(
  ctx: AppContext,
  owner: string,
  postId: string,
  options: { history?: boolean } = {},
): Promise<PostMetricsView> {
  if (!(await ownedPostExists(ctx, owner, postId))) throw notFound('post');
  const [targets, history, links] = await Promise.all([
    postTargetMetrics(ctx, owner, postId),
    options.history ? postHistory(ctx, owner, postId) : Promise.resolve(undefined),
    linksOfPosts(ctx, [postId]),
  ]);
  // A target with short links reports their clicks (docs/links.md), whatever its platform has.
  const shortened = new Set(links.filter((l) => l.ref && l.shortUrl).map((l) => l.accountId));
  return {
    targets: targets.map((t) => {
      const own = ctx.platforms.get(t.platform)?.manifest.analytics?.post ?? [];
      const supported =
        shortened.has(t.accountId) && !own.includes('clicks') ? [...own, 'clicks' as const] : own;
      return {
        accountId: t.accountId,
        platform: t.platform,
        platformPostId: t.platformPostId,
        url: t.url,
        supported: [...supported],
        metrics: canonicalMetrics(t.metrics),
        engagement: t.engagement,
        collectedAt: t.collectedAt?.toISOString() ?? null,
        metricsState: t.state ?? (supported.length > 0 ? 'collecting' : 'unsupported'),
        nextCollectAt: t.nextCollectAt?.toISOString() ?? null,
        ...(history
          ? {
              history: history
                .filter((h) => h.accountId === t.accountId)
                .map((h) => ({ at: h.at.toISOString(), metrics: canonicalMetrics(h.metrics) })),
            }
          : {}),
      };
    }),
  };
}
