import { codePointLength } from '../../text.ts';

export const maxCaptionLength = 2200;
export const maxHashtags = 30;
export const maxMentions = 20;
/** A carousel holds 2 to 10 images and videos. */
export const maxCarouselItems = 10;
/** Images: JPEG only, up to 8 MB. */
export const imageTypes: readonly string[] = ['image/jpeg'];
export const maxImageBytes = 8 * 1024 * 1024;
/** Reels: MP4 or MOV up to 300 MB; videos inside a carousel up to 100 MB. */
export const videoTypes: readonly string[] = ['video/mp4', 'video/quicktime'];
export const maxReelBytes = 300 * 1024 * 1024;
export const maxCarouselVideoBytes = 100 * 1024 * 1024;

export function instagramCaptionLength(caption: string): number {
  return codePointLength(caption);
}

export function countHashtags(caption: string): number {
  return caption.match(/(^|[^\p{L}\p{N}_&])#[\p{L}\p{N}_]+/gu)?.length ?? 0;
}

export function countMentions(caption: string): number {
  return caption.match(/(^|[^\p{L}\p{N}_.])@[A-Za-z0-9_.]+/gu)?.length ?? 0;
}
