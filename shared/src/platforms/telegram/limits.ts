import { envBaseUrl, envPositiveInt } from '../env.ts';
import type { Env } from '../types.ts';

/** Telegram's published Bot API limits, plus the two a local Bot API server lifts. */
export interface TelegramLimits {
  /** `sendPhoto` and photos in albums. */
  maxPhotoBytes: number;
  /** Videos, animations and documents: 50 MB on api.telegram.org, up to 2000 MB on a local server. */
  maxFileBytes: number;
}

export const maxTextLength = 4096;
export const maxCaptionLength = 1024;
export const minAlbumItems = 2;
export const maxAlbumItems = 10;

export const defaultTelegramLimits: TelegramLimits = {
  maxPhotoBytes: 10 * 1000 * 1000,
  maxFileBytes: 50 * 1000 * 1000,
};

export const defaultTelegramApiUrl = 'https://api.telegram.org';

export interface TelegramConfig {
  apiUrl: string;
  limits: TelegramLimits;
}

/** Reads TELEGRAM_API_URL, TELEGRAM_MAX_PHOTO_BYTES and TELEGRAM_MAX_FILE_BYTES; throws on bad values at start. */
export function telegramConfigFromEnv(env: Env): TelegramConfig {
  return {
    apiUrl: envBaseUrl(env, 'TELEGRAM_API_URL', defaultTelegramApiUrl),
    limits: {
      maxPhotoBytes: envPositiveInt(env, 'TELEGRAM_MAX_PHOTO_BYTES', defaultTelegramLimits.maxPhotoBytes),
      maxFileBytes: envPositiveInt(env, 'TELEGRAM_MAX_FILE_BYTES', defaultTelegramLimits.maxFileBytes),
    },
  };
}
