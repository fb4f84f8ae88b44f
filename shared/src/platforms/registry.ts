import { blueskyModule } from './bluesky/index.ts';
import { discordModule } from './discord/index.ts';
import { facebookModule } from './facebook/index.ts';
import { instagramModule } from './instagram/index.ts';
import { linkedInModule } from './linkedin/index.ts';
import { mastodonModule } from './mastodon/index.ts';
import { telegramModule } from './telegram/index.ts';
import { threadsModule } from './threads/index.ts';
import type { AnyPublisher, Env, PlatformModule } from './types.ts';
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
];

export class PublisherRegistry {
  readonly #publishers: Map<string, AnyPublisher>;

  constructor(publishers: Iterable<AnyPublisher>) {
    this.#publishers = new Map([...publishers].map((p) => [p.id, p]));
  }

  /** Publishers for every registered platform, configured from `env` (base URLs, limits). */
  static fromEnv(env: Env, modules: readonly PlatformModule[] = platformModules): PublisherRegistry {
    return new PublisherRegistry(modules.map((m) => m.create(env)));
  }

  get(platform: string): AnyPublisher | undefined {
    return this.#publishers.get(platform);
  }

  list(): AnyPublisher[] {
    return [...this.#publishers.values()];
  }

  ids(): string[] {
    return [...this.#publishers.keys()];
  }
}
