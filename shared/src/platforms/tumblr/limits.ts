import { codePointLength } from '../../text.ts';

/** Tumblr's Neue Post Format: a text block holds at most 4096 characters. Browser-safe. */
export const maxTextBlockLength = 4096;
/** Images and videos per post, as Tumblr's editor allows. */
export const maxMedia = 10;
export const maxVideos = 1;
/** At most 30 tags on a post, each up to 140 characters. */
export const maxTags = 30;
export const maxTagLength = 140;
export const maxImageBytes = 20 * 1024 * 1024;
export const maxGifBytes = 10 * 1024 * 1024;
export const maxVideoBytes = 500 * 1024 * 1024;
export const imageTypes = ['image/jpeg', 'image/png', 'image/gif', 'image/webp'];
export const videoTypes = ['video/mp4', 'video/quicktime'];
/** NPF image blocks take `alt_text`; Tumblr's editor stops at 4096 characters. */
export const maxAltTextLength = 4096;
export const tumblrStates = ['published', 'draft', 'queue'] as const;

/**
 * The message as NPF text blocks: one per paragraph (paragraphs are separated by blank lines, as
 * Tumblr's editor makes them); a single line break stays inside its block.
 */
export function textBlocks(message: string): string[] {
  return message
    .split(/\r?\n[ \t]*\r?\n/)
    .map((paragraph) => paragraph.replace(/^\s*\n|\s+$/g, ''))
    .filter((paragraph) => paragraph.trim() !== '');
}

/** The longest block, in Unicode code points: what the 4096 limit applies to. */
export function longestBlockLength(message: string): number {
  return Math.max(0, ...textBlocks(message).map(codePointLength));
}
