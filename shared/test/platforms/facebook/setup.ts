import { facebookModule } from '../../../src/platforms/facebook/index.ts';
import type { PlatformAccount } from '../../../src/platforms/types.ts';
import { type FakeFacebook, startFakeFacebook } from '../../fakes/facebook.ts';
import { useFixture } from '../../support/fixture.ts';
import { testPublishContext } from '../../support/platform-testing.ts';
import { MediaHost } from '../media-host.ts';

export const context = () => testPublishContext('fb1');

function pageAccount(fake: FakeFacebook): PlatformAccount {
  return {
    id: 'fb1',
    platform: 'facebook',
    platformAccountId: fake.pages[0]!.id,
    credentials: { pageAccessToken: fake.pageToken() },
  };
}

/**
 * A suite's fake Graph API, media host (Facebook fetches photos by URL), publisher and Page
 * account; videos over 100 KiB go up in 64 KiB chunks so the resumable path runs on small files.
 */
export function facebookFixture() {
  return useFixture(
    async () => {
      const fake = await startFakeFacebook({ videoChunkBytes: 64 * 1024 });
      return {
        fake,
        host: await new MediaHost().start(),
        publisher: facebookModule.create({
          ...fake.env(),
          FACEBOOK_RESUMABLE_VIDEO_BYTES: String(100 * 1024),
        }),
        page: pageAccount(fake),
      };
    },
    {
      stop: async (fx) => {
        await fx.fake.close();
        await fx.host.close();
      },
      reset: (fx) => {
        fx.fake.server.clearInjected();
        fx.page = pageAccount(fx.fake);
      },
    },
  );
}
