import type { MediaFile } from '../../media/media-file.ts';
import type { PostContent, StagedMedia } from '../types.ts';
import type { InstagramOptions } from './options.ts';

/*
 * Staging on Instagram: the post's container (a reel's video fetched and processed, or a
 * carousel with its items) is built and FINISHED ahead of the due time; at the due time the
 * publisher checks it is still FINISHED and calls `media_publish`. Instagram expires a container
 * not published within 24 hours, so a handle is used for 23.
 */

const containerLifetimeMs = 23 * 60 * 60_000;

interface InstagramStaged {
  container: string;
  /** What the container was built from: a publish of anything else builds its own. */
  of: string;
}

function fingerprint(post: PostContent, media: readonly MediaFile[], options: InstagramOptions): string {
  return JSON.stringify([post.message, media.map((f) => f.key), options]);
}

export function instagramStagedMedia(
  container: string,
  post: PostContent,
  media: readonly MediaFile[],
  options: InstagramOptions,
): StagedMedia {
  const handle: InstagramStaged = { container, of: fingerprint(post, media, options) };
  return { handle: JSON.stringify(handle), expiresAt: new Date(Date.now() + containerLifetimeMs) };
}

/** The staged container, when the handle was made from exactly this post. */
export function stagedInstagramContainer(
  staged: string | undefined,
  post: PostContent,
  media: readonly MediaFile[],
  options: InstagramOptions,
): string | undefined {
  if (!staged) return undefined;
  try {
    const parsed = JSON.parse(staged) as Partial<InstagramStaged>;
    if (typeof parsed.container === 'string' && parsed.of === fingerprint(post, media, options))
      return parsed.container;
  } catch {
    // Not a handle of ours: publish as usual.
  }
  return undefined;
}
