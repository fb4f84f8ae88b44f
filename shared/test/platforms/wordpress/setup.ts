import type { PlatformAccount, PublishContext } from '../../../src/platforms/types.ts';
import { WordPressPublisher } from '../../../src/platforms/wordpress/index.ts';
import { samplePng } from '../../fakes/sample-media.ts';
import { type FakeWordPress, type FakeWordPressOptions, startFakeWordPress } from '../../fakes/wordpress.ts';
import { useFixture } from '../../support/fixture.ts';
import { testPublishContext } from '../../support/platform-testing.ts';
import { memoryMedia } from '../memory-media.ts';

export { fastRetries, rejection } from '../../support/platform-testing.ts';

export const password = 'abcd EFGH 1234 ijkl MNOP 5678';

export function startWordPress(options: Partial<FakeWordPressOptions> = {}): Promise<FakeWordPress> {
  return startFakeWordPress({
    siteName: 'Alice &amp; Co',
    users: [
      { username: 'alice', name: 'Alice', role: 'author', applicationPasswords: [password] },
      { username: 'eve', role: 'editor', applicationPasswords: ['eeee eeee eeee eeee eeee eeee'] },
      { username: 'carl', role: 'contributor', applicationPasswords: ['cccc cccc cccc cccc cccc cccc'] },
      { username: 'sam', role: 'subscriber', applicationPasswords: ['ssss ssss ssss ssss ssss ssss'] },
    ],
    ...options,
  });
}

export function account(
  fake: FakeWordPress,
  username = 'alice',
  applicationPassword = password,
): PlatformAccount {
  return {
    id: 'wp-1',
    platform: 'wordpress',
    platformAccountId: fake.url,
    credentials: fake.credentials(username, applicationPassword),
  };
}

export const context = (overrides: Partial<PublishContext> = {}) => testPublishContext('wp-1', overrides);

export const png = (name = 'dot.png', altText?: string) => ({
  ...memoryMedia(new Uint8Array(samplePng()), { filename: name, contentType: 'image/png' }),
  ...(altText ? { altText } : {}),
});

/** A test file's fake site and publisher; posts, media, terms and requests cleared before each test. */
export function wordpressFixture(options: Partial<FakeWordPressOptions> = {}) {
  return useFixture(
    async () => ({ fake: await startWordPress(options), publisher: new WordPressPublisher() }),
    {
      stop: (fx) => fx.fake.close(),
      reset: (fx) => {
        fx.fake.server.clearInjected();
        fx.fake.server.requests.length = 0;
        fx.fake.posts.length = 0;
        fx.fake.media.length = 0;
        fx.fake.terms.splice(1);
        fx.publisher = new WordPressPublisher();
      },
    },
  );
}
