import { utf16Length } from '../../text.ts';

/** `commentary` limit of the Posts API, counted as LinkedIn's Java backend counts (UTF-16 units). */
export const maxCommentaryLength = 3000;
/** A multi-image post holds 2 to 20 images. */
export const maxImages = 20;
export const imageTypes: readonly string[] = ['image/jpeg', 'image/png', 'image/gif'];
export const videoTypes: readonly string[] = ['video/mp4'];
/** Videos API: 75 KB to 500 MB. */
export const minVideoBytes = 75 * 1024;
export const maxVideoBytes = 500 * 1024 * 1024;

/** What LinkedIn counts: the message as written (escaping for the "little text" format adds nothing visible). */
export function linkedInTextLength(message: string): number {
  return utf16Length(message);
}
