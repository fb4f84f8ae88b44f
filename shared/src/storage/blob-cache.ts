import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * Temp files behind S3 blobs. A file-backed Blob reads its file lazily (and any slice of it
 * too), so a file can only go once nobody can still be sending it: it is kept for a TTL after
 * its last request, and one download serves every target of a post.
 */
export class BlobCache {
  readonly #ttlMs: number;
  readonly #download: (key: string, path: string) => Promise<void>;
  readonly #entries = new Map<string, { path: Promise<string>; timer: NodeJS.Timeout | undefined }>();
  #directory: Promise<string> | undefined;

  constructor(ttlMs: number, download: (key: string, path: string) => Promise<void>) {
    this.#ttlMs = ttlMs;
    this.#download = download;
  }

  file(key: string, etag: string): Promise<string> {
    const id = `${key}\n${etag}`;
    let entry = this.#entries.get(id);
    if (!entry) {
      const path = this.#fetch(key).catch((error: unknown) => {
        this.#entries.delete(id);
        throw error;
      });
      entry = { path, timer: undefined };
      this.#entries.set(id, entry);
    }
    clearTimeout(entry.timer);
    const current = entry;
    current.timer = setTimeout(() => {
      this.#entries.delete(id);
      void current.path.then((path) => rm(path, { force: true })).catch(() => {});
    }, this.#ttlMs);
    current.timer.unref();
    return current.path;
  }

  async clear(): Promise<void> {
    for (const entry of this.#entries.values()) clearTimeout(entry.timer);
    this.#entries.clear();
    const directory = await this.#directory?.catch(() => undefined);
    if (directory) await rm(directory, { recursive: true, force: true });
    this.#directory = undefined;
  }

  async #fetch(key: string): Promise<string> {
    this.#directory ??= mkdtemp(join(tmpdir(), 'postwave-s3-blobs-')).then((directory) => {
      // Nothing in here outlives the process.
      process.once('exit', () => rmSync(directory, { recursive: true, force: true }));
      return directory;
    });
    const path = join(await this.#directory, `${randomBytes(12).toString('hex')}-${key}`);
    try {
      await this.#download(key, path);
    } catch (error) {
      await rm(path, { force: true });
      throw error;
    }
    return path;
  }
}
