/** Pinterest API v5's limits for one pin (browser-safe). */

export const maxDescriptionLength = 500;
export const maxTitleLength = 100;
export const maxAltTextLength = 500;
export const maxLinkLength = 2048;
/** A carousel pin (`multiple_image_urls`) holds 2 to 5 images. */
export const maxImages = 5;
export const maxImageBytes = 20 * 1024 * 1024;
export const maxVideoBytes = 2 * 1024 * 1024 * 1024;
export const imageTypes: readonly string[] = [
  'image/jpeg',
  'image/png',
  'image/webp',
  'image/gif',
  'image/bmp',
  'image/tiff',
];
export const videoTypes: readonly string[] = ['video/mp4', 'video/quicktime', 'video/x-m4v'];

/** Characters as Pinterest counts them: Unicode code points (an emoji outside the BMP is one). */
export function pinterestLength(text: string): number {
  let length = 0;
  for (const _ of text) length++;
  return length;
}
