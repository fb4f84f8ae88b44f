import { codePointLength } from '../../text.ts';

/** A Page post's message limit, in characters (code points). */
export const maxMessageLength = 63206;
/** Photos attached to one feed post: Postwave's limit (Meta documents none; larger sets fail unpredictably). */
export const maxPhotos = 10;
/** Page photos: "4 MB or smaller". */
export const maxPhotoBytes = 4 * 1024 * 1024;
/** Page videos: up to 10 GB (resumable upload). */
export const maxVideoBytes = 10 * 1024 ** 3;
export const photoTypes: readonly string[] = ['image/jpeg', 'image/png', 'image/gif', 'image/webp'];
export const videoTypes: readonly string[] = ['video/mp4', 'video/quicktime', 'video/webm'];

export function facebookTextLength(message: string): number {
  return codePointLength(message);
}
