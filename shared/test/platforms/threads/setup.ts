import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { silentLogger } from '../../../src/logger.ts';
import type { MediaFile } from '../../../src/media/media-file.ts';
import { threadsConfigFromEnv } from '../../../src/platforms/threads/config.ts';
import { createThreadsPublisher } from '../../../src/platforms/threads/index.ts';
import type { PlatformAccount, PublishContext } from '../../../src/platforms/types.ts';
import { sampleJpeg, sampleMp4, samplePng } from '../../fakes/sample-media.ts';
import type { FakeThreads } from '../../fakes/threads.ts';
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

/** Serves media on 127.0.0.1 the way our /media route does, so the fake can download it. */
export class MediaHost {
  readonly #server: Server;
  readonly #files = new Map<string, { type: string; bytes: Buffer }>();
  url = '';

  constructor() {
    this.#server = createServer((req, res) => {
      const file = this.#files.get(req.url ?? '');
      if (!file) {
        res.writeHead(404).end();
        return;
      }
      res.writeHead(200, { 'content-type': file.type, 'content-length': file.bytes.length }).end(file.bytes);
    });
  }

  async start(): Promise<this> {
    await new Promise<void>((resolve) => this.#server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.#server.address() as AddressInfo).port}`;
    return this;
  }

  close(): Promise<void> {
    this.#server.closeAllConnections();
    return new Promise((resolve) => this.#server.close(() => resolve()));
  }

  add(name: string, type: string, bytes: Buffer): MediaFile {
    this.#files.set(`/media/${name}`, { type, bytes });
    return memoryMedia(new Uint8Array(bytes), {
      filename: name,
      contentType: type,
      key: name,
      url: `${this.url}/media/${name}`,
    });
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
      url: `${this.url}/media/gone-${name}`,
    });
  }
}
