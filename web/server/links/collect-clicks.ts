import type { AppContext } from '#server/context.ts';
import { findLinkSettings, saveClicks, shortLinksOfTargets } from './repository.ts';
import { shortenerOf } from './tracking.ts';

/**
 * The clicks of these targets' short links, summed per target (key `postId accountId`), asked of
 * each workspace's shortener with the target's metrics collection. A link whose count cannot be
 * read this time counts with its last known figure; a target none of whose links was ever counted
 * is absent (a metric not known is absent, never 0). Links made by another shortener than the one
 * configured now are not asked (its key is gone). Never throws for a shortener's failure.
 */
export async function collectClicks(
  ctx: AppContext,
  targets: readonly { postId: string; accountId: string }[],
): Promise<Map<string, number>> {
  const totals = new Map<string, number>();
  const links = await shortLinksOfTargets(ctx, targets);
  const byWorkspace = Map.groupBy(links, (l) => l.workspaceId);
  for (const [workspaceId, rows] of byWorkspace) {
    let shortener: ReturnType<typeof shortenerOf>;
    try {
      shortener = shortenerOf(ctx, await findLinkSettings(ctx, workspaceId));
    } catch (error) {
      ctx.logger.warn({ err: error, workspaceId }, 'the shortener key cannot be read; clicks not collected');
    }
    for (const link of rows) {
      let clicks = link.clicks;
      if (shortener && link.provider === shortener.provider && link.ref) {
        try {
          clicks = await shortener.clicks(link.ref);
          await saveClicks(ctx, link, clicks);
        } catch (error) {
          ctx.logger.warn(
            {
              workspaceId,
              postId: link.postId,
              accountId: link.accountId,
              code: (error as { code?: string }).code,
            },
            'could not read a short link’s clicks; keeping the last count',
          );
        }
      }
      if (clicks === null) continue;
      const key = `${link.postId} ${link.accountId}`;
      totals.set(key, (totals.get(key) ?? 0) + clicks);
    }
  }
  return totals;
}
