import { collectingPlatforms } from '#server/analytics/enrollment.ts';
import type { AppContext } from '#server/context.ts';
import { postEvents } from '#server/webhooks/post-events.ts';
import type { FinalizeOptions } from './repository.ts';

/**
 * What the statement that finishes posts writes and answers besides their status: each posted
 * target's analytics schedule (docs/analytics.md#collection), and whether the post's workspace
 * takes post events (webhooks), so neither costs a round trip of its own per post.
 */
export function finalizeOptions(ctx: AppContext): FinalizeOptions {
  return {
    analytics: {
      collecting: collectingPlatforms(ctx).posts,
      firstOffsetMs: ctx.config.analytics.collectAfterMs[0] ?? 3_600_000,
    },
    subscriberEvents: postEvents,
  };
}
