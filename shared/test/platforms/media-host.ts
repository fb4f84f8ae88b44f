import { mediaKindOf } from '../../src/media/kinds.ts';
import { FakeServer } from '../fakes/fake-server.ts';
import { type MemoryMediaFile, memoryMedia } from './memory-media.ts';

/**
 * Serves test media over HTTP on 127.0.0.1, for platforms that fetch media from its public URL
 * (Facebook, Instagram): `file()` gives a MediaFile whose `url` the fake platform can fetch.
 */
export class MediaHost {
  readonly server = new FakeServer();
  readonly #files = new Map<string, { bytes: Uint8Array<ArrayBuffer>; contentType: string }>();

  constructor() {
    this.server.route('GET', /^\/media\/([^/]+)$/, (_request, match) => {
      const file = this.#files.get(match[1]!);
      if (!file) return { status: 404, text: 'not found' };
      return { status: 200, headers: { 'content-type': file.contentType }, bytes: file.bytes };
    });
  }

  async start(): Promise<this> {
    await this.server.start();
    return this;
  }

  file(bytes: Uint8Array<ArrayBuffer>, filename: string, contentType: string): MemoryMediaFile {
    const key = `${this.#files.size}-${filename}`;
    this.#files.set(key, { bytes, contentType });
    const file = memoryMedia(bytes, { filename, contentType, key, url: `${this.server.url}/media/${key}` });
    return { ...file, kind: mediaKindOf(contentType) };
  }

  close(): Promise<void> {
    return this.server.close();
  }
}
