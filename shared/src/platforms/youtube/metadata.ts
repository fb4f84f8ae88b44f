import type { PostContent } from '../types.ts';
import { defaultCategoryId } from './limits.ts';
import type { YouTubeOptions } from './options.ts';

/** The `snippet` and `status` parts of a YouTube video resource, as videos.insert takes them. */
export interface VideoMetadata {
  snippet: { title: string; description: string; tags?: string[]; categoryId: string };
  status: {
    privacyStatus: 'public' | 'unlisted' | 'private';
    selfDeclaredMadeForKids?: boolean;
    publishAt?: string;
  };
}

/** The title: the option, or else the message's first non-empty line. */
export function videoTitle(post: PostContent, options: YouTubeOptions): string {
  if (options.title !== undefined) return options.title.trim();
  return (post.message.split(/\r?\n/).find((line) => line.trim() !== '') ?? '').trim();
}

export function videoDescription(post: PostContent, options: YouTubeOptions): string {
  return options.description ?? post.message;
}

/** A scheduled video must be private until YouTube publishes it, so that is the default with `publishAt`. */
export function videoPrivacy(options: YouTubeOptions): VideoMetadata['status']['privacyStatus'] {
  return options.privacyStatus ?? (options.publishAt ? 'private' : 'public');
}

export function videoMetadata(post: PostContent, options: YouTubeOptions): VideoMetadata {
  return {
    snippet: {
      title: videoTitle(post, options),
      description: videoDescription(post, options),
      ...(options.tags?.length ? { tags: options.tags } : {}),
      categoryId: options.categoryId ?? defaultCategoryId,
    },
    status: {
      privacyStatus: videoPrivacy(options),
      ...(options.madeForKids === undefined ? {} : { selfDeclaredMadeForKids: options.madeForKids }),
      ...(options.publishAt ? { publishAt: new Date(options.publishAt).toISOString() } : {}),
    },
  };
}

/** Tags as YouTube counts them: commas between tags, and quotes around a tag containing a space. */
export function tagsLength(tags: readonly string[]): number {
  const commas = Math.max(0, tags.length - 1);
  return tags.reduce((sum, tag) => sum + [...tag].length + (tag.includes(' ') ? 2 : 0), commas);
}
