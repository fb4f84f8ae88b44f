import { discordConfigFromEnv } from '../../../src/platforms/discord/config.ts';
import { createDiscordPublisher } from '../../../src/platforms/discord/index.ts';
import type { PlatformAccount, PublishContext } from '../../../src/platforms/types.ts';
import { type FakeDiscord, startFakeDiscord } from '../../fakes/discord.ts';
import { useFixture } from '../../support/fixture.ts';
import { testPublishContext } from '../../support/platform-testing.ts';

/** A small per-file limit, so the size checks run on small test files. */
export const maxFileBytes = 64 * 1024;

export const context = (extra: Partial<PublishContext> = {}): PublishContext =>
  testPublishContext('d1', { idempotencyKey: 'post-1:d1', ...extra }, 10_000);

function webhookAccount(fake: FakeDiscord): PlatformAccount {
  return {
    id: 'd1',
    platform: 'discord',
    platformAccountId: fake.webhook.channelId,
    credentials: { webhookUrl: fake.webhookUrl() },
  };
}

/** A test file's fake Discord, publisher and webhook account, with messages and requests cleared before each test. */
export function discordFixture() {
  return useFixture(
    async () => {
      const fake = await startFakeDiscord({ maxFileBytes });
      const publisher = createDiscordPublisher(
        discordConfigFromEnv({ ...fake.env(), DISCORD_MAX_FILE_BYTES: String(maxFileBytes) }),
      );
      return { fake, publisher, account: webhookAccount(fake) };
    },
    {
      stop: (fx) => fx.fake.close(),
      reset: (fx) => {
        fx.fake.server.clearInjected();
        fx.fake.messages.length = 0;
        fx.fake.server.requests.length = 0;
        fx.account = webhookAccount(fx.fake);
      },
    },
  );
}
