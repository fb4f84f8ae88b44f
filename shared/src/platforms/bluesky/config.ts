import { envBaseUrl } from '../env.ts';
import type { Env } from '../types.ts';

/** `app.bsky.feed.post` text limit, counted in graphemes (a family emoji is one). */
export const maxGraphemes = 300;
/** The same field's byte limit: it only bites for text in scripts that take 3-4 UTF-8 bytes per grapheme. */
export const maxTextBytes = 3000;
/** `app.bsky.embed.images` holds at most four images. */
export const maxImages = 4;
/** `app.bsky.embed.images` blob `maxSize`. */
export const maxImageBytes = 2_000_000;
/** Videos posted through the PDS; Bluesky's documented upload limit. */
export const maxVideoBytes = 100 * 1000 * 1000;
/** Post languages (`langs`): the lexicon allows three. */
export const maxLangs = 3;
/** `app.bsky.embed.video#alt`: `maxGraphemes: 1000` in the lexicon (image alt text has no lexicon limit). */
export const maxVideoAltGraphemes = 1000;

export const imageTypes = ['image/jpeg', 'image/png', 'image/webp', 'image/gif'] as const;
export const videoTypes = ['video/mp4'] as const;

export const defaultBlueskyServiceUrl = 'https://bsky.social';

export interface BlueskyConfig {
  /** PDS used when an account has no `credentials.service`. */
  serviceUrl: string;
  /** Publishes at once in the process; adapters override it with PUBLISH_CONCURRENCY_BLUESKY. */
  concurrency: number;
}

/** Reads BLUESKY_SERVICE_URL; throws on a bad value at start. */
export function blueskyConfigFromEnv(env: Env): BlueskyConfig {
  return { serviceUrl: envBaseUrl(env, 'BLUESKY_SERVICE_URL', defaultBlueskyServiceUrl), concurrency: 4 };
}

/** The origin (plus any path prefix) of an http(s) URL without trailing slashes, or undefined. */
export function normalizeServiceUrl(value: string): string | undefined {
  try {
    const url = new URL(value);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
    return `${url.origin}${url.pathname}`.replace(/\/+$/, '');
  } catch {
    return undefined;
  }
}
