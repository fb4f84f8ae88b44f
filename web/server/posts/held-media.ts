import type { Db } from '#server/db/access.ts';
import { validationFailed } from '#server/http/problems.ts';
import { holdMedia } from '#server/media/repository.ts';
import type { NewPostRow } from './repository.ts';

/**
 * Locks the media the rows name (base, overrides, thread parts) for the caller's transaction; media
 * deleted since the request resolved it is `media_not_found`, as if it had never existed.
 */
export async function holdPostMedia(
  ctx: Db,
  rows: readonly Pick<Partial<NewPostRow>, 'workspaceId' | 'media' | 'overrides' | 'thread'>[],
): Promise<void> {
  const byWorkspace = new Map<string, Set<string>>();
  for (const row of rows) {
    const keys = [
      ...(row.media ?? []),
      ...Object.values(row.overrides ?? {}).flatMap((o) => o.media ?? []),
      ...(row.thread ?? []).flatMap((part) => part.media),
    ].map((m) => m.key);
    if (!row.workspaceId || keys.length === 0) continue;
    const set = byWorkspace.get(row.workspaceId) ?? new Set<string>();
    for (const key of keys) set.add(key);
    byWorkspace.set(row.workspaceId, set);
  }
  for (const [workspaceId, keys] of byWorkspace) {
    const held = await holdMedia(ctx, workspaceId, [...keys]);
    const missing = [...keys].filter((key) => !held.has(key));
    if (missing.length > 0) {
      throw validationFailed(
        'Some media were deleted meanwhile',
        missing.map((key) => ({
          path: 'media',
          code: 'media_not_found',
          message: `No media with key "${key}"`,
        })),
      );
    }
  }
}
