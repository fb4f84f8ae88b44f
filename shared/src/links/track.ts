import { findLinks, replaceLinks } from './find.ts';
import { ShortenerError } from './shorteners/client.ts';
import { appendUtm, type UtmSettings } from './utm.ts';

/** What became of one link of a target's text. */
export interface TrackedLink {
  /** The link as written in the post. */
  url: string;
  /** With the UTM parameters (the long link the short one leads to). */
  longUrl: string;
  /** What was posted instead of `url`: the short link, else `longUrl`. */
  postedUrl: string;
  shortUrl?: string;
  /** Why the link is not shortened (or not tracked at all), when it is not. */
  warning?: { code: string; message: string };
}

export interface LinkTracking {
  utm?: UtmSettings;
  /**
   * The short link for a long one. The caller keeps it per target and long URL, so a retry or a
   * second dispatch of the same target answers the same short link without asking again.
   * Throwing (a `ShortenerError`, say) leaves the long link in the text with a warning.
   */
  shorten?: (longUrl: string, url: string) => Promise<string>;
}

/**
 * A target's texts with their links tracked: UTM parameters appended (`{platform}` filled in),
 * then each distinct link shortened once. A shortener failure never fails anything: that link
 * stays long and says why in its `warning`.
 */
export async function trackLinks(
  texts: readonly string[],
  platform: string,
  tracking: LinkTracking,
): Promise<{ texts: string[]; links: TrackedLink[] }> {
  const found = texts.map((text) => findLinks(text));
  const byUrl = new Map<string, TrackedLink>();
  for (const link of found.flat()) {
    if (byUrl.has(link.url)) continue;
    const longUrl = appendUtm(link.url, tracking.utm, platform);
    byUrl.set(link.url, { url: link.url, longUrl, postedUrl: longUrl });
  }
  if (tracking.shorten) {
    const shorten = tracking.shorten;
    await Promise.all(
      [...byUrl.values()].map(async (link) => {
        try {
          const shortUrl = await shorten(link.longUrl, link.url);
          link.shortUrl = shortUrl;
          link.postedUrl = shortUrl;
        } catch (error) {
          link.warning = shortenerWarning(error);
        }
      }),
    );
  }
  return {
    texts: texts.map((text, i) => replaceLinks(text, found[i]!, (url) => byUrl.get(url)?.postedUrl ?? url)),
    links: [...byUrl.values()],
  };
}

function shortenerWarning(error: unknown): { code: string; message: string } {
  const why = error instanceof ShortenerError ? error.message : 'The shortener failed';
  return { code: 'link_not_shortened', message: `${why}; the link was posted in full.` };
}
