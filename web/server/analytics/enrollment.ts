import type { AppContext } from '#server/context.ts';

/** Platforms whose publishers collect post metrics, and those that collect account metrics. */
export function collectingPlatforms(ctx: AppContext): { posts: string[]; accounts: string[] } {
  const posts: string[] = [];
  const accounts: string[] = [];
  for (const id of ctx.platforms.keys()) {
    const publisher = ctx.publishers.get(id);
    if (publisher?.metrics) posts.push(id);
    if (publisher?.accountMetrics) accounts.push(id);
  }
  return { posts, accounts };
}
