import { silentLogger } from '../../../src/logger.ts';
import type { MediaFile } from '../../../src/media/media-file.ts';
import { type PinterestConfig, pinterestConfigFromEnv } from '../../../src/platforms/pinterest/config.ts';
import { createPinterestPublisher } from '../../../src/platforms/pinterest/index.ts';
import type { PlatformAccount, PublishContext } from '../../../src/platforms/types.ts';
import { type FakePinterest, type FakePinterestOptions, startFakePinterest } from '../../fakes/pinterest.ts';
import { sampleJpeg, sampleMp4, samplePng } from '../../fakes/sample-media.ts';
import { useFixture } from '../../support/fixture.ts';
import { MediaHost } from '../media-host.ts';

export function pinterestTestConfig(fake: FakePinterest): PinterestConfig {
  return { ...pinterestConfigFromEnv(fake.env()), pollMinMs: 5, pollMaxMs: 20 };
}

export function pinterestAccount(
  fake: FakePinterest,
  credentials: Record<string, unknown> = fake.credentials(),
  board = fake.boards[0]!.id,
): PlatformAccount {
  return { id: `pin-${board}`, platform: 'pinterest', platformAccountId: board, credentials };
}

export function context(overrides: Partial<PublishContext> = {}): PublishContext {
  return {
    signal: AbortSignal.timeout(20_000),
    idempotencyKey: `post-${Math.random()}:pin`,
    logger: silentLogger,
    ...overrides,
  };
}

export interface PinterestFixture {
  fake: FakePinterest;
  host: MediaHost;
  config: PinterestConfig;
  publisher: ReturnType<typeof createPinterestPublisher>;
  png(name?: string, altText?: string): MediaFile;
  jpeg(name?: string): MediaFile;
  mp4(name?: string): MediaFile;
}

/** One test file's fake Pinterest, media host (Pinterest fetches images by URL) and publisher. */
export function pinterestFixture(options: FakePinterestOptions = {}): PinterestFixture {
  return useFixture(
    async () => {
      const fake = await startFakePinterest(options);
      const host = await new MediaHost().start();
      const config = pinterestTestConfig(fake);
      return {
        fake,
        host,
        config,
        publisher: createPinterestPublisher(config),
        png: (name = 'p.png', altText?: string) => ({
          ...host.file(new Uint8Array(samplePng()), name, 'image/png'),
          ...(altText ? { altText } : {}),
        }),
        jpeg: (name = 'p.jpg') => host.file(new Uint8Array(sampleJpeg()), name, 'image/jpeg'),
        mp4: (name = 'v.mp4') => host.file(new Uint8Array(sampleMp4()), name, 'video/mp4'),
      };
    },
    {
      stop: async (fx) => {
        await fx.fake.close();
        await fx.host.close();
      },
      reset: (fx) => {
        fx.fake.server.clearInjected();
        fx.fake.server.requests.length = 0;
      },
    },
  );
}
