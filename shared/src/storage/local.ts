import { randomBytes } from 'node:crypto';
import { type BigIntStats, createWriteStream, openAsBlob } from 'node:fs';
import { link, mkdir, open, readdir, readFile, rename, rm, stat, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { limitedCopy } from './byte-limit.ts';
import { assertValidMediaKey } from './keys.ts';
import { uploadGrantQuery } from './signed-url.ts';
import { sniffBytes, sniffContentType } from './sniff.ts';
import {
  type ByteRange,
  type PresignedUpload,
  type PresignOptions,
  type PutOptions,
  type Storage,
  StorageError,
  type StoredObject,
} from './types.ts';

export interface LocalStorageOptions {
  /** Where media files live, flat, named by key. Created if missing. */
  directory: string;
  /** The server's public base URL; media is served at `${publicBaseUrl}/media/${key}`. */
  publicBaseUrl: string;
  /** Secret for self-signed upload URLs (HMAC-SHA256). */
  signingSecret: string;
}

/** What we remember about a file beside it: the type sniffed when it was stored. */
interface Sidecar {
  contentType: string;
  /** Random per stored version, part of the ETag (absent for files placed by hand). */
  version?: string;
}

/**
 * How much of an upload may wait in memory for the disk. With the default 16 KiB every chunk from
 * the network waits for the previous write to finish, so parsing and disk writes take turns; with
 * a few MiB they overlap (and queued chunks go out in one writev). Per upload in progress.
 */
const writeBufferBytes = 2 * 1024 * 1024;

// Both live inside `directory` (so renames stay on one filesystem) under names that start with a
// dot, which no media key can: temp files and sidecars can never be served as media.
const tempDirectoryName = '.tmp';
const metaDirectoryName = '.meta';
/** Temp files older than this are leftovers of a crash, swept at start. */
const staleTempMs = 24 * 60 * 60 * 1000;

/**
 * Media on local disk. Writes stream to a temp file and become visible by an atomic hard link (so
 * a key is written once: a second put fails with `already_exists`); a failed write leaves nothing.
 */
export class LocalStorage implements Storage {
  readonly kind = 'local' as const;
  readonly directory: string;
  readonly #publicBaseUrl: string;
  readonly #signingSecret: string;
  #ready: Promise<void> | undefined;

  constructor(options: LocalStorageOptions) {
    if (!options.signingSecret) throw new Error('LocalStorage needs a signingSecret for upload URLs');
    this.directory = options.directory;
    this.#publicBaseUrl = options.publicBaseUrl.replace(/\/+$/, '');
    this.#signingSecret = options.signingSecret;
  }

  /** The secret upload URLs are signed with (for `receiveSignedUpload`). */
  get signingSecret(): string {
    return this.#signingSecret;
  }

  async put(key: string, body: Readable, options: PutOptions): Promise<StoredObject> {
    assertValidMediaKey(key);
    await this.#prepare();
    const finalPath = this.#path(key);
    const tempPath = join(
      this.directory,
      tempDirectoryName,
      `${Date.now()}-${randomBytes(12).toString('hex')}`,
    );
    const limit = limitedCopy(body, {
      maxBytes: options.maxBytes,
      expectedSize: options.expectedSize,
      ...(options.onChunk ? { onChunk: options.onChunk } : {}),
    });
    try {
      // `flush` fsyncs before close, so a published file survives a power cut.
      await pipeline(
        limit,
        createWriteStream(tempPath, { flags: 'wx', flush: true, highWaterMark: writeBufferBytes }),
      );
    } catch (error) {
      await rm(tempPath, { force: true });
      throw error;
    }
    try {
      await this.#publish(tempPath, finalPath, key);
    } finally {
      await rm(tempPath, { force: true });
    }
    const sidecar: Sidecar = {
      contentType: options.contentType,
      version: randomBytes(6).toString('base64url'),
    };
    try {
      await this.#writeSidecar(key, sidecar);
    } catch (error) {
      await this.delete(key);
      throw error;
    }
    const stats = await stat(finalPath, { bigint: true });
    return {
      key,
      size: Number(stats.size),
      contentType: sidecar.contentType,
      lastModified: stats.mtime,
      etag: fileEtag(stats, sidecar),
    };
  }

  async head(key: string): Promise<StoredObject | null> {
    assertValidMediaKey(key);
    const stats = await stat(this.#path(key), { bigint: true }).catch(notFoundAsNull);
    if (!stats?.isFile()) return null;
    const sidecar = (await this.#readSidecar(key)) ?? (await this.#sidecarFromFile(key, Number(stats.size)));
    if (!sidecar) return null;
    return {
      key,
      size: Number(stats.size),
      contentType: sidecar.contentType,
      lastModified: stats.mtime,
      etag: fileEtag(stats, sidecar),
    };
  }

  async read(key: string, range?: ByteRange): Promise<Readable> {
    assertValidMediaKey(key);
    const file = await open(this.#path(key), 'r').catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') throw new StorageError('not_found', 'No media with this key');
      throw error;
    });
    return file.createReadStream(range ? { start: range.start, end: range.end } : {});
  }

  async blob(key: string): Promise<Blob> {
    const object = await this.head(key);
    if (!object) throw new StorageError('not_found', 'No media with this key');
    // File-backed: bytes are read from disk as they are sent, never held in memory whole.
    return openAsBlob(this.#path(key), { type: object.contentType });
  }

  async delete(key: string): Promise<void> {
    assertValidMediaKey(key);
    await unlink(this.#path(key)).catch(notFoundAsNull);
    await unlink(this.#sidecarPath(key)).catch(notFoundAsNull);
  }

  publicUrl(key: string): string {
    return `${this.#publicBaseUrl}/media/${encodeURIComponent(key)}`;
  }

  async presignPut(key: string, options: PresignOptions): Promise<PresignedUpload> {
    assertValidMediaKey(key);
    const signedAt = options.signedAt ?? new Date();
    const expires = Math.floor(signedAt.getTime() / 1000) + options.expiresInSeconds;
    const query = uploadGrantQuery(this.#signingSecret, {
      key,
      contentType: options.contentType,
      size: options.size,
      expires,
    });
    return {
      url: `${this.publicUrl(key)}?${query}`,
      method: 'PUT',
      headers: { 'Content-Type': options.contentType },
      expiresAt: new Date(expires * 1000),
    };
  }

  /**
   * Readiness: a file is really written and removed where uploads are written. Permission bits
   * alone say nothing for root, and a directory replaced by a file passes `access`.
   */
  async check(): Promise<void> {
    await this.#prepare();
    const probe = join(this.directory, tempDirectoryName, `ready-${randomBytes(8).toString('hex')}`);
    try {
      await writeFile(probe, '');
      await unlink(probe);
    } catch (error) {
      this.#ready = undefined;
      throw unusable(error);
    }
  }

  #path(key: string): string {
    return join(this.directory, key);
  }

  #sidecarPath(key: string): string {
    return join(this.directory, metaDirectoryName, `${key}.json`);
  }

  #prepare(): Promise<void> {
    this.#ready ??= (async () => {
      await mkdir(join(this.directory, tempDirectoryName), { recursive: true });
      await mkdir(join(this.directory, metaDirectoryName), { recursive: true });
      await this.#sweepStaleTempFiles();
    })().catch((error: unknown) => {
      this.#ready = undefined;
      throw unusable(error);
    });
    return this.#ready;
  }

  async #sweepStaleTempFiles(): Promise<void> {
    const tempDirectory = join(this.directory, tempDirectoryName);
    const cutoff = Date.now() - staleTempMs;
    for (const name of await readdir(tempDirectory)) {
      const path = join(tempDirectory, name);
      const stats = await stat(path).catch(notFoundAsNull);
      if (stats && stats.mtimeMs < cutoff) await rm(path, { force: true });
    }
  }

  /** Makes the finished temp file visible under its key, refusing to replace an existing one. */
  async #publish(tempPath: string, finalPath: string, key: string): Promise<void> {
    try {
      await link(tempPath, finalPath);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'EEXIST') throw new StorageError('already_exists', `Media ${key} already exists`);
      if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EOPNOTSUPP') throw error;
      // Filesystems without hard links: rename is still atomic; the existence check is best effort.
      if (await stat(finalPath).catch(notFoundAsNull)) {
        throw new StorageError('already_exists', `Media ${key} already exists`);
      }
      await rename(tempPath, finalPath);
    }
  }

  async #writeSidecar(key: string, sidecar: Sidecar): Promise<void> {
    const tempPath = join(
      this.directory,
      tempDirectoryName,
      `${Date.now()}-${randomBytes(12).toString('hex')}`,
    );
    await writeFile(tempPath, JSON.stringify(sidecar), { flag: 'wx' });
    await rename(tempPath, this.#sidecarPath(key));
  }

  async #readSidecar(key: string): Promise<Sidecar | undefined> {
    const text = await readFile(this.#sidecarPath(key), 'utf8').catch(notFoundAsNull);
    if (text === null) return undefined;
    try {
      // Sidecars written by earlier versions hold a content-hash `etag` (no longer used), no version.
      const parsed = JSON.parse(text) as Partial<Sidecar>;
      if (typeof parsed.contentType === 'string') {
        return {
          contentType: parsed.contentType,
          ...(typeof parsed.version === 'string' ? { version: parsed.version } : {}),
        };
      }
    } catch {
      // A damaged sidecar is rebuilt from the file below.
    }
    return undefined;
  }

  /**
   * For a file without a sidecar (one placed by hand, or the instant between publishing a file and
   * writing its sidecar): sniff the type.
   */
  async #sidecarFromFile(key: string, size: number): Promise<Sidecar | undefined> {
    const file = await open(this.#path(key), 'r').catch(notFoundAsNull);
    if (!file) return undefined;
    try {
      const head = Buffer.alloc(Math.min(sniffBytes, size));
      await file.read(head, 0, head.length, 0);
      const contentType = await sniffContentType(head);
      if (!contentType) return undefined;
      return { contentType };
    } finally {
      await file.close();
    }
  }
}

/**
 * A strong validator without reading the content (hashing every byte cost more CPU than the rest
 * of an upload): the random version stored with each put, plus inode, size and modification time.
 * A key's file is written once, so this changes when the file is stored again or swapped by hand,
 * and it survives restarts.
 */
function fileEtag(stats: BigIntStats, sidecar: Sidecar): string {
  const file = `${stats.ino.toString(36)}-${stats.size.toString(36)}-${stats.mtimeNs.toString(36)}`;
  return sidecar.version ? `${sidecar.version}-${file}` : file;
}

function notFoundAsNull(error: NodeJS.ErrnoException): null {
  if (error.code === 'ENOENT') return null;
  throw error;
}

/** The directory's path stays in the cause (logged), out of the message an API answer may carry. */
function unusable(cause: unknown): StorageError {
  return new StorageError('unavailable', 'The media directory is not usable', { cause });
}
