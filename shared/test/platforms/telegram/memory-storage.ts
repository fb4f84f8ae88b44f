import { Readable } from 'node:stream';
import type { PresignedUpload, Storage, StoredObject } from '../../../src/storage/types.ts';

/**
 * Just enough Storage for publishing tests: objects are put directly with `add`, and read back
 * the way a publisher reads them. Upload paths are tested with the real storages.
 */
export class MemoryStorage implements Storage {
  readonly kind = 'local' as const;
  readonly #objects = new Map<string, { object: StoredObject; bytes: Buffer }>();

  add(key: string, contentType: string, bytes: Buffer): StoredObject {
    const object = { key, size: bytes.length, contentType, lastModified: new Date(), etag: `"${key}"` };
    this.#objects.set(key, { object, bytes });
    return object;
  }

  async put(): Promise<StoredObject> {
    throw new Error('MemoryStorage: use add()');
  }

  async head(key: string): Promise<StoredObject | null> {
    return this.#objects.get(key)?.object ?? null;
  }

  async read(key: string, range?: { start: number; end: number }): Promise<Readable> {
    const bytes = this.#bytes(key);
    return Readable.from(range ? bytes.subarray(range.start, range.end + 1) : bytes);
  }

  async blob(key: string): Promise<Blob> {
    const entry = this.#objects.get(key);
    if (!entry) throw new Error(`MemoryStorage: no object ${key}`);
    return new Blob([new Uint8Array(entry.bytes)], { type: entry.object.contentType });
  }

  async delete(key: string): Promise<void> {
    this.#objects.delete(key);
  }

  publicUrl(key: string): string {
    return `http://127.0.0.1:1/media/${key}`;
  }

  async presignPut(): Promise<PresignedUpload> {
    throw new Error('MemoryStorage cannot presign');
  }

  async check(): Promise<void> {}

  #bytes(key: string): Buffer {
    const entry = this.#objects.get(key);
    if (!entry) throw new Error(`MemoryStorage: no object ${key}`);
    return entry.bytes;
  }
}
