import { createShortener, type PublishHooks, type Shortener } from '@postwave/shared';
import type { AppContext } from '#server/context.ts';
import {
  findLinkSettings,
  keepShortLink,
  type LinkSettingsRow,
  linksOfTarget,
  recordTargetLinks,
} from './repository.ts';
import { shortenerKeyAad } from './view.ts';

/** The workspace's shortener client, through the SSRF-safe fetch (its host is user-chosen). */
export function shortenerOf(ctx: AppContext, settings: LinkSettingsRow | undefined): Shortener | undefined {
  if (!settings?.provider || !settings.apiUrl || !settings.apiKey) return undefined;
  return createShortener(
    {
      provider: settings.provider,
      apiUrl: settings.apiUrl,
      apiKey: ctx.cipher.decrypt(settings.apiKey, shortenerKeyAad(settings.workspaceId)),
      ...(settings.domain ? { domain: settings.domain } : {}),
    },
    { fetch: ctx.userUrlFetch },
  );
}

/**
 * The publish hooks that track a post's links (docs/links.md): UTM parameters from the workspace's
 * settings, and each link shortened once per target. A short link is kept per post, account and
 * link before it is posted, so a retry or a second dispatch of the target posts the same one.
 */
export async function linkTrackingHooks(
  ctx: AppContext,
  post: { id: string; workspaceId: string },
  /** Where the workspace's settings come from (a dispatch run reads each workspace's once). */
  settingsOf: (workspaceId: string) => Promise<LinkSettingsRow | undefined> = (id) =>
    findLinkSettings(ctx, id),
): Promise<Pick<PublishHooks, 'linkTracking' | 'onLinksTracked'>> {
  const settings = await settingsOf(post.workspaceId);
  if (!settings?.utm && !settings?.provider) return {};
  let shortener: Shortener | undefined;
  try {
    shortener = shortenerOf(ctx, settings);
  } catch (error) {
    // A key that no longer decrypts (rotated credentials key): links are not shortened, posts go on.
    ctx.logger.warn({ err: error, workspaceId: post.workspaceId }, 'the shortener key cannot be read');
  }
  return {
    linkTracking: async (account) => {
      const earlier = new Map(
        (await linksOfTarget(ctx, post.id, account.id)).filter((l) => l.shortUrl).map((l) => [l.url, l]),
      );
      return {
        ...(settings.utm ? { utm: settings.utm } : {}),
        ...(shortener
          ? {
              shorten: async (longUrl: string, url: string) => {
                const kept = earlier.get(url)?.shortUrl;
                if (kept) return kept;
                const made = await shortener.shorten(longUrl);
                return keepShortLink(ctx, {
                  postId: post.id,
                  accountId: account.id,
                  url,
                  longUrl,
                  shortUrl: made.shortUrl,
                  provider: shortener.provider,
                  ref: made.ref,
                });
              },
            }
          : {}),
      };
    },
    onLinksTracked: (accountId, links) =>
      recordTargetLinks(
        ctx,
        links.map((l) => ({
          postId: post.id,
          accountId,
          url: l.url,
          longUrl: l.longUrl,
          warning: l.warning ?? null,
        })),
      ),
  };
}
