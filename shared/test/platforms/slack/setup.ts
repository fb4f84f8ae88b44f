import { slackConfigFromEnv } from '../../../src/platforms/slack/config.ts';
import { createSlackPublisher } from '../../../src/platforms/slack/index.ts';
import type { PlatformAccount, PublishContext } from '../../../src/platforms/types.ts';
import { type FakeSlack, startFakeSlack } from '../../fakes/slack.ts';
import { useFixture } from '../../support/fixture.ts';
import { testPublishContext } from '../../support/platform-testing.ts';

export const context = (extra: Partial<PublishContext> = {}): PublishContext =>
  testPublishContext('s1', extra, 10_000);

export function channelAccount(fake: FakeSlack, channel = 'C0GENERAL1', scopes?: string[]): PlatformAccount {
  return {
    id: 's1',
    platform: 'slack',
    platformAccountId: channel,
    credentials: fake.credentials(scopes ? { scopes } : {}),
  };
}

/** A test file's fake Slack, publisher and #general account, with messages and requests cleared before each test. */
export function slackFixture() {
  return useFixture(
    async () => {
      const fake = await startFakeSlack();
      const config = slackConfigFromEnv(fake.env());
      return { fake, config, publisher: createSlackPublisher(config), account: channelAccount(fake) };
    },
    {
      stop: (fx) => fx.fake.close(),
      reset: (fx) => {
        fx.fake.server.clearInjected();
        fx.fake.messages.length = 0;
        fx.fake.server.requests.length = 0;
        fx.fake.installs.tokenRotation = false;
        fx.account = channelAccount(fx.fake);
      },
    },
  );
}
