import type { MediaInfo } from '../../media/media-file.ts';
import { maxAlbumItems, minAlbumItems, type TelegramLimits } from './limits.ts';

/** How Telegram treats a file, which decides the Bot API method and the size limit. */
export type TelegramMediaType = 'photo' | 'video' | 'animation' | 'document';

/**
 * Only MP4 plays inline as a Telegram video ("other formats may be sent as Document"), and
 * WebP, PNG and JPEG are the photo formats Telegram recompresses; everything else we accept
 * goes out as a file.
 */
const typeByContentType: Record<string, TelegramMediaType> = {
  'image/jpeg': 'photo',
  'image/png': 'photo',
  'image/webp': 'photo',
  'image/gif': 'animation',
  'video/mp4': 'video',
  'video/quicktime': 'document',
  'video/webm': 'document',
  'application/pdf': 'document',
};

export function telegramMediaType(contentType: string): TelegramMediaType | undefined {
  return typeByContentType[contentType];
}

export const sendMethodFor: Record<TelegramMediaType, string> = {
  photo: 'sendPhoto',
  video: 'sendVideo',
  animation: 'sendAnimation',
  document: 'sendDocument',
};

export function maxBytesFor(type: TelegramMediaType, limits: TelegramLimits): number {
  return type === 'photo' ? limits.maxPhotoBytes : limits.maxFileBytes;
}

export type MediaPlan =
  | { kind: 'text' }
  | { kind: 'single'; type: TelegramMediaType }
  | { kind: 'album'; types: TelegramMediaType[] };

export type PlanProblem =
  | { code: 'media_type_unsupported'; index: number; contentType: string }
  | { code: 'too_many_media'; count: number }
  | { code: 'media_mix_unsupported'; reason: 'documents' | 'animations' };

/** Which Bot API call a post's media needs, or why no call can carry it. */
export function planMedia(media: readonly Pick<MediaInfo, 'contentType'>[]): MediaPlan | PlanProblem {
  const types: TelegramMediaType[] = [];
  for (const [index, file] of media.entries()) {
    const type = telegramMediaType(file.contentType);
    if (!type) return { code: 'media_type_unsupported', index, contentType: file.contentType };
    types.push(type);
  }
  if (types.length === 0) return { kind: 'text' };
  if (types.length === 1) return { kind: 'single', type: types[0]! };
  if (types.length > maxAlbumItems) return { code: 'too_many_media', count: types.length };
  if (types.includes('animation')) return { code: 'media_mix_unsupported', reason: 'animations' };
  const documents = types.filter((t) => t === 'document').length;
  if (documents > 0 && documents < types.length)
    return { code: 'media_mix_unsupported', reason: 'documents' };
  return types.length >= minAlbumItems ? { kind: 'album', types } : { kind: 'single', type: types[0]! };
}

export function isPlanProblem(value: MediaPlan | PlanProblem): value is PlanProblem {
  return 'code' in value;
}
