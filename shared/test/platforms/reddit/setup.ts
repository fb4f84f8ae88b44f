import { redditConfigFromEnv } from '../../../src/platforms/reddit/config.ts';
import { createRedditPublisher } from '../../../src/platforms/reddit/index.ts';
import type { PlatformAccount, PublishContext } from '../../../src/platforms/types.ts';
import { type FakeReddit, startFakeReddit } from '../../fakes/reddit.ts';
import { useFixture } from '../../support/fixture.ts';
import { testPublishContext } from '../../support/platform-testing.ts';

export const context = (extra: Partial<PublishContext> = {}): PublishContext =>
  testPublishContext('r1', extra, 10_000);

export function subredditAccount(
  fake: FakeReddit,
  subreddit = 'postwave',
  credentials: Record<string, unknown> = fake.credentials(),
): PlatformAccount {
  return { id: 'r1', platform: 'reddit', platformAccountId: subreddit, credentials };
}

/** A test file's fake Reddit, publisher and r/postwave account; posts and requests cleared before each test. */
export function redditFixture(env: Record<string, string> = {}) {
  return useFixture(
    async () => {
      const fake = await startFakeReddit();
      const config = redditConfigFromEnv({ ...fake.env(), ...env });
      return { fake, config, publisher: createRedditPublisher(config), account: subredditAccount(fake) };
    },
    {
      stop: (fx) => fx.fake.close(),
      reset: (fx) => {
        fx.fake.server.clearInjected();
        fx.fake.posts.length = 0;
        fx.fake.server.requests.length = 0;
        fx.fake.submitErrors.length = 0;
        fx.fake.assets.clear();
        fx.fake.setRateWindow(1000, 600);
        // A new publisher per test: rule caches and rate windows start empty.
        fx.publisher = createRedditPublisher(fx.config);
        fx.account = subredditAccount(fx.fake);
      },
    },
  );
}
