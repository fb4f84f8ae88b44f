import { instagramModule } from '../../../src/platforms/instagram/index.ts';
import type { PlatformAccount, PublishContext } from '../../../src/platforms/types.ts';
import { type FakeInstagram, startFakeInstagram } from '../../fakes/instagram.ts';
import { useFixture } from '../../support/fixture.ts';
import { testPublishContext } from '../../support/platform-testing.ts';
import { MediaHost } from '../media-host.ts';

export const context = (overrides: Partial<PublishContext> = {}) => testPublishContext('ig1', overrides);

function professionalAccount(fake: FakeInstagram): PlatformAccount {
  return {
    id: 'ig1',
    platform: 'instagram',
    platformAccountId: fake.account.id,
    credentials: fake.credentials(),
  };
}

/** A suite's fake Instagram, media host (Instagram fetches media by URL), publisher and account. */
export function instagramFixture() {
  return useFixture(
    async () => {
      const fake = await startFakeInstagram();
      return {
        fake,
        host: await new MediaHost().start(),
        publisher: instagramModule.create(fake.env()),
        account: professionalAccount(fake),
      };
    },
    {
      stop: async (fx) => {
        await fx.fake.close();
        await fx.host.close();
      },
      reset: (fx) => {
        fx.fake.server.clearInjected();
        fx.fake.quotaUsage = 0;
        fx.account = professionalAccount(fx.fake);
      },
    },
  );
}
