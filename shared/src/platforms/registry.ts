import { blueskyModule } from './bluesky/index.ts';
import { devtoModule } from './devto/index.ts';
import { discordModule } from './discord/index.ts';
import { dribbbleModule } from './dribbble/index.ts';
import { facebookModule } from './facebook/index.ts';
import { farcasterModule } from './farcaster/index.ts';
import { ghostModule } from './ghost/index.ts';
import { googleBusinessModule } from './google_business/index.ts';
import { googleChatModule } from './google_chat/index.ts';
import { hashnodeModule } from './hashnode/index.ts';
import { instagramModule } from './instagram/index.ts';
import { lemmyModule } from './lemmy/index.ts';
import { linkedInModule } from './linkedin/index.ts';
import { listmonkModule } from './listmonk/index.ts';
import type { OptionField, PlatformFeatures, TextRules } from './manifest.ts';
import { manifestFor } from './manifests.ts';
import { mastodonModule } from './mastodon/index.ts';
import { matrixModule } from './matrix/index.ts';
import { mediumModule } from './medium/index.ts';
import { misskeyModule } from './misskey/index.ts';
import { nostrModule } from './nostr/index.ts';
import { pinterestModule } from './pinterest/index.ts';
import { pixelfedModule } from './pixelfed/index.ts';
import { redditModule } from './reddit/index.ts';
import { slackModule } from './slack/index.ts';
import { teamsModule } from './teams/index.ts';
import { telegramModule } from './telegram/index.ts';
import { threadsModule } from './threads/index.ts';
import { tiktokModule } from './tiktok/index.ts';
import { tumblrModule } from './tumblr/index.ts';
import { twitchModule } from './twitch/index.ts';
import type { AnyPublisher, Env, PlatformModule } from './types.ts';
import { vkModule } from './vk/index.ts';
import { wordpressModule } from './wordpress/index.ts';
import { xModule } from './x/index.ts';
import { youTubeModule } from './youtube/index.ts';

export type { Env, PlatformModule } from './types.ts';

/**
 * Every supported platform. Adding a platform means adding its folder and one line here.
 */
export const platformModules: readonly PlatformModule[] = [
  telegramModule,
  discordModule,
  blueskyModule,
  mastodonModule,
  youTubeModule,
  xModule,
  threadsModule,
  linkedInModule,
  facebookModule,
  instagramModule,
  nostrModule,
  misskeyModule,
  pixelfedModule,
  lemmyModule,
  slackModule,
  matrixModule,
  teamsModule,
  googleChatModule,
  wordpressModule,
  devtoModule,
  ghostModule,
  tiktokModule,
  pinterestModule,
  mediumModule,
  hashnodeModule,
  listmonkModule,
  dribbbleModule,
  tumblrModule,
  farcasterModule,
  vkModule,
  twitchModule,
  redditModule,
  googleBusinessModule,
];

/** What the posting service needs from a platform's manifest besides its publisher. */
export interface PlatformTraits {
  features: PlatformFeatures;
  text?: TextRules;
  /** The option fields (their `showWhen`, `required` and `choicesFrom` take part in validation). */
  options?: readonly OptionField[];
}

/** A platform that declares nothing: no threads, no first comment, no alt text. */
const noFeatures: PlatformFeatures = { thread: false, firstComment: false, altText: null };

export class PublisherRegistry {
  readonly #publishers: Map<string, AnyPublisher>;
  readonly #traits: Map<string, PlatformTraits>;

  /**
   * `traits` by platform id; a platform missing there takes its built-in manifest's (so a test
   * may register a real publisher alone), and one without a manifest declares no features.
   */
  constructor(publishers: Iterable<AnyPublisher>, traits: Iterable<[string, PlatformTraits]> = []) {
    this.#publishers = new Map([...publishers].map((p) => [p.id, p]));
    this.#traits = new Map(traits);
  }

  /** Publishers for every registered platform, configured from `env` (base URLs, limits). */
  static fromEnv(env: Env, modules: readonly PlatformModule[] = platformModules): PublisherRegistry {
    return new PublisherRegistry(
      modules.map((m) => m.create(env)),
      modules.map((m) => [
        m.id,
        { features: m.manifest.features, text: m.manifest.text, options: m.manifest.options },
      ]),
    );
  }

  get(platform: string): AnyPublisher | undefined {
    return this.#publishers.get(platform);
  }

  /** The platform's features and text rules, as its manifest declares them. */
  traits(platform: string): PlatformTraits {
    const own = this.#traits.get(platform);
    if (own) return own;
    const manifest = manifestFor(platform);
    return manifest
      ? { features: manifest.features, text: manifest.text, options: manifest.options }
      : { features: noFeatures };
  }

  list(): AnyPublisher[] {
    return [...this.#publishers.values()];
  }

  ids(): string[] {
    return [...this.#publishers.keys()];
  }
}
