import { silentLogger } from '../../../src/logger.ts';
import type { MediaFile } from '../../../src/media/media-file.ts';
import { type TikTokConfig, tiktokConfigFromEnv } from '../../../src/platforms/tiktok/config.ts';
import { createTikTokPublisher } from '../../../src/platforms/tiktok/index.ts';
import type { PlatformAccount, PublishContext } from '../../../src/platforms/types.ts';
import { sampleJpeg, sampleMp4 } from '../../fakes/sample-media.ts';
import { type FakeTikTok, type FakeTikTokOptions, startFakeTikTok } from '../../fakes/tiktok.ts';
import { useFixture } from '../../support/fixture.ts';
import { MediaHost } from '../media-host.ts';

export function tiktokTestConfig(fake: FakeTikTok, env: Record<string, string> = {}): TikTokConfig {
  return { ...tiktokConfigFromEnv({ ...fake.env(), ...env }), pollMinMs: 5, pollMaxMs: 20 };
}

export function tiktokAccount(
  fake: FakeTikTok,
  credentials: Record<string, unknown> = fake.credentials(),
): PlatformAccount {
  return { id: 'tt1', platform: 'tiktok', platformAccountId: fake.creator.openId, credentials };
}

export function context(overrides: Partial<PublishContext> = {}): PublishContext {
  return {
    signal: AbortSignal.timeout(20_000),
    idempotencyKey: `post-${Math.random()}:tt1`,
    logger: silentLogger,
    ...overrides,
  };
}

export interface TikTokFixture {
  fake: FakeTikTok;
  host: MediaHost;
  config: TikTokConfig;
  publisher: ReturnType<typeof createTikTokPublisher>;
  jpeg(name?: string): MediaFile;
  mp4(name?: string): MediaFile;
}

/** One test file's fake TikTok, media host (TikTok pulls photos by URL) and publisher. */
export function tiktokFixture(options: FakeTikTokOptions = {}): TikTokFixture {
  return useFixture(
    async () => {
      const fake = await startFakeTikTok(options);
      const host = await new MediaHost().start();
      const config = tiktokTestConfig(fake);
      return {
        fake,
        host,
        config,
        publisher: createTikTokPublisher(config),
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
        fx.fake.nextFailReason = undefined;
        fx.fake.audited = options.audited ?? false;
      },
    },
  );
}
