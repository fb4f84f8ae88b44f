import { matrixConfigFromEnv } from '../../../src/platforms/matrix/config.ts';
import { MatrixPublisher } from '../../../src/platforms/matrix/index.ts';
import type { PlatformAccount, PublishContext } from '../../../src/platforms/types.ts';
import { type FakeMatrix, type FakeMatrixRoom, startFakeMatrix } from '../../fakes/matrix.ts';
import { useFixture } from '../../support/fixture.ts';
import { testPublishContext } from '../../support/platform-testing.ts';

export const context = (extra: Partial<PublishContext> = {}): PublishContext =>
  testPublishContext('m1', extra, 10_000);

export interface MatrixFixture {
  fake: FakeMatrix;
  publisher: MatrixPublisher;
  room: FakeMatrixRoom;
  bot: { userId: string; accessToken: string };
  account: PlatformAccount;
}

/** A homeserver with a room the bot has joined, a fresh publisher per file, events cleared before each test. */
export function matrixFixture() {
  return useFixture<MatrixFixture>(
    async () => {
      const fake = await startFakeMatrix({ maxUploadBytes: 64 * 1024 });
      const room = fake.addRoom({
        name: 'Announcements',
        alias: `#news:${fake.serverName}`,
        localpart: 'news',
      });
      const bot = fake.addUser('postwave', [room.id]);
      const account = {
        id: 'm1',
        platform: 'matrix',
        platformAccountId: room.id,
        credentials: fake.credentials(bot.accessToken),
      };
      return { fake, publisher: new MatrixPublisher(matrixConfigFromEnv({})), room, bot, account };
    },
    {
      stop: (fx) => fx.fake.close(),
      reset: (fx) => {
        fx.fake.server.clearInjected();
        fx.fake.events.length = 0;
        fx.fake.uploads.length = 0;
        fx.fake.server.requests.length = 0;
      },
    },
  );
}
