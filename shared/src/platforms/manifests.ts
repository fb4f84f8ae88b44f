import { blueskyManifest } from './bluesky/manifest.ts';
import { devtoManifest } from './devto/manifest.ts';
import { discordManifest } from './discord/manifest.ts';
import { dribbbleManifest } from './dribbble/manifest.ts';
import { facebookManifest } from './facebook/manifest.ts';
import { farcasterManifest } from './farcaster/manifest.ts';
import { ghostManifest } from './ghost/manifest.ts';
import { googleBusinessManifest } from './google_business/manifest.ts';
import { googleChatManifest } from './google_chat/manifest.ts';
import { hashnodeManifest } from './hashnode/manifest.ts';
import { instagramManifest } from './instagram/manifest.ts';
import { lemmyManifest } from './lemmy/manifest.ts';
import { linkedInManifest } from './linkedin/manifest.ts';
import { listmonkManifest } from './listmonk/manifest.ts';
import type { PlatformManifest } from './manifest.ts';
import { mastodonManifest } from './mastodon/manifest.ts';
import { matrixManifest } from './matrix/manifest.ts';
import { mediumManifest } from './medium/manifest.ts';
import { misskeyManifest } from './misskey/manifest.ts';
import { nostrManifest } from './nostr/manifest.ts';
import { pinterestManifest } from './pinterest/manifest.ts';
import { pixelfedManifest } from './pixelfed/manifest.ts';
import { redditManifest } from './reddit/manifest.ts';
import { slackManifest } from './slack/manifest.ts';
import { teamsManifest } from './teams/manifest.ts';
import { telegramManifest } from './telegram/manifest.ts';
import { threadsManifest } from './threads/manifest.ts';
import { tiktokManifest } from './tiktok/manifest.ts';
import { tumblrManifest } from './tumblr/manifest.ts';
import { twitchManifest } from './twitch/manifest.ts';
import { vkManifest } from './vk/manifest.ts';
import { wordpressManifest } from './wordpress/manifest.ts';
import { xManifest } from './x/manifest.ts';
import { youTubeManifest } from './youtube/manifest.ts';

export type { PlatformManifest } from './manifest.ts';

/**
 * Every platform's browser-safe manifest, in the registry's order (a test holds the two lists
 * together). Browsers import this module, never `registry.ts`, so no publisher code reaches a
 * client bundle.
 */
export const platformManifests: readonly PlatformManifest[] = [
  telegramManifest,
  discordManifest,
  blueskyManifest,
  mastodonManifest,
  youTubeManifest,
  xManifest,
  threadsManifest,
  linkedInManifest,
  facebookManifest,
  instagramManifest,
  nostrManifest,
  misskeyManifest,
  pixelfedManifest,
  lemmyManifest,
  slackManifest,
  matrixManifest,
  teamsManifest,
  googleChatManifest,
  wordpressManifest,
  devtoManifest,
  ghostManifest,
  tiktokManifest,
  pinterestManifest,
  mediumManifest,
  hashnodeManifest,
  listmonkManifest,
  dribbbleManifest,
  tumblrManifest,
  farcasterManifest,
  vkManifest,
  twitchManifest,
  redditManifest,
  googleBusinessManifest,
];

const byId = new Map(platformManifests.map((manifest) => [manifest.id, manifest]));

/** The manifest of a platform id, or undefined for a platform this build does not know. */
export function manifestFor(platform: string): PlatformManifest | undefined {
  return byId.get(platform);
}
