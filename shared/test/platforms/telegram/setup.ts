import { silentLogger } from '../../../src/logger.ts';
import { TelegramPublisher } from '../../../src/platforms/telegram/publisher.ts';
import type { PlatformAccount, PublishContext } from '../../../src/platforms/types.ts';
import { type FakeTelegram, startFakeTelegram } from '../../fakes/telegram.ts';
import { useFixture } from '../../support/fixture.ts';

export const botToken = '123456:AAH-test_token';
export const otherToken = '987654:BBB-other_token';

/** A fake with a public channel, a private group, a forum and chats the bot can no longer post to. */
export function startTelegram(
  limits: { maxPhotoBytes?: number; maxFileBytes?: number } = {},
): Promise<FakeTelegram> {
  return startFakeTelegram({
    bots: { [botToken]: { username: 'postwave_bot', firstName: 'Postwave' } },
    chats: {
      '@news': { id: -1001234567890, type: 'channel', title: 'News', username: 'news' },
      '-1009876543210': { id: -1009876543210, type: 'supergroup', title: 'Team' },
      '@forum': { id: -1005555555555, type: 'supergroup', title: 'Forum', username: 'forum', topics: [7] },
      '@gone': { id: -1001111111111, type: 'channel', title: 'Gone', username: 'gone', botStatus: 'kicked' },
      '@left': { id: -1002222222222, type: 'channel', title: 'Left', username: 'left', botStatus: 'left' },
      '@readonly': {
        id: -1003333333333,
        type: 'channel',
        title: 'Read only',
        username: 'readonly',
        botStatus: 'member',
      },
      '42': { id: 42, type: 'private', firstName: 'Ada', username: 'ada' },
      '43': { id: 43, type: 'private', firstName: 'Bo', botStatus: 'kicked' },
    },
    ...limits,
  });
}

export function account(chat: string, overrides: Partial<PlatformAccount> = {}): PlatformAccount {
  return {
    id: `tg-${chat}`,
    platform: 'telegram',
    platformAccountId: chat,
    credentials: { botToken },
    ...overrides,
  };
}

export function context(signal: AbortSignal = AbortSignal.timeout(10_000)): PublishContext {
  return { signal, idempotencyKey: 'test', logger: silentLogger };
}

/** A test file's (or suite's) fake Bot API and publisher, with the sent messages cleared before each test. */
export function telegramFixture() {
  return useFixture(
    async () => {
      const tg = await startTelegram();
      return { tg, publisher: new TelegramPublisher({ apiUrl: tg.url }) };
    },
    {
      stop: (fx) => fx.tg.close(),
      reset: (fx) => {
        fx.tg.sent.length = 0;
      },
    },
  );
}
