import { mediaKindOf } from '../media/kinds.ts';
import type { MediaFile } from '../media/media-file.ts';
import { type MediaReference, mediaKeyPattern } from '../schemas/media.ts';
import type { ValidationIssue } from '../schemas/results.ts';
import type { Storage } from '../storage/types.ts';

export interface ResolvedMedia {
  files: MediaFile[];
  /** Problems with the references themselves; they apply to every target. */
  issues: ValidationIssue[];
}

/**
 * Looks every reference up by key in our own storage. Whatever else the client sent
 * (url, size, contentType) is ignored: the stored object is the truth.
 */
export async function resolveMedia(
  refs: readonly MediaReference[],
  storage: Storage,
): Promise<ResolvedMedia> {
  const files: MediaFile[] = [];
  const issues: ValidationIssue[] = [];
  await Promise.all(
    refs.map(async (ref, index) => {
      const path = `media[${index}]`;
      if (!mediaKeyPattern.test(ref.key)) {
        issues.push({ code: 'media_not_found', message: `No media with key "${ref.key}"`, path });
        return;
      }
      const stored = await storage.head(ref.key);
      if (!stored) {
        issues.push({
          code: 'media_not_found',
          message: `No media with key "${ref.key}"; upload it first`,
          path,
        });
        return;
      }
      files[index] = mediaFileFromStorage(storage, {
        key: stored.key,
        filename: ref.filename ?? stored.key,
        contentType: stored.contentType,
        size: stored.size,
      });
    }),
  );
  return { files: files.filter(Boolean), issues };
}

export function mediaFileFromStorage(
  storage: Storage,
  object: { key: string; filename: string; contentType: string; size: number },
): MediaFile {
  return {
    ...object,
    kind: mediaKindOf(object.contentType),
    url: storage.publicUrl(object.key),
    blob: () => storage.blob(object.key),
    stream: (range) => storage.read(object.key, range),
  };
}
