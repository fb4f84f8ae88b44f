import type { AppContext } from '#server/context.ts';
import type { PostRow } from '#server/posts/repository.ts';
import { discardPlatforms, discardSoon } from './discard.ts';
import { clearStagings } from './discard-repository.ts';

/** A minute for the final call after the due time: a handle must outlive it. */
const finalCallMarginMs = 60_000;

/**
 * Keeps a post's staging in step with an edit: new content, accounts, or a post no longer
 * scheduled forget every staged upload; a reschedule forgets those the platform drops before the
 * new due time (the post is staged again once it comes within the lead).
 */
export async function forgetStaging(ctx: AppContext, before: PostRow, after: PostRow): Promise<void> {
  const sameContent =
    before.message === after.message &&
    JSON.stringify(before.media) === JSON.stringify(after.media) &&
    JSON.stringify(before.accountIds) === JSON.stringify(after.accountIds) &&
    JSON.stringify(before.accountOptions) === JSON.stringify(after.accountOptions);
  const platforms = discardPlatforms(ctx);
  if (!sameContent || after.status !== 'scheduled') {
    discardSoon(ctx, await clearStagings(ctx, after.id, platforms));
    return;
  }
  const due = after.nextAttemptAt ?? after.scheduledAt;
  const was = before.nextAttemptAt ?? before.scheduledAt;
  if (due && due.getTime() !== was?.getTime())
    discardSoon(
      ctx,
      await clearStagings(ctx, after.id, platforms, new Date(due.getTime() + finalCallMarginMs)),
    );
}
