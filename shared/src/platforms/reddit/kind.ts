import type { MediaKind } from '../../media/kinds.ts';

/** What `POST /api/submit` is asked to make: contract section C, `reddit`. Browser-safe. */
export type RedditKind = 'self' | 'link' | 'image' | 'video';

/** A message that is one http(s) URL and nothing else is a link post. */
const urlOnly = /^https?:\/\/[^\s<>"]+$/i;

/** Media → `image` or `video`; a message that is only a URL → `link`; anything else → `self`. */
export function redditKind(message: string, media: readonly { kind: MediaKind }[]): RedditKind {
  const first = media[0];
  if (first) return first.kind === 'video' ? 'video' : 'image';
  return urlOnly.test(message.trim()) ? 'link' : 'self';
}
