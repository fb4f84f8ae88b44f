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
  /** Where the references sit in the request, for issue paths (`overrides.<id>.media`, `thread[2].media`). */
  path = 'media',
): Promise<ResolvedMedia> {
  const files: MediaFile[] = [];
  const issues: ValidationIssue[] = [];
  await Promise.all(
    refs.map(async (ref, index) => {
      const at = `${path}[${index}]`;
      if (!mediaKeyPattern.test(ref.key)) {
        issues.push({ code: 'media_not_found', message: `No media with key "${ref.key}"`, path: at });
        return;
      }
      const stored = await storage.head(ref.key);
      if (!stored) {
        issues.push({
          code: 'media_not_found',
          message: `No media with key "${ref.key}"; upload it first`,
          path: at,
        });
        return;
      }
      const file = mediaFileFromStorage(storage, {
        key: stored.key,
        filename: ref.filename ?? stored.key,
        contentType: stored.contentType,
        size: stored.size,
      });
      // Alt text is the one thing the client says about a file that we keep: it is the client's to say.
      files[index] = ref.altText ? { ...file, altText: ref.altText } : file;
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

/**
 * Resolves a public media URL back to our own stored object (YouTube thumbnails, which arrive
 * as `thumbnailUrl`). Only URLs under this storage's public base with a valid key match, so a
 * foreign URL is never fetched.
 */
export function ownMediaResolver(storage: Storage): (url: string) => Promise<MediaFile | null> {
  let prefix: string | null | undefined;
  return async (url) => {
    prefix ??= publicUrlPrefix(storage);
    if (prefix === null || !url.startsWith(prefix)) return null;
    const key = url.slice(prefix.length);
    if (!mediaKeyPattern.test(key)) return null;
    const stored = await storage.head(key);
    if (!stored) return null;
    return mediaFileFromStorage(storage, {
      key: stored.key,
      filename: stored.key,
      contentType: stored.contentType,
      size: stored.size,
    });
  };
}

/** What every public URL of this storage starts with, or null when URLs are not `prefix + key`. */
function publicUrlPrefix(storage: Storage): string | null {
  const probe = 'probe-key';
  const sample = storage.publicUrl(probe);
  return sample.endsWith(probe) ? sample.slice(0, -probe.length) : null;
}
