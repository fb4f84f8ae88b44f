import { silentLogger } from '../../../src/logger.ts';
import { defaultMastodonConfig, MastodonPublisher } from '../../../src/platforms/mastodon/index.ts';
import type { PlatformAccount, PublishContext } from '../../../src/platforms/types.ts';
import { type FakeMastodon, type FakeMastodonOptions, startFakeMastodon } from '../../fakes/mastodon.ts';
import { useFixture } from '../../support/fixture.ts';

export { fastRetries, rejection } from '../../support/platform-testing.ts';

export const token = 'mastodon-token-alice';
export const readOnlyToken = 'mastodon-token-readonly';
export const disabledToken = 'mastodon-token-disabled';

export function startMastodon(options: Partial<FakeMastodonOptions> = {}): Promise<FakeMastodon> {
  return startFakeMastodon({
    tokens: {
      [token]: {
        id: '109',
        username: 'alice',
        displayName: 'Alice',
        avatar: 'https://files.example/alice.png',
      },
      [readOnlyToken]: { username: 'reader', scopes: ['read'] },
      [disabledToken]: { username: 'banned', disabled: true },
    },
    processingPolls: 2,
    ...options,
  });
}

/** Fast polling so processing waits stay in milliseconds. */
export function publisherFor(overrides: Partial<typeof defaultMastodonConfig> = {}): MastodonPublisher {
  return new MastodonPublisher({ ...defaultMastodonConfig, mediaPollIntervalMs: 5, ...overrides });
}

export function account(fake: { url: string }, accessToken = token): PlatformAccount {
  return {
    id: 'masto-1',
    platform: 'mastodon',
    platformAccountId: '109',
    credentials: { instanceUrl: fake.url, accessToken },
  };
}

let contexts = 0;
/** A fresh idempotency key per call unless given: the fake, like Mastodon, remembers keys for an hour. */
export function context(idempotencyKey = `post-${++contexts}:masto-1`): PublishContext {
  return { signal: AbortSignal.timeout(10_000), idempotencyKey, logger: silentLogger };
}

/** A test file's fake Mastodon server and publisher, with statuses and requests cleared before each test. */
export function mastodonFixture(options: Partial<FakeMastodonOptions> = {}) {
  return useFixture(async () => ({ fake: await startMastodon(options), publisher: publisherFor() }), {
    stop: (fx) => fx.fake.close(),
    reset: (fx) => {
      fx.fake.server.clearInjected();
      fx.fake.server.requests.length = 0;
      fx.fake.statuses.length = 0;
      fx.publisher = publisherFor();
    },
  });
}
