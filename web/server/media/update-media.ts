import { ProblemError, problem } from '@postwave/shared';
import type { AppContext } from '#server/context.ts';
import { isUuid } from '#server/http/ids.ts';
import { type MediaRow, postsUsingMedia, updateMediaRow } from './repository.ts';
import type { LibraryMediaView, MediaPatchInput } from './schema.ts';
import { toLibraryMedia } from './view.ts';

export const mediaNotFound = () => new ProblemError(problem('not_found', 'No such media'));

/**
 * `PATCH /api/v1/media/{id}`: the library's metadata (file name, alt text, tags). The stored
 * bytes, key and URL never change, so posts that use the media are unaffected except that the new
 * alt text becomes their default (see `withLibraryAltText`).
 */
export async function updateMedia(
  ctx: AppContext,
  workspaceId: string,
  id: string,
  patch: MediaPatchInput,
): Promise<LibraryMediaView> {
  if (!isUuid(id)) throw mediaNotFound();
  const values: Partial<Pick<MediaRow, 'filename' | 'altText' | 'tags'>> = {};
  if (patch.filename !== undefined) values.filename = patch.filename;
  if (patch.altText !== undefined) values.altText = patch.altText?.trim() ? patch.altText : null;
  if (patch.tags !== undefined) values.tags = uniqueTags(patch.tags);
  const row = await updateMediaRow(ctx, workspaceId, id, values);
  if (!row) throw mediaNotFound();
  const uses = await postsUsingMedia(ctx, workspaceId, [row.key]);
  return toLibraryMedia(ctx, row, uses.get(row.key) ?? []);
}

/** Tags in their given order and case, without repeats that differ only by case. */
function uniqueTags(tags: string[]): string[] {
  const seen = new Set<string>();
  return tags.filter((tag) => {
    const folded = tag.toLowerCase();
    if (seen.has(folded)) return false;
    seen.add(folded);
    return true;
  });
}
