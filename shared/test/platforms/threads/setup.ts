import { silentLogger } from '../../../src/logger.ts';
import type { MediaFile } from '../../../src/media/media-file.ts';
import { threadsConfigFromEnv } from '../../../src/platforms/threads/config.ts';
import { createThreadsPublisher } from '../../../src/platforms/threads/index.ts';
import type { PlatformAccount, PublishContext } from '../../../src/platforms/types.ts';
import { sampleJpeg, sampleMp4, samplePng } from '../../fakes/sample-media.ts';
import { type FakeThreads, type FakeThreadsOptions, startFakeThreads } from '../../fakes/threads.ts';
import { useFixture } from '../../support/fixture.ts';
import { MediaHost as SharedMediaHost } from '../media-host.ts';
import { memoryMedia } from '../memory-media.ts';

export function threadsTestConfig(fake: FakeThreads) {
  return { ...threadsConfigFromEnv(fake.env()), pollMinMs: 5, pollMaxMs: 20 };
}

export function threadsPublisher(fake: FakeThreads) {
  return createThreadsPublisher(threadsTestConfig(fake));
}

export function threadsAccount(
  fake: FakeThreads,
  credentials: Record<string, unknown> = fake.credentials(),
): PlatformAccount {
  return { id: 'th1', platform: 'threads', platformAccountId: fake.user.id, credentials };
}

export function publishContext(overrides: Partial<PublishContext> = {}): PublishContext {
  return {
    signal: AbortSignal.timeout(20_000),
    idempotencyKey: `post-${Math.random()}:th1`,
    logger: silentLogger,
    ...overrides,
  };
}

/** The shared media host with the files the Threads tests post; Threads downloads them by URL. */
export class MediaHost extends SharedMediaHost {
  /** Bytes served under `name`, with the stored name as its key. */
  add(name: string, type: string, bytes: Buffer): MediaFile {
    return this.file(new Uint8Array(bytes), name, type);
  }

  png(name = 'a.png') {
    return this.add(name, 'image/png', samplePng());
  }
  jpeg(name = 'b.jpg') {
    return this.add(name, 'image/jpeg', sampleJpeg());
  }
  mp4(name = 'c.mp4') {
    return this.add(name, 'video/mp4', sampleMp4());
  }
  /** A file the host does not serve: the platform cannot download it. */
  missing(name: string, type: string) {
    return memoryMedia(new Uint8Array(4), {
      filename: name,
      contentType: type,
      key: name,
      url: `${this.server.url}/media/gone-${name}`,
    });
  }
}

export interface ThreadsFixture {
  fake: FakeThreads;
  host: MediaHost;
  publisher: ReturnType<typeof threadsPublisher>;
}

/**
 * One test file's fake Threads, media host and publisher: started before its tests, closed after,
 * with injected failures, the request log and the spent quota reset before each test.
 */
export function threadsFixture(options: FakeThreadsOptions = {}): ThreadsFixture {
  return useFixture(
    async () => {
      const fake = await startFakeThreads(options);
      return { fake, host: await new MediaHost().start(), publisher: threadsPublisher(fake) };
    },
    {
      stop: async (fx) => {
        await fx.fake.close();
        await fx.host.close();
      },
      reset: (fx) => {
        fx.fake.server.clearInjected();
        fx.fake.server.requests.length = 0;
        fx.fake.extraQuotaUsage = 0;
      },
    },
  );
}
