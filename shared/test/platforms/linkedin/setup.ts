import { linkedInModule } from '../../../src/platforms/linkedin/index.ts';
import type { PlatformAccount, PublishContext } from '../../../src/platforms/types.ts';
import { type FakeLinkedIn, startFakeLinkedIn } from '../../fakes/linkedin.ts';
import { useFixture } from '../../support/fixture.ts';
import { testPublishContext } from '../../support/platform-testing.ts';

export const context = (overrides: Partial<PublishContext> = {}) => testPublishContext('li1', overrides);

function memberAccount(fake: FakeLinkedIn): PlatformAccount {
  return {
    id: 'li1',
    platform: 'linkedin',
    platformAccountId: fake.memberUrn,
    credentials: fake.credentials(),
  };
}

/** A suite's fake LinkedIn (64 KiB video parts), publisher and member account. */
export function linkedInFixture() {
  return useFixture(
    async () => {
      const fake = await startFakeLinkedIn({ videoPartBytes: 64 * 1024, videoProcessingPolls: 2 });
      return { fake, publisher: linkedInModule.create(fake.env()), member: memberAccount(fake) };
    },
    {
      stop: (fx) => fx.fake.close(),
      reset: (fx) => {
        fx.fake.server.clearInjected();
        fx.member = memberAccount(fx.fake);
      },
    },
  );
}
