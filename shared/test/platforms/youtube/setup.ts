import { silentLogger } from '../../../src/logger.ts';
import type { MediaFile } from '../../../src/media/media-file.ts';
import type { PlatformAccount, PublishContext } from '../../../src/platforms/types.ts';
import { youTubeConfigFromEnv } from '../../../src/platforms/youtube/config.ts';
import { createYouTubePublisher } from '../../../src/platforms/youtube/index.ts';
import { type FakeYouTube, type FakeYouTubeOptions, startFakeYouTube } from '../../fakes/youtube.ts';
import { useFixture } from '../../support/fixture.ts';
import { memoryMedia, patternBytes } from '../memory-media.ts';

export const chunkBytes = 256 * 1024;
/** Four full chunks and a short last one. */
export const videoSize = 4 * chunkBytes + 12_345;

export function youTubePublisher(fake: FakeYouTube) {
  return createYouTubePublisher({
    ...youTubeConfigFromEnv({ ...fake.env(), YOUTUBE_UPLOAD_CHUNK_BYTES: String(chunkBytes) }),
    resume: { attempts: 4, baseDelayMs: 1, maxDelayMs: 5 },
  });
}

export function youTubeAccount(fake: FakeYouTube, credentials = fake.credentials()): PlatformAccount {
  return { id: 'yt1', platform: 'youtube', platformAccountId: fake.channel?.id ?? 'UCnone', credentials };
}

export function sampleVideo(size = videoSize) {
  const bytes = patternBytes(size, 3);
  return { bytes, file: memoryMedia(bytes, { filename: 'clip.mp4', contentType: 'video/mp4' }) };
}

/** Minimal PNG / JPEG signatures: enough for YouTube's (and the fake's) type check. */
export function pngBytes(size = 1024): Uint8Array<ArrayBuffer> {
  const bytes = patternBytes(size, 5);
  bytes.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return bytes;
}

export function ownMediaResolver(files: MediaFile[]) {
  return async (url: string) => files.find((f) => f.url === url) ?? null;
}

export function publishContext(overrides: Partial<PublishContext> = {}): PublishContext {
  return {
    signal: AbortSignal.timeout(20_000),
    idempotencyKey: `post-${Math.random()}:yt1`,
    logger: silentLogger,
    ...overrides,
  };
}

/** A test file's (or suite's) fake YouTube and publisher, with injected failures and the request log cleared before each test. */
export function youTubeFixture(options: FakeYouTubeOptions = {}) {
  return useFixture(
    async () => {
      const fake = await startFakeYouTube(options);
      return { fake, publisher: youTubePublisher(fake) };
    },
    {
      stop: (fx) => fx.fake.close(),
      reset: (fx) => {
        fx.fake.server.clearInjected();
        fx.fake.server.requests.length = 0;
      },
    },
  );
}
