import { silentLogger } from '../../../src/logger.ts';
import { blueskyConfigFromEnv } from '../../../src/platforms/bluesky/config.ts';
import { BlueskyPublisher } from '../../../src/platforms/bluesky/index.ts';
import type { PlatformAccount, PublishContext } from '../../../src/platforms/types.ts';
import { type FakeBluesky, startFakeBluesky } from '../../fakes/bluesky.ts';
import { useFixture } from '../../support/fixture.ts';

export { fastRetries, rejection } from '../../support/platform-testing.ts';

export const alice = { handle: 'alice.test', did: 'did:plc:alice123', appPassword: 'abcd-efgh-ijkl-mnop' };
export const bob = { handle: 'bob.test', did: 'did:plc:bob456', appPassword: 'bob-pass' };
export const gone = {
  handle: 'gone.test',
  did: 'did:plc:gone789',
  appPassword: 'gone-pass',
  takendown: true,
};

export function startBluesky(): Promise<FakeBluesky> {
  return startFakeBluesky({
    accounts: [{ ...alice, displayName: 'Alice', avatar: 'https://cdn.example/alice.jpg' }, bob, gone],
    knownHandles: { 'carol.example.com': 'did:plc:carol' },
  });
}

export function publisherFor(fake: FakeBluesky): BlueskyPublisher {
  return new BlueskyPublisher(blueskyConfigFromEnv({ BLUESKY_SERVICE_URL: fake.url }));
}

export function account(
  user: { handle: string; appPassword: string } = alice,
  overrides: Partial<PlatformAccount> = {},
): PlatformAccount {
  return {
    id: `bsky-${user.handle}`,
    platform: 'bluesky',
    platformAccountId: user.handle,
    credentials: { identifier: user.handle, appPassword: user.appPassword },
    ...overrides,
  };
}

let contexts = 0;
export function context(idempotencyKey = `post-${++contexts}`): PublishContext {
  return { signal: AbortSignal.timeout(10_000), idempotencyKey, logger: silentLogger };
}

/** A test file's fake PDS and publisher; a new publisher per test, because sessions are cached per publisher. */
export function blueskyFixture() {
  return useFixture(
    async () => {
      const fake = await startBluesky();
      return { fake, publisher: publisherFor(fake) };
    },
    {
      stop: (fx) => fx.fake.close(),
      reset: (fx) => {
        fx.fake.server.clearInjected();
        fx.fake.server.requests.length = 0;
        fx.fake.records.length = 0;
        fx.publisher = publisherFor(fx.fake);
      },
    },
  );
}
