import { silentLogger } from '../../../src/logger.ts';
import type { PlatformAccount, PublishContext } from '../../../src/platforms/types.ts';
import { xConfigFromEnv } from '../../../src/platforms/x/config.ts';
import { createXPublisher } from '../../../src/platforms/x/index.ts';
import { sampleGif, sampleJpeg, sampleMp4, samplePng } from '../../fakes/sample-media.ts';
import type { FakeX } from '../../fakes/x.ts';
import { memoryMedia } from '../memory-media.ts';

/** X's settings against the fake, with polling fast enough for tests. */
export function xTestConfig(fake: FakeX, env: Record<string, string> = {}) {
  return { ...xConfigFromEnv({ ...fake.env(), ...env }), pollMinMs: 5, pollMaxMs: 20 };
}

export function xPublisher(fake: FakeX, env: Record<string, string> = {}) {
  return createXPublisher(xTestConfig(fake, env));
}

export function xAccount(
  fake: FakeX,
  credentials: Record<string, unknown> = fake.credentials(),
): PlatformAccount {
  return {
    id: 'x1',
    platform: 'x',
    platformAccountId: fake.user.id,
    username: fake.user.username,
    credentials,
  };
}

export function publishContext(overrides: Partial<PublishContext> = {}): PublishContext {
  return {
    signal: AbortSignal.timeout(20_000),
    idempotencyKey: `post-${Math.random()}:x1`,
    logger: silentLogger,
    ...overrides,
  };
}

const bytes = (buffer: Buffer) => new Uint8Array(buffer);

export const media = {
  png: (name = 'a.png') => memoryMedia(bytes(samplePng()), { filename: name, contentType: 'image/png' }),
  jpeg: (name = 'b.jpg') => memoryMedia(bytes(sampleJpeg()), { filename: name, contentType: 'image/jpeg' }),
  gif: () => memoryMedia(bytes(sampleGif()), { filename: 'c.gif', contentType: 'image/gif' }),
  mp4: (size?: number) => {
    const sample = sampleMp4();
    const padded = size ? Buffer.concat([sample, Buffer.alloc(size - sample.length, 7)]) : sample;
    return memoryMedia(bytes(padded), { filename: 'd.mp4', contentType: 'video/mp4' });
  },
};
