import type { Env } from '../registry.ts';

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

export const imageTypes = ['image/jpeg', 'image/png', 'image/webp', 'image/gif'] as const;
export const videoTypes = ['video/mp4'] as const;

export const defaultBlueskyServiceUrl = 'https://bsky.social';

export interface BlueskyConfig {
  /** PDS used when an account has no `credentials.service`. */
  serviceUrl: string;
  concurrency: number;
}

/** Reads BLUESKY_SERVICE_URL and BLUESKY_CONCURRENCY; throws on bad values at start. */
export function blueskyConfigFromEnv(env: Env): BlueskyConfig {
  const serviceUrl = normalizeServiceUrl(env.BLUESKY_SERVICE_URL || defaultBlueskyServiceUrl);
  if (!serviceUrl) {
    throw new Error(`BLUESKY_SERVICE_URL must be an http(s) URL, got "${env.BLUESKY_SERVICE_URL}"`);
  }
  const rawConcurrency = env.BLUESKY_CONCURRENCY;
  const concurrency = rawConcurrency ? Number(rawConcurrency) : 4;
  if (!Number.isSafeInteger(concurrency) || concurrency <= 0) {
    throw new Error(`BLUESKY_CONCURRENCY must be a positive whole number, got "${rawConcurrency}"`);
  }
  return { serviceUrl, concurrency };
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
