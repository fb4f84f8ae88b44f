import { ProblemError, problem } from '@postwave/shared';
import type { AppContext } from '#server/context.ts';
import { isUuid } from '#server/http/ids.ts';
import { deleteUnusedMediaRow } from './repository.ts';
import { mediaHoldingStatuses } from './schema.ts';
import { mediaNotFound } from './update-media.ts';

/**
 * `DELETE /api/v1/media/{id}`: refused with 409 `media_in_use` while a draft, scheduled or pending
 * post references the media (its publish would fail). Posts already posted or failed keep their
 * record; their copy of the file goes with it. The row goes first, then the stored objects (the
 * file and its thumbnail): a storage failure leaves an unreferenced object, never a row without one.
 */
export async function deleteMedia(ctx: AppContext, workspaceId: string, id: string): Promise<void> {
  if (!isUuid(id)) throw mediaNotFound();
  // Check and delete are one transaction: a draft taking the media meanwhile is seen or refused.
  const outcome = await deleteUnusedMediaRow(ctx, workspaceId, id, mediaHoldingStatuses);
  if (!outcome) throw mediaNotFound();
  if ('usedBy' in outcome) {
    const holding = outcome.usedBy;
    throw new ProblemError(
      problem(
        'media_in_use',
        `This media is used by ${holding.length === 1 ? 'a post' : `${holding.length} posts`} that ${holding.length === 1 ? 'is' : 'are'} not published yet (${[...new Set(holding.map((use) => use.status))].join(', ')}): remove it from ${holding.length === 1 ? 'that post' : 'them'} first`,
        {
          errors: holding.map((use) => ({
            code: 'media_in_use',
            message: `Post ${use.postId} (${use.status})`,
            path: `usedBy.${use.postId}`,
          })),
        },
      ),
    );
  }
  const { deleted } = outcome;
  for (const key of [deleted.key, deleted.thumbnailKey]) {
    if (!key) continue;
    await ctx.storage.delete(key).catch((error: unknown) => {
      ctx.logger.warn({ err: error, key }, 'could not remove a deleted media file from storage');
    });
  }
}
